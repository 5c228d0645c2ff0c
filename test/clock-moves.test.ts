// One move of the clock never freezes the simulator (issue 31, point 3): a year of a busy world (a
// video schedule of 10 videos every day, an AI number, auto-recharge) advances in slices while
// /_sim/health answers; a move stops after its slice when its client goes away or the server gets
// SIGTERM, the data kept; a move that would run too much is refused before it starts, saying how
// to make it in steps; `vmv sim advance` shows where the clock is on a terminal, on both targets.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, makeTarget, request, startSim, T0, tempDir, type Sim, type Target } from './helpers.js';

const DAY_S = 86_400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The CPU time (user + system, ms) a process has used so far (Linux's /proc). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** The world of the report: auto-recharge on, an AI number, a schedule posting 10 videos every day. */
async function busyWorld(api: Sim['api']): Promise<void> {
  const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBeLessThan(300);
  ok(
    await api('PATCH', '/_sim/workspace', {
      body: { wallet_usd: 100, auto_recharge: { enabled: true, amount_usd: 50, threshold_usd: 20 } },
    }),
  );
  ok(await api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415' } }));
  const conn = (await api('GET', '/v1/social-connections')).json.data[0].id;
  ok(
    await api('POST', '/v1/video-schedules', {
      body: {
        name: 'Daily',
        days_of_week: [1, 2, 3, 4, 5, 6, 7],
        post_hour: 9,
        time_zone: 'America/New_York',
        connection_ids: [conn],
        videos_per_day: 10,
      },
    }),
  );
}

/** A schedule posting 10 videos a day at 09:00 UTC to `conn`, as the CLI tests create it. */
const dailyTen = (conn: string) =>
  JSON.stringify({
    name: 'Daily',
    days_of_week: [1, 2, 3, 4, 5, 6, 7],
    post_hour: 9,
    time_zone: 'UTC',
    connection_ids: [conn],
    videos_per_day: 10,
  });

/** Reads GET /_sim/clock until its time is past `after` (the move is under way), or fails after 60 s. */
async function movedPast(sim: Sim, after: number): Promise<number> {
  for (const end = Date.now() + 60_000; Date.now() < end; await sleep(50)) {
    const now = Date.parse((await sim.api('GET', '/_sim/clock')).json.now);
    if (now > after) return now;
  }
  throw new Error('the clock never moved');
}

/** `vmv sim serve` on an existing data file, its clock as the file has it: its URL and process. */
async function serveAgain(data: string): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = spawn(process.execPath, [BIN, 'sim', 'serve', '--port', '0', '--json', '--quiet', '--data', data], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<{ url: string }>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
    proc.once('exit', (c) => reject(new Error(`sim serve exited ${c}`)));
  });
  return {
    url: first.url,
    stop: async () => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

describe('a move of the clock runs in slices: the simulator answers throughout (issue 31, point 3)', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.stop());

  it('a year of a busy world advances in under 30 s of work while /_sim/health answers within a second', async () => {
    await busyWorld(sim.api);
    const start = Date.parse(T0);
    const probes: number[] = [];
    let moving = true;
    const probing = (async () => {
      while (moving) {
        const t = performance.now();
        const r = await sim.api('GET', '/_sim/health');
        expect(r.status).toBe(200);
        probes.push(performance.now() - t);
        await sleep(100);
      }
    })();
    const cpu0 = cpuMs(sim.proc.pid!);
    const t0 = performance.now();
    const r = await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 365 * DAY_S } });
    const wall = performance.now() - t0;
    const cpu = cpuMs(sim.proc.pid!) - cpu0;
    moving = false;
    await probing;
    expect(r.status, r.text).toBe(200);
    expect(Date.parse(r.json.now)).toBe(start + 365 * DAY_S * 1000);
    console.log(
      `a year: ${(wall / 1000).toFixed(1)} s wall, ${(cpu / 1000).toFixed(1)} s of server CPU; health worst ${Math.max(...probes).toFixed(0)} ms over ${probes.length} probes`,
    );
    // 280 s of wall time and 75 s of CPU before (the report's 133 s and 74 s): the server's own CPU is
    // the measure a loaded machine does not stretch; the wall time is bounded loosely for the same reason
    expect(cpu).toBeLessThan(30_000);
    expect(wall).toBeLessThan(90_000);
    // answered all along: each within a second, and about every tenth of a second of the move
    expect(Math.max(...probes)).toBeLessThan(1000);
    expect(probes.length).toBeGreaterThanOrEqual(Math.floor(wall / 1000));
    // the year ran: 10 videos a day made and posted, the number's line paid each month
    const schedule = (await sim.api('GET', '/v1/video-schedules')).json.data[0];
    expect(Date.parse(schedule.last_run_at)).toBeGreaterThan(start + 363 * DAY_S * 1000);
    const ledger = (await sim.api('GET', '/_sim/workspace')).json.ledger;
    expect(ledger.some((e: { kind: string }) => e.kind === 'recharge')).toBe(true);
  }, 180_000);

  it('a move far beyond the limit is refused before it starts, with how much and how to make it in steps', async () => {
    const before = (await sim.api('GET', '/_sim/clock')).json.now;
    const r = await sim.api('POST', '/_sim/clock', { body: { now: '9999-12-31T00:00:00Z' } });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.fields.now).toMatch(
      /would run about [\d,]+ transitions, more than the 50,000 one move may run/,
    );
    expect(r.json.error.message).toMatch(/Move in steps of about \d+d \(\d+ days\): repeat `vmv sim advance \d+d`/);
    expect(r.json.error.step_seconds).toBeGreaterThan(0);
    // nothing moved, and a step of the size it says is taken
    expect((await sim.api('GET', '/_sim/clock')).json.now).toBe(before);
    const step = await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 2 * DAY_S } });
    expect(step.status, step.text).toBe(200);
    const far = await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 10 * 366 * DAY_S } });
    expect(far.status).toBe(400);
    expect(far.json.error.fields.seconds).toMatch(/transitions/);
  }, 60_000);

  it('a client that goes away stops its move after the slice under way: the server falls quiet, the clock where it stopped', async () => {
    const from = Date.parse((await sim.api('GET', '/_sim/clock')).json.now);
    const to = from + 700 * DAY_S * 1000;
    const req = httpRequest(`${sim.url}/_sim/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    req.on('error', () => {});
    req.end(JSON.stringify({ seconds: 700 * DAY_S }));
    await movedPast(sim, from);
    req.destroy();
    await sleep(500);
    const journal = `${sim.data}.journal`;
    const [cpu0, size0] = [cpuMs(sim.proc.pid!), statSync(journal).size];
    const clock0 = (await sim.api('GET', '/_sim/clock')).json;
    await sleep(1500);
    const [cpu1, size1] = [cpuMs(sim.proc.pid!), statSync(journal).size];
    const clock1 = (await sim.api('GET', '/_sim/clock')).json;
    // a move still running takes all of a core (and writes a slice every 50 ms)
    expect(cpu1 - cpu0).toBeLessThan(500);
    expect(size1).toBe(size0);
    expect(clock1.now).toBe(clock0.now);
    const stood = Date.parse(clock1.now);
    expect(stood).toBeGreaterThan(from);
    expect(stood).toBeLessThan(to);
    // at a slice's end: everything due by then ran
    expect(Date.parse(clock1.next_due_at)).toBeGreaterThan(stood);
  }, 120_000);
});

describe('SIGTERM during a move (issue 31, point 3)', () => {
  it('ends the server within 2 s, the data as of the last slice readable after a restart', async () => {
    const dir = tempDir();
    const data = join(dir, 'sim.json');
    const sim = await startSim({ data });
    await busyWorld(sim.api);
    const from = Date.parse(T0);
    const moving = sim.api('POST', '/_sim/clock/advance', { body: { seconds: 700 * DAY_S } }).catch(() => null);
    // (the clock a read saw last: a slice already saved)
    const seen = await movedPast(sim, from);
    const t0 = performance.now();
    await sim.stop('SIGTERM');
    const took = performance.now() - t0;
    await moving;
    expect(sim.proc.exitCode ?? sim.proc.signalCode).not.toBeNull();
    expect(took).toBeLessThan(2000);
    const again = await serveAgain(data);
    try {
      const clock = await request(again.url, 'GET', '/_sim/clock', { simulator: true });
      const stood = Date.parse(clock.json.now);
      // as of the last slice: at least where a read saw the move before the signal, not before the move
      expect(stood).toBeGreaterThanOrEqual(seen);
      expect(stood).toBeLessThan(from + 700 * DAY_S * 1000);
      const schedules = await request(again.url, 'GET', '/_sim/status', { simulator: true });
      expect(schedules.status, schedules.text).toBe(200);
    } finally {
      await again.stop();
    }
    expect(existsSync(data)).toBe(true);
  }, 120_000);
});

describe('vmv sim advance on a terminal (issue 31, point 3)', () => {
  const targets: Target[] = [];
  afterAll(async () => {
    for (const t of targets) await t.close();
  });

  for (const name of ['embedded', 'remote'] as const)
    it(`${name}: a progress line on stderr while the clock moves, cleared at the end; --json unchanged`, async () => {
      const t = await makeTarget(name);
      targets.push(t);
      const api = async (method: string, path: string, body: string) => {
        const r = await t.run(['api', method, path, '--input', '-'], { stdin: body });
        expect(r.code, r.stderr).toBe(0);
        return r.json;
      };
      const conn = (await t.run(['api', 'GET', '/v1/social-connections'])).json.data[0].id;
      await api('POST', '/v1/video-schedules', dailyTen(conn));
      await api('PATCH', '/_sim/workspace', JSON.stringify({ wallet_usd: 100000 }));
      const r = await t.run(['sim', 'advance', '120d', '--json'], { tty: true });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json.now).toBe(new Date(Date.parse(T0) + 120 * DAY_S * 1000).toISOString());
      expect(Object.keys(r.json)).toEqual(['now', 'mode', 'next_due_at', 'next_job_due_at']);
      expect(r.stderr).toMatch(/Moving the clock: 20\d\d-\d\d-\d\dT[\d:.]+Z \(\d+%\)/);
      expect(r.stderr.endsWith('\r\x1b[2K')).toBe(true);
      // not on a terminal: no progress line
      const piped = await t.run(['sim', 'advance', '1d']);
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stderr).not.toContain('Moving the clock');
      // too much at once: the simulator's refusal, with the step that fits
      const far = await t.run(['sim', 'advance', '3000d']);
      expect(far.code).not.toBe(0);
      expect(far.stderr).toMatch(/repeat `vmv sim advance \d+d`/);
    }, 180_000);

  it('embedded: Ctrl-C stops the move after its slice (exit 130), the clock left where it stood', async () => {
    const t = await makeTarget('embedded');
    targets.push(t);
    const conn = (await t.run(['api', 'GET', '/v1/social-connections'])).json.data[0].id;
    const made = await t.run(['api', 'POST', '/v1/video-schedules', '--input', '-'], {
      stdin: dailyTen(conn),
    });
    expect(made.code, made.stderr).toBe(0);
    const interrupt = new AbortController();
    const running = t.run(['sim', 'advance', '600d'], { interrupt: interrupt.signal });
    // a second process on the same file sees the clock move between slices
    for (let i = 0; i < 600; i++) {
      await sleep(50);
      const c = (await t.run(['sim', 'clock', '--json'])).json;
      if (Date.parse(c.now) > Date.parse(T0)) break;
    }
    interrupt.abort();
    const r = await running;
    expect(r.code, r.stderr).toBe(130);
    const stood = r.stderr.match(/the clock stands at (\S+),/)?.[1];
    expect(stood).toBeDefined();
    expect(Date.parse(stood!)).toBeLessThan(Date.parse(T0) + 600 * DAY_S * 1000);
    expect((await t.run(['sim', 'clock', '--json'])).json.now).toBe(stood);
  }, 180_000);
});

describe('a real clock far behind catches up in slices (issue 31, point 3)', () => {
  /** GET `path`, timed: answered 200, and how long it took. */
  const timed = async (sim: Sim, path: string) => {
    const t = performance.now();
    const r = await sim.api('GET', path);
    expect(r.status, r.text).toBe(200);
    return { r, ms: performance.now() - t };
  };
  const SCHEDULES = 150;

  it('a server started days behind on a world of 150 daily schedules answers health and reads throughout, ends on SIGTERM, and a write waits for the rest', async () => {
    const data = join(tempDir(), 'sim.json');
    const first = await startSim({ data });
    const conn = (await first.api('GET', '/v1/social-connections')).json.data[0].id;
    expect((await first.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 100_000 } })).status).toBe(200);
    for (let i = 0; i < SCHEDULES; i++) {
      const r = await first.api('POST', '/v1/video-schedules', { raw: dailyTen(conn) });
      expect(r.status, r.text).toBe(201);
    }
    await first.stop();
    // a real clock days past what the world last ran, as if the server had been off: each schedule
    // plans and posts its 10 videos (once: missed days are not made up), and the videos go on from there
    const behind = Date.parse(T0) + 5 * DAY_S * 1000;
    const real = (extra: string[] = []) => startSim({ data, clock: 'real', extraArgs: extra });
    let sim = await real(['--now', new Date(behind).toISOString()]);
    const probes: number[] = [];
    let mark = '';
    try {
      // health and reads answered within a second all along; a read sees the world as of the last
      // slice, saying from when on what fell due is still to run
      for (let i = 0; i < 5; i++, await sleep(100)) {
        probes.push((await timed(sim, '/_sim/health')).ms);
        const { r, ms } = await timed(sim, '/v1/video-schedules');
        probes.push(ms);
        mark = r.headers.get('vmv-catching-up') ?? '';
        expect(Date.parse(mark), 'the catch-up ended too soon to be watched').toBeLessThan(behind);
      }
      const t0 = performance.now();
      await sim.stop('SIGTERM');
      expect(performance.now() - t0).toBeLessThan(2000);
      // the slices done are kept: the catch-up goes on from at least where the last read saw it
      sim = await real();
      const again = (await timed(sim, '/v1/video-schedules')).r.headers.get('vmv-catching-up');
      expect(Date.parse(again!)).toBeGreaterThanOrEqual(Date.parse(mark));
      // a write waits for the rest (its change comes after all that fell due before it), health answered meanwhile
      let writing = true;
      const probing = (async () => {
        for (; writing; await sleep(100)) probes.push((await timed(sim, '/_sim/health')).ms);
      })();
      const w = await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 500 } });
      writing = false;
      await probing;
      expect(w.status, w.text).toBe(200);
      const after = await timed(sim, '/v1/video-schedules?limit=100');
      expect(after.r.headers.has('vmv-catching-up')).toBe(false);
      for (const sch of after.r.json.data) expect(Date.parse(sch.last_run_at)).toBeGreaterThan(Date.parse(T0));
      console.log(`catch-up: health and reads worst ${Math.max(...probes).toFixed(0)} ms over ${probes.length}`);
      expect(Math.max(...probes)).toBeLessThan(1000);
    } finally {
      await sim.stop();
    }
  }, 180_000);
});

describe('--wait --advance past a move too large for one request (issue 31, point 3)', () => {
  it('the CLI steps the clock in the size the refusal names until the job is done (a server with --move-limit 200)', async () => {
    const dir = tempDir();
    const sim = await startSim({ data: join(dir, 'sim.json'), extraArgs: ['--move-limit', '200'] });
    try {
      const conn = (await sim.api('GET', '/v1/social-connections')).json.data[0].id;
      expect((await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 1000 } })).status).toBe(200);
      expect((await sim.api('POST', '/v1/video-schedules', { raw: dailyTen(conn) })).status).toBe(201);
      // five days of a 10-video schedule is more than 200 transitions: one move there is refused
      const whole = await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 5 * DAY_S } });
      expect(whole.status, whole.text).toBe(400);
      expect(whole.json.error.limit).toBe(200);
      // a text to a number that never replies ends after 120 quiet hours: the wait's move is refused, then stepped
      const env = {
        PATH: process.env.PATH,
        HOME: dir,
        VMV_CONFIG_DIR: join(dir, 'config'),
        VMV_STATE_DIR: join(dir, 'state'),
        VMV_BASE_URL: sim.url,
        VMV_API_KEY: sim.key,
        NO_COLOR: '1',
      };
      const args = ['quick', 'text', '+14155550102', '--goal', 'Confirm Friday', '--conversation-timeout-hours', '120'];
      const proc = spawn(process.execPath, [BIN, ...args, '--wait', '--advance', '--json'], { env });
      let [out, err] = ['', ''];
      proc.stdout.on('data', (d) => (out += d));
      proc.stderr.on('data', (d) => (err += d));
      const code = await new Promise((r) => proc.once('exit', r));
      expect(err).not.toMatch(/transitions|refused/);
      expect(code, err).toBe(0); // (no reply in the time given is an outcome, not a failure)
      const job = JSON.parse(out).data ?? JSON.parse(out);
      expect(job.status).toBe('completed');
      expect(job.targets[0].status).toBe('no_answer');
      const now = Date.parse((await sim.api('GET', '/_sim/clock')).json.now);
      expect(now).toBeGreaterThanOrEqual(Date.parse(T0) + 120 * 3600_000);
      expect(now).toBeLessThan(Date.parse(T0) + 7 * DAY_S * 1000);
    } finally {
      await sim.stop();
    }
  }, 120_000);
});

describe('a move stopped short is no success', () => {
  it('a move whose client went away answers 503 saying where the clock stands, not 200 with the clock short of it', async () => {
    const { createApp, Store } = await import('../simulator/world.js');
    const app = createApp(new Store(null, { clock: { mode: 'manual', offset_ms: 0, frozen_ms: Date.parse(T0) } }));
    const t0 = new Date(T0).toISOString();
    const gone = new AbortController();
    gone.abort();
    const r = await app.handle({
      method: 'POST',
      url: '/_sim/clock/advance',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: DAY_S }),
      signal: gone.signal,
    });
    expect(r.status, String(r.body)).toBe(503);
    const { error } = JSON.parse(String(r.body));
    expect(error.code).toBe('move_stopped');
    expect(error.now).toBe(t0);
    expect(error.message).toContain(`the clock stands at ${t0}`);
  });
});
