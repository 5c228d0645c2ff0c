// Network faults injected for real (issue 20, item 3): a fault-injecting HTTP proxy on port 0 sits
// between the CLI (main() in-process, a remote target) and a started `vmv sim serve`. It drops a
// reply after the simulator has answered, answers 502/503/504 or 429 once, holds a request without
// answering, or the CLI is pointed at a closed port. What is charged is counted in the simulator's
// ledger: no fault makes a command pay twice, a user who reruns with the printed key pays once,
// and every failure says what happened, with an exit code and the key or id needed to check.
// VMV_RETRY_BASE_MS=1 (a knob for tests) keeps backoffs to milliseconds; nothing sleeps for
// simulated time, and the one timed check (Retry-After) is a lower bound.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callTool } from '../commands/mcp/call.js';
import { mcpTools } from '../simulator/index.js';
import { createClient, newIdempotencyKey } from '../src/client.js';
import { Context } from '../src/context.js';
import { bufferIO } from '../src/io.js';
import { takeViolations } from './contract.js';
import { cli, startSim, tempDir, type Sim } from './helpers.js';

/** What the proxy does to the next request that matches. */
type Fault =
  /** forwarded, answered by the simulator, then the connection is destroyed: the reply is lost */
  | 'drop'
  /** forwarded, and never answered */
  | 'stall'
  /** not forwarded, never answered */
  | 'hang'
  /** 502 and 504: forwarded (the simulator acts on it), then the gateway's error; 503: not forwarded */
  | 502
  | 503
  | 504
  /** not forwarded: 429 with Retry-After: 1 */
  | 429
  /** not forwarded: the simulator's own 503 store_busy (its store busy: nothing applied) */
  | 'busy'
  /** not forwarded: 429 with Retry-After: 30, longer than vmv waits */
  | '429long';

interface Seen {
  line: string;
  key?: string;
  at: number;
  fault?: Fault;
  replay?: string;
}

interface Proxy {
  url: string;
  /** each planned fault applies to the next request whose "METHOD /path" starts with `match` */
  plan(match: string, ...faults: Fault[]): void;
  /** every request that arrived, in order */
  seen: Seen[];
  close(): Promise<void>;
}

const envelope = (code: string, message: string) => JSON.stringify({ error: { code, message } });

async function startProxy(upstream: string): Promise<Proxy> {
  const up = new URL(upstream);
  const planned: { match: string; fault: Fault }[] = [];
  const seen: Seen[] = [];
  const held = new Set<ServerResponse>();
  const forward = (method: string, url: string, headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const r = httpRequest(
        {
          host: up.hostname,
          port: up.port,
          method,
          path: url,
          headers: { ...headers, host: up.host, connection: 'close' },
          agent: false,
        },
        async (res) => {
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(await res.toArray()) });
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  const server = createServer(async (req, res) => {
    const body = Buffer.concat(await req.toArray());
    const line = `${req.method} ${req.url!.split('?')[0]}`;
    const i = planned.findIndex((p) => line.startsWith(p.match));
    const fault = i >= 0 ? planned.splice(i, 1)[0].fault : undefined;
    const s: Seen = { line, key: req.headers['idempotency-key'] as string | undefined, at: Date.now(), fault };
    seen.push(s);
    if (fault === 'hang') return void held.add(res);
    if (fault === 503)
      return void res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(envelope('unavailable', 'Try again shortly.'));
    if (fault === 429)
      return void res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end(envelope('rate_limited', 'Slow down.'));
    if (fault === '429long')
      return void res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '30', 'request-id': 'req_slow' })
        .end(envelope('rate_limited', 'Slow down.'));
    if (fault === 'busy')
      return void res
        .writeHead(503, { 'content-type': 'application/json', 'request-id': 'req_busy' })
        .end(envelope('store_busy', 'The data file is busy; retry the request.'));
    const answer = await forward(req.method!, req.url!, req.headers, body);
    s.replay = answer.headers['idempotency-replay'] as string | undefined;
    if (fault === 'stall') return void held.add(res);
    if (fault === 'drop') return void req.socket.destroy();
    if (fault === 502 || fault === 504)
      return void res.writeHead(fault, { 'content-type': 'text/html' }).end('<h1>Gateway error</h1>');
    const {
      connection: _c,
      'keep-alive': _k,
      'transfer-encoding': _t,
      'content-length': _l,
      ...headers
    } = answer.headers;
    res.writeHead(answer.status, headers).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    plan: (match, ...faults) => void planned.push(...faults.map((fault) => ({ match, fault }))),
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}`;
}

let sim: Sim;
let proxy: Proxy;
const config = join(tempDir(), 'config');
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.stop());
beforeEach(async () => {
  await sim.reset();
  proxy = await startProxy(sim.url);
});
afterEach(() => proxy.close());

const env = (extra: Record<string, string> = {}) => ({
  VMV_BASE_URL: proxy.url,
  VMV_API_KEY: sim.key,
  VMV_CONFIG_DIR: config,
  NO_COLOR: '1',
  VMV_RETRY_BASE_MS: '1',
  ...extra,
});
const vmv = (args: string[], extra?: Record<string, string>) => cli(args, { env: env(extra) });

/** The simulator's ledger entries of a kind (email, quick_call, ...): what was charged. */
async function charges(kind: string): Promise<{ reference_id: string }[]> {
  const r = await sim.api('GET', '/_sim/ledger?limit=100');
  return r.json.data.filter((e: { kind: string }) => e.kind === kind);
}
const at = (line: string) => proxy.seen.filter((s) => s.line === line);

const EMAIL = ['email', 'send', '--to', 'ada@example.com', '--subject', 'Hello', '--body', 'Hi there'];
const SEND = 'POST /v1/quick/emails';

describe('a lost reply is retried with the same key: charged once', () => {
  it('email send: the reply dropped after the simulator sent the email; the retry replays it', async () => {
    proxy.plan(SEND, 'drop');
    const r = await vmv(EMAIL);
    expect(r.code, r.stderr).toBe(0);
    const sent = at(SEND);
    expect(sent).toHaveLength(2);
    expect(sent[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1].key).toBe(sent[0].key);
    expect(sent[1].replay).toBe('true');
    expect(r.stderr).toMatch(
      /^Retrying POST \/v1\/quick\/emails in \d+ ms \(connection lost: UND_ERR_SOCKET; retry 1 of 2\)$/m,
    );
    const paid = await charges('email');
    expect(paid).toHaveLength(1);
    expect(r.stdout).toBe(`${paid[0].reference_id}\n`);
  });

  it('quick call: the same, one job and one placed-call fee', async () => {
    proxy.plan('POST /v1/quick/ai-calls', 'drop');
    const r = await vmv(['quick', 'call', '+14155550100', '--goal', 'Confirm Tuesday']);
    expect(r.code, r.stderr).toBe(0);
    expect(at('POST /v1/quick/ai-calls').map((s) => s.replay)).toEqual([undefined, 'true']);
    const paid = await charges('quick_call');
    expect(paid).toHaveLength(1);
    expect(r.stdout).toBe(`${paid[0].reference_id}\n`);
  });

  for (const status of [502, 503, 504] as const) {
    it(`${status} once (${status === 503 ? 'not forwarded' : 'forwarded: the simulator sent it'}): retried, charged once`, async () => {
      proxy.plan(SEND, status);
      const r = await vmv(EMAIL);
      expect(r.code, r.stderr).toBe(0);
      expect(at(SEND).map((s) => s.key)).toEqual([at(SEND)[0].key, at(SEND)[0].key]);
      expect(r.stderr).toContain(`(HTTP ${status}; retry 1 of 2)`);
      expect(await charges('email')).toHaveLength(1);
    });
  }

  it('429 with Retry-After: 1: the retry comes a second later, never sooner', async () => {
    proxy.plan(SEND, 429);
    const r = await vmv(EMAIL);
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = at(SEND);
    // timers may fire a millisecond early by the wall clock, never a tenth of a second
    expect(second.at - first.at).toBeGreaterThanOrEqual(950);
    expect(r.stderr).toContain('in 1 s (HTTP 429; retry 1 of 2)');
    expect(await charges('email')).toHaveLength(1);
  });

  it('the simulator\'s own 503 store_busy says nothing was applied: a /_sim write is sent again, never "may have been applied"', async () => {
    proxy.plan('POST /_sim/contacts', 'busy');
    const r = await vmv(['sim', 'contact', '--name', 'Busy Once']);
    expect(r.code, r.stderr).toBe(0);
    expect(at('POST /_sim/contacts')).toHaveLength(2);
    expect(
      (await sim.api('GET', '/v1/contacts')).json.data.filter((c: { name: string }) => c.name === 'Busy Once'),
    ).toHaveLength(1);
    proxy.plan('POST /_sim/contacts', 'busy', 'busy', 'busy');
    const again = await vmv(['sim', 'contact', '--name', 'Busy Always']);
    expect(again.code).toBe(1);
    expect(again.stderr).not.toContain('may have been applied');
  });

  it('a 429 asking for longer than vmv waits is the answer, and says when to try again', async () => {
    proxy.plan(SEND, '429long');
    const r = await vmv(EMAIL);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The service asks to wait 30 s before trying again (Retry-After).');
    expect(at(SEND)).toHaveLength(1);
  });

  it('a client for many callers (vmv mcp) sends side by side: a request held open does not hold up the next', async () => {
    proxy.plan('GET /v1/contacts', 'hang');
    const client = await createClient(
      { kind: 'remote', baseUrl: proxy.url, apiKey: sim.key, profile: 'default', dataFile: '' },
      { connections: 8, retries: 0 },
    );
    const held = client.request('GET', '/v1/contacts').catch(() => null);
    const next = await client.request('GET', '/v1/calls');
    expect(next.status).toBe(200);
    expect(at('GET /v1/contacts')).toHaveLength(1);
    await proxy.close();
    await held;
    await client.close().catch(() => undefined);
  });

  it('a read is retried after a lost reply and a 503 alike', async () => {
    proxy.plan('GET /v1/contacts', 'drop', 503);
    const r = await vmv(['contacts', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(at('GET /v1/contacts')).toHaveLength(3);
  });
});

describe('a failure says what happened, and how to check and retry without paying twice', () => {
  it("the user reruns with the printed key until exit 0: one charge, the first email's id", async () => {
    proxy.plan(SEND, 'drop', 'drop');
    const first = await vmv([...EMAIL, '--retries', '0', '--json']);
    expect(first.code).toBe(4);
    const err = JSON.parse(first.stderr).error;
    expect(err).toMatchObject({
      code: 'network_error',
      reason: 'connection_lost',
      request: SEND,
      attempts: 1,
      may_have_been_applied: true,
    });
    expect(err.message).toBe(
      `The connection to ${proxy.url} was lost after the request was sent (UND_ERR_SOCKET): POST /v1/quick/emails may have been applied.`,
    );
    expect(err.message).not.toMatch(/running/);
    const key = err.idempotency_key;
    expect(key).toBe(at(SEND)[0].key);
    expect(err.hint).toContain(`rerun the command with --idempotency-key ${key}`);
    // it was applied: the email went, and was paid for
    expect(await charges('email')).toHaveLength(1);

    const runs = [first];
    while (runs[runs.length - 1].code !== 0 && runs.length < 5)
      runs.push(await vmv([...EMAIL, '--retries', '0', '--idempotency-key', key]));
    expect(runs.map((r) => r.code)).toEqual([4, 4, 0]);
    expect(runs[1].stderr).toContain(`Idempotency-Key: ${key}.`);
    const paid = await charges('email');
    expect(paid).toHaveLength(1);
    expect(runs[2].stdout).toBe(`${paid[0].reference_id}\n`);
    expect(at(SEND).map((s) => s.key)).toEqual([key, key, key]);
  });

  it('a server that never answers: the request timeout fires, naming itself; the key replays the email sent meanwhile', async () => {
    proxy.plan(SEND, 'stall');
    const r = await vmv([...EMAIL, '--request-timeout', '1', '--retries', '0']);
    expect(r.code).toBe(4);
    const key = at(SEND)[0].key!;
    expect(r.stderr).toContain(
      `error: No reply from ${proxy.url} within 1 s (--request-timeout): POST /v1/quick/emails may have been applied.\n`,
    );
    expect(r.stderr).toContain(
      `Idempotency-Key: ${key}. To retry safely, rerun the command with --idempotency-key ${key}`,
    );
    expect(await charges('email')).toHaveLength(1);
    const again = await vmv([...EMAIL, '--idempotency-key', key]);
    expect(again.code, again.stderr).toBe(0);
    expect(at(SEND)[1].replay).toBe('true');
    expect(await charges('email')).toHaveLength(1);
  });

  it('a read that never answers: retried, then the timeout named (VMV_REQUEST_TIMEOUT)', async () => {
    proxy.plan('GET /v1/contacts', 'hang', 'hang');
    const r = await vmv(['contacts', 'list'], { VMV_REQUEST_TIMEOUT: '0.5s', VMV_MAX_RETRIES: '1' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`error: No reply from ${proxy.url} within 0.5 s (--request-timeout; 2 attempts).\n`);
    expect(r.stderr).toContain('reading again is safe');
    expect(at('GET /v1/contacts')).toHaveLength(2);
  });

  it('connection refused: retried (nothing was sent), then "could not reach", nothing applied', async () => {
    const r = await cli([...EMAIL, '--json'], { env: { ...env(), VMV_BASE_URL: await closedPort() } });
    expect(r.code).toBe(4);
    const err = JSON.parse(r.stderr).error;
    expect(err).toMatchObject({
      code: 'network_error',
      reason: 'could_not_connect',
      attempts: 3,
      may_have_been_applied: false,
    });
    expect(err.message).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED \(3 attempts\)\.$/);
    expect(err.hint).toContain('running at that address');
    expect(err.idempotency_key).toBeUndefined();
    expect(await charges('email')).toHaveLength(0);
  });

  it("a gateway's 502 every time: exit 1, and the write may have been applied, with its key", async () => {
    proxy.plan(SEND, 502, 502);
    const r = await vmv([...EMAIL, '--retries', '1', '--json']);
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stderr).error;
    const key = at(SEND)[0].key;
    expect(err).toMatchObject({ code: 'http_502', may_have_been_applied: true, idempotency_key: key });
    expect(at(SEND).map((s) => s.key)).toEqual([key, key]);
    expect(await charges('email')).toHaveLength(1);
    const text = await vmv([...EMAIL, '--retries', '0', '--idempotency-key', key!]);
    expect(text.code, text.stderr).toBe(0); // the replay of the first
    expect(await charges('email')).toHaveLength(1);
    // the gateway's page is not the API's: the contract check saw it
    expect(await takeViolations()).toEqual([expect.stringContaining('POST /v1/quick/emails → 502')]);
  });

  it('a wait whose polls fail names the job its write created', async () => {
    proxy.plan('GET /v1/quick/actions/', 'drop', 'drop');
    const r = await vmv([
      'quick',
      'call',
      '+14155550100',
      '--goal',
      'Confirm Tuesday',
      '--wait',
      '--retries',
      '1',
      '--json',
    ]);
    expect(r.code).toBe(4);
    const id = (await charges('quick_call'))[0].reference_id;
    const err = JSON.parse(r.stderr).error;
    expect(err).toMatchObject({
      reason: 'connection_lost',
      request: `GET /v1/quick/actions/${id}`,
      id,
      idempotency_key: at('POST /v1/quick/ai-calls')[0].key,
    });
    expect(err.hint).toContain(`This command's write went through before the failure: ${id}.`);
  });
});

describe('what is not retried', () => {
  it('a /_sim write whose reply is lost: sent once (the control plane keeps no keys), said to be maybe applied', async () => {
    proxy.plan('POST /_sim/contacts', 'drop');
    const r = await vmv(['sim', 'contact', '--name', 'Grace Hopper']);
    expect(r.code).toBe(4);
    expect(at('POST /_sim/contacts')).toHaveLength(1);
    expect(r.stderr).toContain('POST /_sim/contacts may have been applied.');
    expect(r.stderr).toContain('keeps no Idempotency-Keys, so it was not sent again: check whether it was applied');
    expect(r.stderr).not.toContain('Retrying');
    const grace = (await sim.api('GET', '/v1/contacts?limit=100')).json.data.filter(
      (c: { name: string }) => c.name === 'Grace Hopper',
    );
    expect(grace).toHaveLength(1);
  });

  it('vmv api POST without a key: not sent again after a lost reply; with one, retried and charged once', async () => {
    const args = [
      'api',
      'POST',
      '/v1/quick/emails',
      '-f',
      'to[]=ada@example.com',
      '-f',
      'subject=Hi',
      '-f',
      'body=Hello',
    ];
    proxy.plan(SEND, 'drop');
    const bare = await vmv(args);
    expect(bare.code).toBe(4);
    expect(at(SEND)).toHaveLength(1);
    expect(at(SEND)[0].key).toBeUndefined(); // a raw tool adds none
    expect(bare.stderr).toContain('It carried no Idempotency-Key, so it was not sent again');
    expect(await charges('email')).toHaveLength(1);

    proxy.plan(SEND, 'drop');
    const keyed = await vmv([...args, '-H', 'Idempotency-Key: mail-1']);
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(
      at(SEND)
        .slice(1)
        .map((s) => [s.key, s.replay]),
    ).toEqual([
      ['mail-1', undefined],
      ['mail-1', 'true'],
    ]);
    expect(JSON.parse(keyed.stdout).data.id).toBe((await charges('email'))[0].reference_id);
    expect(await charges('email')).toHaveLength(2); // the keyless one, and this one once
  });

  it('--retries 0: nothing is sent twice', async () => {
    proxy.plan('GET /v1/contacts', 503);
    const r = await vmv(['contacts', 'list', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(at('GET /v1/contacts')).toHaveLength(1);
    await takeViolations(); // the injected 503
  });
});

describe('a certificate not accepted', () => {
  it('is "could not reach" (nothing was sent), named as the certificate, and not retried', async (ctx) => {
    const dir = tempDir();
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) return ctx.skip('openssl is not installed: it makes the test certificate');
    let requests = 0;
    const server = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => {
        requests++;
        res.end('{}');
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await cli([...EMAIL, '--json'], { env: { ...env(), VMV_BASE_URL: url, NODE_EXTRA_CA_CERTS: '' } });
      expect(r.code).toBe(4);
      const err = JSON.parse(r.stderr).error;
      expect(err).toMatchObject({ reason: 'certificate_not_accepted', attempts: 1, may_have_been_applied: false });
      expect(err.message).toMatch(
        new RegExp(`^Could not reach ${url}: its TLS certificate was not accepted \\(\\w+\\); nothing was sent\\.$`),
      );
      expect(err.hint).toContain('NODE_EXTRA_CA_CERTS');
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe("a rerun whose request is not the first one's", () => {
  it('is 409 idempotency_conflict, and the hint says the key did its work and what differs', async () => {
    expect((await vmv([...EMAIL, '--idempotency-key', 'rerun-1'])).code).toBe(0);
    const r = await vmv([
      'email',
      'send',
      '--to',
      'ada@example.com',
      '--subject',
      'Hello',
      '--body',
      'Another body',
      '--idempotency-key',
      'rerun-1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(idempotency_conflict, HTTP 409)');
    expect(r.stderr).toMatch(
      /A request with Idempotency-Key rerun-1 was already applied \(request [^)]+\), and this run's request is not the same/,
    );
    expect(await charges('email')).toHaveLength(1);
  });
});

describe('keys', () => {
  it("each of a command's writes has its own: KEY, KEY-2, ...; a write apart from the command's a UUID of its own", async () => {
    const ctx = new Context(await bufferIO(), env(), { idempotencyKey: 'k' });
    await ctx.call('POST', '/_sim/contacts', { body: { name: 'One' } });
    await ctx.call('POST', '/_sim/clock/advance', { body: { seconds: 1 }, idempotencyKey: undefined });
    await ctx.call('POST', '/_sim/contacts', { body: { name: 'Two' } });
    await ctx.call('GET', '/v1/contacts');
    await ctx.close();
    expect(proxy.seen.map((s) => s.key)).toEqual(['k', expect.stringMatching(/^[0-9a-f-]{36}$/), 'k-2', undefined]);
  });

  it("a KEY too long to take -2 within the API's 255 characters: the later writes take its SHA-256 and -n, the same on every rerun", async () => {
    const long = 'x'.repeat(255);
    for (let run = 0; run < 2; run++) {
      const ctx = new Context(await bufferIO(), env(), { idempotencyKey: long });
      await ctx.call('POST', '/_sim/contacts', { body: { name: 'One' } });
      await ctx.call('POST', '/_sim/contacts', { body: { name: 'Two' } });
      await ctx.close();
    }
    const sha = createHash('sha256').update(long).digest('hex');
    expect(proxy.seen.map((s) => s.key)).toEqual([long, `${sha}-2`, long, `${sha}-2`]);
  });

  it('an MCP tool call that writes carries a key of its own: a lost reply is retried, charged once', async () => {
    proxy.plan(SEND, 'drop');
    const tool = (await mcpTools()).find((t) => t.name === 'send_quick_email')!;
    const client = await createClient(
      { kind: 'remote', baseUrl: proxy.url, apiKey: sim.key, profile: 'default', dataFile: '' },
      { retryBaseMs: 1 },
    );
    const r = await callTool(tool, { to: ['ada@example.com'], subject: 'Hi', body: 'Hello' }, client);
    await client.close();
    expect(r.isError).toBeFalsy();
    expect(at(SEND).map((s) => [s.key, s.replay])).toEqual([
      [expect.stringMatching(/^[0-9a-f-]{36}$/), undefined],
      [at(SEND)[0].key, 'true'],
    ]);
    expect(await charges('email')).toHaveLength(1);
  });

  it('a client made without options retries by default; the embedded target (no network) gets no generated key', async () => {
    proxy.plan('GET /v1/contacts', 'drop');
    const remote = { kind: 'remote' as const, baseUrl: proxy.url, apiKey: sim.key, profile: 'default', dataFile: '' };
    const client = await createClient(remote, { retryBaseMs: 1 });
    expect((await client.request('GET', '/v1/contacts')).status).toBe(200);
    await client.close();
    expect(at('GET /v1/contacts')).toHaveLength(2);
    expect(await newIdempotencyKey(remote)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(await newIdempotencyKey({ ...remote, kind: 'embedded', baseUrl: null })).toBeUndefined();
  });
});
