// vmv/testing (issue 35): the simulator as a fixture in a user's test, imported from the built
// package entry (dist/testing.js, the "./testing" export). What a test author sees: fetch code's
// requests answered (never thrown), the clock moved by duration, until idle (bounded) or by a
// webhook wait, what was sent and paid, reset() to the seeded state, 50 simulators in parallel
// sharing nothing, nothing written to disk, and a simulator left open reported, not hanging.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type * as Testing from '../src/testing/index.js';
import { sign } from '../src/webhooks.js';
import { tempDir } from './temp.js';

const entry = '../dist/testing.js'; // the package's "./testing" export, as users import it
const { startSimulator, SimulatorError } = (await import(entry)) as typeof Testing;
const T0 = '2026-03-02T09:00:00Z';
const PERSON = '+14155550123';

/** The code under test's side: plain fetch with the simulator's key. */
const api = (sim: Testing.Simulator, method: string, path: string, body?: unknown) =>
  fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('a simulator per test', () => {
  it('a quick call, its webhook through waitFor, the outbox and the ledger; reset keeps the key and empties the world', async () => {
    const sim = await startSimulator({ now: T0 });
    const hooks = await sim.webhookReceiver();
    expect((await api(sim, 'POST', '/v1/voice/calls/webhooks', { url: hooks.url })).status).toBe(201);
    const job = (await json(api(sim, 'POST', '/v1/quick/ai-calls', { to_numbers: [PERSON], goal: 'Confirm' }))).data;
    const started = await hooks.waitFor('call.started');
    const ended = await hooks.waitFor('call.ended');
    expect(started.event.data.call).toMatchObject({ to_number: PERSON, status: 'RINGING' });
    expect(ended.id).toBe(ended.event.id);
    expect((await sim.now()).getTime()).toBeGreaterThan(Date.parse(T0)); // waitFor moved the manual clock
    const [call] = await sim.outbox({ kind: 'call' });
    expect(call).toMatchObject({ kind: 'call', to: PERSON });
    expect((await sim.ledger()).filter((e) => e.reference_id === job.id).length).toBeGreaterThan(0);
    expect((await sim.deliveries()).map((d) => d.type)).toEqual(['call.started', 'call.ended']);

    await sim.reset();
    expect(await sim.outbox()).toEqual([]);
    expect(await sim.ledger()).toEqual([]);
    expect(hooks.received).toEqual([]);
    expect((await sim.now()).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect((await api(sim, 'GET', '/v1/contacts')).status).toBe(200); // the same key
    await sim.close();
    await sim.close(); // twice is nothing
  });

  it("a request the simulator refuses is the code's HTTP answer; a fixture's own refused request throws with every field's reason", async () => {
    await using sim = await startSimulator();
    const res = await api(sim, 'POST', '/v1/quick/ai-calls', { to_numbers: ['not a number'] });
    expect(res.status).toBe(400);
    const err = await sim.persona.set(PERSON, { call: { attempts: [] } } as never).catch((e) => e);
    expect(err).toBeInstanceOf(SimulatorError);
    expect(err.status).toBe(400);
    expect(err.message).toBe(
      'PUT /_sim/personas/+14155550123 was refused (400): The request is invalid. call.attempts: must have at least one item',
    );
  });

  it('advance by seconds or duration; advanceUntilIdle runs what is due, and past its bound says what still is', async () => {
    await using sim = await startSimulator({ now: T0 });
    expect((await sim.advance('1h30m')).toISOString()).toBe('2026-03-02T10:30:00.000Z');
    expect((await sim.advance(30)).toISOString()).toBe('2026-03-02T10:30:30.000Z');
    await expect(sim.advance('soon')).rejects.toThrow("advance('soon'): 'soon' is not a duration");
    // a text thread to someone who never answers ends after conversation_timeout_hours
    await sim.persona.set(PERSON, { text: { replies: [] } });
    const created = await api(sim, 'POST', '/v1/quick/ai-texts', {
      to_numbers: [PERSON],
      goal: 'Confirm',
      conversation_timeout_hours: 48,
    });
    const { id } = (await json(created)).data;
    await expect(sim.advanceUntilIdle({ maxTime: '1d' })).rejects.toThrow(
      /advanceUntilIdle stopped after 1d ahead of 2026-03-02T10:30:30.000Z: .+ is still due\./,
    );
    const idle = await sim.advanceUntilIdle();
    expect(idle.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-03-04T10:30:30Z'));
    expect((await json(api(sim, 'GET', `/v1/quick/actions/${id}`))).data.status).toBe('completed');
    await expect(sim.advanceUntilIdle({ maxSteps: 0 })).resolves.toEqual(idle); // nothing due: idle at once
  });

  it('personas given at start play the other party, and survive a reset; inbound texts and calls reach a number', async () => {
    await using sim = await startSimulator({
      now: T0,
      personas: { [PERSON]: { call: { attempts: [{ result: 'busy' }] } } },
    });
    const hooks = await sim.webhookReceiver();
    await api(sim, 'POST', '/v1/voice/calls/webhooks', { url: hooks.url, events: ['call.ended'] });
    const place = () => api(sim, 'POST', '/v1/quick/ai-calls', { to_numbers: [PERSON], goal: 'x', retry_attempts: 0 });
    await place();
    expect((await hooks.waitFor('call.ended')).event.data.call).toMatchObject({ status: 'BUSY' });
    await sim.reset();
    await api(sim, 'POST', '/v1/voice/calls/webhooks', { url: hooks.url, events: ['call.ended'] });
    await place();
    expect((await hooks.waitFor('call.ended')).event.data.call).toMatchObject({ status: 'BUSY' });

    const number = (await json(fetch(`${sim.url}/_sim/phone-numbers`, post({ stack: 't2' })))).phone_number;
    const text = await sim.inbound.text({ from: PERSON, to: number, body: 'Is Tuesday free?' });
    expect(text).toMatchObject({ direction: 'inbound', body: 'Is Tuesday free?' });
    const call = await sim.inbound.call({ from: PERSON, to: number, says: 'Book me in' });
    expect(call.data).toMatchObject({ direction: 'inbound' });
    await expect(sim.inbound.text({ from: PERSON, to: '+14155550999', body: 'x' })).rejects.toThrow(/refused \(404\)/);
  });
});

/** A JSON answer's body, as the code under test would read it. */
const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('what a test author gets wrong is said at once, naming the call', () => {
  /** What a call rejects with: its class and message (the call given untyped, as JavaScript passes it). */
  const refusal = async (p: Promise<unknown>) => {
    const e = (await p.then(
      () => null,
      (x) => x,
    )) as Error | null;
    return e && `${e.name}: ${e.message}`;
  };

  it('advance: a duration that is none, negative or not a number (never JSON null, never a parser crash)', async () => {
    await using sim = await startSimulator({ now: T0 });
    const advance = sim.advance.bind(sim) as (by: unknown) => Promise<Date>;
    const takes = "it takes seconds (a number, 0 or more) or a duration such as '90s', '15m', '2h', '1d', '1h30m'";
    expect(await refusal(advance(undefined))).toBe(`TypeError: advance(undefined): ${takes}, not undefined.`);
    expect(await refusal(advance(new Date()))).toBe(`TypeError: advance(a Date): ${takes}, not a Date.`);
    expect(await refusal(advance({ minutes: 5 }))).toBe(`TypeError: advance(an object): ${takes}, not an object.`);
    expect(await refusal(advance('5 minutes'))).toBe(
      `TypeError: advance('5 minutes'): '5 minutes' is not a duration; ${takes}.`,
    );
    expect(await refusal(advance(Number.NaN))).toBe(
      `RangeError: advance(NaN): NaN is not a number of seconds; ${takes}.`,
    );
    expect(await refusal(advance(-1))).toBe('RangeError: advance(-1): -1 is negative: the clock moves only forward.');
    expect(await refusal(sim.advanceUntilIdle({ maxTime: '-1d' }))).toMatch(/^TypeError: advanceUntilIdle: maxTime: /);
    expect(await refusal(sim.advanceUntilIdle({ maxSteps: 2.5 }))).toBe(
      'RangeError: advanceUntilIdle: maxSteps must be a whole number from 0 to 1000000, not 2.5.',
    );
    expect((await sim.now()).toISOString()).toBe('2026-03-02T09:00:00.000Z'); // nothing moved
  });

  it('startSimulator: an option that is none of its values, or misspelt, is refused (not silently ignored)', async () => {
    const start = startSimulator as (o: unknown) => Promise<Testing.Simulator>;
    expect(await refusal(start({ clock: 'fake' }))).toBe(
      "TypeError: startSimulator: clock is 'manual' or 'real', not 'fake'.",
    );
    expect(await refusal(start({ seed: 'x' }))).toBe(
      "TypeError: startSimulator: seed must be a whole number, not 'x'.",
    );
    expect(await refusal(start({ seed: -1 }))).toBe(
      'RangeError: startSimulator: seed must be a whole number from 0 to 4294967295, not -1.',
    );
    expect(await refusal(start({ now: Number.NaN }))).toBe('RangeError: startSimulator: now is not a time: NaN.');
    expect(await refusal(start({ data: 5 }))).toBe(
      "TypeError: startSimulator: data is 'memory' or the path of a data file, not 5.",
    );
    expect(await refusal(start({ data: '' }))).toBe(
      "TypeError: startSimulator: data is 'memory' or the path of a data file, not ''.",
    );
    expect(await refusal(start({ clok: 'real' }))).toBe(
      "TypeError: startSimulator: unknown option 'clok'; it takes clock, now, seed, data, personas.",
    );
    expect(await refusal(start('manual'))).toBe("TypeError: startSimulator: its options are an object, not 'manual'.");
  });

  it("waitFor: an event type the service never sends, or a timeout that is no number of milliseconds, fails at once (a '5s' waited forever)", async () => {
    await using sim = await startSimulator({ now: T0 });
    const hooks = await sim.webhookReceiver();
    const waitFor = hooks.waitFor as (type: unknown, o?: unknown) => Promise<unknown>;
    const t = performance.now();
    expect(await refusal(waitFor('call.end'))).toBe(
      "TypeError: waitFor('call.end'): the service sends no such event; its types are call.started, call.ended, sms.received.",
    );
    expect(await refusal(waitFor(undefined))).toMatch(
      /^TypeError: waitFor\(undefined\): the service sends no such event/,
    );
    expect(await refusal(waitFor('call.ended', { timeout: '5s' }))).toBe(
      "TypeError: waitFor('call.ended'): timeout is wall milliseconds (a number, 0 or more), not '5s'.",
    );
    expect(await refusal(waitFor('call.ended', { timeout: -5 }))).toMatch(
      /^TypeError: waitFor\('call\.ended'\): timeout is/,
    );
    expect(await refusal(waitFor('call.ended', { timout: 100 }))).toBe(
      "TypeError: waitFor('call.ended'): unknown option 'timout'; it takes timeout, where.",
    );
    expect(performance.now() - t).toBeLessThan(1000); // none waited
  });

  it("a data file the simulator cannot use names startSimulator's data option, the store's reason after it", async () => {
    const dir = tempDir();
    const garbage = join(dir, 'garbage.json');
    writeFileSync(garbage, 'not json at all');
    expect(await refusal(startSimulator({ data: garbage }))).toMatch(
      /^Error: startSimulator\(\{ data: '.+garbage\.json' \}\): The simulator data file .+ is not valid JSON\./,
    );
    expect(await refusal(startSimulator({ data: dir }))).toMatch(
      /^Error: startSimulator\(\{ data: '.+' \}\): The simulator cannot use its data file .+ is a directory/,
    );
    const file = join(dir, 'world.json');
    const first = await startSimulator({ data: file, now: T0 });
    await first.advance('1h');
    await first.close();
    expect(await refusal(startSimulator({ data: file, now: T0 }))).toBe(
      `RangeError: startSimulator({ data: '${file}' }): now (2026-03-02T09:00:00.000Z) is before the data file's clock (2026-03-02T10:00:00.000Z), which moves only forward.`,
    );
  });

  it('a closed simulator says so on every method, and opens no receiver that would be left open', async () => {
    const sim = await startSimulator({ now: T0 });
    await sim.close();
    const closed = (call: string) => `Error: vmv/testing: ${call} on the simulator at ${sim.url}, which is closed.`;
    expect(await refusal(sim.advance('1m'))).toBe(closed("advance('1m')"));
    expect(await refusal(sim.now())).toBe(closed('now'));
    expect(await refusal(sim.outbox())).toBe(closed('outbox'));
    expect(await refusal(sim.reset())).toBe(closed('reset'));
    expect(await refusal(sim.persona.set(PERSON, {}))).toBe(closed('persona.set'));
    expect(await refusal(sim.webhookReceiver())).toBe(closed('webhookReceiver'));
    await sim.close(); // still nothing
  });
});

describe('the webhook receiver', () => {
  it('a waitFor that times out says what did arrive, and what it refused', async () => {
    await using sim = await startSimulator({ now: T0 });
    const hooks = await sim.webhookReceiver();
    await api(sim, 'POST', '/v1/voice/calls/webhooks', { url: hooks.url });
    await api(sim, 'POST', '/v1/quick/ai-calls', { to_numbers: [PERSON], goal: 'x', retry_attempts: 0 });
    await hooks.waitFor('call.ended');
    const forged = await fetch(hooks.url, {
      ...post({ type: 'call.ended' }),
      headers: { 'x-service-signature-256': sign('{}', 'whsec_wrong') },
    });
    expect(forged.status).toBe(400);
    const err = (await hooks.waitFor('sms.received', { timeout: 200 }).catch((e) => e)) as Error;
    expect(err.message).toMatch(
      /^waitFor\('sms\.received'\) timed out after 200 ms; the clock is at .+, next due: nothing\./,
    );
    expect(err.message).toMatch(
      /Received 2:\n {2}call\.started evt_.+_started\n {2}call\.ended evt_.+_ended \(returned by an earlier waitFor\)/,
    );
    expect(err.message).toContain('Refused 1: /webhooks (the signature checks with no secret)');
  });

  it("a test that fakes timers (vi.useFakeTimers, Jest's alike) still has waitFor time out on the wall clock", async () => {
    await using sim = await startSimulator({ now: T0 });
    const hooks = await sim.webhookReceiver();
    vi.useFakeTimers(); // Date.now() stands still and setTimeout never fires unless the test advances them
    try {
      const t = performance.now();
      const err = (await hooks.waitFor('sms.received', { timeout: 200 }).catch((e) => e)) as Error;
      expect(err.message).toMatch(/^waitFor\('sms\.received'\) timed out after 200 ms/);
      expect(performance.now() - t).toBeLessThan(3000);
    } finally {
      vi.useRealTimers();
    }
  }, 10_000);

  it('answers every delivery: a signed body that is no event 400, over 1 MiB 413; a retry of an event already received 200, kept once', async () => {
    await using sim = await startSimulator({ now: T0 });
    const hooks = await sim.webhookReceiver();
    const { secret } = (await json(api(sim, 'POST', '/v1/voice/calls/webhooks', { url: hooks.url }))).data;
    const deliver = (body: string, id?: string) =>
      fetch(hooks.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-signature-256': sign(body, secret),
          ...(id ? { 'x-service-event-id': id } : {}),
        },
        body,
        signal: AbortSignal.timeout(3000), // unanswered, it would hang until the test's own timeout
      });
    expect((await deliver('not json')).status).toBe(400);
    expect((await deliver('{"type":"call.ended"}')).status).toBe(400);
    expect((await deliver(`{"id":"evt_big","pad":"${'x'.repeat(1024 * 1024)}"}`)).status).toBe(413);
    const event = JSON.stringify({ id: 'evt_1', type: 'call.ended', created_at: T0, data: {} });
    for (let i = 0; i < 3; i++) expect((await deliver(event, 'evt_1')).status).toBe(200);
    expect(hooks.received.map((e) => e.id)).toEqual(['evt_1']);
    expect(hooks.rejected.map((r) => r.reason)).toEqual([
      'the body is not an event',
      'the body is not an event',
      'the body is over 1048576 bytes',
    ]);
    // after clear() (reset() does it) the same id is a new event: a reset world numbers its events again
    hooks.clear();
    expect((await deliver(event, 'evt_1')).status).toBe(200);
    expect(hooks.received).toHaveLength(1);
  });

  it('waitFor on a real clock waits for the delivery without moving the clock', async () => {
    await using sim = await startSimulator({ clock: 'real' });
    const hooks = await sim.webhookReceiver();
    await api(sim, 'POST', '/v1/sms/webhooks', { url: hooks.url });
    const number = (await json(fetch(`${sim.url}/_sim/phone-numbers`, post({ stack: 't2' })))).phone_number;
    const waiting = hooks.waitFor('sms.received', { where: (e) => e.event.data.body === 'Hello' });
    await sim.inbound.text({ from: PERSON, to: number, body: 'Hello' });
    expect((await waiting).event.data).toMatchObject({ from: PERSON, to: number });
  });
});

describe('fast and isolated', () => {
  it.concurrent.each(Array.from({ length: 50 }, (_, i) => i))(
    'simulator %i of 50 in parallel shares nothing',
    async (i) => {
      await using sim = await startSimulator({ now: T0 });
      const to = [`ada${i}@example.com`];
      expect((await api(sim, 'POST', '/v1/quick/emails', { to, subject: `n${i}`, body: 'Hi' })).status).toBe(200);
      const sent = await sim.outbox();
      expect(sent.map((m) => m.kind === 'email' && m.subject)).toEqual([`n${i}`]);
    },
  );

  it('starting and closing one takes at most 50 ms (median of 20)', async () => {
    await (await startSimulator()).close(); // the bundle's first load is not a start
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await (await startSimulator()).close();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    expect(times[10]).toBeLessThanOrEqual(50);
  });

  it('writes nothing to disk unless data names a file, which then keeps the world', async () => {
    const dir = tempDir();
    const script = [
      `const { startSimulator } = await import(${JSON.stringify(new URL(entry, import.meta.url).href)});`,
      'const sim = await startSimulator();',
      "await fetch(`${sim.url}/v1/quick/emails`, { method: 'POST', headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ to: ['a@example.com'], subject: 's', body: 'b' }) });",
      'await sim.reset();',
      'await sim.close();',
    ].join('\n');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      XDG_DATA_HOME: join(dir, 'd'),
      XDG_CONFIG_HOME: join(dir, 'c'),
    };
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readdirSync(dir)).toEqual([]);

    const file = join(dir, 'world.json');
    const first = await startSimulator({ data: file, now: T0 });
    await api(first, 'POST', '/v1/quick/emails', { to: ['a@example.com'], subject: 'kept', body: 'b' });
    await first.close();
    expect(existsSync(file)).toBe(true);
    await using again = await startSimulator({ data: file });
    expect((await again.outbox()).map((m) => m.kind === 'email' && m.subject)).toEqual(['kept']);
  });
});

describe('a simulator left open', () => {
  it('is reported at the end of the run with where it was started, and does not keep the process alive', () => {
    const dir = tempDir();
    const script = join(dir, 'leaky.mjs');
    writeFileSync(
      script,
      `const { startSimulator } = await import(${JSON.stringify(new URL(entry, import.meta.url).href)});\n` +
        "const sim = await startSimulator({ clock: 'real' });\n" +
        'await fetch(`${sim.url}/v1/contacts`, { headers: { authorization: `Bearer ${sim.apiKey}` } });\n',
    );
    const t = performance.now();
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 });
    expect(performance.now() - t).toBeLessThan(10_000); // not the 65 s a kept-alive connection would hold it
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(
      /^vmv\/testing: 1 left open at the end of the run \(call close\(\), or use `await using`\):\n {2}a simulator at http:\/\/127\.0\.0\.1:\d+, started at file:\/\/.*leaky\.mjs:2:\d+\n$/,
    );
  });
});
