// Trains bin/vmv's V8 code caches at build time (issue 26): runs the commands people and scripts
// run most, each in a fresh process with VMV_CODE_CACHE_TRAIN set, so bin/loader.cjs writes the
// cache of every pack and chunk they compiled to dist/cjs/cache/<node>-<arch>/.
//
// A cache holds what one run compiled, and V8 reads all of it at every start: a bigger one costs
// time. So the hot runs (--help, a list on the embedded simulator and against a server, the MCP
// handshake) come first and keep, per pack, the largest cache of theirs; every other run only
// fills in the caches of packs the hot runs never load (a noun's verbs, the server's). Measured:
// a cache trained on --help alone leaves the embedded and remote commands where they were; the
// simulator's trained on a list alone (422 KB) left `vmv mcp` 15 ms slower to answer, and trained
// on every command (677 KB, the largest) made no list faster.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const BIN = new URL('../bin/vmv', import.meta.url).pathname;
const CACHE = new URL('../dist/cjs/cache', import.meta.url).pathname;

/** The hot runs, with --help and the MCP handshake: on the embedded simulator and against a server. */
const HOT = [['contacts', 'list']];
/**
 * The runs that fill in: a read of every other noun that has one, a write, and a text (the
 * numbering plans' chunk), each on both targets; then help for the nouns without a read (their
 * verbs' pack). A pack no run compiles has no build cache: the first run of its command on a
 * machine compiles it and leaves one in the user's cache directory.
 */
const RUNS = [
  ['email', 'send', '--to', 'ada@example.com', '--subject', 'Hi', '--body', 'Trained'],
  ['history', 'calls'],
  ['numbers', 'list'],
  ['videos', 'list'],
  ['schedules', 'list'],
  ['assistant', 'list'],
  ['social', 'list'],
  ['webhooks', 'list'],
  ['quick', 'text', '+14155550123', '--goal', 'Trained'],
  ['status'],
  ['api', 'GET', '/v1/contacts'],
];
const HELP = [
  ['calls', '--help'],
  ['posts', '--help'],
  ['config', 'list'],
  ['sim', 'clock'],
];
const MCP_HANDSHAKE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'train', version: '1' } } })}\n`;

export async function trainCodeCache() {
  const dir = mkdtempSync(join(tmpdir(), 'vmv-train-'));
  const env = { ...process.env, VMV_CODE_CACHE_TRAIN: CACHE, NO_COLOR: '1' };
  for (const k of ['VMV_BASE_URL', 'VMV_API_KEY', 'VMV_PROFILE', 'NODE_OPTIONS']) delete env[k];
  Object.assign(env, { VMV_SIM_DATA: join(dir, 'sim.json'), VMV_CONFIG_DIR: join(dir, 'config'), HOME: dir });
  const run = (args, more = {}, input = '') => {
    const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...env, ...more }, input, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`training run vmv ${args.join(' ')} failed: ${r.stderr}`);
  };
  const fill = { VMV_CODE_CACHE_TRAIN_FILL: '1' };
  // the server trains only what no command loads (its own packs): it writes its caches when it stops, last
  const server = spawn(
    process.execPath,
    [BIN, 'sim', 'serve', '--port', '0', '--json', '--quiet', '--data', join(dir, 'served.json')],
    { env: { ...env, ...fill }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const ready = await new Promise((resolve, reject) => {
      createInterface({ input: server.stdout }).once('line', (l) => resolve(JSON.parse(l)));
      server.once('exit', (code) => reject(new Error(`training: vmv sim serve exited (${code}) before it was ready`)));
    });
    const remote = { VMV_BASE_URL: ready.url, VMV_API_KEY: ready.api_key };
    run(['--help']);
    for (const args of HOT) run(args);
    for (const args of HOT) run(args, remote);
    run(['mcp'], {}, MCP_HANDSHAKE);
    for (const args of [...HELP, ...RUNS]) run(args, fill);
    for (const args of RUNS) run(args, { ...remote, ...fill });
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill();
      await gone; // it folds its journal on the way out: the folder goes only after
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
