// Test helpers: a simulator started as a real `vmv sim serve` process on port 0, an HTTP caller,
// and the CLI run through main() with captured streams on either target.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { bufferIO } from '../src/io.js';
import { recordExchange } from './contract.js';
import { main } from '../src/main.js';
import { tempDir } from './temp.js';

export { tempDir };

export const BIN = new URL('../bin/vmv', import.meta.url).pathname;
/** The fixed start of every manual-clock test. */
export const T0 = '2026-01-05T09:00:00.000Z';

/**
 * The whole environment of a vmv child process kept to folder `dir`: PATH, `dir` as its HOME, its
 * settings (`dir`/config) and simulator data (`dir`/sim.json) there, no colour; `more` added or replaced.
 */
export const childEnv = (dir: string, more: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: dir,
  VMV_SIM_DATA: join(dir, 'sim.json'),
  VMV_CONFIG_DIR: join(dir, 'config'),
  NO_COLOR: '1',
  ...more,
});

/** An environment with a config folder and a simulator data file of its own, none of them made yet. */
export const freshEnv = () => {
  const dir = tempDir();
  return { VMV_CONFIG_DIR: join(dir, 'cfg'), VMV_SIM_DATA: join(dir, 'sim.json'), NO_COLOR: '1' };
};

export interface Sim {
  url: string;
  key: string;
  data: string;
  /** the control token a client beyond loopback needs on /_sim (a server bound beyond loopback) */
  controlToken?: string;
  proc: ChildProcess;
  /** what the server wrote on stderr so far (warnings, the request log without --quiet) */
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  api(
    method: string,
    path: string,
    o?: { body?: unknown; raw?: string; key?: string | null; headers?: Record<string, string> },
  ): Promise<Res>;
  /** resets to the seeded state (a manual clock back at its start); updates `key` */
  reset(): Promise<void>;
  advance(seconds: number): Promise<void>;
  /** waits for the webhook deliveries under way: any control-plane request does (App.handle) */
  flush(): Promise<void>;
}

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  bytes: Buffer;
}

export async function startSim(
  o: {
    clock?: 'manual' | 'real';
    now?: string;
    data?: string;
    extraArgs?: string[];
    env?: Record<string, string>;
  } = {},
): Promise<Sim> {
  const dir = o.data ? null : tempDir();
  const data = o.data ?? join(dir!, 'sim.json');
  const args = [
    BIN,
    'sim',
    'serve',
    '--port',
    '0',
    '--json',
    '--quiet',
    '--data',
    data,
    '--clock',
    o.clock ?? 'manual',
  ];
  if ((o.clock ?? 'manual') === 'manual') args.push('--now', o.now ?? T0);
  const proc = spawn(process.execPath, [...args, ...(o.extraArgs ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...o.env },
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const first = await new Promise<{ url: string; api_key: string; control_token?: string }>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
    proc.once('exit', (c) => reject(new Error(`sim serve exited ${c}: ${stderr}`)));
  });
  const sim: Sim = {
    url: first.url,
    key: first.api_key,
    controlToken: first.control_token,
    data,
    proc,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) {
        const done = new Promise((r) => proc.once('exit', r));
        proc.kill(signal);
        await done;
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
    api: (method, path, a = {}) =>
      request(first.url, method, path, { ...a, key: a.key === undefined ? sim.key : a.key, simulator: true }),
    async reset() {
      const manual = (o.clock ?? 'manual') === 'manual';
      const r = await sim.api('POST', '/_sim/reset', { body: manual ? { clock: 'manual', now: o.now ?? T0 } : {} });
      sim.key = r.json.api_key;
    },
    async flush() {
      await sim.api('GET', '/_sim/health');
    },
    async advance(seconds) {
      const r = await sim.api('POST', '/_sim/clock/advance', { body: { seconds } });
      if (r.status !== 200) throw new Error(r.text);
    },
  };
  return sim;
}

export async function request(
  base: string,
  method: string,
  path: string,
  o: { body?: unknown; raw?: string; key?: string | null; headers?: Record<string, string>; simulator?: boolean } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  let body: string | undefined = o.raw;
  if (o.body !== undefined) body = JSON.stringify(o.body);
  // a raw body is JSON text too, unless a test says otherwise (fetch would call a string text/plain)
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await res.arrayBuffer());
  // the simulator's answers are checked against its description (other servers: webhook receivers)
  if (o.simulator) {
    recordExchange({
      method,
      url: path,
      status: res.status,
      contentType: res.headers.get('content-type') ?? undefined,
      headers: Object.fromEntries(res.headers),
      body: bytes,
    });
  }
  const text = bytes.toString('utf8');
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, bytes };
}

/**
 * One HTTP/1.1 exchange written on a socket as given (what fetch will not send: another Host, a
 * malformed request); status 0 when nothing came back. The server's reply is read to its end.
 * `localAddress`: the address the connection comes from (another of this machine's, not loopback).
 */
export function rawHttp(
  url: string,
  payload: string | Buffer,
  o: { localAddress?: string } = {},
): Promise<{ status: number; headers: Record<string, string>; text: string; json: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const host = hostname.replace(/^\[|\]$/g, '');
    const sock = connect({ port: Number(port), host, localAddress: o.localAddress }, () => sock.write(payload));
    sock.on('data', (d) => chunks.push(d));
    sock.on('end', () => sock.end());
    const done = () => {
      const reply = Buffer.concat(chunks).toString('utf8');
      const m = /^HTTP\/1\.1 (\d+)[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(reply);
      const headers = Object.fromEntries(
        (m?.[2] ?? '')
          .split('\r\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      let json: any;
      try {
        json = JSON.parse(m?.[3] ?? '');
      } catch {
        json = undefined;
      }
      resolve({ status: m ? Number(m[1]) : 0, headers, text: m?.[3] ?? '', json });
    };
    sock.on('close', done);
    sock.on('error', () => undefined); // 'close' follows
  });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

let stateDir: string | undefined;
/** The file's own state folder (VMV_STATE_DIR: kept keys of unknown outcomes), never the user's. */
const testState = () => (stateDir ??= join(tempDir(), 'state'));

/** Runs the CLI in-process through main() with captured streams; aborting `interrupt` is Ctrl-C. */
export async function cli(
  args: string[],
  o: { env?: Record<string, string | undefined>; tty?: boolean; stdin?: string; interrupt?: AbortSignal } = {},
): Promise<CliResult> {
  const io = await bufferIO({ tty: o.tty, stdin: o.stdin, interrupt: o.interrupt });
  // (retries back off for a millisecond, not half a second: a knob for tests, docs/scripting.md,
  // "Network faults and retries")
  const code = await main(args, io, {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    VMV_RETRY_BASE_MS: '1',
    VMV_STATE_DIR: testState(),
    ...o.env,
  });
  let json: any;
  try {
    json = JSON.parse(io.stdout());
  } catch {
    json = undefined;
  }
  return { code, stdout: io.stdout(), stderr: io.stderr(), json };
}

/**
 * A CLI target for the same test cases: the embedded simulator on its own data file, or a started
 * `vmv sim serve`. Both start on a manual clock at T0 from a freshly seeded store.
 */
export interface Target {
  name: 'embedded' | 'remote';
  env: Record<string, string>;
  run(args: string[], o?: { tty?: boolean; stdin?: string; interrupt?: AbortSignal }): Promise<CliResult>;
  /** back to the seeded state on a manual clock at T0 (a remote target takes the new key) */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function makeTarget(name: 'embedded' | 'remote'): Promise<Target> {
  const dir = tempDir();
  const env: Record<string, string> = { VMV_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', VMV_POLL_MS: '5' };
  let sim: Sim | null = null;
  if (name === 'remote') {
    sim = await startSim({ data: join(dir, 'server.json') });
    Object.assign(env, { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key, VMV_SIM_DATA: join(dir, 'unused.json') });
  } else {
    env.VMV_SIM_DATA = join(dir, 'sim.json');
  }
  const target: Target = {
    name,
    env,
    run: (args, o = {}) => cli(args, { ...o, env }),
    async reset() {
      const r = await target.run(['sim', 'reset', '--clock', 'manual', '--now', T0, '--json']);
      if (r.code !== 0) throw new Error(r.stderr);
      if (name === 'remote') env.VMV_API_KEY = r.json.api_key;
    },
    async close() {
      await sim?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (name === 'embedded') await target.reset();
  return target;
}

/**
 * Both CLI targets for a test file, started before its tests and closed after (reset to the seeded
 * state before each test with `resetEach`); `both` runs one command on each and asserts the
 * outputs are identical, returning one of them.
 */
export function useTargets(o: { resetEach?: boolean } = {}) {
  const targets = {} as Record<'embedded' | 'remote', Target>;
  beforeAll(async () => {
    targets.embedded = await makeTarget('embedded');
    targets.remote = await makeTarget('remote');
  });
  afterAll(async () => {
    await targets.embedded.close();
    await targets.remote.close();
  });
  if (o.resetEach)
    beforeEach(async () => {
      for (const t of Object.values(targets)) await t.reset();
    });
  async function both(
    args: string[],
    opts: { tty?: boolean; stdin?: string; interrupt?: AbortSignal } = {},
  ): Promise<CliResult> {
    const e = await targets.embedded.run(args, opts);
    const r = await targets.remote.run(args, opts);
    expect({ code: e.code, stdout: e.stdout, stderr: e.stderr }, `embedded vs remote: vmv ${args.join(' ')}`).toEqual({
      code: r.code,
      stdout: r.stdout,
      stderr: r.stderr,
    });
    return e;
  }
  return { targets, both };
}
