// A rerun of a write whose outcome was unknown pays once (issue 31, point 2): a fault-injecting
// proxy on port 0 in front of a `vmv sim serve` hurts paid writes at random (a seeded choice: the
// reply dropped after the simulator acted, a 502 after it acted, a 503 or a 429 before it), and a
// shell loop reruns `vmv email send` (bin/vmv, a process each time) until it exits 0. The
// simulator's ledger and outbox then show one charge per command; a rerun after a real success is
// a new request. Then what the kept key's file holds and how it is bounded.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../src/context.js';
import { bufferIO } from '../src/io.js';
import { unsettledId } from '../src/unsettled.js';
import { takeViolations } from './contract.js';
import { BIN, childEnv, startSim, tempDir, type Sim } from './helpers.js';

/** What the proxy does to a request: forward it (undefined), or one of the faults. */
type Fault = 'drop' | 502 | 503 | 429;
const FAULTS: Fault[] = ['drop', 502, 503, 429];

/** A small seeded generator (mulberry32): the same faults on every run of the test. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Proxy {
  url: string;
  /** decides each request's fault by its "METHOD /path" */
  hurt: (line: string) => Fault | undefined;
  seen: { line: string; key?: string; fault?: Fault; replay?: string }[];
  close(): Promise<void>;
}

async function startProxy(upstream: string): Promise<Proxy> {
  const up = new URL(upstream);
  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const r = httpRequest(
        { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers, agent: false },
        async (res) =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(await res.toArray()) }),
      );
      r.on('error', reject);
      r.end(body);
    });
  const refuse = (res: ServerResponse, status: number, code: string, extra: Record<string, string> = {}) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...extra })
      .end(JSON.stringify({ error: { code, message: 'Try again.' } }));
  const proxy: Proxy = {
    url: '',
    hurt: () => undefined,
    seen: [],
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
  const server = createServer(async (req, res) => {
    const body = Buffer.concat(await req.toArray());
    const line = `${req.method} ${req.url!.split('?')[0]}`;
    const fault = proxy.hurt(line);
    const s = { line, key: req.headers['idempotency-key'] as string | undefined, fault, replay: undefined as any };
    proxy.seen.push(s);
    if (fault === 503) return refuse(res, 503, 'unavailable');
    if (fault === 429) return refuse(res, 429, 'rate_limited', { 'retry-after': '1' });
    const answer = await forward(req, body);
    s.replay = answer.headers['idempotency-replay'];
    if (fault === 'drop') return void req.socket.destroy();
    if (fault === 502) return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    const { connection: _c, 'transfer-encoding': _t, 'content-length': _l, ...headers } = answer.headers;
    res.writeHead(answer.status, headers).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** A shell script run with bash, asynchronously (the proxy answers in this process meanwhile). */
function sh(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn('bash', ['-c', script], { env: { ...env, VMV: `${process.execPath} ${BIN}` } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

let sim: Sim;
let proxy: Proxy;
let home: string;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.stop());
beforeEach(async () => {
  await sim.reset();
  // the simulated quick-email limit (60 a simulated minute, on a clock that stands still) is not the subject here
  await sim.api('PATCH', '/_sim/workspace', { body: { rate_limits: { quick_emails_per_minute: 0 } } });
  proxy = await startProxy(sim.url);
  home = tempDir();
  return () => proxy.close();
});

const env = (more: Record<string, string> = {}) =>
  childEnv(home, { VMV_BASE_URL: proxy.url, VMV_API_KEY: sim.key, VMV_RETRY_BASE_MS: '1', ...more });
/** where the kept keys are: the XDG state folder under the child's HOME */
const keptDir = () => join(home, '.local', 'state', 'vmv', 'unsettled');
const kept = () => (existsSync(keptDir()) ? readdirSync(keptDir()) : []);

/** Recipients of every email the workspace sent, one entry per email (GET /_sim/outbox). */
async function sentTo(): Promise<string[]> {
  const r = await sim.api('GET', '/_sim/outbox?kind=email&limit=100');
  return r.json.data.map((m: { to: string }) => m.to);
}
async function emailCharges(): Promise<number> {
  const r = await sim.api('GET', '/_sim/ledger?limit=100');
  return r.json.data.filter((e: { kind: string }) => e.kind === 'email').length;
}
const SEND = 'POST /v1/quick/emails';
const send = (to: string, ...more: string[]) =>
  `$VMV email send --to ${to} --subject Hello --body 'Hi there' ${more.join(' ')}`;

describe('a CI loop that reruns a failed command pays once per command', () => {
  it('48 commands, half of the paid attempts hurt at random: each charged exactly once; a rerun after success is new', async () => {
    const random = seeded(31);
    const hurt: Record<string, number> = {};
    proxy.hurt = (line) => {
      if (line !== SEND || random() >= 0.5) return undefined;
      const f = FAULTS[Math.floor(random() * FAULTS.length)];
      hurt[String(f)] = (hurt[String(f)] ?? 0) + 1;
      return f;
    };
    const N = 48;
    const loop = await sh(
      `for i in $(seq 1 ${N}); do
         tries=0
         until ${send('user$i@example.com')}; do
           tries=$((tries+1)); if [ $tries -ge 10 ]; then echo "gave up on $i"; break; fi
         done
         echo "command $i reruns $tries"
       done`,
      env(),
    );
    expect(loop.stdout).not.toContain('gave up');
    const reruns = [...loop.stdout.matchAll(/^command \d+ reruns (\d+)$/gm)].map((m) => Number(m[1]));
    expect(reruns).toHaveLength(N);
    const rerun = reruns.filter((n) => n > 0).length;
    const reused = loop.stderr.match(/^Reusing Idempotency-Key .*$/gm) ?? [];
    const to = await sentTo();
    const charges = await emailCharges();
    console.log(
      `cli-unsettled: ${N} commands, ${proxy.seen.filter((s) => s.line === SEND).length} attempts, faults ${JSON.stringify(hurt)}, ${rerun} commands rerun, ${reused.length} keys reused, ${charges} charges`,
    );
    // exactly one charge, and one email, per command
    for (let i = 1; i <= N; i++) expect([i, to.filter((t) => t === `user${i}@example.com`).length]).toEqual([i, 1]);
    expect(charges).toBe(N);
    // the faults did their work: every kind was met, and some commands needed more than one run
    expect(Object.keys(hurt).sort()).toEqual(['429', '502', '503', 'drop']);
    expect(rerun).toBeGreaterThanOrEqual(3);
    // a rerun after an unknown outcome took the key kept for it, saying so in one line
    expect(reused.length).toBeGreaterThan(0);
    for (const line of reused)
      expect(line).toMatch(
        /^Reusing Idempotency-Key [0-9a-f-]{36} of this same request \d+ min ago, whose outcome was unknown: it is not applied twice \(--new-request sends a new one\)$/,
      );
    // every answer was definitive in the end: nothing is kept
    expect(kept()).toEqual([]);

    // the same command after a real success: a new request, charged again
    proxy.hurt = () => undefined;
    const again = await sh(send('user1@example.com'), env());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('Reusing');
    expect((await sentTo()).filter((t) => t === 'user1@example.com')).toHaveLength(2);
    expect(await emailCharges()).toBe(N + 1);
    await takeViolations(); // the injected 502 pages and 503/429 envelopes are not the API's
  }, 240_000);
});

describe('the kept key', () => {
  it('is a 0600 file in a 0700 folder holding the key, never the API key or the body; --new-request sends a new one', async () => {
    proxy.hurt = (line) => (line === SEND ? 'drop' : undefined);
    const first = await sh(send('ada@example.com', '--retries 0'), env());
    expect(first.code).toBe(4);
    const key = proxy.seen[0].key!;
    expect(first.stderr).toContain(`Running this same command again within 24 hours reuses this key`);
    const [file] = kept();
    expect(statSync(join(keptDir(), file)).mode & 0o777).toBe(0o600);
    expect(statSync(keptDir()).mode & 0o777).toBe(0o700);
    const text = readFileSync(join(keptDir(), file), 'utf8');
    expect(JSON.parse(text)).toEqual({ key, writes: 1, created_at: expect.any(String), request: SEND });
    expect(text).not.toContain(sim.key);
    expect(text).not.toContain('ada@example.com');

    // another body, another API key: requests of their own, sent with new keys
    proxy.hurt = () => undefined;
    await sh(send('bob@example.com'), env());
    expect(proxy.seen.at(-1)!.key).not.toBe(key);
    // --new-request: a new key, and the kept one is forgotten once this one is answered
    const fresh = await sh(send('ada@example.com', '--new-request'), env());
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).not.toContain('Reusing');
    expect(proxy.seen.at(-1)!.key).not.toBe(key);
    expect(kept()).toEqual([]);
    expect((await sentTo()).filter((t) => t === 'ada@example.com')).toHaveLength(2);
    const both = await sh(`${send('ada@example.com', '--new-request')} --idempotency-key k1`, env());
    expect(both.code).toBe(2);
    await takeViolations();
  });

  it('a refusal (4xx) forgets it: the rerun after a 503 was refused for want of funds, the next is new', async () => {
    proxy.hurt = (line) => (line === SEND ? 503 : undefined);
    expect((await sh(send('ada@example.com', '--retries 0'), env())).code).toBe(1);
    expect(kept()).toHaveLength(1);
    await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 0 } });
    proxy.hurt = () => undefined;
    const refused = await sh(send('ada@example.com'), env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Reusing Idempotency-Key');
    expect(refused.stderr).toContain('insufficient_funds');
    expect(kept()).toEqual([]);
    await takeViolations();
  });

  it('past 24 hours, or damaged, it is not reused (and is removed)', async () => {
    mkdirSync(keptDir(), { recursive: true });
    const id = unsettledId({
      baseUrl: proxy.url,
      apiKey: sim.key,
      method: 'POST',
      path: '/v1/quick/emails',
      body: JSON.stringify({ to: ['ada@example.com'], subject: 'Hello', body: 'Hi there' }),
    });
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    writeFileSync(
      join(keptDir(), `${id}.json`),
      JSON.stringify({ key: 'old-key', writes: 1, created_at: old, request: SEND }),
    );
    const r = await sh(send('ada@example.com'), env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('Reusing');
    expect(proxy.seen.at(-1)!.key).not.toBe('old-key');
    expect(kept()).toEqual([]);
    // the same file, fresh: reused (so the id above is the request's)
    writeFileSync(
      join(keptDir(), `${id}.json`),
      JSON.stringify({ key: 'kept-key', writes: 1, created_at: new Date().toISOString(), request: SEND }),
    );
    expect((await sh(send('ada@example.com'), env())).stderr).toContain('Reusing Idempotency-Key kept-key');
    expect(proxy.seen.at(-1)!.key).toBe('kept-key');
  });

  it('a command of two writes: the rerun repeats KEY and KEY-2, and it is forgotten once the second is answered', async () => {
    let n = 0;
    proxy.hurt = (line) => (line === SEND && ++n === 2 ? 'drop' : undefined);
    const stateEnv = { ...env(), VMV_STATE_DIR: join(home, 'state') };
    const run = async () => {
      const ctx = new Context(await bufferIO(), { ...stateEnv, VMV_MAX_RETRIES: '0' }, {});
      try {
        await ctx.call('POST', '/v1/quick/emails', { body: { to: ['ada@example.com'], subject: 'One', body: '1' } });
        await ctx.call('POST', '/v1/quick/emails', { body: { to: ['ada@example.com'], subject: 'Two', body: '2' } });
        return 'ok';
      } catch (e) {
        return (e as Error).constructor.name;
      } finally {
        await ctx.close();
      }
    };
    expect(await run()).toBe('NetworkError');
    const files = readdirSync(join(home, 'state', 'unsettled'));
    expect(JSON.parse(readFileSync(join(home, 'state', 'unsettled', files[0]), 'utf8'))).toMatchObject({ writes: 2 });
    expect(await run()).toBe('ok');
    const [k] = proxy.seen.map((s) => s.key);
    expect(proxy.seen.map((s) => [s.key, s.replay])).toEqual([
      [k, undefined],
      [`${k}-2`, undefined],
      [k, 'true'],
      [`${k}-2`, 'true'],
    ]);
    expect(readdirSync(join(home, 'state', 'unsettled'))).toEqual([]);
    expect(await emailCharges()).toBe(2);
  });

  it('parallel processes keeping the same request leave one whole file, no temporary ones', async () => {
    proxy.hurt = (line) => (line === SEND ? 'drop' : undefined);
    const runs = await Promise.all(Array.from({ length: 6 }, () => sh(send('ada@example.com', '--retries 0'), env())));
    expect(runs.map((r) => r.code)).toEqual([4, 4, 4, 4, 4, 4]);
    const files = kept();
    expect(files).toHaveLength(1);
    const { key } = JSON.parse(readFileSync(join(keptDir(), files[0]), 'utf8'));
    expect(proxy.seen.map((s) => s.key)).toContain(key);
  });
});
