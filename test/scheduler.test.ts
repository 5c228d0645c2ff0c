// Transitions that fall due on the simulator clock: run in time order, each at its own due time,
// before the next request is answered, and by /_sim/clock/advance before it replies.
import { describe, expect, it } from 'vitest';
import { createApp } from '../simulator/app.js';
import type { Resource } from '../simulator/http.js';
import { schedule } from '../simulator/scheduler.js';
import { Store } from '../simulator/store.js';
import { iso } from '../simulator/clock.js';
import * as z from 'zod/mini';
import { recordExchange } from './contract.js';

// A tiny resource for the test: POST schedules named events; GET lists what ran and when.
const ran: { name: string; at: string }[] = [];
const probe: Resource = {
  routes: [
    {
      method: 'POST', path: '/_test/schedule', summary: 'Schedule named events', responses: { 200: { description: 'Scheduled' } },
      body: z.strictObject({ events: z.array(z.strictObject({ name: z.string(), in_seconds: z.number() })) }),
      handler: (c) => {
        for (const e of c.body.events as { name: string; in_seconds: number }[]) schedule(c.s, c.s.now + e.in_seconds * 1000, 'probe', { name: e.name });
        return { body: {} };
      },
    },
  ],
  timers: {
    probe: (s, p) => {
      ran.push({ name: String(p.name), at: iso(s.now) });
      // a transition may schedule the next one
      if (p.name === 'chain') schedule(s, s.now + 5000, 'probe', { name: 'chained' });
    },
  },
};

async function setup() {
  const app = createApp(new Store(null), [probe]);
  const call = async (method: string, url: string, body?: unknown) => {
    const r = await app.handle({ method, url, headers: {}, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!url.startsWith('/_test/')) recordExchange({ method, url, status: r.status, contentType: r.headers['content-type'], headers: r.headers, body: r.body });
    return JSON.parse(String(r.body));
  };
  await call('POST', '/_sim/reset', { clock: 'manual', now: '2026-01-05T09:00:00Z' });
  ran.length = 0;
  return { app, call };
}

describe('the scheduler', () => {
  it('advance runs every due transition in time order, at its own time, then replies', async () => {
    const { call } = await setup();
    await call('POST', '/_test/schedule', { events: [{ name: 'c', in_seconds: 30 }, { name: 'a', in_seconds: 10 }, { name: 'b', in_seconds: 10 }, { name: 'late', in_seconds: 120 }] });
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
    expect(ran).toEqual([{ name: 'chain', at: '2026-01-05T09:00:01.000Z' }, { name: 'chained', at: '2026-01-05T09:00:06.000Z' }]);
  });

  it('whatever fell due runs before the next request is answered', async () => {
    const { call } = await setup();
    await call('POST', '/_test/schedule', { events: [{ name: 'now', in_seconds: 0 }] });
    expect(ran).toEqual([]); // scheduled after this request's due transitions ran
    await call('GET', '/_sim/health');
    expect(ran).toEqual([{ name: 'now', at: '2026-01-05T09:00:00.000Z' }]);
  });
});
