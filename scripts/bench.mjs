// npm run bench: cold-start cost of vmv, as ratios to a bare `node -e 0` measured in the same run.
// Targets: `vmv --help` at most 1.5x; one API call on the embedded simulator at most 1.8x, against a
// running simulator at most 2.0x. Then one simulated month of 10 video schedules, under 5 s.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const bin = new URL('../bin/vmv', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'vmv-bench-'));
const env = { ...process.env, VMV_SIM_DATA: join(dir, 'sim.json'), VMV_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1' };

const server = spawn(process.execPath, [bin, 'sim', 'serve', '--port', '0', '--json', '--quiet'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
let { url, api_key } = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once('line', (l) => resolve(JSON.parse(l)));
  server.once('exit', (c) => reject(new Error(`sim serve exited ${c}`)));
});

const cases = {
  'node -e 0': [process.execPath, ['-e', '0']],
  'vmv --help': [process.execPath, [bin, '--help']],
  'vmv contacts list (remote)': [process.execPath, [bin, 'contacts', 'list', '--base-url', url, '--api-key', api_key]],
  'vmv contacts list (embedded)': [process.execPath, [bin, 'contacts', 'list']],
};
process.on('exit', () => server.kill('SIGTERM'));
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < RUNS + 2; i++) {
  for (const [name, [cmd, args]] of Object.entries(cases)) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    if (i >= 2) times[name].push(ms); // two warm-up rounds fill the OS file cache
  }
}

// a month of video schedules: 10 active schedules posting every weekday, the clock advanced 30 days in one request
const api = async (method, path, body) => {
  const r = await fetch(url + path, { method, headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
};
await api('POST', '/_sim/reset', { clock: 'manual', now: '2026-03-02T00:00:00Z' }).then((r) => (api_key = r.api_key));
await api('PATCH', '/_sim/workspace', { wallet_usd: 100000 });
const conn = (await api('GET', '/v1/social-connections')).data[0].id;
for (let i = 0; i < 10; i++)
  await api('POST', '/v1/video-schedules', { name: `S${i}`, days_of_week: [1, 2, 3, 4, 5], post_hour: 8 + i, time_zone: 'America/New_York', connection_ids: [conn] });
const t0 = process.hrtime.bigint();
await api('POST', '/_sim/clock/advance', { seconds: 30 * 86400 });
const monthMs = Number(process.hrtime.bigint() - t0) / 1e6;
const exited = new Promise((r) => server.once('exit', r));
server.kill('SIGTERM');
await exited;
rmSync(dir, { recursive: true, force: true });

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const base = median(times['node -e 0']);
const targets = { 'vmv --help': 1.5, 'vmv contacts list (embedded)': 1.8, 'vmv contacts list (remote)': 2.0 };
let ok = true;
console.log(`median of ${RUNS} runs each, interleaved`);
for (const [name, t] of Object.entries(times)) {
  const ratio = median(t) / base;
  const target = targets[name];
  const verdict = target ? (ratio <= target ? `ok (target <= ${target.toFixed(1)}x)` : `OVER target ${target.toFixed(1)}x`) : '';
  if (target && ratio > target) ok = false;
  console.log(`${name.padEnd(30)} ${median(t).toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x  ${verdict}`);
}
const monthTarget = 5000;
console.log(`${'30 days, 10 video schedules'.padEnd(30)} ${monthMs.toFixed(1).padStart(7)} ms  ${monthMs <= monthTarget ? `ok (target <= ${monthTarget} ms)` : `OVER target ${monthTarget} ms`}`);
if (monthMs > monthTarget) ok = false;
process.exitCode = ok ? 0 : 1;
