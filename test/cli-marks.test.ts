// A read that shows the world behind the simulator's clock is told once on stderr, in the CLI's words
// (src/marks.ts), never on stdout, nothing with --json, nothing when the reply is not marked:
// Vmv-Stale on a real full disk (a 2 MiB tmpfs), on both targets (the CLI as a process); and
// Vmv-Catching-Up during a real catch-up (a server started days behind its data). The embedded
// target has no clock loop: it runs a catch-up before it answers, so its reads are never behind.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fill, NO_MOUNT, tmpfs, until } from './full-disk.js';
import { BIN, startSim, T0, tempDir, type Sim } from './helpers.js';
import { requires } from './skips.js';

const STALE = 'could not save what fell due on its clock';
const CATCHING_UP = 'is catching up on its clock';

/** The CLI as a process, piped, with `env` naming its target. */
function vmv(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const full: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', VMV_CONFIG_DIR: join(tempDir(), 'cfg'), ...env };
  if (!env.VMV_BASE_URL) delete full.VMV_BASE_URL;
  const p = spawn(process.execPath, [BIN, ...args], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => (stdout += d));
  p.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}
const count = (text: string, part: string) => text.split(part).length - 1;

describe.each(['embedded', 'remote'] as const)('a read while due work cannot be saved (a full disk, %s)', (name) => {
  requires(NO_MOUNT);
  it('is told once on stderr, never on stdout or with --json; nothing once the work is saved', async () => {
    const dir = tmpfs('2m')!;
    const data = join(dir, 'sim.json');
    let sim: Sim | null = null;
    try {
      const env: Record<string, string> = { VMV_SIM_DATA: data };
      if (name === 'remote') {
        sim = await startSim({ data });
        Object.assign(env, {
          VMV_BASE_URL: sim.url,
          VMV_API_KEY: sim.key,
          VMV_SIM_DATA: join(tempDir(), 'unused.json'),
        });
      } else expect((await vmv(['sim', 'reset', '--clock', 'manual', '--now', T0], env)).code).toBe(0);
      const started = await vmv(['quick', 'text', '+12025550101', '--goal', 'Book a table'], env);
      expect(started.code, started.stderr).toBe(0);
      const job = started.stdout.trim();
      // nothing behind yet: no note
      const before = await vmv(['quick', 'status', job], env);
      expect(before.stderr).toBe('');
      // a real clock a second before the first step falls due, then not one byte left on the disk
      const due = Date.parse(JSON.parse((await vmv(['sim', 'clock', '--json'], env)).stdout).next_due_at);
      const set = [
        'api',
        '-X',
        'POST',
        '/_sim/clock',
        '-f',
        'mode=real',
        '-f',
        `now=${new Date(due - 1000).toISOString()}`,
      ];
      expect((await vmv(set, env)).code).toBe(0);
      const wall = Date.now();
      fill(join(dir, 'filler'));
      await until(async () => Date.now() > wall + 1500);

      // a command of several reads: told once, on stderr; its data on stdout as the API gave it
      const status = await vmv(['status'], env);
      expect(status.code, status.stderr).toBe(0);
      expect(count(status.stderr, STALE), status.stderr).toBe(1);
      expect(status.stderr).toContain(name === 'embedded' ? `on the disk holding ${data}` : 'its data file');
      expect(status.stdout).not.toContain('Note');
      // the simulator's own warning is the server's (remote); the embedded command says it once, in its words
      expect(status.stderr).not.toMatch(/\(node:\d+\)|Warning/);
      const shown = await vmv(['quick', 'status', job], env);
      expect(count(shown.stderr, STALE)).toBe(1);
      expect(shown.stdout).toContain('+12025550101');
      // --json: stdout the API's document, stderr empty
      const json = await vmv(['quick', 'status', job, '--json'], env);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout).data.id).toBe(job);
      expect(json.stderr).toBe('');

      // room again: the work runs (the server by itself, the embedded command on its next read), nothing said
      rmSync(join(dir, 'filler'));
      if (sim) await until(async () => sim!.stderr().includes('there is room on the disk again'));
      const after = await vmv(['quick', 'status', job], env);
      expect(after.code).toBe(0);
      expect(after.stderr).toBe('');
    } finally {
      await sim?.stop();
    }
  }, 90_000);
});

describe('a read while a real clock catches up (remote; the embedded target catches up before it answers)', () => {
  /** enough daily schedules for a catch-up that outlasts two commands' start-up on a loaded machine */
  const SCHEDULES = 300;

  it('is told once on stderr with the time the world is shown as of; nothing with --json or once caught up', async () => {
    const data = join(tempDir(), 'sim.json');
    const first = await startSim({ data });
    const conn = (await first.api('GET', '/v1/social-connections')).json.data[0].id;
    expect((await first.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 100_000 } })).status).toBe(200);
    const daily = { name: 'Daily', days_of_week: [1, 2, 3, 4, 5, 6, 7], post_hour: 9, time_zone: 'UTC' };
    for (let i = 0; i < SCHEDULES; i++) {
      const r = await first.api('POST', '/v1/video-schedules', {
        body: { ...daily, connection_ids: [conn], videos_per_day: 10 },
      });
      expect(r.status, r.text).toBe(201);
    }
    await first.stop();
    // a real clock days past what the world last ran, as if the server had been off
    const behind = new Date(Date.parse(T0) + 5 * 86_400_000).toISOString();
    const sim = await startSim({ data, clock: 'real', extraArgs: ['--now', behind] });
    try {
      const env = { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key };
      const listed = await vmv(['schedules', 'list'], env);
      const json = await vmv(['schedules', 'list', '--json'], env);
      const still = (await sim.api('GET', '/v1/video-schedules')).headers.get('vmv-catching-up');
      expect(still, 'the catch-up ended too soon to be watched').not.toBeNull();
      expect(listed.code, listed.stderr).toBe(0);
      expect(count(listed.stderr, CATCHING_UP), listed.stderr).toBe(1);
      expect(listed.stderr).toMatch(/shows the world as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC;/);
      expect(listed.stdout).toContain('Daily');
      expect(listed.stdout).not.toContain('Note');
      expect(json.stderr).toBe('');
      expect(JSON.parse(json.stdout).data.length).toBeGreaterThan(0);
      // caught up: nothing said
      await until(async () => !(await sim.api('GET', '/v1/video-schedules')).headers.has('vmv-catching-up'), 60_000);
      const after = await vmv(['schedules', 'list'], env);
      expect(after.code).toBe(0);
      expect(after.stderr).not.toContain('Note');
    } finally {
      await sim.stop();
    }
  }, 180_000);
});
