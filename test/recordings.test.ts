// Recordings that speak (issue 32, point 2), measured from the decoded audio as a listener would:
// a recording lasts the call's duration_seconds, each transcript turn is heard from its
// seconds_from_start with silence before the next, the agent's voice and the person's differ in
// pitch, a voicemail is the message, the same seed gives the same bytes, and a 10-minute call is
// under 5 MB and made without holding the server. Over HTTP on a manual clock, then the CLI and MCP.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, startSim, tempDir, useTargets, type Sim } from './helpers.js';
import { decodeWav, pitch, rms, type Decoded } from './wav.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const PERSON = '+12025550177';
type Turn = { speaker: 'agent' | 'person'; text: string; seconds_from_start: number };

/** A quick call to a number whose persona says three lines, run to its end on the manual clock. */
async function answeredCall() {
  const persona = {
    name: 'Moves it to Thursday',
    call: {
      attempts: [{ result: 'answer', ring_seconds: 4 }],
      lines: [
        { says: 'Hello, who is this?' },
        { says: 'Could we move it to Thursday afternoon instead?', pause_seconds: 2 },
        { says: 'Perfect, see you then.' },
      ],
    },
  };
  expect((await sim.api('PUT', `/_sim/personas/${PERSON}`, { body: persona })).status).toBe(200);
  const job = await sim.api('POST', '/v1/quick/ai-calls', {
    body: { goal: 'Confirm the Tuesday 3pm appointment', to_numbers: [PERSON] },
  });
  expect(job.status).toBe(201);
  await sim.advance(120);
  const calls = (await sim.api('GET', '/v1/calls?limit=5')).json.data;
  expect(calls).toHaveLength(1);
  return calls[0] as { id: string; duration_seconds: number; transcript_turns: Turn[]; status: string };
}

const download = async (id: string) => {
  const r = await sim.api('GET', `/v1/calls/${id}/recording`);
  expect(r.status, r.text).toBe(200);
  return r;
};

/** Each turn sounds at its start, and the 0.2 s before the next turn (or the end) is silent. */
function expectTurnsHeard(d: Decoded, turns: Turn[], total: number): void {
  expect(turns.length).toBeGreaterThan(0);
  turns.forEach((t, i) => {
    const next = turns[i + 1]?.seconds_from_start ?? total;
    expect(rms(d, t.seconds_from_start, t.seconds_from_start + 0.5), `turn ${i} "${t.text}"`).toBeGreaterThan(0.05);
    expect(rms(d, next - 0.2, next), `the pause before ${next} s`).toBeLessThan(0.005);
  });
}

describe("a recording is the call's whole length, its turns heard where the transcript says", () => {
  it('an answered call: length within 0.5 s of duration_seconds, sound in each turn, silence between, two voices', async () => {
    const call = await answeredCall();
    expect(call.duration_seconds).toBeGreaterThan(10);
    const r = await download(call.id);
    expect(r.headers.get('content-type')).toBe('audio/wav');
    expect(Number(r.headers.get('content-length'))).toBe(r.bytes.length);
    const d = decodeWav(r.bytes);
    expect(d).toMatchObject({ rate: 8000, format: 'mulaw' });
    expect(Math.abs(d.seconds - call.duration_seconds)).toBeLessThanOrEqual(0.5);
    expect(r.bytes.length).toBe(44 + 8000 * call.duration_seconds);
    expectTurnsHeard(d, call.transcript_turns, call.duration_seconds);
    // the agent's voice is higher than the person's, turn by turn
    const pitches = call.transcript_turns.map((t, i) => {
      const next = call.transcript_turns[i + 1]?.seconds_from_start ?? call.duration_seconds;
      return { speaker: t.speaker, hz: pitch(d, t.seconds_from_start, next) };
    });
    const agent = pitches.filter((p) => p.speaker === 'agent').map((p) => p.hz);
    const person = pitches.filter((p) => p.speaker === 'person').map((p) => p.hz);
    expect(agent.length).toBeGreaterThan(0);
    expect(person.length).toBeGreaterThan(0);
    expect(Math.min(...agent)).toBeGreaterThan(1.4 * Math.max(...person));
  });

  it('a voicemail recording is the message: the agent alone, from the start to its end', async () => {
    const job = await sim.api('POST', '/v1/quick/ai-calls', {
      body: {
        goal: 'Confirm the appointment',
        to_numbers: ['+12025550103'],
        retry_attempts: 0,
        voicemail_enabled: true,
      },
    });
    expect(job.status, job.text).toBe(201);
    await sim.advance(120);
    const [call] = (await sim.api('GET', '/v1/calls?limit=5')).json.data;
    expect(call).toMatchObject({ status: 'VOICEMAIL', has_recording: true });
    expect(call.transcript_turns).toEqual([expect.objectContaining({ speaker: 'agent', seconds_from_start: 0 })]);
    const d = decodeWav((await download(call.id)).bytes);
    expect(Math.abs(d.seconds - call.duration_seconds)).toBeLessThanOrEqual(0.5);
    expectTurnsHeard(d, call.transcript_turns, call.duration_seconds);
    expect(rms(d, 0, call.duration_seconds - 1)).toBeGreaterThan(0.05);
    expect(pitch(d, 0, call.duration_seconds)).toBeGreaterThan(180);
  });

  it('the same seed gives the same bytes; another call sounds otherwise', async () => {
    const first = await answeredCall();
    const a = (await download(first.id)).bytes;
    await sim.reset();
    const again = await answeredCall();
    expect(again.id).toBe(first.id);
    expect((await download(again.id)).bytes.equals(a)).toBe(true);
    const other = await sim.api('POST', '/_sim/calls', {
      body: { ...fixture(first.duration_seconds, first.transcript_turns), to_number: '+12025550178' },
    });
    expect((await download(other.json.data.id)).bytes.equals(a)).toBe(false);
  });
});

type Call = { id: string; status: string; duration_seconds: number; has_recording: boolean; transcript_turns: Turn[] };
const callsAsc = async () => (await sim.api('GET', '/v1/calls?order=asc&limit=20')).json.data as Call[];
const persona = async (call: unknown) =>
  expect((await sim.api('PUT', `/_sim/personas/${PERSON}`, { body: { call } })).status).toBe(200);
const quickCall = async (body: Record<string, unknown> = {}) =>
  expect(
    (
      await sim.api('POST', '/v1/quick/ai-calls', {
        body: { goal: 'Confirm the appointment', to_numbers: [PERSON], ...body },
      })
    ).status,
  ).toBe(201);

/** The call's recording, decoded: its length within 0.5 s of duration_seconds, each turn heard, silence between. */
async function expectRecordingOf(call: Call): Promise<Decoded> {
  expect(call.has_recording).toBe(true);
  const d = decodeWav((await download(call.id)).bytes);
  expect(Math.abs(d.seconds - call.duration_seconds)).toBeLessThanOrEqual(0.5);
  expectTurnsHeard(d, call.transcript_turns, call.duration_seconds);
  return d;
}

describe('calls a persona plays are recorded the same way: every turn of the transcript heard', () => {
  it('the person hangs up after N seconds: a line they hung up on as it began is neither in the transcript nor heard', async () => {
    // "Hello?" 0-1.5 s, the agent's "Hi!" 2.5-4 s, "Sure." would begin at 5.0 s: the hang-up
    await persona({
      attempts: [{ result: 'answer' }],
      lines: [{ says: 'Hello?' }, { says: 'Sure.' }, { says: 'Yes.' }],
      hang_up_after_seconds: 5,
    });
    await quickCall({ opening_message: 'Hi!' });
    await sim.advance(120);
    const [call] = await callsAsc();
    expect(call).toMatchObject({ status: 'COMPLETED', duration_seconds: 5 });
    expect(call.transcript_turns.map((t) => [t.speaker, t.seconds_from_start])).toEqual([
      ['person', 0],
      ['agent', 2.5],
    ]);
    await expectRecordingOf(call);
  });

  it('lines with pauses, the person hanging up after the last; placed as a voice call', async () => {
    await persona({
      attempts: [{ result: 'answer', ring_seconds: 2 }],
      lines: [
        { says: 'Yes?' },
        { says: 'Who gave you this number?', pause_seconds: 4 },
        { says: 'I am not interested, goodbye.', pause_seconds: 3 },
      ],
      outcome: 'hangs_up',
    });
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    const placed = await sim.api('POST', '/v1/voice/calls', {
      body: { caller_id: '+12025551111', destination: PERSON },
    });
    expect(placed.status, placed.text).toBe(201);
    await sim.advance(120);
    const [call] = await callsAsc();
    expect(call.status).toBe('COMPLETED');
    expect(call.transcript_turns.map((t) => t.speaker)).toEqual(['person', 'agent', 'person', 'agent', 'person']);
    await expectRecordingOf(call);
  });

  it('hung up through the API mid-call: the recording ends there, the turn cut as it began left out', async () => {
    await persona({
      attempts: [{ result: 'answer', ring_seconds: 1 }],
      lines: [{ says: 'Hello, who is calling?' }, { says: 'Tell me more about it.' }, { says: 'Fine, go ahead.' }],
    });
    await quickCall({ opening_message: 'Hi, this is the clinic.' });
    await sim.advance(1);
    const [live] = await callsAsc();
    // "Hello, who is calling?" 0-1.6 s; the agent from 2.6 s (2 s long); the person again from 5.6 s: hung up at 6 s
    await sim.advance(6);
    expect((await sim.api('POST', `/v1/voice/calls/${live.id}/hangup`)).status).toBe(200);
    const [call] = await callsAsc();
    expect(call).toMatchObject({ status: 'COMPLETED', duration_seconds: 6 });
    expect(call.transcript_turns.map((t) => t.seconds_from_start)).toEqual([0, 2.6]);
    await expectRecordingOf(call);
  });

  it('voicemail on the second attempt: the first (busy) has no recording, the second is the message', async () => {
    await persona({ attempts: [{ result: 'busy' }, { result: 'voicemail', ring_seconds: 12 }] });
    const message =
      'Hi, this is the clinic about your Tuesday appointment. Please call us back on this number. Thank you!';
    await quickCall({ retry_attempts: 1, retry_delay_minutes: 1, voicemail_enabled: true, voicemail_message: message });
    await sim.advance(600);
    const [busy, voicemail] = await callsAsc();
    expect(busy).toMatchObject({ status: 'BUSY', has_recording: false });
    expect((await sim.api('GET', `/v1/calls/${busy.id}/recording`)).status).toBe(404);
    expect(voicemail).toMatchObject({ status: 'VOICEMAIL', transcript_turns: [{ speaker: 'agent', text: message }] });
    const d = await expectRecordingOf(voicemail);
    expect(rms(d, 0, voicemail.duration_seconds - 1)).toBeGreaterThan(0.05);
  });
});

const fixture = (duration_seconds: number, transcript_turns: Turn[]) => ({
  direction: 'outbound',
  from_number: '+14155550150',
  to_number: '+12025550177',
  duration_seconds,
  has_recording: true,
  transcript_turns,
});

describe("call_settings.recording_retention_days: a number's recordings are kept that many days, then deleted (spec Part 2, Number configuration)", () => {
  const DAY = 86_400;
  it('the recording plays until the retention ends; then the call has no audio: has_recording false, recording_url null, the download 404', async () => {
    const n = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json;
    const set = await sim.api('PATCH', `/v1/phone-numbers/${n.id}/config`, {
      body: { call_settings: { recording_retention_days: 2 } },
    });
    expect(set.status).toBe(200);
    const r = await sim.api('POST', '/_sim/inbound/calls', { body: { from: PERSON, to: n.phone_number } });
    await sim.advance(600);
    const read = async () => (await sim.api('GET', `/v1/calls/${r.json.data.id}`)).json.data;
    const ended = await read();
    expect(ended).toMatchObject({ status: 'COMPLETED', has_recording: true });
    const url = ended.recording_url;
    expect((await sim.api('GET', url)).status).toBe(200);
    // the clock's next job is not the deletion: waiting for jobs does not jump two days
    expect((await sim.api('GET', '/_sim/clock')).json.next_job_due_at).toBeNull();
    const endedMs = Date.parse(ended.ended_at);
    const clockMs = Date.parse((await sim.api('GET', '/_sim/clock')).json.now);
    await sim.advance((endedMs - clockMs) / 1000 + 2 * DAY - 1);
    expect(await read()).toMatchObject({ has_recording: true, recording_url: url });
    await sim.advance(1);
    expect(await read()).toMatchObject({ has_recording: false, recording_url: null });
    const gone = await sim.api('GET', url);
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('not_found');
    // both routes and the list say the same
    const listed = (await sim.api('GET', '/v1/calls')).json.data.find((c: any) => c.id === ended.id);
    expect(listed).toMatchObject({ has_recording: false, recording_url: null });
  });
  it('a quick call from the shared numbers keeps its recording (no number of the workspace, no retention setting)', async () => {
    const call = await answeredCall();
    await sim.advance(100 * DAY);
    expect((await sim.api('GET', `/v1/calls/${call.id}`)).json.data.has_recording).toBe(true);
  });
});

describe('a 10-minute call', () => {
  it('is 4.8 MB (8,000 bytes a second), made in a bounded time', async () => {
    const turns: Turn[] = Array.from({ length: 100 }, (_, i) => ({
      speaker: i % 2 ? 'person' : 'agent',
      text: 'This is an ordinary sentence of about ten words, said calmly.',
      seconds_from_start: i * 6,
    }));
    const c = (await sim.api('POST', '/_sim/calls', { body: fixture(600, turns) })).json.data;
    const started = performance.now();
    const r = await download(c.id);
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(10_000);
    expect(r.bytes.length).toBe(44 + 600 * 8000);
    expect(r.bytes.length).toBeLessThan(5_000_000);
    const d = decodeWav(r.bytes);
    expectTurnsHeard(d, turns, 600);
  });
});

/** A process's resident memory now and at its peak (kB), from /proc (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)![1]);
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * A recording downloaded a piece at a time, as a player would (the test's own loop free for the health
 * checks: sim.api would read 57.6 MB as text at once): their hash, and the bytes when kept.
 */
async function streamed(id: string, keep = false): Promise<{ bytes: Buffer; sha: string }> {
  const res = await fetch(`${sim.url}/v1/calls/${id}/recording`, { headers: { authorization: `Bearer ${sim.key}` } });
  expect(res.status).toBe(200);
  const hash = createHash('sha256');
  const pieces: Buffer[] = [];
  for await (const piece of res.body!) {
    hash.update(piece);
    if (keep) pieces.push(Buffer.from(piece));
  }
  return { bytes: Buffer.concat(pieces), sha: hash.digest('hex') };
}

/** A process that asks for the health (argv[1]) every 100 ms until its stdin ends, then says how slow the slowest answer was. */
const WATCH = `let done = false, checks = 0, slowest = 0;
process.stdin.resume().on('end', () => (done = true));
(async () => {
  while (!done) {
    const started = performance.now();
    const r = await fetch(process.argv[1]);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error('health ' + r.status);
    checks++;
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(JSON.stringify({ checks, slowest }));
})();`;

// a 2-hour call: an hour-long monologue, then a conversation (a whole turn made at once would hold the server for seconds)
const TWO_HOURS: Turn[] = [
  {
    speaker: 'agent',
    text: 'Let me tell you everything about our plans for the coming year.',
    seconds_from_start: 0,
  },
  ...Array.from({ length: 300 }, (_, i) => ({
    speaker: (i % 2 ? 'agent' : 'person') as Turn['speaker'],
    text: 'This is an ordinary sentence of about ten words, said calmly.',
    seconds_from_start: 3600 + i * 12,
  })),
];

describe('four downloads of a 2-hour call at once', () => {
  const turns = TWO_HOURS;

  it('HEAD answers the size at once, without making the recording', async () => {
    const c = (await sim.api('POST', '/_sim/calls', { body: fixture(7200, turns) })).json.data;
    const started = performance.now();
    const r = await sim.api('HEAD', `/v1/calls/${c.id}/recording`);
    expect(performance.now() - started).toBeLessThan(500);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(44 + 7200 * 8000));
    expect(r.headers.get('content-type')).toBe('audio/wav');
  });

  it('the server grows by under 150 MB (one file made, one being sent) and answers its health check within a second throughout', async () => {
    const c = (await sim.api('POST', '/_sim/calls', { body: fixture(7200, turns) })).json.data;
    const pid = sim.proc.pid!;
    const before = memoryOf(pid);
    // the health checks from a process of their own, so only the server's delays are measured, not this one's
    const watcher = spawn(process.execPath, ['-e', WATCH, `${sim.url}/_sim/health`], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let report = '';
    watcher.stdout.on('data', (d) => (report += d));
    const watched = new Promise((resolve) => watcher.once('exit', resolve));
    const files = await Promise.all(Array.from({ length: 4 }, (_, i) => streamed(c.id, i === 0))).finally(() =>
      watcher.stdin.end(),
    );
    await watched;
    const { checks, slowest } = JSON.parse(report);
    const grown = (memoryOf(pid).peak - before.rss) / 1024;
    expect(grown, `the server grew by ${grown.toFixed(0)} MB`).toBeLessThan(150);
    expect(checks).toBeGreaterThan(10);
    expect(slowest, `the slowest of ${checks} health checks`).toBeLessThan(1000);
    expect(new Set(files.map((f) => f.sha)).size).toBe(1);
    expect(files[0].bytes.length).toBe(44 + 7200 * 8000);
    const d = decodeWav(files[0].bytes);
    expect(rms(d, 1800, 1801)).toBeGreaterThan(0.05);
    expectTurnsHeard(d, turns.slice(1, 20), 7200);
  }, 180_000);
});

/** A process's time on the cores so far (ms), from /proc (Linux). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Waits `ms` of real time (the server's own work is measured, not the simulated clock). */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client reading the recording at `rate` bytes a second for `ms`, then gone: the bytes it took. */
function slowReader(on: Sim, id: string, rate: number, ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${on.url}/v1/calls/${id}/recording`,
      { headers: { authorization: `Bearer ${on.key}` } },
      (res) => {
        res.pause();
        let got = 0;
        const started = performance.now();
        const tick = setInterval(() => {
          const allowed = ((performance.now() - started) / 1000) * rate;
          for (let c: Buffer | null; got < allowed && (c = res.read(Math.ceil(allowed - got))) !== null; )
            got += c.length;
          if (performance.now() - started < ms) return;
          clearInterval(tick);
          req.destroy();
          resolve(got);
        }, 100);
      },
    );
    req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
    req.end();
  });
}

describe('a recording is sent as it is read', () => {
  let id: string;
  beforeEach(
    async () => (id = (await sim.api('POST', '/_sim/calls', { body: fixture(7200, TWO_HOURS) })).json.data.id),
  );

  it('a range is those bytes of the whole file (206, Content-Range); one past the end is 416 naming the size', async () => {
    const short = (await sim.api('POST', '/_sim/calls', { body: fixture(9, TWO_HOURS.slice(0, 1)) })).json.data.id;
    const whole = (await download(short)).bytes;
    const size = 44 + 9 * 8000;
    for (const [range, first, last] of [
      ['bytes=0-43', 0, 43],
      ['bytes=1000-50999', 1000, 50999],
      ['bytes=-100', size - 100, size - 1],
      ['bytes=70000-', 70000, size - 1],
    ] as const) {
      const r = await sim.api('GET', `/v1/calls/${short}/recording`, { headers: { range } });
      expect(r.status, range).toBe(206);
      expect(r.headers.get('content-range')).toBe(`bytes ${first}-${last}/${size}`);
      expect(r.headers.get('content-length')).toBe(String(last - first + 1));
      expect(r.bytes.equals(whole.subarray(first, last + 1)), range).toBe(true);
    }
    // deep into the 2-hour call: the same bytes as the whole file has there, made from that turn on
    const deep = await sim.api('GET', `/v1/calls/${id}/recording`, { headers: { range: 'bytes=40000000-40079999' } });
    expect(deep.status).toBe(206);
    expect(deep.bytes.length).toBe(80_000);
    expect(new Set(deep.bytes).size, 'the sample values heard there').toBeGreaterThan(20);
    const out = await sim.api('GET', `/v1/calls/${short}/recording`, { headers: { range: `bytes=${size}-` } });
    expect(out.status).toBe(416);
    expect(out.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(out.json.error.code).toBe('range_not_satisfiable');
  });

  it("the first bytes of a 2-hour recording come at once, and a client gone stops the making (the server's cores idle)", async () => {
    const started = performance.now();
    const res = await fetch(`${sim.url}/v1/calls/${id}/recording`, { headers: { authorization: `Bearer ${sim.key}` } });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(performance.now() - started, 'to the first bytes').toBeLessThan(1000);
    expect(Buffer.from(first.value!).subarray(0, 4).toString()).toBe('RIFF');
    await reader.cancel();
    await pause(500);
    const cpu = cpuOf(sim.proc.pid!);
    await pause(2000);
    // making the rest would be 2 to 8 s of a core
    expect(cpuOf(sim.proc.pid!) - cpu, 'ms of the server on the cores in the 2 s after').toBeLessThan(300);
  });

  it('20 clients reading at 10 KB/s: the server holds under 30 MB more (after a GC) and answers its health check within a second', async () => {
    // a server of its own that answers SIGUSR2 with a full GC and what it holds on stderr: its heap and
    // its buffers (RSS keeps pages a GC freed)
    const hook = join(tempDir(), 'gc.cjs');
    writeFileSync(
      hook,
      "process.on('SIGUSR2', () => { gc(); gc(); const m = process.memoryUsage(); process.stderr.write('MEM ' + ((m.heapUsed + m.arrayBuffers) / 1048576) + ' ' + JSON.stringify(m) + '\\n'); });",
    );
    const own = await startSim({ env: { NODE_OPTIONS: `--expose-gc --require ${hook}` } });
    try {
      const held = async () => {
        const seen = own.stderr().length;
        own.proc.kill('SIGUSR2');
        while (!own.stderr().slice(seen).includes('\n')) await pause(20);
        return Number(/MEM ([\d.]+)/.exec(own.stderr().slice(seen))![1]);
      };
      const call = (await own.api('POST', '/_sim/calls', { body: fixture(7200, TWO_HOURS) })).json.data.id;
      const before = await held();
      const watcher = spawn(process.execPath, ['-e', WATCH, `${own.url}/_sim/health`], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let report = '';
      watcher.stdout.on('data', (d) => (report += d));
      const watched = new Promise((resolve) => watcher.once('exit', resolve));
      const reading = Promise.all(Array.from({ length: 20 }, () => slowReader(own, call, 10_240, 8000)));
      await pause(6000);
      const during = await held();
      const read = await reading.finally(() => watcher.stdin.end());
      await watched;
      const { checks, slowest } = JSON.parse(report);
      for (const got of read) expect(got).toBeGreaterThan(40_000);
      const grown = during - before;
      expect(grown, `the server held ${grown.toFixed(0)} MB more: ${own.stderr()}`).toBeLessThan(30);
      expect(checks).toBeGreaterThan(10);
      expect(slowest, `the slowest of ${checks} health checks`).toBeLessThan(1000);
    } finally {
      await own.stop();
    }
  }, 60_000);
});

describe('vmv history recording, on both targets', () => {
  const { both, targets } = useTargets();
  it("saves the call's whole length, naming its type; the two targets' bytes are the same", async () => {
    const turns: Turn[] = [
      { speaker: 'agent', text: 'Hi Ada, is now a good time?', seconds_from_start: 0 },
      { speaker: 'person', text: 'Yes, go ahead.', seconds_from_start: 3.5 },
    ];
    const made = await both(['api', '/_sim/calls', '--input', '-'], { stdin: JSON.stringify(fixture(9, turns)) });
    expect(made.code, made.stderr).toBe(0);
    const files = await Promise.all(
      (['embedded', 'remote'] as const).map(async (name) => {
        const out = join(tempDir(), `${name}.wav`);
        const r = await targets[name].run(['history', 'recording', made.json.data.id, '-o', out]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toBe(`Saved ${44 + 9 * 8000} bytes of audio/wav to ${out}\n`);
        return readFileSync(out);
      }),
    );
    expect(files[0].equals(files[1])).toBe(true);
    const d = decodeWav(files[0]);
    expect(d.seconds).toBe(9);
    expectTurnsHeard(d, turns, 9);
  });

  /** `vmv history recording ID -o FILE` as a process of its own on a target: its peak memory (MB) and the file's size. */
  async function saved(name: 'embedded' | 'remote', id: string): Promise<{ peak: number; bytes: number }> {
    const dir = tempDir();
    const hook = join(dir, 'peak.cjs');
    writeFileSync(
      hook,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(join(dir, 'peak'))}, String(process.resourceUsage().maxRSS)));`,
    );
    const out = join(dir, 'call.wav');
    const proc = spawn(process.execPath, [BIN, 'history', 'recording', id, '-o', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...targets[name].env, NODE_OPTIONS: `--require ${hook}` },
    });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => proc.once('exit', r));
    expect(code, stderr).toBe(0);
    return { peak: Number(readFileSync(join(dir, 'peak'), 'utf8')) / 1024, bytes: statSync(out).size };
  }

  it('a 2-hour recording (57.6 MB) goes to its file as it comes: the command grows by under 40 MB more than for 9 s (the whole file is 57.6)', async () => {
    const call = async (seconds: number, turns: Turn[]) => {
      const made = await both(['api', '/_sim/calls', '--input', '-'], {
        stdin: JSON.stringify(fixture(seconds, turns)),
      });
      expect(made.code, made.stderr).toBe(0);
      return made.json.data.id as string;
    };
    const short = await call(9, TWO_HOURS.slice(0, 1));
    const long = await call(7200, TWO_HOURS);
    for (const name of ['embedded', 'remote'] as const) {
      const small = await saved(name, short);
      const big = await saved(name, long);
      expect(big.bytes).toBe(44 + 7200 * 8000);
      const more = big.peak - small.peak;
      expect(more, `${name}: ${small.peak.toFixed(0)} MB for 9 s, ${big.peak.toFixed(0)} MB for 2 hours`).toBeLessThan(
        40,
      );
    }
  }, 120_000);
});
