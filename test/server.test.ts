// `vmv sim serve`: binding, the --json line, the seeded state and the two clocks (issue 2, part 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, T0, type Sim } from './helpers.js';

describe('vmv sim serve --port 0 --json', () => {
  let sim: Sim;
  beforeAll(async () => (sim = await startSim()));
  afterAll(() => sim.stop());

  it('prints one line with the loopback url and a full-access key of the seeded workspace', async () => {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(sim.url).port)).toBeGreaterThan(0);
    expect(sim.key).toMatch(/^sk_sim_[0-9a-f]{40}$/);
    const r = await sim.api('GET', '/v1/contacts');
    expect(r.status).toBe(200);
  });

  it('serves GET /_sim/health with 200 and no key', async () => {
    const r = await sim.api('GET', '/_sim/health', { key: null });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, now: T0 });
  });

  it('seeds one organization and workspace with a 50.00 USD wallet and a plan with Content, video credits and the assistant', async () => {
    const w = (await sim.api('GET', '/_sim/workspace')).json;
    expect(w.wallet_usd).toBe(50);
    expect(w.plan.content).toBe(true);
    expect(w.plan.assistant).toBe(true);
    expect(w.plan.video_credits_cents).toBeGreaterThan(0);
    expect(w.auto_recharge.enabled).toBe(false);
  });

  it('a manual clock stands still until advanced, and advancing moves it exactly', async () => {
    const a = (await sim.api('GET', '/_sim/clock')).json;
    await new Promise((r) => setTimeout(r, 30)); // wall time passes; simulated time must not
    const b = (await sim.api('GET', '/_sim/clock')).json;
    expect(a.now).toBe(T0);
    expect(b.now).toBe(T0);
    expect(b.mode).toBe('manual');
    const c = await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 90 } });
    expect(c.status).toBe(200);
    expect(c.json.now).toBe('2026-01-05T09:01:30.000Z');
  });

  it('SIGTERM stops the server cleanly', async () => {
    const other = await startSim();
    await other.stop('SIGTERM');
    expect(other.proc.exitCode).toBe(0);
  });
});

describe('vmv sim serve --clock real', () => {
  it('follows wall time plus any advances', async () => {
    const sim = await startSim({ clock: 'real' });
    try {
      const before = Date.now();
      const a = Date.parse((await sim.api('GET', '/_sim/clock')).json.now);
      expect(a).toBeGreaterThanOrEqual(before - 5);
      expect(a).toBeLessThanOrEqual(Date.now() + 5);
      await sim.advance(3600);
      const b = Date.parse((await sim.api('GET', '/_sim/clock')).json.now);
      expect(b - Date.now()).toBeGreaterThan(3590_000);
      expect((await sim.api('GET', '/_sim/clock')).json.mode).toBe('real');
    } finally {
      await sim.stop();
    }
  });
});

describe("the real clock's loop", () => {
  it('is one loop however many requests arrive while it ticks: idle, a busy server looks at what is due about once a second', async () => {
    const { startServer } = await import('../simulator/world.js');
    const { Store } = await import('../simulator/world.js');
    const { tempDir } = await import('./helpers.js');
    const { join } = await import('node:path');
    const running = await startServer({ store: new Store(join(tempDir(), 'sim.json')) });
    let ticks = 0;
    const tick = running.app.tick.bind(running.app);
    running.app.tick = () => (ticks++, tick());
    try {
      // requests arriving 16 at a time, many while a tick runs
      for (let round = 0; round < 20; round++)
        await Promise.all(
          Array.from({ length: 16 }, () =>
            fetch(`${running.url}/_sim/contacts`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"name":"x"}',
            }),
          ),
        );
      await new Promise((r) => setTimeout(r, 200));
      ticks = 0;
      // wall time: the loop polls the real clock once a second when nothing is due
      await new Promise((r) => setTimeout(r, 2100));
      expect(ticks).toBeLessThanOrEqual(4);
    } finally {
      await running.close();
    }
  });
});

describe('a long-running server keeps nothing per request', () => {
  /** What Node 20's AbortSignal.any leaves on a source signal: one weak reference per combined signal, never dropped. */
  const dependants = (signal: AbortSignal): number => {
    const key = Object.getOwnPropertySymbols(signal).find((k) => k.description === 'kDependantSignals');
    return key ? ((signal as any)[key] as Set<unknown>).size : 0;
  };

  it('a signal that outlives its requests (as the server closing does) gains nothing per request: no listener, no dependant', async () => {
    const { EventEmitter } = await import('node:events');
    const { createApp, Store } = await import('../simulator/world.js');
    const app = createApp(new Store(null));
    const lasting = new AbortController();
    for (let i = 0; i < 2000; i++) {
      const r = await app.handle({ method: 'GET', url: '/_sim/health', headers: {}, signal: lasting.signal });
      expect(r.status).toBe(200);
    }
    // (before the fix, each request combined this signal and the app's own with AbortSignal.any: 2,000 here, and as many on the app's)
    expect(dependants(lasting.signal)).toBe(0);
    expect(EventEmitter.getEventListeners(lasting.signal, 'abort')).toHaveLength(0);
  });
});
