// Free-form input is bounded (issue 14, item 10): every array, object of free keys and string a
// client can send has a limit in the API description (and so in the MCP tools, built from it),
// and free-form JSON (call metadata, contact custom fields) is refused over its bounds, over HTTP.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';
import { apiDocument } from '../simulator/capabilities.js';

type Json = Record<string, any>;

/**
 * Every request-side value of a document without a bound: an array without maxItems, an object
 * of free keys without maxProperties, a string without maxLength (an enum or a constant is
 * bounded), a value of any type. Path and query parameters and request bodies are walked;
 * responses are the server's own and are not.
 */
function unbounded(doc: Json): string[] {
  const components = (doc.components?.schemas ?? {}) as Record<string, Json>;
  const out: string[] = [];
  const walk = (s: Json, at: string, seen: Set<string>): void => {
    if (s.$ref) {
      const name = String(s.$ref).split('/').pop()!;
      if (!seen.has(name)) walk(components[name], at, new Set([...seen, name]));
      return;
    }
    // (an object's anyOf/oneOf of `{required: [...]}` says which fields it needs: no value of its own)
    const variants = ([...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])] as Json[]).filter(
      (v) => !(Object.keys(v).length === 1 && Array.isArray(v.required)),
    );
    variants.forEach((v) => walk(v, at, seen));
    if (s.enum !== undefined || s.const !== undefined) return;
    if (s.type === undefined && variants.length === 0) out.push(`${at}: a value of any type`);
    // a type may be a list ("string", "null")
    const is = (t: string) => s.type === t || (Array.isArray(s.type) && s.type.includes(t));
    if (is('string') && s.maxLength === undefined) out.push(`${at}: a string without maxLength`);
    if (is('array')) {
      if (s.maxItems === undefined) out.push(`${at}: an array without maxItems`);
      ((s.prefixItems ?? []) as Json[]).forEach((p, i) => walk(p, `${at}[${i}]`, seen));
      if (s.items !== false) walk(s.items ?? {}, `${at}[]`, seen);
    }
    if (is('object')) {
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Json>)) walk(v, `${at}.${k}`, seen);
      if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
        if (s.maxProperties === undefined) out.push(`${at}: an object of free keys without maxProperties`);
        walk(s.propertyNames ?? { type: 'string' }, `${at} (a key)`, seen);
        if (s.additionalProperties !== true) walk(s.additionalProperties, `${at}.*`, seen);
        else out.push(`${at}.*: a value of any type`);
      }
    }
  };
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const p of (op.parameters ?? []) as Json[])
        walk(
          p.$ref ? (doc.components.parameters[p.$ref.split('/').pop()].schema as Json) : p.schema,
          `${where} ${p.in ?? 'header'} ${p.name ?? p.$ref}`,
          new Set(),
        );
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) walk(body, `${where} body`, new Set());
    }
  }
  return out;
}

describe('every value a client sends has a bound in the API description', () => {
  it('the walk finds each kind of unbounded input (so that it can find one in the documents)', () => {
    const doc = {
      components: { schemas: { Tags: { type: 'array', items: { type: 'string', maxLength: 9 } } } },
      paths: {
        '/v1/x/{id}': {
          post: {
            parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }],
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      tags: { $ref: '#/components/schemas/Tags' },
                      meta: { type: 'object', additionalProperties: {} },
                      kind: { type: 'string', enum: ['a'] },
                      ok: {
                        type: 'array',
                        maxItems: 2,
                        items: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] },
                      },
                      note: { type: ['string', 'null'] },
                      pair: {
                        type: 'array',
                        maxItems: 2,
                        prefixItems: [{ type: 'string', maxLength: 1 }, { type: 'string' }],
                        items: false,
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    expect(unbounded(doc)).toEqual([
      'POST /v1/x/{id} path id: a string without maxLength',
      'POST /v1/x/{id} body.tags: an array without maxItems',
      'POST /v1/x/{id} body.meta: an object of free keys without maxProperties',
      'POST /v1/x/{id} body.meta (a key): a string without maxLength',
      'POST /v1/x/{id} body.meta.*: a value of any type',
      'POST /v1/x/{id} body.note: a string without maxLength',
      'POST /v1/x/{id} body.pair[1]: a string without maxLength',
    ]);
  });
  it('the API (/v1) and the control plane (/_sim)', async () => {
    for (const which of ['api', 'control'] as const) expect(unbounded(await apiDocument(which)), which).toEqual([]);
  });
});

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const keys = (n: number, value: (i: number) => unknown = (i) => i) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));

describe('free-form JSON: call metadata', () => {
  const call = async (metadata: unknown) => {
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    return sim.api('POST', '/v1/voice/calls', {
      body: { caller_id: '+12025551111', destination: '+12025550100', metadata },
    });
  };
  it('over the bounds: 400 naming each field and its limit; nothing is placed', async () => {
    // what was stored before there were bounds
    expect((await call({ long: 'x'.repeat(900_000) })).json.error.fields).toEqual({
      'metadata.long': 'must be at most 500 characters (got 900000)',
      metadata: 'must be at most 8192 bytes as JSON (got 900011)',
    });
    expect((await call({ many: Array.from({ length: 100_000 }, () => 1) })).json.error.fields).toEqual({
      'metadata.many': 'must have at most 50 items (got 100000)',
      metadata: 'must be at most 8192 bytes as JSON (got 200010)',
    });
    const r = await call({ ['k'.repeat(41)]: 1, deep: { a: { b: { c: 1 } } }, list: [[[1]]], wide: keys(51) });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({
      [`metadata.${'k'.repeat(41)}`]: 'is a key of 41 characters: keys have at most 40',
      'metadata.deep.a.b': 'must be a string, number, true/false or null: objects and lists nest at most 3 levels deep',
      'metadata.list[0][0]':
        'must be a string, number, true/false or null: objects and lists nest at most 3 levels deep',
      'metadata.wide': 'must have at most 50 keys (got 51)',
    });
    expect((await call(keys(51))).json.error.fields).toEqual({ metadata: 'must have at most 50 keys (got 51)' });
    expect((await call(keys(20, () => 'x'.repeat(500)))).json.error.fields).toEqual({
      metadata: 'must be at most 8192 bytes as JSON (got 10171)',
    });
    expect((await sim.api('GET', '/v1/calls')).json.data).toEqual([]);
  });
  it('at the bounds: kept on the call as sent', async () => {
    const at = {
      ...keys(45),
      text: 'x'.repeat(500),
      ['k'.repeat(40)]: null,
      deep: { a: { b: 1 }, l: [true, 'y'] },
      list: Array.from({ length: 50 }, (_, i) => i),
      obj: keys(50),
    };
    expect(Object.keys(at)).toHaveLength(50);
    const r = await call(at);
    expect(r.json.error).toBeUndefined();
    expect(r.status).toBe(201);
    expect((await sim.api('GET', `/v1/calls/${r.json.data.id}`)).json.data.metadata).toEqual(at);
  });
  it('contact custom fields have the same bounds', async () => {
    const r = await sim.api('POST', '/_sim/contacts', {
      body: { name: 'Ada', custom_fields: { plan: 'x'.repeat(501), ok: 'gold' } },
    });
    expect(r.json.error.fields).toEqual({ 'custom_fields.plan': 'must be at most 500 characters (got 501)' });
    expect(
      (await sim.api('POST', '/_sim/contacts', { body: { name: 'Ada', custom_fields: { plan: 'x'.repeat(500) } } }))
        .status,
    ).toBe(201);
  });
});

describe('qualification.collect_fields: at most as many items as there are contact details', () => {
  const all = ['name', 'email', 'phone_number', 'company', 'job_title', 'address'];
  it('over the bound: 400 naming the limit; at it, kept', async () => {
    const id = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't1' } })).json.id as number;
    const patch = (collect_fields: unknown) =>
      sim.api('PATCH', `/v1/phone-numbers/${id}/config`, { body: { qualification: { collect_fields } } });
    expect((await patch(Array.from({ length: 100_000 }, () => 'name'))).json.error.fields).toEqual({
      'qualification.collect_fields': 'must have at most 6 items (got 100000)',
    });
    expect((await patch([...all, 'name'])).json.error.fields).toEqual({
      'qualification.collect_fields': 'must have at most 6 items (got 7)',
    });
    expect((await patch(all)).json.data.qualification.collect_fields).toEqual(all);
  });
  it('a list of choices names each choice once: a repeat is 400 naming the first (and the booking days alike)', async () => {
    const id = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't1' } })).json.id as number;
    const r = await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, {
      body: {
        qualification: { collect_fields: ['name', 'email', 'name'] },
        booking: { bookable_days: ['mon', 'mon'] },
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({
      'qualification.collect_fields[2]': 'repeats qualification.collect_fields[0]',
      'booking.bookable_days[1]': 'repeats booking.bookable_days[0]',
    });
    const doc = (await sim.api('GET', '/v1/openapi.json')).json;
    expect(JSON.stringify(doc)).toContain('"uniqueItems":true');
  });
});

describe('the Idempotency-Key header: 1 to 255 characters, as the API description says', () => {
  it('a longer key is 400 naming the header, and nothing is made or stored', async () => {
    const body = { url: 'https://example.com/hooks' };
    const long = await sim.api('POST', '/v1/sms/webhooks', { body, headers: { 'idempotency-key': 'b'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.json.error.fields).toEqual({ 'Idempotency-Key': 'must be 1 to 255 characters (got 256)' });
    expect((await sim.api('GET', '/v1/sms/webhooks')).json.data).toEqual([]);
    expect(readFileSync(sim.data, 'utf8')).not.toContain('b'.repeat(256));
    expect(
      (await sim.api('POST', '/v1/sms/webhooks', { body, headers: { 'idempotency-key': 'b'.repeat(255) } })).status,
    ).toBe(201);
  });
});
