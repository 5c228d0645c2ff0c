// The list envelope's cursors (spec Part 4 list conventions, Part 7 errors, Part 8 limits): newest
// first, order=asc oldest first; limit default 20; meta.cursor is opaque, absent on the last page,
// and walks the list without gaps or repeats even when newer items arrive meanwhile; a cursor is
// valid 24 hours (simulated clock) and an expired one is 400 validation_error naming cursor; a
// cursor that was altered, or that belongs to another list or other filters, is refused the same way.
import { describe, expect, it } from 'vitest';
import { seedRng } from './rng.js';
import { ApiError } from './errors.js';
import { CURSOR_TTL_MS, type PageQuery, paginate, paginateSorted } from './pagination.js';
import { Session } from './session.js';
import type { World } from './world.js';

const T0 = Date.UTC(2025, 0, 15, 12);

/** A session on a world holding only what pagination reads: its secret and a manual clock at `now`. */
function sessionAt(now: number, secret = 'unit-test-secret'): Session {
  const meta = { rng: seedRng(1), secret, clock: { mode: 'manual', offset_ms: 0, frozen_ms: now }, next_seq: 1 };
  return new Session({ meta } as unknown as World);
}

interface Item {
  id: string;
  at: number;
  seq: number;
}
/** `n` items, one a minute, every third sharing its minute with the one before (ties break on seq). */
const items = (n: number): Item[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `item-${i}`,
    at: T0 - 3600_000 + Math.floor(i - i / 3) * 60_000,
    seq: i,
  }));

const options = (scope = 'items') => ({
  key: (t: Item) => t.at,
  tie: (t: Item) => t.seq,
  scope,
  present: (t: Item) => t.id,
});

/** Every page from the query's (the first, or its cursor's), following meta.cursor; the ids of each page. */
function walk(s: Session, list: Item[], q: PageQuery = {}, scope = 'items'): string[][] {
  const pages: string[][] = [];
  let cursor = q.cursor;
  do {
    const page = paginate(s, list, { ...q, cursor }, options(scope));
    pages.push(page.data);
    cursor = page.meta.cursor;
  } while (cursor !== undefined && pages.length < 1000);
  return pages;
}

/** The fields of the 400 a query gets. */
function refused(s: Session, list: Item[], q: PageQuery, scope = 'items'): Record<string, string> {
  try {
    paginate(s, list, q, options(scope));
  } catch (e) {
    if (e instanceof ApiError && e.status === 400 && e.code === 'validation_error') return e.fields ?? {};
    throw e;
  }
  throw new Error('the query was accepted');
}

const newestFirst = (list: Item[]) => [...list].sort((a, b) => b.at - a.at || b.seq - a.seq).map((t) => t.id);

describe('pages: limit items a page, a cursor while more are left', () => {
  it.each([
    // items, limit, page sizes
    [0, undefined, [0]],
    [5, undefined, [5]],
    [20, undefined, [20]],
    [21, undefined, [20, 1]],
    [45, 10, [10, 10, 10, 10, 5]],
    [30, 10, [10, 10, 10]],
    [3, 1, [1, 1, 1]],
    [250, 100, [100, 100, 50]],
  ])('%i items, limit %s: pages of %o', (n, limit, sizes) => {
    const pages = walk(sessionAt(T0), items(n), { limit });
    expect(pages.map((p) => p.length)).toEqual(sizes);
  });

  it.each([undefined, 1, 7, 20, 100])('limit %s: page_size says the limit', (limit) => {
    const page = paginate(sessionAt(T0), items(3), { limit }, options());
    expect(page.meta.page_size).toBe(limit ?? 20);
  });

  it('a list may have its own default page size (calls: 50)', () => {
    const page = paginate(sessionAt(T0), items(60), {}, { ...options(), defaultLimit: 50 });
    expect([page.data.length, page.meta.page_size]).toEqual([50, 50]);
  });

  it.each([true, false])('total_results where the list gives it (%s)', (total) => {
    const page = paginate(sessionAt(T0), items(45), { limit: 10 }, { ...options(), totalResults: total });
    expect(page.meta.total_results).toBe(total ? 45 : undefined);
  });
});

describe('order: newest first by default, oldest first with asc; ties broken the same way', () => {
  it.each([
    // items, limit, order
    [45, 10, undefined],
    [45, 10, 'desc'],
    [45, 10, 'asc'],
    [7, 3, 'asc'],
    [7, 3, 'desc'],
    [1, 1, 'asc'],
  ] as const)('%i items by %i, order %s: every item once, in order', (n, limit, order) => {
    const list = items(n);
    const expected = order === 'asc' ? newestFirst(list).reverse() : newestFirst(list);
    expect(walk(sessionAt(T0), list, { limit, order }).flat()).toEqual(expected);
  });

  it('a list given out of order is sorted', () => {
    const list = items(12);
    const shuffled = [...list.slice(6), ...list.slice(0, 6).reverse()];
    expect(walk(sessionAt(T0), shuffled, { limit: 5 }).flat()).toEqual(newestFirst(list));
  });

  it.each(['asc', 'desc'] as const)('paginateSorted (an index, oldest first) pages alike, order %s', (order) => {
    const list = items(23);
    const s = sessionAt(T0);
    const sorted = [...list].sort((a, b) => a.at - b.at || a.seq - b.seq);
    const first = paginateSorted(s, sorted, { limit: 10, order }, options());
    const second = paginateSorted(s, sorted, { limit: 10, cursor: first.meta.cursor }, options());
    expect([...first.data, ...second.data]).toEqual(walk(s, list, { limit: 10, order }).flat().slice(0, 20));
  });
});

describe('a cursor is a place in the list, not an offset', () => {
  it.each([
    ['desc', 'newer items arrive: the next page goes on where it stopped'],
    ['asc', 'newer items arrive: they come at the end'],
  ] as const)('%s: %s', (order, _what) => {
    const s = sessionAt(T0);
    const list = items(30);
    const first = paginate(s, list, { limit: 10, order }, options());
    const grown = [...list, { id: 'new-1', at: T0, seq: 100 }, { id: 'new-2', at: T0, seq: 101 }];
    const rest = walk(s, grown, { limit: 10, order, cursor: first.meta.cursor });
    const all = [...first.data, ...rest.flat()];
    expect(all).toEqual(order === 'asc' ? newestFirst(grown).reverse() : newestFirst(list));
  });
});

describe('cursors last 24 hours on the simulated clock', () => {
  it.each([
    // time since the cursor was made, accepted
    [0, true],
    [3600_000, true],
    [CURSOR_TTL_MS - 1, true],
    [CURSOR_TTL_MS, true],
    [CURSOR_TTL_MS + 1, false],
    [7 * CURSOR_TTL_MS, false],
  ])('%i ms later: accepted %s', (later, accepted) => {
    const s = sessionAt(T0);
    const { cursor } = paginate(s, items(30), { limit: 10 }, options()).meta;
    s.now = T0 + later;
    if (accepted) expect(paginate(s, items(30), { limit: 10, cursor }, options()).data).toHaveLength(10);
    else
      expect(refused(s, items(30), { limit: 10, cursor })).toEqual({
        cursor: 'has expired (cursors are valid 24 hours); start again without a cursor',
      });
  });

  it('24 hours is a day', () => expect(CURSOR_TTL_MS).toBe(86_400_000));
});

/** A cursor of the second page of a 30-item list at T0, and what to make of it. */
function aCursor(): string {
  return paginate(sessionAt(T0), items(30), { limit: 10 }, options()).meta.cursor!;
}
const flip = (c: string, at: number) => c.slice(0, at) + (c[at] === 'A' ? 'B' : 'A') + c.slice(at + 1);
const NOT_OURS = 'is not a cursor this list returned';
const OTHER_LIST = 'belongs to another list or other filters; start again without a cursor';

describe('a cursor that was altered, or is another list’s, is refused', () => {
  it.each([
    ['a character of its payload changed', (c: string) => flip(c, 3), NOT_OURS],
    ['a character of its signature changed', (c: string) => flip(c, c.length - 2), NOT_OURS],
    ['its signature cut off', (c: string) => c.split('.')[0], NOT_OURS],
    ['its signature shortened', (c: string) => c.slice(0, -1), NOT_OURS],
    ['its payload gone', (c: string) => `.${c.split('.')[1]}`, NOT_OURS],
    [
      'a made-up payload, signed with nothing',
      () => `${Buffer.from('{"o":"desc","k":0}').toString('base64url')}.x`,
      NOT_OURS,
    ],
    ['empty', () => '', NOT_OURS],
    ['not a cursor at all', () => 'page=2', NOT_OURS],
  ])('%s', (_what, alter, why) => {
    expect(refused(sessionAt(T0), items(30), { cursor: alter(aCursor()) })).toEqual({ cursor: why });
  });

  it('a cursor of another data file (another secret) is refused', () => {
    expect(refused(sessionAt(T0, 'another-secret'), items(30), { cursor: aCursor() })).toEqual({ cursor: NOT_OURS });
  });

  it.each(['calls', 'items?status=ready', 'items '])(
    'a cursor of the list "items" used on "%s" is refused',
    (scope) => {
      expect(refused(sessionAt(T0), items(30), { cursor: aCursor() }, scope)).toEqual({ cursor: OTHER_LIST });
    },
  );

  it.each([
    ['desc', 'asc', { order: 'must match the order of the cursor' }],
    ['asc', 'desc', { order: 'must match the order of the cursor' }],
  ] as const)('a %s cursor with order=%s is refused', (made, used, fields) => {
    const s = sessionAt(T0);
    const { cursor } = paginate(s, items(30), { limit: 10, order: made }, options()).meta;
    expect(refused(s, items(30), { cursor, order: used })).toEqual(fields);
  });

  it.each(['asc', 'desc'] as const)('a %s cursor keeps its order when order is not sent again', (order) => {
    const s = sessionAt(T0);
    const first = paginate(s, items(30), { limit: 10, order }, options());
    const next = paginate(s, items(30), { limit: 10, cursor: first.meta.cursor }, options());
    expect(next.data).toEqual(walk(s, items(30), { limit: 10, order })[1]);
  });

  it('a cursor is opaque: no ids or times in plain sight', () => {
    const c = aCursor();
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(c).not.toContain('item-');
  });
});
