// The store's change tracking (simulator/tracker.ts): whatever a transaction does to a record
// collection, the operations it journals, replayed on the collection as it was, give the collection
// it left — and cost what changed (a removal journals places, not the records that moved up).
import { describe, expect, it } from 'vitest';
import type { World } from '../simulator/core/world.js';
import { applyOps, removeWhere, Tracker, type Op } from '../simulator/store/tracker.js';

interface Rec {
  id: string;
  n: number;
}
const recs = (n: number): Rec[] => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, n: i }));
/** A data object with one record collection (contacts) and one whole value (meta). */
const dataOf = (n: number) => ({ contacts: recs(n), meta: { next_seq: 1 } }) as unknown as World;
const coll = (d: World) => (d as unknown as { contacts: Rec[] }).contacts;
/** Record collections and key fields, as the store's schema gives them. */
const SHAPE = { recordUnits: new Set(['contacts', 'timers']), keyFields: new Set(['id']) };

/** What a transaction does to the view of a 10-record collection. */
const CASES: [string, (c: Rec[]) => void, (ops: Op[]) => void][] = [
  [
    'push',
    (c) => c.push({ id: 'new', n: 99 }),
    (ops) => expect(ops).toEqual([['push', 'contacts', [{ id: 'new', n: 99 }]]]),
  ],
  [
    'a field of one record',
    (c) => void (c[3].n = 33),
    (ops) => expect(ops).toEqual([['put', 'contacts', 3, { id: 'r3', n: 33 }]]),
  ],
  ['pop', (c) => void c.pop(), (ops) => expect(ops).toEqual([['trunc', 'contacts', 9]])],
  [
    'a swap with the last, then pop (the scheduler removing a row)',
    (c) => {
      c[2] = c[9];
      c.pop();
    },
    (ops) =>
      expect(ops).toEqual([
        ['trunc', 'contacts', 9],
        ['put', 'contacts', 2, { id: 'r9', n: 9 }],
      ]),
  ],
  [
    'removeWhere of two records',
    (c) => void removeWhere(c, (r) => r.n === 1 || r.n === 7),
    (ops) => expect(ops).toEqual([['del', 'contacts', [1, 7]]]),
  ],
  [
    'push, then remove an older record',
    (c) => {
      c.push({ id: 'new', n: 99 });
      removeWhere(c, (r) => r.n === 0);
    },
    (ops) =>
      expect(ops).toEqual([
        ['del', 'contacts', [0]],
        ['push', 'contacts', [{ id: 'new', n: 99 }]],
      ]),
  ],
  [
    'push, then remove the record just pushed',
    (c) => {
      c.push({ id: 'new', n: 99 });
      removeWhere(c, (r) => r.id === 'new');
    },
    (ops) => expect(ops).toEqual([]),
  ],
  [
    'a change, then a removal before it (its place moves)',
    (c) => {
      c[5].n = 55;
      removeWhere(c, (r) => r.n === 1);
    },
    (ops) =>
      expect(ops).toEqual([
        ['del', 'contacts', [1]],
        ['put', 'contacts', 4, { id: 'r5', n: 55 }],
      ]),
  ],
  ['splice from the middle (every later record moves)', (c) => void c.splice(4, 2), () => undefined],
  ['sort', (c) => void c.sort((a, b) => b.n - a.n), () => undefined],
  ['unshift', (c) => void c.unshift({ id: 'first', n: -1 }), () => undefined],
  [
    'pop twice, then push',
    (c) => {
      c.pop();
      c.pop();
      c.push({ id: 'new', n: 99 });
    },
    (ops) =>
      expect(ops).toEqual([
        ['trunc', 'contacts', 9],
        ['trunc', 'contacts', 8],
        ['push', 'contacts', [{ id: 'new', n: 99 }]],
      ]),
  ],
  ['reverse', (c) => void c.reverse(), () => undefined],
];

describe('a transaction on a record collection journals operations that replay to the collection it left', () => {
  it.each(CASES)('%s', (_what, act, check) => {
    const data = dataOf(10);
    const t = new Tracker(data, SHAPE);
    t.begin();
    act(coll(t.view));
    const ops = t.take();
    check(ops);
    const replayed = dataOf(10);
    applyOps(replayed, structuredClone(ops));
    expect(coll(replayed)).toEqual(coll(data));
  });

  it('a rollback puts back what each of them did', () => {
    for (const [, act] of CASES) {
      const data = dataOf(10);
      const t = new Tracker(data, SHAPE);
      t.begin();
      act(coll(t.view));
      t.undo();
      expect(coll(data)).toEqual(recs(10));
    }
  });

  it('a removal costs what it removed, however long the collection: two records out of 20,000 journal two places', () => {
    const t = new Tracker(dataOf(20_000), SHAPE);
    t.begin();
    removeWhere(coll(t.view), (r) => r.n === 10 || r.n === 15_000);
    expect(JSON.stringify(t.take()).length).toBeLessThan(40);
  });

  it('a change to one collection leaves the epoch of another: what is built over contacts is not built again when timers move', () => {
    const data = { ...dataOf(3), timers: [{ id: 't1' }, { id: 't2' }] } as unknown as World;
    const t = new Tracker(data, SHAPE);
    const before = t.epochOf(['contacts']);
    t.begin();
    const timers = (t.view as unknown as { timers: object[] }).timers;
    timers[0] = timers[1];
    timers.pop();
    t.take();
    expect(t.epochOf(['contacts'])).toBe(before);
    expect(t.epochOf(['timers'])).toBeGreaterThan(0);
  });
});

describe('random transactions (a property test)', () => {
  /** A small seeded generator (mulberry32): the same cases on every run. */
  const rngOf = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let made = 0;
  /** Each thing code does to a collection of the data (a record is never placed at two places at once). */
  const ACTS: ((c: Rec[], r: () => number) => void)[] = [
    (c) => void c.push({ id: `n${made++}`, n: made }),
    (c) => void c.pop(),
    (c, r) => {
      if (c.length < 2) return;
      const i = Math.floor(r() * (c.length - 1));
      c[i] = c[c.length - 1];
      c.pop();
    },
    (c, r) => c.length > 0 && void (c[Math.floor(r() * c.length)].n = Math.floor(r() * 1000)),
    (c, r) =>
      void c.splice(
        Math.floor(r() * (c.length + 1)),
        Math.floor(r() * 3),
        ...(r() < 0.5 ? [{ id: `s${made++}`, n: -made }] : []),
      ),
    (c) => void c.sort((a, b) => a.n - b.n),
    (c) => void c.reverse(),
    (c) => void c.shift(),
    (c) => void c.unshift({ id: `u${made++}`, n: made }),
    (c, r) => void removeWhere(c, () => r() < 0.2),
    (c, r) => void (c.length = Math.floor(r() * (c.length + 1))),
  ];

  it('every committed transaction replays to the collection in memory, every rollback restores it (2,000 sequences)', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rngOf(seed);
      const data = dataOf(8);
      const t = new Tracker(data, SHAPE);
      const replayed = dataOf(8);
      for (let tx = 0; tx < 4; tx++) {
        t.begin();
        const before = structuredClone(coll(data));
        const steps = 1 + Math.floor(r() * 6);
        for (let k = 0; k < steps; k++) ACTS[Math.floor(r() * ACTS.length)](coll(t.view), r);
        if (r() < 0.3) {
          t.undo();
          expect(coll(data), `seed ${seed}: rollback`).toEqual(before);
          continue;
        }
        applyOps(replayed, structuredClone(t.take()));
        expect(coll(replayed), `seed ${seed}: replay`).toEqual(coll(data));
      }
    }
  });
});
