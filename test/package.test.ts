// vmv as users install it (issue 34): `npm pack`, the tarball installed into a fresh project
// (scripts/pack.mjs), then the installed vmv run with a fresh HOME and nothing of this checkout:
// its version, an email on the embedded simulator, the MCP handshake, `vmv sim serve` answering a
// request, the library imported, each command started from the code caches that ship.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, without types
import { npmCache, packAndInstall } from '../scripts/pack.mjs';
import { tempDir } from './temp.js';

type Installed = {
  project: string;
  bin: string;
  sizes: { tarball: number; unpacked: number; files: number; installed: number; packages: number };
};
let installed: Installed;
let home: string;
const running = new Set<ChildProcess>();

/** A user's environment: PATH and a HOME of their own, nothing else of this machine's or this checkout's. */
const userEnv = (more: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: home, ...more });
const vmv = (args: string[], input?: string, more: Record<string, string> = {}) =>
  spawnSync(installed.bin, args, {
    cwd: installed.project,
    env: userEnv(more),
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });

beforeAll(() => {
  const dir = tempDir();
  home = join(dir, 'home');
  mkdirSync(home);
  installed = packAndInstall(dir, { PATH: process.env.PATH, HOME: home, npm_config_cache: npmCache() });
}, 180_000);

afterAll(() => {
  for (const p of running) p.kill('SIGKILL');
});

describe('the package as users install it', () => {
  it('installs few packages: everything vmv runs is bundled; only the types of its library need zod and lowdb', () => {
    const pkg = JSON.parse(readFileSync(join(installed.project, 'node_modules/vmv/package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['lowdb', 'zod']);
    expect(installed.sizes.packages).toBeLessThanOrEqual(5); // vmv, zod, lowdb, steno
    expect(installed.sizes.tarball).toBeLessThan(3 * 1024 * 1024);
    const files = spawnSync('tar', ['-tzf', join(installed.project, '..', `vmv-${pkg.version}.tgz`)], {
      encoding: 'utf8',
    });
    expect(files.stdout).toContain('package/LICENSE');
    expect(files.stdout).toContain('package/dist/THIRD-PARTY-NOTICES.txt');
    expect(files.stdout).not.toMatch(/\.map$/m); // source maps stay in the checkout
  });

  it('npx vmv --version, from the build cache that ships', () => {
    const log = join(home, 'load.log');
    const r = vmv(['--version'], undefined, { VMV_LOAD_LOG: log });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
    expect(r.status).toBe(0);
    const how = readFileSync(log, 'utf8');
    expect(how).toMatch(/cli\.pack\.js build-cache/);
  });

  it('an email on the embedded simulator, in the new HOME', () => {
    const r = vmv(['email', 'send', '--to', 'ada@example.com', '--subject', 'Hi', '--body', 'Installed']);
    expect(r.stderr).toContain('Sent to 1 recipient');
    expect(r.status).toBe(0);
    const id = r.stdout.trim();
    const outbox = vmv(['sim', 'outbox', '--json']);
    expect(outbox.status).toBe(0);
    expect(outbox.stdout).toContain('Installed');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('vmv mcp answers the MCP handshake and lists its tools', () => {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const r = vmv(['mcp'], `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(r.status).toBe(0);
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers.find((a) => a.id === 1)?.result.serverInfo.name).toBe('vmv');
    expect(answers.find((a) => a.id === 2)?.result.tools.length).toBeGreaterThan(10);
  });

  it('vmv sim serve listens, answers with its key, and stops on SIGTERM', async () => {
    const proc = spawn(installed.bin, ['sim', 'serve', '--port', '0', '--json', '--quiet'], {
      cwd: installed.project,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(proc);
    const ready = await new Promise<{ url: string; api_key: string }>((resolve, reject) => {
      createInterface({ input: proc.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
      proc.once('exit', (code) => reject(new Error(`sim serve exited ${code}`)));
    });
    const res = await fetch(`${ready.url}/v1/contacts`, { headers: { authorization: `Bearer ${ready.api_key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('server')).toBe('vmv-simulator');
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    running.delete(proc);
  });

  it("the library: import('vmv') gives createApp, startServer, Store and verifySignature", () => {
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('vmv'); console.log(Object.keys(m).sort().join(' '))"],
      { cwd: installed.project, env: userEnv(), encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split(' ')).toEqual(
      expect.arrayContaining(['Store', 'createApp', 'startServer', 'verifySignature']),
    );
  });
});
