// The API description (spec, Versioning: "the published description is version 1.0.0"): generated
// from the route declarations, served on both targets, complete, with valid examples, and the
// contract check that every other test relies on.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../simulator/world.js';
import { allResources, machineTable, resourceTable } from '../simulator/capabilities.js';
import { Store } from '../simulator/world.js';
import { ContractChecker, recordExchange, type Exchange } from './contract.js';
import { startSim, tempDir, type Sim } from './helpers.js';
import { under } from '../simulator/core/capability.js';
import { apiDocument } from '../simulator/capabilities.js';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

let api: Json;
let control: Json;
let sim: Sim;
beforeAll(async () => {
  api = await apiDocument('api');
  control = await apiDocument('control');
  sim = await startSim();
});
afterAll(() => sim.stop());

/** What needs no API key: the API description, and the signed media links. */
const PUBLIC = ['/v1/openapi.json', '/v1/media/videos/{id}/video.mp4', '/v1/media/videos/{id}/thumbnail.png'];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** The codes an error response declares (its schema is a named error envelope). */
const errorCodes = (doc: Json, res: Json): string[] => {
  const ref = res.content['application/json'].schema.$ref as string;
  return doc.components.schemas[ref.split('/').pop()!].properties.error.properties.code.enum;
};
const operations = (doc: Json) =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as Json })),
  );

describe('the document', () => {
  it('is OpenAPI 3.1 with info.version 1.0.0', () => {
    expect(api.openapi).toBe('3.1.0');
    expect(api.info.version).toBe('1.0.0');
    expect(control.openapi).toBe('3.1.0');
  });

  it('is the file the build wrote (openapi.json at the package root, listed in package.json files)', () => {
    const file = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(file).toEqual(api);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.files).toContain('openapi.json');
  });

  it('is served at GET /v1/openapi.json without a key, on both targets', async () => {
    const remote = await sim.api('GET', '/v1/openapi.json', { key: null });
    expect(remote.status).toBe(200);
    expect(remote.headers.get('content-type')).toMatch(/^application\/json/);
    expect(remote.json).toEqual(api);
    const app = createApp(new Store(`${tempDir()}/sim.json`));
    const embedded = await app.handle({ method: 'GET', url: '/v1/openapi.json', headers: {} });
    recordExchange({
      method: 'GET',
      url: '/v1/openapi.json',
      status: embedded.status,
      contentType: embedded.headers['content-type'],
      headers: embedded.headers,
      body: embedded.body,
    });
    expect(embedded.status).toBe(200);
    expect(JSON.parse(String(embedded.body))).toEqual(api);
    // it needs no key and ignores one sent, even a wrong one
    expect((await sim.api('GET', '/v1/openapi.json', { key: 'vmv_sk_wrong' })).status).toBe(200);
  });

  it("covers every route the simulator serves: /v1 in the API description, /_sim in the control plane's", async () => {
    const resources = await allResources();
    for (const res of resources) {
      for (const r of res.routes) {
        const doc = r.path.startsWith('/v1/') ? api : control;
        expect(doc.paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
      }
    }
    const served = new Set(resources.flatMap((res) => res.routes.map((r) => `${r.method} ${r.path}`)));
    for (const o of [...operations(api), ...operations(control)])
      expect(served, `${o.method} ${o.path}`).toContain(`${o.method} ${o.path}`);
  });

  it("finds each route through its resource's prefixes (resources load on first request)", async () => {
    for (const entry of resourceTable) {
      for (const r of (await entry.load()).routes) {
        expect(
          entry.prefixes.some((p) => under(r.path, p)),
          `${r.method} ${r.path} lies under ${entry.prefixes.join(', ')}`,
        ).toBe(true);
      }
    }
  });

  it('names, for each state machine, exactly the transitions it handles (machines load when one falls due)', async () => {
    for (const m of machineTable) expect(Object.keys(await m.load()).sort()).toEqual([...m.types].sort());
  });

  it('gives every /v1 operation a security requirement naming its scope, and every operation a summary', () => {
    for (const { path, method, op } of operations(api)) {
      expect(op.summary, `${method} ${path}`).toBeTruthy();
      expect(op.operationId, `${method} ${path}`).toBeTruthy();
      if (PUBLIC.includes(path)) {
        expect(op.security).toEqual([]);
        continue;
      }
      expect(op.security, `${method} ${path}`).toHaveLength(1);
      const scopes = op.security[0].apiKey as string[];
      expect(op['x-scope'], `${method} ${path}`).toBe(scopes.length ? scopes[0] : 'full_access');
    }
  });

  it("lists every error response with its codes, and the conventions' errors on every operation", () => {
    for (const { path, method, op } of operations(api)) {
      const at = `${method} ${path}`;
      for (const [status, res] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        const codes = errorCodes(api, res);
        expect(codes.length, at).toBeGreaterThan(0);
        for (const c of codes) expect(res.description, at).toContain(c);
      }
      expect(op.responses['400'], at).toBeDefined();
      expect(op.responses['500'], at).toBeDefined();
      if (!PUBLIC.includes(path)) expect(op.responses['401'], at).toBeDefined();
      if (method !== 'GET') expect(errorCodes(api, op.responses['409']), at).toContain('idempotency_conflict');
      if (path.includes('{')) expect(op.responses['404'], at).toBeDefined();
    }
  });

  it('has an example for every body, request and response, and each example is valid against its schema', () => {
    for (const [name, doc] of [
      ['api', api],
      ['control', control],
    ] as const) {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ ...doc, $id: `${name}.json` });
      for (const { path, method, op } of operations(doc)) {
        const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
        const base = `${name}.json#/paths/${esc(path)}/${method.toLowerCase()}`;
        const media: [string, Json][] = [];
        if (op.requestBody)
          media.push([`${base}/requestBody/content/application~1json`, op.requestBody.content['application/json']]);
        for (const [status, res] of Object.entries(op.responses as Json)) {
          for (const [type, m] of Object.entries((res.content ?? {}) as Json))
            if (type === 'application/json') media.push([`${base}/responses/${status}/content/${esc(type)}`, m]);
        }
        for (const [ref, m] of media) {
          expect(m.example, ref).toBeDefined();
          const validate = ajv.getSchema(`${ref}/schema`)!;
          expect(validate(m.example) ? [] : validate.errors, ref).toEqual([]);
        }
      }
    }
    // compiling a validator for each of some 400 bodies takes 27 s on a busy 2-core machine
  }, 120_000);
});

describe("the spec's endpoints of the capabilities built so far are in the document, with the scope the spec names", () => {
  // [method, path, scope]: the scope the spec names, or full access where it names none
  // (docs/spec-silent.md, Scopes)
  const FULL = 'full_access';
  const SPEC: [string, string, string][] = [
    ['POST', '/v1/quick/emails', FULL],
    ['POST', '/v1/quick/ai-calls', FULL],
    ['POST', '/v1/quick/ai-texts', FULL],
    ['GET', '/v1/quick/actions/{id}', FULL],
    ['POST', '/v1/quick/actions/{id}/cancel', FULL],
    ['POST', '/v1/quick/ai-numbers', FULL],
    ['GET', '/v1/quick/ai-numbers/{id}', FULL],
    ['GET', '/v1/phone-numbers/{id}/config', 'phone_numbers:read'],
    ['PATCH', '/v1/phone-numbers/{id}/config', 'phone_numbers:write'],
    ['GET', '/v1/phone-numbers/{id}/voices', 'phone_numbers:read'],
    ['GET', '/v1/phone-numbers', 'phone_numbers:read'],
    ['GET', '/v1/phone-numbers/search', FULL],
    ['DELETE', '/v1/phone-numbers/{id}', FULL],
    ['POST', '/v1/voice/calls', FULL],
    ['POST', '/v1/voice/calls/{id}/hangup', FULL],
    ['GET', '/v1/history/people', 'contacts:read'],
    ['GET', '/v1/contacts', 'contacts:read'],
    ['GET', '/v1/contacts/{id}', 'contacts:read'],
    ['GET', '/v1/history/calls', 'calls:read'],
    ['GET', '/v1/calls', 'calls:read'],
    ['GET', '/v1/history/calls/{id}', 'calls:read'],
    ['GET', '/v1/calls/{id}', 'calls:read'],
    ['GET', '/v1/history/calls/{id}/recording', 'calls:read'],
    ['GET', '/v1/calls/{id}/recording', 'calls:read'],
    ['GET', '/v1/history/texts', 'sms:read'],
    ['GET', '/v1/messages', 'sms:read'],
    ['GET', '/v1/history/emails', 'email:read'],
    ['GET', '/v1/emails', 'email:read'],
    ['POST', '/v1/voice/calls/webhooks', FULL],
    ['GET', '/v1/voice/calls/webhooks', FULL],
    ['DELETE', '/v1/voice/calls/webhooks/{id}', FULL],
    ['POST', '/v1/voice/calls/webhooks/{id}/test', FULL],
    ['POST', '/v1/sms/webhooks', FULL],
    ['POST', '/v1/sms/webhooks/{id}/test', FULL],
    ['POST', '/v1/videos/quote', 'videos:read'],
    ['POST', '/v1/videos', 'videos:write'],
    ['GET', '/v1/videos/{id}', 'videos:read'],
    ['GET', '/v1/videos', 'videos:read'],
    ['POST', '/v1/videos/{id}/approve', 'videos:write'],
    ['POST', '/v1/videos/{id}/retry', 'videos:write'],
    ['DELETE', '/v1/videos/{id}', 'videos:write'],
    ['GET', '/v1/videos/music', 'videos:read'],
    ['GET', '/v1/social-connections', 'videos:read'],
    ['POST', '/v1/videos/{id}/posts', 'videos:write'],
    ['GET', '/v1/videos/{id}/posts', 'videos:read'],
    ['DELETE', '/v1/posts/{id}', 'videos:write'],
    ['POST', '/v1/video-schedules', 'videos:write'],
    ['GET', '/v1/video-schedules', 'videos:read'],
    ['GET', '/v1/video-schedules/{id}', 'videos:read'],
    ['PATCH', '/v1/video-schedules/{id}', 'videos:write'],
    ['DELETE', '/v1/video-schedules/{id}', 'videos:write'],
    ['POST', '/v1/video-schedules/{id}/skip', 'videos:write'],
    ['GET', '/v1/video-schedules/{id}/videos', 'videos:read'],
    ['POST', '/v1/assistant/messages', 'assistant:write'],
    ['GET', '/v1/assistant/conversations/{id}', 'assistant:read'],
    ['GET', '/v1/assistant/conversations', 'assistant:read'],
  ];
  it.each(SPEC)('%s %s (%s)', (method, path, scope) => {
    const op = api.paths[path]?.[method.toLowerCase()];
    expect(op, `${method} ${path} is not in the document`).toBeDefined();
    expect(op['x-scope']).toBe(scope);
    expect(op.security).toEqual([{ apiKey: scope === FULL ? [] : [scope] }]);
  });
});

describe('the contract check', () => {
  let checker: ContractChecker;
  beforeAll(() => {
    checker = new ContractChecker({ api, control });
  });
  const good = async () => {
    const r = await sim.api('POST', '/v1/quick/emails', { body: { to: ['a@example.com'], subject: 'S', body: 'B' } });
    expect(r.status).toBe(200);
    return {
      method: 'POST',
      url: '/v1/quick/emails',
      status: 200,
      contentType: r.headers.get('content-type')!,
      headers: Object.fromEntries(r.headers),
      body: r.bytes,
      json: r.json,
    };
  };
  const withBody = (x: Exchange, json: unknown): Exchange => ({ ...x, body: JSON.stringify(json) });

  it('passes a real response', async () => {
    const x = await good();
    expect(checker.check(x)).toEqual([]);
  });

  it('fails a response with a missing field, an extra field, or a wrong type', async () => {
    const x = await good();
    const { cost_usd: _drop, ...missing } = x.json.data;
    expect(checker.check(withBody(x, { data: missing })).join('\n')).toMatch(/cost_usd/);
    expect(checker.check(withBody(x, { data: { ...x.json.data, surprise: 1 } })).join('\n')).toMatch(/surprise/);
    expect(checker.check(withBody(x, { data: { ...x.json.data, sent_to: 'a@example.com' } })).join('\n')).toMatch(
      /sent_to/,
    );
    expect(checker.check(withBody(x, { data: { ...x.json.data, kind: 'text' } }))).not.toEqual([]);
  });

  it('fails an undocumented status, an undocumented error code, a wrong content type and an unknown operation', async () => {
    const x = await good();
    expect(checker.check({ ...x, status: 201 }).join('\n')).toMatch(/status 201 is not documented/);
    expect(
      checker.check({ ...x, status: 400, body: JSON.stringify({ error: { code: 'made_up', message: 'x' } }) }),
    ).not.toEqual([]);
    expect(checker.check({ ...x, contentType: 'text/plain' }).join('\n')).toMatch(/content type/);
    expect(checker.check({ ...x, url: '/v1/quick/nothing-here' }).join('\n')).toMatch(/no operation/);
    const { 'request-id': _id, ...headers } = x.headers;
    expect(checker.check({ ...x, headers }).join('\n')).toMatch(/required header Request-Id is missing/);
    const lost = {
      ...x,
      url: '/v1/nothing',
      status: 404,
      body: JSON.stringify({ error: { code: 'forbidden', message: 'x' } }),
    };
    expect(checker.check(lost).join('\n')).toMatch(/answers not_found/);
  });
});

describe('every route declares its query: unknown parameters are refused on writes too', () => {
  it('POST /v1/quick/emails?dry_run=true is 400 and sends and charges nothing', async () => {
    await sim.reset();
    const before = (await sim.api('GET', '/_sim/workspace')).json.wallet_usd;
    const r = await sim.api('POST', '/v1/quick/emails?dry_run=true', {
      body: { to: ['a@example.com'], subject: 'S', body: 'B' },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({ dry_run: 'is not a known query parameter' });
    expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(before);
    expect((await sim.api('GET', '/v1/emails?email=a@example.com')).json.data).toEqual([]);
  });

  it('problems in the query and the body are reported together in one 400', async () => {
    const r = await sim.api('POST', '/v1/quick/emails?x=1', { body: { to: [], subject: 'S', body: 'B', extra: true } });
    expect(r.json.error.fields).toEqual({
      x: 'is not a known query parameter',
      to: 'must have at least one item',
      extra: 'is not a known field',
    });
  });
});

describe('validation reads as before the schemas moved to zod', () => {
  it('names the expected type and what was sent; query values are text, so only the expectation', async () => {
    const body = await sim.api('POST', '/v1/voice/calls/webhooks', {
      body: { url: 'https://example.com/h', phone_number_id: 'seven' },
    });
    expect(body.json.error.fields).toEqual({ phone_number_id: 'must be an integer, got string' });
    const q = await sim.api('GET', '/v1/calls?limit=ten&cursor=');
    expect(q.json.error.fields).toEqual({ limit: 'must be an integer', cursor: 'must be 1 to 1000 characters' });
    const range = await sim.api('GET', '/v1/calls?limit=0');
    expect(range.json.error.fields).toEqual({ limit: 'must be between 1 and 50' });
  });

  it('reports an unknown field at any depth by its path, and __proto__ is never merged', async () => {
    const r = await sim.api('POST', '/v1/quick/emails', {
      raw: '{"to":["a@example.com"],"subject":"S","body":"B","__proto__":{"x":1},"nested":{"a":1}}',
      headers: { 'content-type': 'application/json' },
    });
    // (a literal `{__proto__: ...}` would set a prototype, not a key: compare entries)
    expect(Object.entries(r.json.error.fields)).toEqual([
      ['__proto__', 'is not a known field'],
      ['nested', 'is not a known field'],
    ]);
    expect(r.json.error.fields.nested).toBe('is not a known field');
  });

  it('takes integers in paths and queries as digits only, as always ("1.0" and "-0" are not ids)', async () => {
    const n = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't1' } })).json;
    for (const id of [`${n.id}.0`, '-0', `+${n.id}`, `${n.id}e0`]) {
      const r = await sim.api('DELETE', `/v1/phone-numbers/${id}`);
      expect([r.status, r.json.error.fields], id).toEqual([400, { id: 'must be an integer' }]);
    }
    expect((await sim.api('GET', `/v1/phone-numbers/${n.id}/config`)).status).toBe(200);
    expect((await sim.api('GET', '/v1/contacts?limit=1.0')).json.error.fields).toEqual({ limit: 'must be an integer' });
  });

  it('an integer out of its declared range names the declared bound, not the safe-integer range', async () => {
    const r = await sim.api('POST', '/v1/quick/ai-calls', {
      body: { to_numbers: ['+14155550100'], goal: 'g', retry_attempts: 1e21, retry_delay_minutes: -1e21 },
    });
    expect(r.json.error.fields).toEqual({
      retry_attempts: 'must be at most 10',
      retry_delay_minutes: 'must be at least 1',
    });
  });

  it('lists problems object by object: unknown fields, then missing ones, then the rest; a query in the order written', async () => {
    const n = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json;
    const r = await sim.api('PATCH', `/v1/phone-numbers/${n.id}/config`, {
      body: {
        transfers: {
          rules: [{ condition: 'after_hours', action: 'voicemail', priority: 'high' }, { condition: 'after_hours' }],
        },
        zzz: 1,
      },
    });
    expect(Object.keys(r.json.error.fields)).toEqual([
      'zzz',
      'transfers.rules[0].priority',
      'transfers.rules[1].action',
    ]);
    const q = await sim.api('GET', '/v1/phone-numbers/search?area_code=41&limit=0&type=x&country=USA');
    expect(Object.keys(q.json.error.fields)).toEqual(['area_code', 'limit', 'type', 'country']);
  });

  it('keeps __proto__ out of free-form objects, and stores nested free-form values as sent', async () => {
    const bad = await sim.api('POST', '/_sim/contacts', {
      raw: '{"name":"P","custom_fields":{"__proto__":{"admin":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.json.error.fields).toEqual(Object.fromEntries([['custom_fields.__proto__', 'is not an allowed key']]));
    const ok = await sim.api('POST', '/_sim/contacts', {
      raw: '{"name":"Q","custom_fields":{"a":{"constructor":"Bob"}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(201);
    expect(ok.json.data.custom_fields).toEqual({ a: { constructor: 'Bob' } });
  });
});

describe('records stay within their own schemas', () => {
  it('an AI number of a 200-character business gets a configuration name of at most 100', async () => {
    await sim.reset();
    const business = 'B'.repeat(200);
    const n = (await sim.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415', business_name: business } }))
      .json.data;
    await sim.advance(120);
    const config = await sim.api('GET', `/v1/phone-numbers/${n.id}/config`);
    expect(config.status).toBe(200);
    expect([...config.json.data.name].length).toBe(100);
  });
});
