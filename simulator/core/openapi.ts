// The API description, generated from the route declarations (never edited by hand): an OpenAPI
// 3.1 document whose every operation carries its scope, parameters, body, success responses and
// error responses with their codes, each body with an example. `npm run build` writes it to
// openapi.json; GET /v1/openapi.json serves it without a key. The /_sim control plane is
// described the same way in a document of its own (GET /_sim/openapi.json).
import * as z from 'zod/mini';
import { ErrorEnvelope } from './schema.js';
import type { Resource, Route } from './http.js';

export const API_VERSION = '1.0.0';

type Json = Record<string, unknown>;

/** The errors every route can answer by the conventions (spec Parts 4, 7, 8), on top of its own. */
function conventionErrors(r: Route, isApi: boolean): Record<number, string[]> {
  // 403 origin_not_allowed and 421 host_not_allowed: the simulator's server refuses browsers' cross-site and DNS-rebound requests;
  // 400 bad_request: a path spelt other than plainly (dot segments...), or malformed HTTP
  const e: Record<number, string[]> = {
    400: ['validation_error', 'bad_request'],
    403: ['origin_not_allowed'],
    421: ['host_not_allowed'],
    500: ['internal_error'],
    503: ['store_busy'],
    507: ['insufficient_storage'],
  };
  if (isApi && !r.public) {
    e[401] = ['unauthorized'];
    e[403] = r.plan ? ['forbidden', 'plan_not_included', 'origin_not_allowed'] : ['forbidden', 'origin_not_allowed'];
  }
  // the control plane needs no key, but refuses one that is not valid, and (bound beyond loopback) a
  // client beyond its machine without the control token
  if (!isApi) e[401] = ['unauthorized', 'control_token_required'];
  if (r.method !== 'GET') {
    if (isApi) e[409] = ['idempotency_conflict'];
    e[413] = ['payload_too_large'];
    e[415] = ['unsupported_media_type'];
  }
  return e;
}

const ERROR_WORDS: Record<number, string> = {
  400: 'The request is invalid',
  401: 'Missing or invalid API key',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'The body is too large',
  415: 'The body is not application/json',
  416: 'The range is outside the file',
  421: 'Not a host this server answers to',
  422: 'Cannot be processed',
  429: 'Rate limited',
  500: 'Unexpected server error',
  503: 'The store is busy; retry',
  507: "The simulator's disk is full: nothing was applied",
};

/** Converts schemas to JSON Schema, collecting named ones (meta id) into components.schemas. */
class Converter {
  readonly schemas: Record<string, Json> = {};

  convert(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
    const out = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      reused: 'inline',
    }) as Json;
    delete out.$schema;
    const defs = (out.$defs ?? {}) as Record<string, Json>;
    delete out.$defs;
    for (const [id, def] of Object.entries(defs)) this.define(id, def);
    return relink(out) as Json;
  }

  private define(id: string, def: Json): void {
    const linked = relink(def) as Json;
    delete linked.id;
    const prev = this.schemas[id];
    if (prev && JSON.stringify(prev) !== JSON.stringify(linked))
      throw new Error(`two different schemas are named ${id}`);
    this.schemas[id] = linked;
  }
}

/** Points zod's local $defs references at components.schemas. */
function relink(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(relink);
  if (typeof v !== 'object' || v === null) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = k === '$ref' && typeof x === 'string' ? x.replace('#/$defs/', '#/components/schemas/') : relink(x);
  }
  return out;
}

/**
 * An example built from the schema: the first of a schema's own examples, else one made from its
 * properties' examples (every property, optional ones included), else a plain value of its type.
 */
export function exampleOf(s: Json, components: Record<string, Json>, depth = 0): unknown {
  if (depth > 12) return null;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (typeof s.$ref === 'string') return exampleOf(components[s.$ref.split('/').pop()!] ?? {}, components, depth + 1);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  // (an object's anyOf/oneOf of required fields says which it needs: the example is made from its properties)
  const variants = (s.properties === undefined ? (s.anyOf ?? s.oneOf) : undefined) as Json[] | undefined;
  if (variants) {
    const nonNull = variants.find((x) => x.type !== 'null') ?? variants[0];
    return exampleOf(nonNull, components, depth + 1);
  }
  if (Array.isArray(s.allOf)) return exampleOf(s.allOf[0] as Json, components, depth + 1);
  switch (s.type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const out: Json = {};
      for (const [k, p] of Object.entries(props)) out[k] = exampleOf(p, components, depth + 1);
      return out;
    }
    case 'array': {
      const item = exampleOf((s.items ?? {}) as Json, components, depth + 1);
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      return Array.from({ length: Math.max(1, min) }, () => item);
    }
    case 'string':
      if (s.format === 'date-time') return '2026-01-05T09:00:00.000Z';
      if (s.format === 'uuid') return '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90';
      if (s.format === 'uri') return 'https://example.com/';
      if (s.format === 'email') return 'maria@example.com';
      return typeof s.minLength === 'number' && s.minLength > 6 ? 'x'.repeat(s.minLength) : 'string';
    case 'integer':
    case 'number':
      // a declared lower bound, unless it is only the safe-integer range zod gives every integer
      return typeof s.minimum === 'number' && s.minimum > -1e9 ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

/**
 * The error envelope with `code` narrowed to the codes one response can carry, named after them
 * (ErrorValidationError, ErrorIdempotencyConflictOrConflict …) so that each set is written once.
 */
function errorSchema(schemas: Record<string, Json>, codes: string[]): Json {
  const name = `Error${codes
    .map((c) =>
      c
        .split('_')
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join(''),
    )
    .join('Or')}`;
  if (!schemas[name]) {
    const out = structuredClone(schemas.Error) as { properties: { error: { properties: { code: Json } } } } & Json;
    const code = out.properties.error.properties.code;
    delete code.examples;
    code.enum = codes;
    out.description = `The error envelope, with code ${codes.join(' or ')}.`;
    schemas[name] = out;
  }
  return { $ref: `#/components/schemas/${name}` };
}

const operationId = (r: Route) =>
  `${r.method.toLowerCase()}_${r.path
    .replace(/^\/(v1|_sim)\//, '')
    .replace(/\{(\w+)\}/g, 'by_$1')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/_+$/, '')}`;

function scopeText(r: Route): string {
  if (r.public) return 'No API key needed.';
  const plan = r.plan
    ? ` Needs a plan that includes ${r.plan === 'content' ? 'Content' : 'the assistant'} (403 \`plan_not_included\` otherwise).`
    : '';
  if (r.scope === 'full' || r.scope === undefined)
    return `Scope: a full-access API key (the service names no narrower scope for this endpoint).${plan}`;
  return `Scope: \`${r.scope}\`.${plan}`;
}

export interface DocumentOptions {
  prefix: '/v1/' | '/_sim/';
  title: string;
  description: string;
}

/** The OpenAPI document of the routes under `o.prefix` (/v1/: the API; /_sim/: the control plane). */
export function buildDocument(resources: readonly Resource[], o: DocumentOptions): Json {
  const conv = new Converter();
  conv.convert(ErrorEnvelope, 'output'); // components.schemas.Error: what each error reply's envelope narrows
  const paths: Record<string, Json> = {};
  const tags: { name: string; description: string }[] = [];
  const isApi = o.prefix === '/v1/';

  for (const res of resources) {
    const routes = res.routes.filter((r) => r.path.startsWith(o.prefix));
    if (routes.length === 0) continue;
    const tag = res.tag ?? { name: 'Other', description: '' };
    if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
    for (const r of routes) {
      const pathItem = (paths[r.path] ??= {});
      pathItem[r.method.toLowerCase()] = operation(r, tag.name, conv, isApi);
    }
  }

  const doc = frame(o, tags, paths, conv.schemas);
  // the control plane needs no key; one sent picks its workspace
  doc.security = isApi ? [{ apiKey: [] }] : [{}, { apiKey: [] }];
  dropUnused(doc);
  return doc;
}

/** One route's operation: who may call it, its parameters and body, and every reply it can give. */
function operation(r: Route, tag: string, conv: Converter, isApi: boolean): Json {
  const op: Json = {
    operationId: operationId(r),
    summary: r.summary,
    description: [r.description, isApi ? scopeText(r) : undefined].filter(Boolean).join('\n\n'),
    tags: [tag],
  };
  if (isApi) {
    op.security = r.public ? [] : [{ apiKey: r.scope && r.scope !== 'full' ? [r.scope] : [] }];
    op['x-scope'] = scopeNeeded(r);
  }
  const write = isApi && r.method !== 'GET';
  const parameters = [...parametersOf(r.params, 'path', conv), ...parametersOf(r.query, 'query', conv)];
  if (write) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (parameters.length) op.parameters = parameters;
  if (r.body) op.requestBody = requestBodyOf(r.body, conv);
  op.responses = { ...successResponses(r, conv, write), ...errorResponses(r, conv, isApi, write) };
  return op;
}

/** The scope an operation's x-scope names: its own, full_access where the spec names none, null for a public one. */
function scopeNeeded(r: Route): string | null {
  if (r.public) return null;
  return r.scope && r.scope !== 'full' ? r.scope : 'full_access';
}

/** The path or query parameters an object schema declares, each with its description and an example. */
function parametersOf(schema: z.ZodMiniObject | undefined, where: 'path' | 'query', conv: Converter): Json[] {
  if (!schema) return [];
  const json = conv.convert(schema, 'input');
  const required = new Set((json.required ?? []) as string[]);
  const parameters: Json[] = [];
  for (const [name, s] of Object.entries((json.properties ?? {}) as Record<string, Json>)) {
    const { description, ...rest } = s;
    const p: Json = { name, in: where, required: where === 'path' || required.has(name), schema: rest };
    if (description) p.description = description;
    p.example = exampleOf(s, conv.schemas);
    parameters.push(p);
  }
  return parameters;
}

/** A JSON request body, required when it has required fields (a PATCH of nothing changes nothing, and is fine). */
function requestBodyOf(body: z.ZodMiniType, conv: Converter): Json {
  const schema = conv.convert(body, 'input');
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  return { required, content: { 'application/json': { schema, example: exampleOf(schema, conv.schemas) } } };
}

/** A reply's headers: its request id always, a replay mark on a write's success, Retry-After on a 429. */
function headersOf(
  write: boolean,
  status: number,
  extra?: Record<string, { description: string; schema: Json }>,
): Json {
  return {
    'Request-Id': { $ref: '#/components/headers/RequestId' },
    ...(write && status < 300 ? { 'Idempotency-Replay': { $ref: '#/components/headers/IdempotencyReplay' } } : {}),
    ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
    ...extra,
  };
}

/** The replies a route declares: a JSON body with its example, a file (binary), or none. */
function successResponses(r: Route, conv: Converter, write: boolean): Json {
  const responses: Json = {};
  for (const [status, d] of Object.entries(r.responses)) {
    if (!d.schema && !d.contentType) {
      responses[status] = { description: d.description, headers: headersOf(write, Number(status), d.headers) };
      continue;
    }
    const type = d.contentType ?? 'application/json';
    const media: Json = d.schema
      ? { schema: conv.convert(d.schema, 'output') }
      : { schema: { type: 'string', format: 'binary' } };
    if (d.schema) media.example = exampleOf(media.schema as Json, conv.schemas);
    responses[status] = {
      description: d.description,
      headers: headersOf(write, Number(status), d.headers),
      content: { [type]: media },
    };
  }
  return responses;
}

/** The error replies, by status: the conventions' and the route's own codes, each an envelope narrowed to them. */
function errorResponses(r: Route, conv: Converter, isApi: boolean, write: boolean): Json {
  const errors = conventionErrors(r, isApi);
  if (r.params) (errors[404] ??= []).push('not_found');
  for (const [status, codes] of Object.entries(r.errors ?? {}))
    for (const c of codes) if (!(errors[Number(status)] ??= []).includes(c)) errors[Number(status)].push(c);
  const responses: Json = {};
  for (const [status, codes] of Object.entries(errors).sort(([a], [b]) => Number(a) - Number(b))) {
    const schema = errorSchema(conv.schemas, codes);
    responses[status] = {
      description: `${ERROR_WORDS[Number(status)] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
      headers: headersOf(write, Number(status)),
      content: {
        'application/json': {
          schema,
          example: {
            error: {
              code: codes[0],
              message: ERROR_WORDS[Number(status)] ?? 'Error',
              ...(status === '400' ? { fields: { field: 'why it is invalid' } } : {}),
            },
          },
        },
      },
    };
  }
  return responses;
}

/** The document around the paths: its info, server, tags, and the components operations refer to. */
function frame(
  o: DocumentOptions,
  tags: { name: string; description: string }[],
  paths: Record<string, Json>,
  schemas: Record<string, Json>,
): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: o.title,
      version: API_VERSION,
      description: o.description,
      license: { name: 'Proprietary', url: 'https://example.com/vmv/license' },
    },
    servers: [
      {
        url: 'http://127.0.0.1:4010',
        description: 'a local `vmv sim serve --port 4010` (paths begin with /v1 or /_sim)',
      },
    ],
    tags,
    paths,
    components: {
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255 },
          example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
          description:
            'Makes a write safe to retry: the same key with the same body replays the stored reply (with Idempotency-Replay: true); ' +
            'with another body it is 409 idempotency_conflict. Keys live 24 hours and are scoped to the API key. A UUID is recommended.',
        },
      },
      headers: {
        RequestId: {
          required: true,
          schema: { type: 'string' },
          example: 'req_4f1c2a9b7d3e8f6a5b0c',
          description: 'Identifies the request (an idempotency conflict names the original one).',
        },
        IdempotencyReplay: {
          schema: { type: 'string', enum: ['true'] },
          description: 'Present on a reply replayed for a repeated Idempotency-Key.',
        },
        RetryAfter: {
          schema: { type: 'integer', minimum: 1 },
          example: 30,
          description: 'Seconds to wait before retrying.',
        },
      },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Authorization: Bearer <API key>. A key is full-access or limited to scopes; each operation names the scope it needs.',
        },
      },
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}

/**
 * Drops the components a document does not refer to: the bare error envelope (error replies refer
 * to envelopes narrowed to their codes), and the control plane's idempotency and 429 headers.
 */
function dropUnused(doc: Json): void {
  const components = doc.components as Record<string, Json>;
  delete components.schemas.Error;
  const text = JSON.stringify(doc.paths);
  for (const kind of ['parameters', 'headers']) {
    for (const name of Object.keys(components[kind]))
      if (!text.includes(`"#/components/${kind}/${name}"`)) delete components[kind][name];
    if (Object.keys(components[kind]).length === 0) delete components[kind];
  }
}
