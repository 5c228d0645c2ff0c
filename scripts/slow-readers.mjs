// Measures what slow downloads cost `vmv sim serve`: N clients each read a 2-hour call's recording
// (57.6 MB) at a fixed rate for a while, as a phone on a poor line or a throttled proxy would, and
// the server's memory is sampled after a full GC (its heap and its buffers outside it, from inside
// the server: a preloaded hook answers SIGUSR2 with gc() and process.memoryUsage()), while another
// client asks for /_sim/health every 100 ms and notes the slowest answer.
//
//   node scripts/slow-readers.mjs [--bin bin/vmv] [--clients 20] [--rate 10240] [--seconds 30]
//
// --bin runs another build (a checkout of an older commit) the same way. Prints one JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({
  options: {
    bin: { type: 'string', default: 'bin/vmv' },
    clients: { type: 'string', default: '20' },
    rate: { type: 'string', default: '10240' },
    seconds: { type: 'string', default: '30' },
  },
});
const clients = Number(o.clients);
const rate = Number(o.rate);
const seconds = Number(o.seconds);

const dir = mkdtempSync(join(tmpdir(), 'vmv-slow-'));
const hook = join(dir, 'gc-hook.cjs');
writeFileSync(
  hook,
  `process.on('SIGUSR2', () => { gc(); gc(); const m = process.memoryUsage();
  process.stderr.write('MEM ' + JSON.stringify({ rss: m.rss, heap: m.heapUsed, external: m.external, buffers: m.arrayBuffers }) + '\\n'); });`,
);
const server = spawn(
  process.execPath,
  [resolve(o.bin), 'sim', 'serve', '--port', '0', '--json', '--quiet', '--data', join(dir, 'sim.json')],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: `--expose-gc --require ${hook}`, NO_COLOR: '1' },
  },
);
const mems = [];
let waiting = null;
createInterface({ input: server.stderr }).on('line', (l) => {
  if (!l.startsWith('MEM ')) return;
  mems.push(JSON.parse(l.slice(4)));
  waiting?.();
});
const first = await new Promise((res, rej) => {
  createInterface({ input: server.stdout }).once('line', (l) => res(JSON.parse(l)));
  server.once('exit', (c) => rej(new Error(`sim serve exited ${c}`)));
});
const url = new URL(first.url);

/** The server's memory after a full GC, in MB. */
async function memory() {
  const got = new Promise((r) => (waiting = r));
  server.kill('SIGUSR2');
  await got;
  const m = mems.at(-1);
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Math.round(v / 1e5) / 10]));
}

function send(method, path, body) {
  return new Promise((res, rej) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { authorization: `Bearer ${first.api_key}`, 'content-type': 'application/json' },
      },
      (r) => {
        const chunks = [];
        r.on('data', (c) => chunks.push(c));
        r.on('end', () => res({ status: r.statusCode, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
      },
    );
    req.on('error', rej);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

// an hour-long monologue, then an hour of conversation (the recordings test's 2-hour call)
const turns = [
  { speaker: 'agent', text: 'Let me tell you everything about our plans for the coming year.', seconds_from_start: 0 },
  ...Array.from({ length: 300 }, (_, i) => ({
    speaker: i % 2 ? 'agent' : 'person',
    text: 'This is an ordinary sentence of about ten words, said calmly.',
    seconds_from_start: 3600 + i * 12,
  })),
];
const call = await send('POST', '/_sim/calls', {
  direction: 'outbound',
  from_number: '+14155550150',
  to_number: '+12025550177',
  duration_seconds: 7200,
  has_recording: true,
  transcript_turns: turns,
});
if (call.status !== 201) throw new Error(`fixture: ${call.status} ${JSON.stringify(call.json)}`);
const id = call.json.data.id;

/** One client reading the recording at `rate` bytes a second: a pull of what the socket holds every 100 ms. */
function slowReader(stopAt) {
  return new Promise((res) => {
    let got = 0;
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `/v1/calls/${id}/recording`,
        headers: { authorization: `Bearer ${first.api_key}` },
      },
      (r) => {
        r.pause();
        const started = performance.now();
        const tick = setInterval(() => {
          const allowed = ((performance.now() - started) / 1000) * rate;
          for (let c; got < allowed && (c = r.read(Math.min(16384, Math.ceil(allowed - got)))) !== null; )
            got += c.length;
          if (performance.now() >= stopAt) {
            clearInterval(tick);
            req.destroy();
            res({ status: r.statusCode, got });
          }
        }, 100);
      },
    );
    req.on('error', () => {});
    req.end();
  });
}

const before = await memory();
const stopAt = performance.now() + seconds * 1000;
const readers = Array.from({ length: clients }, () => slowReader(stopAt));
let checks = 0;
let slowest = 0;
const samples = [];
const health = (async () => {
  while (performance.now() < stopAt) {
    const t = performance.now();
    const r = await send('GET', '/_sim/health');
    if (r.status !== 200) throw new Error(`health ${r.status}`);
    checks++;
    slowest = Math.max(slowest, performance.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const sampler = (async () => {
  while (performance.now() < stopAt - 2000) {
    await new Promise((r) => setTimeout(r, 5000));
    samples.push(await memory());
  }
})();
const read = await Promise.all(readers);
await Promise.all([health, sampler]);
const during = samples.reduce((a, m) => (m.rss > (a?.rss ?? 0) ? m : a), null);
await new Promise((r) => setTimeout(r, 1000));
const after = await memory();
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    bin: o.bin,
    clients,
    rate,
    seconds,
    mb_read_per_client: Math.round(read.reduce((a, r) => a + r.got, 0) / clients / 1e4) / 100,
    statuses: [...new Set(read.map((r) => r.status))],
    before,
    peak_during: during,
    grown_mb: {
      rss: Math.round((during.rss - before.rss) * 10) / 10,
      buffers: Math.round((during.buffers - before.buffers) * 10) / 10,
    },
    after_clients_gone: after,
    health: { checks, slowest_ms: Math.round(slowest) },
  }),
);
