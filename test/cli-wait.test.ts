// Waiting, for CI (--timeout, --advance, Ctrl-C) and the one rule of destructive actions (--yes,
// the prompt on a terminal), on both targets (issue 9).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exchanges } from '../src/client.js';
import { BIN, childEnv, cli, T0, tempDir, useTargets } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });
const NAMES = ['embedded', 'remote'] as const;

/** The job id a piped `--wait` printed first (`job<TAB>ID`). */
const jobOf = (stdout: string) => /^job\t(\S+)$/m.exec(stdout)![1];

describe('--timeout', () => {
  it('gives up after that much wall-clock time on a manual clock nobody advances: exit 6, the job continues', async () => {
    const started = Date.now();
    const r = await both(['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--timeout', '0.3s']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600); // 0.3 s on each target
    expect(r.code).toBe(6);
    const id = /job (\S+) continues/.exec(r.stderr)![1];
    expect(r.stdout).toBe(`${id}\n`); // what continues, for a script: JOB=$(vmv ... --wait --timeout 5m)
    expect(r.stderr).toContain('the simulator clock is manual');
    expect(r.stderr).toContain(
      `error: Stopped waiting after 0.3s (--timeout); job ${id} continues.\nFollow it: vmv quick status ${id} --watch\n`,
    );
    expect((await both(['quick', 'status', id, '--json'])).json.data.status).toBe('running');
    // with --json stderr is one JSON document (no notes), and it names the job
    const j = await both(['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--timeout', '0.1s', '--json']);
    expect(j.code).toBe(6);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'wait_timeout', id: expect.any(String) });
  });

  it('applies to every wait: quick number --wait, quick status --watch, calls place --wait', async () => {
    const n = await both(['quick', 'number', '--area-code', '415', '--wait', '--timeout', '0.1s']);
    expect(n.code).toBe(6);
    const number = /number (\d+) continues/.exec(n.stderr)![1];
    expect(n.stderr).toContain(`Follow it: vmv quick status ${number} --watch`);
    const id = (await both(['quick', 'text', '+12025550102', '--goal', 'x'])).stdout.trim();
    const s = await both(['quick', 'status', id, '--watch', '--timeout', '0.1s']);
    expect(s.code).toBe(6);
    expect(s.stdout).toMatch(/^target\t\+12025550102\t/); // the changes streamed so far, then the job's id
    expect(s.stdout.endsWith(`${id}\n`)).toBe(true);
    const cid = (await both(['sim', 'caller-id', '+12025550199', '--json'])).code;
    expect(cid).toBe(0);
    const c = await both([
      'calls',
      'place',
      '--caller-id',
      '+12025550199',
      '--to',
      '+12025550100',
      '--wait',
      '--timeout',
      '0.1s',
    ]);
    expect(c.code).toBe(6);
    expect(c.stderr).toMatch(/call (\S+) continues\.\nSee it: vmv history call \1\n$/);
  });

  it('is checked before anything is sent: a duration, with a wait', async () => {
    const bad = await both(['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--timeout', '5x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--timeout: "5x" is not a duration');
    expect((await both(['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--timeout', '0'])).code).toBe(2);
    const alone = await both(['quick', 'call', '+12025550100', '--goal', 'x', '--timeout', '5m']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--timeout applies to a wait: add --wait.');
    expect((await both(['quick', 'status', 'x', '--advance'])).stderr).toContain(
      '--advance applies to a wait: add --watch.',
    );
    expect((await both(['history', 'calls', '--json'])).json.data).toEqual([]); // no job was started
  });
});

describe('--advance', () => {
  it('drives a quick call to completion on a manual clock in one command; the call record is then complete', async () => {
    const r = await both([
      'quick',
      'call',
      '+12025550100',
      '+12025550102',
      '--goal',
      'Confirm Tuesday',
      '--retry-attempts',
      '1',
      '--retry-delay-minutes',
      '2',
      '--wait',
      '--advance',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(''); // no "waits until it is advanced" note: it advances itself
    expect(r.stdout).toContain('status\tcompleted');
    expect(r.stdout).toMatch(/\+12025550100\t\+1415555015\d\tcompleted\t-\t1\t0\t0\tyes\tgoal_achieved/);
    expect(r.stdout).toMatch(/\+12025550102\t\+1415555015\d\tno_answer\t-\t2\t0\t0\tno\tmax_attempts/);
    const job = (await both(['quick', 'status', jobOf(r.stdout), '--json'])).json.data;
    const answered = job.targets.find((t: any) => t.to_number === '+12025550100');
    expect(answered.summary).toBeTruthy();
    const call = (await both(['history', 'call', answered.last_call_id, '--json'])).json.data;
    expect(call).toMatchObject({ status: 'COMPLETED', has_recording: true, tags: ['interested'] });
    expect(call.summary).toMatch(/agreed: confirm Tuesday/i);
    // it stops once the job and its follow-ups are done: the clock is not run on for nothing
    const clock = (await both(['sim', 'clock', '--json'])).json;
    expect(clock).toMatchObject({ mode: 'manual', next_due_at: null });
    expect(Date.parse(clock.now) - Date.parse(T0)).toBeLessThan(10 * 60_000);
  });

  it("what recurs on the calendar (an AI number's monthly line) is never jumped to: the wait moves only through the job's own steps", async () => {
    expect((await both(['quick', 'number', '--area-code', '212', '--wait', '--advance'])).code).toBe(0);
    const before = (await both(['sim', 'clock', '--json'])).json;
    expect(before.next_due_at).not.toBeNull(); // the line's next month
    expect(before.next_job_due_at).toBeNull();
    const r = await both(['quick', 'call', '+12025550100', '--goal', 'Confirm Tuesday', '--wait', '--advance']);
    expect(r.code).toBe(0);
    const clock = (await both(['sim', 'clock', '--json'])).json;
    expect(Date.parse(clock.now) - Date.parse(before.now)).toBeLessThan(10 * 60_000);
    expect(clock).toMatchObject({ next_due_at: before.next_due_at, next_job_due_at: null });
  });

  it('with --json prints the final job; quick text, quick number and calls place --wait --advance end too', async () => {
    const t = await both(['quick', 'text', '+12025550100', '--goal', 'x', '--wait', '--advance', '--json']);
    expect(t.code).toBe(0);
    expect(t.json.data.targets[0]).toMatchObject({ status: 'completed', goal_achieved: true });
    const n = await both(['quick', 'number', '--area-code', '212', '--wait', '--advance']);
    expect(n.code).toBe(0);
    expect(n.stdout).toContain('status\tready');
    await both(['sim', 'caller-id', '+12025550199']);
    const c = await both([
      'calls',
      'place',
      '--caller-id',
      '+12025550199',
      '--to',
      '+12025550100',
      '--wait',
      '--advance',
    ]);
    expect(c.code).toBe(0);
    expect(c.stdout).toMatch(/^status\tCOMPLETED$/m);
  });

  it('--timeout still applies with --advance', async () => {
    const r = await both([
      'quick',
      'call',
      '+12025550100',
      '--goal',
      'x',
      '--wait',
      '--advance',
      '--timeout',
      '0.001s',
    ]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/Stopped waiting after 0\.001s \(--timeout\); job \S+ continues/);
  });

  it("is refused on a served simulator whose clock is real, before any job starts (exit 2): another process's world", async () => {
    await both(['sim', 'clock', '--real']);
    const r = await targets.remote.run(['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--advance']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("--advance moves a manual simulator clock, and this simulator's clock is real");
    expect(r.stderr).toContain('vmv sim clock --manual');
    expect((await targets.remote.run(['history', 'calls', '--json'])).json.data).toEqual([]);
    expect((await targets.remote.run(['sim', 'clock'])).stdout).toMatch(/^mode\treal$/m);
  });

  it("sets the embedded simulator's real clock manual where it stands, says so, and waits the job out (a fresh world's first command in CI)", async () => {
    await targets.embedded.run(['sim', 'clock', '--real']);
    const before = Date.parse((await targets.embedded.run(['sim', 'clock', '--json'])).json.now);
    const call = ['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--advance'];
    const r = await targets.embedded.run(call);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^status\tcompleted$/m);
    expect(r.stderr).toContain(
      "note: the simulator's clock was real; --advance set it manual (it stands still until advanced). Let it run again: vmv sim clock --real",
    );
    const clock = (await targets.embedded.run(['sim', 'clock', '--json'])).json;
    expect(clock.mode).toBe('manual');
    expect(Date.parse(clock.now) - before).toBeLessThan(3_600_000); // from where it stood, through the call
    // --json keeps stderr for an error's envelope: no note
    await targets.embedded.run(['sim', 'clock', '--real']);
    const quiet = await targets.embedded.run([...call, '--json']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  describe('on a real service (no /_sim control plane)', () => {
    const seen: string[] = [];
    let server: Server;
    let status = 404;
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('is refused before anything is sent: exit 2 where /_sim is not there (404), 3 where the key is refused (401)', async () => {
      server = createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: status === 404 ? 'not_found' : 'unauthorized', message: 'No.' } }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = {
        VMV_BASE_URL: url,
        VMV_API_KEY: 'sk_live_x',
        VMV_CONFIG_DIR: join(tempDir(), 'cfg'),
        NO_COLOR: '1',
      };
      // this stand-in for the service is not held to the simulator's API description
      const observe = exchanges.observe;
      exchanges.observe = undefined;
      try {
        status = 404;
        const r = await cli(['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--advance'], { env });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(
          `--advance drives a simulator's clock, and ${url} is not a simulator (GET /_sim/clock answered HTTP 404).`,
        );
        expect(seen.every((x) => x === 'GET /_sim/clock')).toBe(true);
        // a key refused is an authentication problem (exit 3), and still nothing is started
        status = 401;
        seen.length = 0;
        const denied = await cli(['quick', 'call', '+12025550100', '--goal', 'x', '--wait', '--advance'], { env });
        expect(denied.code).toBe(3);
        expect(seen.every((x) => x === 'GET /_sim/clock')).toBe(true);
      } finally {
        exchanges.observe = observe;
      }
    });
  });
});

describe('Ctrl-C during a wait', () => {
  for (const name of NAMES) {
    it(`${name}: says the job continues and how to follow it; exit 130`, async () => {
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 100);
      const r = await targets[name].run(['quick', 'call', '+12025550100', '--goal', 'x', '--wait'], {
        interrupt: stop.signal,
      });
      expect(r.code).toBe(130);
      const id = /job (\S+) continues/.exec(r.stderr)![1];
      expect(r.stderr).toContain(
        `Stopped waiting (interrupted); job ${id} continues.\nFollow it: vmv quick status ${id} --watch\n`,
      );
      expect((await targets[name].run(['quick', 'status', id, '--json'])).json.data.status).toBe('running');
      const watch = await targets[name].run(['quick', 'status', id, '--watch'], { interrupt: AbortSignal.abort() });
      expect(watch.code).toBe(130);
    });
  }

  it('bin/vmv: SIGINT while waiting exits 130 with the message, the job left running', async () => {
    const dir = tempDir();
    const env = childEnv(dir);
    expect((await cli(['sim', 'reset', '--clock', 'manual', '--now', T0], { env })).code).toBe(0);
    const p = spawn(process.execPath, [BIN, 'quick', 'call', '+12025550100', '--goal', 'x', '--wait'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const noted = new Promise<void>((resolve) =>
      p.stderr!.on('data', (d) => ((stderr += d), stderr.includes('clock is manual') && resolve())),
    );
    const exited = new Promise<number | null>((resolve) => p.once('exit', (code) => resolve(code)));
    await noted;
    p.kill('SIGINT');
    expect(await exited).toBe(130);
    const id = /job (\S+) continues/.exec(stderr)![1];
    expect(stderr).toContain(`Follow it: vmv quick status ${id} --watch`);
    expect((await cli(['quick', 'status', id, '--json'], { env })).json.data.status).toBe('running');
  });
});

describe('destructive actions: asked on a terminal, --yes without one', () => {
  it('numbers release', async () => {
    const id = (await both(['sim', 'number', '--stack', 't2'])).stdout.trim();
    const refused = await both(['numbers', 'release', id]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(`To release number ${id} without a terminal, pass --yes.`);
    const no = await both(['numbers', 'release', id], { tty: true, stdin: 'no\n' });
    expect(no.code).toBe(7);
    expect(no.stderr).toBe(
      `Release number ${id}? Its call data and recordings are deleted; this cannot be undone. Type "release" to confirm: error: Not released.\n`,
    );
    expect((await both(['numbers', 'release', id], { tty: true })).code).toBe(7); // no answer at all
    expect((await both(['numbers', 'list'])).stdout).toContain(id);
    expect((await both(['numbers', 'release', id], { tty: true, stdin: 'release\n' })).code).toBe(0);
    const id2 = (await both(['sim', 'number', '--stack', 't2'])).stdout.trim();
    expect((await both(['numbers', 'release', id2, '--yes'])).code).toBe(0);
    expect((await both(['numbers', 'list'])).stdout).toBe('');
  });

  it('webhooks delete', async () => {
    let id = '';
    for (const name of NAMES)
      id = (await targets[name].run(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hooks', '--json'])).json.data
        .id;
    const refused = await both(['webhooks', 'delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`To delete call webhook ${id} without a terminal, pass --yes.`);
    const no = await both(['webhooks', 'delete', id], { tty: true, stdin: 'n\n' });
    expect(no.code).toBe(7);
    expect(no.stderr).toContain('Type "delete" to confirm: error: Not deleted.');
    expect((await both(['webhooks', 'list'])).stdout).toContain(id);
    expect((await both(['webhooks', 'delete', id], { tty: true, stdin: 'delete\n' })).code).toBe(0);
    for (const name of NAMES)
      id = (await targets[name].run(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hooks', '--json'])).json.data
        .id;
    expect((await both(['webhooks', 'delete', id, '--yes'])).code).toBe(0);
    expect((await both(['webhooks', 'list'])).stdout).toBe('');
  });

  it('config delete', async () => {
    const profiles = async () =>
      (await both(['config', 'list'])).stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    await both(['config', 'set', 'base_url', 'http://127.0.0.1:9', '--profile', 'staging']);
    const refused = await both(['config', 'delete', 'staging']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('To delete profile "staging" without a terminal, pass --yes.');
    expect((await both(['config', 'delete', 'staging'], { tty: true, stdin: 'yes\n' })).code).toBe(7);
    expect(await profiles()).toContain('staging');
    expect((await both(['config', 'delete', 'staging'], { tty: true, stdin: 'delete\n' })).code).toBe(0);
    expect(await profiles()).not.toContain('staging');
    await both(['config', 'set', 'base_url', 'http://127.0.0.1:9', '--profile', 'staging']);
    expect((await both(['config', 'delete', 'staging', '--yes'])).code).toBe(0);
    expect(await profiles()).not.toContain('staging');
  });

  it("sim reset: the simulator's own state goes without --yes when there is no terminal; asked on one", async () => {
    const data = async () => (await both(['numbers', 'list'])).stdout;
    await both(['sim', 'number', '--stack', 't2']);
    const no = await both(['sim', 'reset', '--clock', 'manual', '--now', T0], { tty: true, stdin: 'no\n' });
    expect(no.code).toBe(7);
    expect(no.stderr).toContain(
      'Reset the simulator? Every record is replaced by the freshly seeded state. Type "reset" to confirm: error: Not reset.',
    );
    expect(await data()).not.toBe('');
    for (const t of Object.values(targets)) {
      // piped, no --yes: goes ahead (the remote target then takes the new key, as reset() does)
      const r = await t.run(['sim', 'reset', '--clock', 'manual', '--now', T0, '--json']);
      expect(r.code).toBe(0);
      if (t.name === 'remote') t.env.VMV_API_KEY = r.json.api_key;
    }
    expect(await data()).toBe('');
    await both(['sim', 'number', '--stack', 't2']);
    for (const t of Object.values(targets)) {
      const r = await t.run(['sim', 'reset', '--clock', 'manual', '--now', T0, '--json'], {
        tty: true,
        stdin: 'reset\n',
      });
      expect(r.code).toBe(0);
      if (t.name === 'remote') t.env.VMV_API_KEY = r.json.api_key;
      const y = await t.run(['sim', 'reset', '--clock', 'manual', '--now', T0, '--json', '--yes'], { tty: true });
      expect(y.code).toBe(0);
      if (t.name === 'remote') t.env.VMV_API_KEY = y.json.api_key;
    }
    expect(await data()).toBe('');
  });
});
