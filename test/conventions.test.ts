// Conventions on every endpoint (spec Parts 4, 7, 8): auth and scopes, the error envelope,
// idempotency keys and the list envelope, over HTTP against a started simulator.
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordExchange } from './contract.js';
import { startSim, T0, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const email = { to: ['ada@example.com'], subject: 'Hi', body: 'Hello' };
const newKey = async (scopes?: string[], workspace_id?: string) =>
  (await sim.api('POST', '/_sim/api-keys', { body: { scopes, workspace_id } })).json.key as string;

describe('Bearer authentication', () => {
  it('401 unauthorized without a key, in the envelope', async () => {
    const r = await sim.api('GET', '/v1/contacts', { key: null });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('unauthorized');
    expect(typeof r.json.error.message).toBe('string');
  });
  it('401 for an unknown key and for a malformed Authorization header', async () => {
    expect((await sim.api('GET', '/v1/contacts', { key: 'sk_sim_nope' })).status).toBe(401);
    const r = await sim.api('GET', '/v1/contacts', { key: null, headers: { authorization: 'Basic abc' } });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('unauthorized');
  });
  it('a key reset away no longer works', async () => {
    const old = sim.key;
    await sim.reset();
    expect((await sim.api('GET', '/v1/contacts', { key: old })).status).toBe(401);
    expect((await sim.api('GET', '/v1/contacts')).status).toBe(200);
  });
  it("403 forbidden for a key without the endpoint's scope; the scope grants it", async () => {
    const calls = await newKey(['calls:read']);
    const r = await sim.api('GET', '/v1/contacts', { key: calls });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('forbidden');
    expect((await sim.api('GET', '/v1/calls', { key: calls })).status).toBe(200);
    expect((await sim.api('GET', '/v1/messages', { key: calls })).status).toBe(403);
    const contacts = await newKey(['contacts:read']);
    expect((await sim.api('GET', '/v1/contacts', { key: contacts })).status).toBe(200);
  });
  it('endpoints whose scope the spec does not name need a full-access key', async () => {
    const scoped = await newKey(['contacts:read', 'email:read']);
    const r = await sim.api('POST', '/v1/quick/emails', { key: scoped, body: email });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('forbidden');
  });
  it("no key reaches another workspace's records", async () => {
    const other = (await sim.api('POST', '/_sim/workspaces', { body: { name: 'Other' } })).json;
    const contact = (
      await sim.api('POST', '/_sim/contacts', { body: { name: 'Private Person', email: 'p@x.example' } })
    ).json.data;
    const r = await sim.api('GET', `/v1/contacts/${contact.id}`, { key: other.api_key });
    expect(r.status).toBe(404);
    expect((await sim.api('GET', '/v1/contacts', { key: other.api_key })).json.data).toEqual([]);
    const call = (
      await sim.api('POST', '/_sim/calls', {
        body: { direction: 'outbound', from_number: '+15550000001', to_number: '+15550000002', has_recording: true },
      })
    ).json.data;
    expect((await sim.api('GET', `/v1/calls/${call.id}`, { key: other.api_key })).status).toBe(404);
    expect((await sim.api('GET', `/v1/calls/${call.id}/recording`, { key: other.api_key })).status).toBe(404);
    // and the other workspace's wallet is its own
    await sim.api('POST', '/v1/quick/emails', { key: other.api_key, body: email });
    expect((await sim.api('GET', '/_sim/workspace', { key: other.api_key })).json.wallet_usd).toBe(49.99);
    expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(50);
  });
});

describe('the error envelope', () => {
  it('unknown route → 404 not_found', async () => {
    const r = await sim.api('GET', '/v1/nothing-here');
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
  });
  it('a known path with another method → 405 in the envelope', async () => {
    const r = await sim.api('DELETE', '/v1/contacts');
    expect(r.status).toBe(405);
    expect(r.json.error.code).toBe('method_not_allowed');
  });
  it('malformed JSON → 400 validation_error with fields.body', async () => {
    const r = await sim.api('POST', '/v1/quick/emails', { raw: '{"to": [' });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.fields.body).toMatch(/not valid JSON/);
  });
  it('a non-object body → 400', async () => {
    for (const raw of ['[1,2]', '"text"', '42', 'null']) {
      const r = await sim.api('POST', '/v1/quick/emails', { raw });
      expect(r.status).toBe(400);
      expect(r.json.error.fields.body).toMatch(/JSON object/);
    }
  });
  it('wrong types → 400 with a per-field explanation', async () => {
    const r = await sim.api('POST', '/v1/quick/emails', { body: { to: 'ada@example.com', subject: 5, body: true } });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({
      to: 'must be an array, got string',
      subject: 'must be a string, got number',
      body: 'must be a string, got boolean',
    });
  });
  it('an oversized body → 413 in the envelope, and the server keeps serving', async () => {
    const r = await sim.api('POST', '/v1/quick/emails', {
      raw: JSON.stringify({ ...email, body: 'x'.repeat(1_100_000) }),
    });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('payload_too_large');
    expect((await sim.api('GET', '/_sim/health')).status).toBe(200);
  });
  it('__proto__ in a body is an unknown field and pollutes nothing', async () => {
    const r = await sim.api('POST', '/v1/quick/emails', {
      raw: JSON.stringify(email).replace('{', '{"__proto__":{"polluted":true},'),
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.__proto__).toBe('is not a known field');
    const c = await sim.api('POST', '/_sim/contacts', {
      raw: '{"name":"X","custom_fields":{"__proto__":{"admin":true},"plan":"gold"}}',
    });
    expect(c.status).toBe(400);
    expect(c.json.error.fields['custom_fields.__proto__']).toBeDefined();
  });
  it('never a stack trace: every error body is exactly the envelope', async () => {
    const r = await sim.api('GET', '/v1/calls?limit=abc');
    expect(Object.keys(r.json)).toEqual(['error']);
    expect(r.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});

describe('Idempotency-Key', () => {
  const post = (key: string, body: unknown, apiKey?: string) =>
    sim.api('POST', '/v1/quick/emails', { body, headers: { 'idempotency-key': key }, key: apiKey });

  it('same key and body replays the stored status and body with Idempotency-Replay: true, and runs once', async () => {
    const a = await post('k1', email);
    const b = await post('k1', email);
    expect(a.status).toBe(200);
    expect(a.headers.get('idempotency-replay')).toBeNull();
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(b.headers.get('idempotency-replay')).toBe('true');
    expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(49.99); // charged once
    const hist = await sim.api('GET', '/v1/emails?email=ada@example.com');
    expect(hist.json.data).toHaveLength(1);
  });
  it('same key with another body → 409 idempotency_conflict naming the original request', async () => {
    const a = await post('k2', email);
    const b = await post('k2', { ...email, subject: 'Other' });
    expect(b.status).toBe(409);
    expect(b.json.error.code).toBe('idempotency_conflict');
    expect(b.json.error.fields.conflicts_with).toBe(a.headers.get('request-id'));
  });
  it('records live 24 hours on the simulator clock, then the key is a fresh request', async () => {
    const a = await post('k3', email);
    await sim.advance(24 * 3600 - 1);
    expect((await post('k3', email)).headers.get('idempotency-replay')).toBe('true');
    await sim.advance(1);
    const c = await post('k3', email);
    expect(c.headers.get('idempotency-replay')).toBeNull();
    expect(c.json.data.id).not.toBe(a.json.data.id);
  });
  it('keys are scoped to the API key', async () => {
    const second = await newKey();
    const a = await post('k4', email);
    const b = await post('k4', email, second);
    expect(b.headers.get('idempotency-replay')).toBeNull();
    expect(b.json.data.id).not.toBe(a.json.data.id);
  });
  it('a failed request is not stored: the key can be used again once the body is fixed', async () => {
    expect((await post('k5', { ...email, subject: '' })).status).toBe(400);
    expect((await post('k5', email)).status).toBe(200);
  });
  it('concurrent requests with one key create one result', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => post('k6', email)));
    expect(new Set(replies.map((r) => r.json.data.id)).size).toBe(1);
    expect(replies.filter((r) => r.headers.get('idempotency-replay') === 'true')).toHaveLength(7);
    expect((await sim.api('GET', '/v1/emails?email=ada@example.com')).json.data).toHaveLength(1);
  });
});

describe('the list envelope', () => {
  const seedCalls = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await sim.api('POST', '/_sim/calls', {
        body: {
          direction: 'outbound',
          from_number: '+15550000001',
          to_number: `+1555100${String(i).padStart(4, '0')}`,
        },
      });
      await sim.advance(60);
    }
  };
  const seedTexts = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await sim.api('POST', '/_sim/texts', {
        body: {
          direction: 'inbound',
          from_number: `+1555200${String(i).padStart(4, '0')}`,
          to_number: '+15550000001',
          body: `t${i}`,
        },
      });
      await sim.advance(1);
    }
  };

  it('limit defaults to 20, newest first, with meta.page_size and an opaque cursor', async () => {
    await seedTexts(25);
    const r = await sim.api('GET', '/v1/messages');
    expect(r.json.data).toHaveLength(20);
    expect(r.json.data[0].body).toBe('t24');
    expect(r.json.meta.page_size).toBe(20);
    expect(typeof r.json.meta.cursor).toBe('string');
    const next = await sim.api('GET', `/v1/messages?cursor=${encodeURIComponent(r.json.meta.cursor)}`);
    expect(next.json.data.map((t: any) => t.body)).toEqual(['t4', 't3', 't2', 't1', 't0']);
    expect(next.json.meta.cursor).toBeUndefined();
  });
  it('order=asc reverses, and its cursor keeps the order', async () => {
    await seedTexts(5);
    const r = await sim.api('GET', '/v1/messages?order=asc&limit=3');
    expect(r.json.data.map((t: any) => t.body)).toEqual(['t0', 't1', 't2']);
    const next = await sim.api('GET', `/v1/messages?limit=3&cursor=${encodeURIComponent(r.json.meta.cursor)}`);
    expect(next.json.data.map((t: any) => t.body)).toEqual(['t3', 't4']);
  });
  it('limit maximum is 100 (50 for calls); out of range is 400 with fields.limit', async () => {
    expect((await sim.api('GET', '/v1/messages?limit=100')).status).toBe(200);
    for (const bad of ['0', '101', '-1', 'ten', '2.5']) {
      const r = await sim.api('GET', `/v1/messages?limit=${bad}`);
      expect(r.status).toBe(400);
      expect(r.json.error.fields.limit).toBeDefined();
    }
    expect((await sim.api('GET', '/v1/calls?limit=50')).status).toBe(200);
    expect((await sim.api('GET', '/v1/calls?limit=51')).json.error.fields.limit).toMatch(/between 1 and 50/);
    expect((await sim.api('GET', '/v1/contacts?limit=101')).status).toBe(400);
  });
  it('pages of calls walk every record exactly once', async () => {
    await seedCalls(7);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await sim.api('GET', `/v1/calls?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...r.json.data.map((c: any) => c.to_number));
      cursor = r.json.meta.cursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `+1555100${String(6 - i).padStart(4, '0')}`));
  });
  it('cursors are valid 24 hours, then 400 validation_error with fields.cursor', async () => {
    await seedTexts(3);
    const r = await sim.api('GET', '/v1/messages?limit=1');
    const c = encodeURIComponent(r.json.meta.cursor);
    await sim.advance(24 * 3600);
    expect((await sim.api('GET', `/v1/messages?limit=1&cursor=${c}`)).status).toBe(200);
    await sim.advance(1);
    const late = await sim.api('GET', `/v1/messages?limit=1&cursor=${c}`);
    expect(late.status).toBe(400);
    expect(late.json.error.code).toBe('validation_error');
    expect(late.json.error.fields.cursor).toMatch(/expired/);
  });
  it('a tampered cursor, or one from another list or filter, is 400 with fields.cursor', async () => {
    await seedTexts(3);
    const cur = (await sim.api('GET', '/v1/messages?limit=1')).json.meta.cursor as string;
    const tampered = cur.slice(0, -2) + (cur.endsWith('AA') ? 'BB' : 'AA');
    expect(
      (await sim.api('GET', `/v1/messages?cursor=${encodeURIComponent(tampered)}`)).json.error.fields.cursor,
    ).toBeDefined();
    expect(
      (await sim.api('GET', `/v1/calls?cursor=${encodeURIComponent(cur)}`)).json.error.fields.cursor,
    ).toBeDefined();
    expect(
      (await sim.api('GET', `/v1/messages?direction=outbound&cursor=${encodeURIComponent(cur)}`)).json.error.fields
        .cursor,
    ).toBeDefined();
  });
  it('unknown and repeated query parameters are 400', async () => {
    expect((await sim.api('GET', '/v1/messages?colour=red')).json.error.fields.colour).toBe(
      'is not a known query parameter',
    );
    expect((await sim.api('GET', '/v1/messages?limit=1&limit=2')).json.error.fields.limit).toBe('must be given once');
  });
  it('starts at the fixed manual-clock time', async () => {
    expect((await sim.api('GET', '/_sim/clock')).json.now).toBe(T0);
  });
});

/** A raw exchange's reply, checked against the API description like every other. */
function recordRaw(request: string, reply: string): void {
  const m = /^HTTP\/1\.1 (\d+)[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(reply);
  if (!m) return; // nothing came back: the request was not run
  const headers = Object.fromEntries(
    m[2].split('\r\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const [method, url] = request.split(' ');
  recordExchange({ method, url, status: Number(m[1]), contentType: headers['content-type'], headers, body: m[3] });
}

describe('hostile and malformed requests never reach a 500', () => {
  const raw = (payload: string, closeEarly = false) =>
    new Promise<string>((resolve) => {
      const { port } = new URL(sim.url);
      const sock = connect(Number(port), '127.0.0.1', () => {
        sock.write(payload);
        if (closeEarly) setTimeout(() => sock.destroy(), 50);
      });
      let out = '';
      sock.on('data', (d) => (out += d));
      sock.on('close', () => {
        recordRaw(payload, out);
        resolve(out);
      });
      sock.on('end', () => sock.end());
      sock.on('error', () => resolve(out));
    });

  it('a request whose body is cut off is not run', async () => {
    const before = sim.key;
    await raw(
      `POST /_sim/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"seed":`,
      true,
    );
    expect((await sim.api('GET', '/v1/contacts', { key: before })).status).toBe(200); // no reset happened
  });
  it('a malformed percent-escape in a path is 404', async () => {
    for (const p of ['/v1/contacts/%E0', '/v1/calls/%E0%A4%A']) {
      const r = await sim.api('GET', p);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
  });
  it('a path starting with // is a path, never a host: one with an empty segment, 400 (issue 31)', async () => {
    const r = await sim.api('GET', '//v1/calls');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('bad_request');
    for (const target of ['//[', '//a:b/v1/calls', '//%zz/']) {
      const out = await raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(out).toMatch(/^HTTP\/1\.1 400/);
    }
  });
  it('a crafted cursor is 400, not a crash', async () => {
    const r = await sim.api('GET', `/v1/calls?cursor=${encodeURIComponent('abc.aaaaaaaaaaaaaaaaaaaaaé')}`);
    expect(r.status).toBe(400);
    expect(r.json.error.fields.cursor).toBeDefined();
  });
  it('a deeply nested body is 400', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const r = await sim.api('POST', '/_sim/contacts', { raw: `{"name":"D","custom_fields":{"a":${deep}}}` });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.body).toMatch(/deeper/);
  });
  it('the API key is checked before the body: a bad key with a bad body is 401', async () => {
    const r = await sim.api('POST', '/v1/quick/emails', { key: 'nope', raw: '[]' });
    expect(r.status).toBe(401);
  });
  it('times need Z or an offset, and a real calendar date', async () => {
    for (const bad of ['2026-01-31T09:00', '2026-02-30', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z']) {
      const r = await sim.api('GET', `/v1/calls?created_after=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
    }
    for (const ok of ['2026-01-31', '2026-01-31T09:00Z', '2026-01-31T09:00:00+02:00', '2026-01-31T09:00:00.123Z'])
      expect((await sim.api('GET', `/v1/calls?created_after=${encodeURIComponent(ok)}`)).status, ok).toBe(200);
  });
  it("a workspace's key cannot mint keys for another workspace", async () => {
    const other = (await sim.api('POST', '/_sim/workspaces', { body: {} })).json;
    const ws1 = (await sim.api('GET', '/_sim/workspace')).json.id;
    const r = await sim.api('POST', '/_sim/api-keys', { key: other.api_key, body: { workspace_id: ws1 } });
    expect(r.status).toBe(403);
  });
  it('the same body with keys in another order is the same body for Idempotency-Key', async () => {
    const h = { 'idempotency-key': 'order-1' };
    const a = await sim.api('POST', '/v1/quick/emails', {
      headers: h,
      raw: JSON.stringify({ to: ['a@example.com'], subject: 's', body: 'b' }),
    });
    const b = await sim.api('POST', '/v1/quick/emails', {
      headers: h,
      raw: JSON.stringify({ body: 'b', subject: 's', to: ['a@example.com'] }),
    });
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotency-replay')).toBe('true');
    expect(b.text).toBe(a.text);
  });
  it('contact and suppression addresses may use upper case', async () => {
    expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'Bob', email: 'BOB@EX.CO' } })).status).toBe(201);
    expect((await sim.api('POST', '/_sim/suppressions', { body: { email: 'X@EXAMPLE.COM' } })).status).toBe(201);
  });
});
