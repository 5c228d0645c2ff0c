// What a hostile-input and fault campaign against this session's surfaces found broken, each kept
// as a test over HTTP against a server on port 0: concurrent downloads of long recordings held 4
// bytes a sample of the whole call each (a 2-hour call: 290 MB a download, 1.1 GB for four), a
// clock moved past year 9999 answered timestamps no client reads (`+010000-…`), and a number too
// large for JSON (1e400) was refused as "must be a number, got number", and the personas had no
// bound in all but their count (1,000 documents of 580 KB: each PUT rewrote them all, 1.6 s each by
// the hundredth, and GET /_sim/personas answered 58 MB at 100).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

/** The server process's resident memory, in MB (Linux). */
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${sim.proc.pid}/status`, 'utf8'))![1]) / 1024;

describe('recordings downloaded at once', () => {
  it('a 40-minute recording: whole, the server growing by about its file (1 byte a sample), not 5 bytes a sample', async () => {
    const seconds = 2400;
    const turns = Array.from({ length: 400 }, (_, i) => ({
      speaker: i % 2 ? 'person' : 'agent',
      text: 'This is an ordinary sentence of about ten words, said calmly.',
      seconds_from_start: i * 6,
    }));
    const call = await sim.api('POST', '/_sim/calls', {
      body: {
        direction: 'outbound',
        from_number: '+14155550150',
        to_number: '+12025550177',
        duration_seconds: seconds,
        has_recording: true,
        transcript_turns: turns,
      },
    });
    expect(call.status, call.text).toBe(201);
    const before = rssMb();
    let peak = before;
    const watch = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
    const d = await sim.api('GET', `/v1/calls/${call.json.data.id}/recording`);
    clearInterval(watch);
    expect(d.status).toBe(200);
    expect(d.bytes.length).toBe(44 + seconds * 8000);
    // the file is 19 MB (and its way out); before, the download also held its samples as floats, 77 MB more (measured: 92-95 MB before, 55 MB now)
    expect(peak - before, `peak ${peak.toFixed(0)} MB from ${before.toFixed(0)} MB`).toBeLessThan(75);
  }, 60_000);
});

describe('the clock stops at the last time a timestamp can say', () => {
  it('a move past 9998-12-31T23:59:59.999Z (a year short of 9999) is refused on its field, the clock left where it was', async () => {
    const last = '9998-12-31T23:59:59.999Z';
    expect((await sim.api('POST', '/_sim/clock', { body: { now: last } })).json.now).toBe(last);
    const r = await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 1 } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.fields.seconds).toMatch(/past 9998-12-31T23:59:59\.999Z/);
    expect((await sim.api('GET', '/_sim/clock')).json.now).toBe(last);
    // the plan's period ends a month on: still a 4-digit year (the contract check reads every reply)
    expect((await sim.api('GET', '/_sim/status')).json.usage.period_end).toMatch(/^9999-/);
    const later = await sim.api('POST', '/_sim/clock', { body: { now: '9999-06-01T00:00:00Z' } });
    expect(later.json.error.fields.now).toMatch(/latest it goes/);
    const reset = await sim.api('POST', '/_sim/reset', { body: { clock: 'manual', now: '9999-06-01T00:00:00Z' } });
    expect(reset.status).toBe(400);
    expect(reset.json.error.fields.now).toMatch(/at most 9998-12-31T23:59:59\.999Z/);
  });

  it('a number too large for JSON (1e400) is refused as one, not as "a number, got number"', async () => {
    const r = await sim.api('POST', '/_sim/clock/advance', { raw: '{"seconds":1e400}' });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.seconds).toMatch(/finite number/);
  });
});

describe('the personas in all', () => {
  it('hold at most 4 MB as JSON: the persona past it is 409 personas_limit_exceeded, a short one still fits', async () => {
    // the longest texts of every field, as control characters: 6 bytes each as JSON (\u0001)
    const s = (n: number) => '\u0001'.repeat(n);
    const doc = {
      name: s(200),
      description: s(2000),
      call: {
        attempts: Array.from({ length: 20 }, () => ({ result: 'fails', error: s(500) })),
        lines: Array.from({ length: 50 }, () => ({ says: s(1000) })),
        summary: s(2000),
      },
      text: { replies: Array.from({ length: 20 }, () => ({ says: s(1600), after_seconds: 1 })) },
    };
    expect(JSON.stringify(doc).length).toBeGreaterThan(570_000);
    for (let i = 0; i < 7; i++) {
      const r = await sim.api('PUT', `/_sim/personas/%2B1555000100${i}`, { body: doc });
      expect(r.status, r.text).toBe(200);
    }
    const past = await sim.api('PUT', '/_sim/personas/%2B15550001007', { body: doc });
    expect(past.status).toBe(409);
    expect(past.json.error.code).toBe('personas_limit_exceeded');
    expect(past.json.error.message).toMatch(/at most 4\.00 MB as JSON in all/);
    // replacing one counts the others only; a short one fits beside them
    expect((await sim.api('PUT', '/_sim/personas/%2B15550001000', { body: doc })).status).toBe(200);
    expect((await sim.api('PUT', '/_sim/personas/%2B15550001007', { body: { name: 'Short' } })).status).toBe(200);
    const all = await sim.api('GET', '/_sim/personas');
    expect(all.bytes.length).toBeLessThan(4.5 * 1024 * 1024);
  }, 30_000);
});
