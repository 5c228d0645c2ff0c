// Transitions that fall due on the simulator clock: run in time order, each at its own due time,
// before the next request is answered, and by /_sim/clock/advance before it replies.
import { describe, expect, it } from 'vitest';
import { createApp } from '../simulator/world.js';
import type { Resource } from '../simulator/core/http.js';
import { cancelTimers, schedule } from '../simulator/core/scheduler.js';
import { Store } from '../simulator/world.js';
import { iso } from '../simulator/core/clock.js';
import * as z from 'zod/mini';
import { recordExchange } from './contract.js';
import { join } from 'node:path';
import { tempDir } from './helpers.js';

// A tiny resource for the test: POST schedules named events; GET lists what ran and when.
const ran: { name: string; at: string }[] = [];
const probe: Resource = {
  routes: [
    {
      method: 'POST',
      path: '/_test/schedule',
      summary: 'Schedule named events',
      responses: { 200: { description: 'Scheduled' } },
      body: z.strictObject({
        events: z.array(z.strictObject({ name: z.string(), in_seconds: z.number(), cancels: z.optional(z.string()) })),
      }),
      handler: (c) => {
        for (const e of c.body.events as { name: string; in_seconds: number; cancels?: string }[])
          schedule(
            c.s,
            c.s.now + e.in_seconds * 1000,
            'probe',
            e.cancels ? { name: e.name, cancels: e.cancels } : { name: e.name },
          );
        return { body: {} };
      },
    },
    {
      method: 'POST',
      path: '/_test/cancel',
      summary: 'Cancel named events',
      responses: { 200: { description: 'Cancelled' } },
      body: z.strictObject({ names: z.array(z.string()) }),
      handler: (c) => {
        const names = c.body.names as string[];
        cancelTimers(c.s, (type, p) => type === 'probe' && names.includes(String(p.name)));
        return { body: {} };
      },
    },
  ],
  timers: {
    probe: (s, p) => {
      ran.push({ name: String(p.name), at: iso(s.now) });
      // a transition may schedule the next one, or cancel a later one
      if (p.name === 'chain') schedule(s, s.now + 5000, 'probe', { name: 'chained' });
      if (typeof p.cancels === 'string') cancelTimers(s, (type, x) => type === 'probe' && x.name === p.cancels);
    },
  },
};

async function setup(file: string | null = null) {
  const app = createApp(new Store(file), [probe]);
  const call = await caller(app);
  await call('POST', '/_sim/reset', { clock: 'manual', now: '2026-01-05T09:00:00Z' });
  ran.length = 0;
  return { app, call };
}

/** Calls the app in-process; the simulator's own replies are checked against the API description. */
async function caller(app: ReturnType<typeof createApp>) {
  return async (method: string, url: string, body?: unknown) => {
    const r = await app.handle({
      method,
      url,
      headers: {},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!url.startsWith('/_test/'))
      recordExchange({
        method,
        url,
        status: r.status,
        contentType: r.headers['content-type'],
        headers: r.headers,
        body: r.body,
      });
    return JSON.parse(String(r.body));
  };
}

const at = (seconds: number) => new Date(Date.parse('2026-01-05T09:00:00Z') + seconds * 1000).toISOString();

describe('the scheduler', () => {
  it('advance runs every due transition in time order, at its own time, then replies', async () => {
    const { call } = await setup();
    await call('POST', '/_test/schedule', {
      events: [
        { name: 'c', in_seconds: 30 },
        { name: 'a', in_seconds: 10 },
        { name: 'b', in_seconds: 10 },
        { name: 'late', in_seconds: 120 },
      ],
    });
    expect((await call('GET', '/_sim/clock')).next_due_at).toBe('2026-01-05T09:00:10.000Z');
    const r = await call('POST', '/_sim/clock/advance', { seconds: 60 });
    expect(r.now).toBe('2026-01-05T09:01:00.000Z');
    expect(ran).toEqual([
      { name: 'a', at: '2026-01-05T09:00:10.000Z' },
      { name: 'b', at: '2026-01-05T09:00:10.000Z' }, // ties keep scheduling order
      { name: 'c', at: '2026-01-05T09:00:30.000Z' },
    ]);
    expect(r.next_due_at).toBe('2026-01-05T09:02:00.000Z');
  });

  it('transitions scheduled by a transition run in the same advance when they fall due', async () => {
    const { call } = await setup();
    await call('POST', '/_test/schedule', { events: [{ name: 'chain', in_seconds: 1 }] });
    await call('POST', '/_sim/clock/advance', { seconds: 10 });
    expect(ran).toEqual([
      { name: 'chain', at: '2026-01-05T09:00:01.000Z' },
      { name: 'chained', at: '2026-01-05T09:00:06.000Z' },
    ]);
  });

  it('whatever fell due runs before the next request is answered', async () => {
    const { call } = await setup();
    await call('POST', '/_test/schedule', { events: [{ name: 'now', in_seconds: 0 }] });
    expect(ran).toEqual([]); // scheduled after this request's due transitions ran
    await call('GET', '/_sim/health');
    expect(ran).toEqual([{ name: 'now', at: '2026-01-05T09:00:00.000Z' }]);
  });
});

// on a data file, the queue built by one request is kept for the next (a memory store clones the data per request)
const dataFile = () => join(tempDir(), 'sim.json');

describe("the scheduler's queue", () => {
  // 500 events at 50 distinct times, scheduled in a scrambled order over several requests
  const events = Array.from({ length: 500 }, (_, k) => ({ name: `e${k}`, in_seconds: ((k * 37) % 50) + 1 }));
  const expected = (evs: typeof events) =>
    [...evs]
      .map((e, k) => ({ e, k }))
      .sort((a, b) => a.e.in_seconds - b.e.in_seconds || a.k - b.k)
      .map(({ e }) => ({ name: e.name, at: at(e.in_seconds) }));

  it('runs many timers in time order, ties in scheduling order, each at its own due time', async () => {
    const { call } = await setup(dataFile());
    for (let k = 0; k < events.length; k += 100)
      await call('POST', '/_test/schedule', { events: events.slice(k, k + 100) });
    expect((await call('GET', '/_sim/clock')).next_due_at).toBe(at(1));
    // in steps, so a step ends between due times and the next one carries on from the queue
    await call('POST', '/_sim/clock/advance', { seconds: 20.5 });
    expect((await call('GET', '/_sim/clock')).next_due_at).toBe(at(21));
    await call('POST', '/_sim/clock/advance', { seconds: 60 });
    expect(ran).toEqual(expected(events));
    expect((await call('GET', '/_sim/clock')).next_due_at).toBeNull();
  });

  it('a cancelled timer never runs, and the next due time skips it', async () => {
    const { call } = await setup(dataFile());
    await call('POST', '/_test/schedule', {
      events: [
        { name: 'a', in_seconds: 5 },
        { name: 'b', in_seconds: 10 },
        { name: 'c', in_seconds: 15 },
      ],
    });
    await call('POST', '/_test/cancel', { names: ['a'] });
    expect((await call('GET', '/_sim/clock')).next_due_at).toBe(at(10));
    await call('POST', '/_sim/clock/advance', { seconds: 60 });
    expect(ran).toEqual([
      { name: 'b', at: at(10) },
      { name: 'c', at: at(15) },
    ]);
  });

  it('a transition that cancels a later one due in the same advance stops it', async () => {
    const { call } = await setup(dataFile());
    await call('POST', '/_test/schedule', {
      events: [
        { name: 'first', in_seconds: 1, cancels: 'second' },
        { name: 'second', in_seconds: 2 },
        { name: 'third', in_seconds: 3 },
      ],
    });
    await call('POST', '/_sim/clock/advance', { seconds: 10 });
    expect(ran.map((r) => r.name)).toEqual(['first', 'third']);
  });

  it('cancelling most timers leaves the rest to run in order', async () => {
    const { call } = await setup(dataFile());
    await call('POST', '/_test/schedule', { events });
    const kept = events.filter((_, k) => k % 7 === 0);
    await call('POST', '/_test/cancel', { names: events.filter((_, k) => k % 7 !== 0).map((e) => e.name) });
    await call('POST', '/_test/schedule', { events: [{ name: 'late', in_seconds: 51 }] });
    await call('POST', '/_sim/clock/advance', { seconds: 60 });
    expect(ran).toEqual([...expected(kept), { name: 'late', at: at(51) }]);
  });

  it('a reset drops every pending timer', async () => {
    const { call } = await setup(dataFile());
    await call('POST', '/_test/schedule', { events: [{ name: 'before', in_seconds: 5 }] });
    await call('POST', '/_sim/reset', { clock: 'manual', now: '2026-01-05T09:00:00Z' });
    expect((await call('GET', '/_sim/clock')).next_due_at).toBeNull();
    await call('POST', '/_test/schedule', { events: [{ name: 'after', in_seconds: 7 }] });
    await call('POST', '/_sim/clock/advance', { seconds: 60 });
    expect(ran).toEqual([{ name: 'after', at: at(7) }]);
  });

  it('a queue built from the data file (another process) runs every timer, whatever order the rows are in', async () => {
    const file = dataFile();
    const one = await setup(file);
    // rows in an order a heap reorders: the queue's places must be the rows', not the heap's
    await one.call('POST', '/_test/schedule', {
      events: [50, 10, 40, 20, 30, 5].map((n) => ({ name: `t${n}`, in_seconds: n })),
    });
    const other = await caller(createApp(new Store(file), [probe]));
    expect((await other('GET', '/_sim/clock')).next_due_at).toBe(at(5));
    await other('POST', '/_sim/clock/advance', { seconds: 60 });
    expect(ran.map((r) => r.name)).toEqual(['t5', 't10', 't20', 't30', 't40', 't50']);
    expect((await other('GET', '/_sim/clock')).next_due_at).toBeNull();
  });

  it('timers are kept in the data file: another process sees them, and what it scheduled or ran', async () => {
    const file = dataFile();
    const one = await setup(file);
    await one.call('POST', '/_test/schedule', {
      events: [
        { name: 'x', in_seconds: 10 },
        { name: 'y', in_seconds: 30 },
      ],
    });
    expect((await one.call('GET', '/_sim/clock')).next_due_at).toBe(at(10)); // process one has built its queue
    // (read as a new process would: the snapshot and the journal beside it)
    const stored = await new Store(file).withLock(async (ss) => (await ss.begin()).data.timers);
    expect(stored.map((t) => (t.payload as { name: string }).name).sort()).toEqual(['x', 'y']);
    // a second process on the same file schedules an earlier timer, runs the first two, and cancels y
    const other = await caller(createApp(new Store(file), [probe]));
    await other('POST', '/_test/schedule', { events: [{ name: 'w', in_seconds: 5 }] });
    expect((await one.call('GET', '/_sim/clock')).next_due_at).toBe(at(5));
    await other('POST', '/_sim/clock/advance', { seconds: 12 });
    await other('POST', '/_test/cancel', { names: ['y'] });
    expect(ran.map((r) => r.name)).toEqual(['w', 'x']);
    // process one's queue follows the file: nothing left to run twice, y gone
    expect((await one.call('GET', '/_sim/clock')).next_due_at).toBeNull();
    await one.call('POST', '/_sim/clock/advance', { seconds: 60 });
    expect(ran.map((r) => r.name)).toEqual(['w', 'x']);
  });
});
