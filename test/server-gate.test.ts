// A `vmv sim serve` only its owner's tools can drive (issue 14, item 7): it answers only the hosts
// it serves (DNS rebinding), only loopback web pages (Origin), and only JSON bodies; and malformed
// HTTP gets the error envelope, not node's bare status (item 9). Real requests over HTTP; raw
// sockets where fetch will not send the request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../simulator/world.js';
import { recordExchange } from './contract.js';
import { cli, rawHttp, startSim, useTargets, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());

/** How many API keys the data file holds (read as a new process would: the snapshot and its journal): a refused request mints none. */
const keyCount = () => new Store(sim.data).withLock(async (ss) => (await ss.begin()).data.api_keys.length);

/** A request written as is, its reply checked against the API description like every other. */
async function raw(method: string, path: string, headers: Record<string, string>, body = '', url = sim.url) {
  const head = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const r = await rawHttp(url, `${method} ${path} HTTP/1.1\r\n${head}\r\n${body}`);
  recordExchange({
    method,
    url: path,
    status: r.status,
    contentType: r.headers['content-type'],
    headers: r.headers,
    body: r.text,
  });
  return r;
}

const hostOf = (url: string) => new URL(url).host;

describe('the Host a request names: loopback names and the bound address only (DNS rebinding)', () => {
  it('a foreign Host is 421 host_not_allowed, in the envelope, and mints no key', async () => {
    const before = await keyCount();
    const r = await raw('POST', '/_sim/api-keys', { host: 'attacker.example' });
    expect(r.status).toBe(421);
    expect(r.json.error.code).toBe('host_not_allowed');
    expect(r.json.error.message).toContain('"attacker.example"');
    expect(r.json.error.message).toContain('--allow-host');
    expect(r.headers['request-id']).toMatch(/^req_/);
    expect(r.json.error).not.toHaveProperty('key');
    expect(await keyCount()).toBe(before);
    // the same name with the simulator's port, and a /v1 route with a valid key
    const port = new URL(sim.url).port;
    expect(
      (await raw('GET', '/v1/contacts', { host: `attacker.example:${port}`, authorization: `Bearer ${sim.key}` }))
        .status,
    ).toBe(421);
  });
  it('two Host headers are 400 bad_request, whichever comes first (node would read only the first)', async () => {
    for (const [a, b] of [
      ['127.0.0.1', 'attacker.example'],
      ['attacker.example', '127.0.0.1'],
    ]) {
      const r = await rawHttp(
        sim.url,
        `GET /_sim/health HTTP/1.1\r\nHost: ${a}\r\nHost: ${b}\r\nConnection: close\r\n\r\n`,
      );
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({
        code: 'bad_request',
        message: 'The request has more than one Host header.',
      });
    }
  });
  it('a request without a Host is 421 too', async () => {
    const r = await rawHttp(sim.url, 'GET /_sim/health HTTP/1.0\r\n\r\n');
    expect(r.status).toBe(421);
    expect(r.json.error.message).toMatch(/no Host header/);
  });
  it('loopback names are answered, with any port', async () => {
    for (const host of [
      hostOf(sim.url),
      'localhost',
      'LOCALHOST:4010',
      'localhost.',
      '127.0.0.1',
      '127.8.9.10:80',
      '[::1]',
      '[::1]:9',
      '[::ffff:127.0.0.1]',
    ]) {
      const before = await keyCount();
      const r = await raw('POST', '/_sim/api-keys', { host, 'content-type': 'application/json' }, '{}');
      expect(r.status, host).toBe(201);
      expect(await keyCount()).toBe(before + 1);
    }
    for (const host of ['localhost.attacker.example', '127.0.0.1.attacker.example', 'evil.localhost'])
      expect((await raw('GET', '/_sim/health', { host })).status, host).toBe(421);
  });
});

describe('--allow-host and VMV_SIM_ALLOW_HOSTS: more names to answer to', () => {
  it('a name given by --allow-host (repeatable) is answered; others are not', async () => {
    const other = await startSim({ extraArgs: ['--allow-host', 'sim.test', '--allow-host', 'Devbox.Local'] });
    try {
      expect((await raw('GET', '/_sim/health', { host: 'sim.test:4010' }, '', other.url)).status).toBe(200);
      expect((await raw('GET', '/_sim/health', { host: 'devbox.local' }, '', other.url)).status).toBe(200);
      expect((await raw('GET', '/_sim/health', { host: hostOf(other.url) }, '', other.url)).status).toBe(200);
      expect((await raw('GET', '/_sim/health', { host: 'other.test' }, '', other.url)).status).toBe(421);
      expect((await raw('GET', '/_sim/health', { host: '192.168.1.20' }, '', other.url)).status).toBe(421);
    } finally {
      await other.stop();
    }
  });
  it('VMV_SIM_ALLOW_HOSTS (comma-separated) when no --allow-host is given', async () => {
    const other = await startSim({ env: { VMV_SIM_ALLOW_HOSTS: 'a.test, b.test' } });
    try {
      for (const host of ['a.test', 'b.test'])
        expect((await raw('GET', '/_sim/health', { host }, '', other.url)).status, host).toBe(200);
      expect((await raw('GET', '/_sim/health', { host: 'c.test' }, '', other.url)).status).toBe(421);
    } finally {
      await other.stop();
    }
  });
  it('bound to 0.0.0.0 it answers any IP address, but a name only when allowed', async () => {
    const other = await startSim({ extraArgs: ['--host', '0.0.0.0', '--allow-host', 'sim'] });
    try {
      const url = `http://127.0.0.1:${new URL(other.url).port}`;
      for (const host of ['192.168.1.20:4010', '10.0.0.7', '[fd00::5]:4010', 'sim:4010', 'localhost'])
        expect((await raw('GET', '/_sim/health', { host }, '', url)).status, host).toBe(200);
      expect((await raw('GET', '/_sim/health', { host: 'devbox.local' }, '', url)).status).toBe(421);
    } finally {
      await other.stop();
    }
  });
  it('a bad --allow-host value is a usage error (exit 2) before anything listens', async () => {
    for (const bad of ['http://sim.test', 'sim.test:4010', 'a b']) {
      const r = await cli(['sim', 'serve', '--port', '0', '--allow-host', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(
        `--allow-host takes a host name or IP address without scheme or port (or '*'), got "${bad}"`,
      );
    }
  });
});

describe('Origin: only web pages on a loopback address may call', () => {
  it('a foreign Origin is 403 origin_not_allowed on the control plane: a text/plain reset from a web page resets nothing', async () => {
    const before = sim.key;
    const r = await sim.api('POST', '/_sim/reset', {
      raw: '{}',
      headers: { origin: 'https://attacker.example', 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('origin_not_allowed');
    expect(r.json.error.message).toContain('"https://attacker.example"');
    expect((await sim.api('GET', '/v1/contacts', { key: before })).status).toBe(200); // the seeded key still works: no reset
  });
  it('a foreign Origin is 403 on /v1 too, reads and writes, with a valid key', async () => {
    const origin = { origin: 'http://evil.example:8080' };
    const read = await sim.api('GET', '/v1/contacts', { headers: origin });
    expect(read.status).toBe(403);
    expect(read.json.error.code).toBe('origin_not_allowed');
    const emails = () => sim.api('GET', '/v1/emails?email=ada%40example.com').then((r) => r.json.data.length);
    const sent = await emails();
    const write = await sim.api('POST', '/v1/quick/emails', {
      body: { to: ['ada@example.com'], subject: 'Hi', body: 'Hello' },
      headers: origin,
    });
    expect(write.status).toBe(403);
    expect(await emails()).toBe(sent);
    expect(
      (await sim.api('POST', '/v1/quick/emails', { body: { to: ['ada@example.com'], subject: 'Hi', body: 'Hello' } }))
        .status,
    ).toBe(200);
    expect(await emails()).toBe(sent + 1); // the same request from no web page is sent
  });
  it('Origin: null (a sandboxed frame, a file) and other schemes are refused', async () => {
    for (const origin of ['null', 'file://', 'chrome-extension://abcdef', 'http://127.0.0.1.attacker.example'])
      expect((await sim.api('GET', '/_sim/health', { headers: { origin } })).status, origin).toBe(403);
  });
  it('loopback origins are accepted, and a request without Origin (tools, media players) is answered', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'https://[::1]:8443', 'http://127.0.0.2'])
      expect((await sim.api('GET', '/v1/contacts', { headers: { origin } })).status, origin).toBe(200);
    const key = await sim.api('POST', '/_sim/api-keys', { body: {}, headers: { origin: 'http://localhost:3000' } });
    expect(key.status).toBe(201);
  });
});

describe('request bodies: application/json only (415 unsupported_media_type)', () => {
  it('a text/plain body is 415 and runs nothing', async () => {
    const before = sim.key;
    const r = await sim.api('POST', '/_sim/reset', { raw: '{"seed": 7}', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(r.json.error.code).toBe('unsupported_media_type');
    expect(r.json.error.message).toContain('"text/plain"');
    expect((await sim.api('GET', '/v1/contacts', { key: before })).status).toBe(200);
  });
  it('a form-encoded body is 415, and so is a body without Content-Type', async () => {
    const contacts = (await sim.api('GET', '/v1/contacts')).json.data.length;
    const form = await sim.api('POST', '/_sim/contacts', {
      raw: 'name=Eve',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const bare = await raw('POST', '/_sim/contacts', { host: hostOf(sim.url) }, '{"name":"Eve"}');
    expect(bare.status).toBe(415);
    expect(bare.json.error.message).toMatch(/no Content-Type/);
    expect((await sim.api('GET', '/v1/contacts')).json.data.length).toBe(contacts);
  });
  it('application/*+json and charsets other than UTF-8 are refused; a write declaring a non-JSON type is refused even without a body', async () => {
    const refused = [
      'application/merge-patch+json',
      'application/vnd.api+json',
      'application/json; charset=iso-8859-1',
      'multipart/form-data; boundary=x',
    ];
    for (const type of refused)
      expect(
        (await sim.api('PATCH', '/_sim/workspace', { raw: '{"name":"X"}', headers: { 'content-type': type } })).status,
        type,
      ).toBe(415);
    expect(
      (await raw('POST', '/_sim/reset', { host: hostOf(sim.url), 'content-type': 'application/x-www-form-urlencoded' }))
        .status,
    ).toBe(415);
  });
  it('application/json with a UTF-8 charset is taken, and a write without a body needs no Content-Type', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"'])
      expect(
        (
          await sim.api('PATCH', '/_sim/workspace', {
            raw: '{"name":"Acme Sandbox"}',
            headers: { 'content-type': type },
          })
        ).status,
        type,
      ).toBe(200);
    const reset = await raw('POST', '/_sim/reset', { host: hostOf(sim.url) });
    expect(reset.status).toBe(200);
    sim.key = reset.json.api_key;
    await sim.reset(); // back on the manual clock
  });
});

describe('malformed HTTP gets the error envelope', () => {
  const expectEnvelope = (r: Awaited<ReturnType<typeof rawHttp>>, status: number, code: string) => {
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['request-id']).toMatch(/^req_/);
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.text));
    expect(r.json).toEqual({ error: { code, message: expect.any(String) } });
  };
  const host = () => `Host: ${hostOf(sim.url)}\r\n`;

  it('a bad request line is 400 bad_request', async () => {
    for (const line of ['G@T / HTTP/1.1', 'GET / HTTP/9.9', 'GET /a b HTTP/1.1'])
      expectEnvelope(await rawHttp(sim.url, `${line}\r\n${host()}\r\n`), 400, 'bad_request');
  });
  it('an invalid header name or value character is 400 bad_request', async () => {
    const r = await rawHttp(sim.url, `GET /_sim/health HTTP/1.1\r\n${host()}X-Bad: a\x01b\r\n\r\n`);
    expectEnvelope(r, 400, 'bad_request');
    expect(r.json.error.message).toMatch(/^The request is not valid HTTP\/1\.1: .*header/i);
    expectEnvelope(
      await rawHttp(sim.url, `GET /_sim/health HTTP/1.1\r\n${host()}Bad Header: x\r\n\r\n`),
      400,
      'bad_request',
    );
  });
  it('headers over 16 KiB are 431 headers_too_large', async () => {
    const r = await rawHttp(sim.url, `GET /_sim/health HTTP/1.1\r\n${host()}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectEnvelope(r, 431, 'headers_too_large');
  });
  it('bad chunking, or Content-Length with Transfer-Encoding, is 400 and the request is not run', async () => {
    const contacts = (await sim.api('GET', '/v1/contacts')).json.data.length;
    const chunked = `POST /_sim/contacts HTTP/1.1\r\n${host()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    expectEnvelope(await rawHttp(sim.url, `${chunked}e\r\n{"name":"Eve"}\r\nzz\r\n\r\n`), 400, 'bad_request');
    expectEnvelope(await rawHttp(sim.url, `${chunked}zz\r\n{"name":"Eve"}\r\n0\r\n\r\n`), 400, 'bad_request');
    expectEnvelope(
      await rawHttp(
        sim.url,
        `POST /_sim/contacts HTTP/1.1\r\n${host()}Content-Type: application/json\r\nContent-Length: 14\r\nTransfer-Encoding: chunked\r\n\r\n{"name":"Eve"}`,
      ),
      400,
      'bad_request',
    );
    expect((await sim.api('GET', '/v1/contacts')).json.data.length).toBe(contacts);
  });
  it('the server keeps serving afterwards', async () => {
    expect((await sim.api('GET', '/_sim/health')).status).toBe(200);
  });
});

describe('our own clients send what the server takes', () => {
  const { both, targets } = useTargets({ resetEach: true });
  it('vmv api --input sends application/json on both targets; another Content-Type is 415 at the server (the in-process handler has no door)', async () => {
    const ok = await both(['api', 'POST', '/_sim/contacts', '--input', '-', '--json'], { stdin: '{"name":"Ada"}' });
    expect(ok.code).toBe(0);
    const args = ['api', 'POST', '/_sim/contacts', '--input', '-', '-H', 'Content-Type: text/plain'];
    const remote = await targets.remote.run(args, { stdin: '{"name":"Bob"}' });
    expect(remote.code).toBe(1);
    expect(JSON.parse(remote.stdout).error.code).toBe('unsupported_media_type');
    expect(remote.stderr).toContain('(unsupported_media_type, HTTP 415)');
    expect((await targets.embedded.run(args, { stdin: '{"name":"Bob"}' })).code).toBe(0);
    expect((await both(['sim', 'advance', '1m'])).code).toBe(0);
  });
});
