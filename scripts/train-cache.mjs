// Trains bin/vmv's V8 code caches at build time (issue 26): runs the commands people and scripts
// run most, each in a fresh process with VMV_CODE_CACHE_TRAIN set, so bin/loader.cjs writes the
// cache of every chunk they compiled to dist/cjs/cache/<node>-<arch>/ (per chunk, the largest of
// the runs: the one that compiled the most of it). A cache trained on --help alone would leave the
// embedded and remote commands where they were, so each kind of command is run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const BIN = new URL('../bin/vmv', import.meta.url).pathname;
const CACHE = new URL('../dist/cjs/cache', import.meta.url).pathname;

/** The commands trained on: help, reads and a write on the embedded simulator and against a server, the MCP handshake. */
const RUNS = [
  ['--help'],
  ['contacts', 'list'],
  ['email', 'send', '--to', 'ada@example.com', '--subject', 'Hi', '--body', 'Trained'],
  ['history', 'calls'],
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
  try {
    for (const args of RUNS) run(args);
    run(['mcp'], {}, MCP_HANDSHAKE);
    const server = spawn(
      process.execPath,
      [BIN, 'sim', 'serve', '--port', '0', '--json', '--quiet', '--data', join(dir, 'served.json')],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const ready = await new Promise((r) =>
      createInterface({ input: server.stdout }).once('line', (l) => r(JSON.parse(l))),
    );
    try {
      for (const args of RUNS.slice(1)) run(args, { VMV_BASE_URL: ready.url, VMV_API_KEY: ready.api_key });
    } finally {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill();
      await gone; // it folds its journal on the way out: the folder goes only after
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
