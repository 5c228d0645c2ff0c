// The schema vocabulary of the API, on zod 4 (its tree-shakable "mini" build, which keeps the CLI's
// start-up small). Every route declares its path parameters, query, body and responses with these;
// the same declarations validate requests (app.ts), describe the API (openapi.ts) and type the code
// (z.infer). The constructors below only choose zod checks and attach descriptions and examples;
// check.ts checks a value against them and words zod's issues as the API's per-field explanations.
import * as z from 'zod/mini';
import { E164, isIsoTime } from '../../src/formats.js';

export type Infer<S extends z.ZodMiniType> = z.output<S>;

export { E164, isIsoTime };
/** The spec's address pattern (quick email reply_to): no whitespace or @<>(),;:" in either part, a dot, a lower-case ending of 2+ letters. */
export const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[a-z]{2,}$/;
/** An address in the spec's pattern, any letter case (reply_to alone needs a lower-case ending: EMAIL). */
export const EMAIL_ANY_CASE = new RegExp(EMAIL.source, 'i');
/** Keys that must never reach an object merge (prototype pollution). */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** What every constructor can say about its value in the API description. */
export interface Doc {
  description?: string;
  example?: unknown;
}

/**
 * Adds metadata (JSON Schema keywords: description, examples, format, id) to a schema, merged into
 * what it has, in place: building the routes' schemas is on a command's start-up path, and a copy
 * per annotation doubled it. Safe because every constructor here makes a new schema per call, so
 * no two uses share one.
 */
function annotate<S extends z.ZodMiniType>(schema: S, meta: Record<string, unknown>): S {
  const prev = z.globalRegistry.get(schema) as Record<string, unknown> | undefined;
  if (prev) z.globalRegistry.remove(schema);
  z.globalRegistry.add(schema, { ...prev, ...meta });
  return schema;
}

/**
 * JSON Schema keywords the API description needs that zod's types cannot say (readOnly; a rule
 * across fields: check.ts `requiredOf`, which also enforces it), so generated clients and fuzzers
 * do not send what is always refused.
 */
export const describedAs = <S extends z.ZodMiniType>(schema: S, keywords: Record<string, unknown>): S =>
  annotate(schema, keywords);

/** Attaches a description and an example (JSON Schema `description`, `examples`). */
export function doc<S extends z.ZodMiniType>(schema: S, d: Doc | string | undefined): S {
  if (d === undefined) return schema;
  const o = typeof d === 'string' ? { description: d } : d;
  const meta: Record<string, unknown> = {};
  if (o.description !== undefined) meta.description = o.description;
  if (o.example !== undefined) meta.examples = [o.example];
  return Object.keys(meta).length ? annotate(schema, meta) : schema;
}

/**
 * Builds a schema the first time it is used (to validate, or to describe the API), not when its
 * module loads: the simulator's route modules declare over a thousand schemas, and a command
 * needs a handful of them.
 */
export const lazy = <S extends z.ZodMiniType>(build: () => S) => z.lazy(build);

/**
 * Names a schema, built on first use: the description lists it under components.schemas and
 * refers to it by $ref. A record's example, when given, is a whole and coherent one (built from
 * field examples, a record could be `running` with a `completed_at`).
 */
export const named = <S extends z.ZodMiniType>(id: string, build: () => S, d?: Doc | string) => {
  const o = typeof d === 'string' ? { description: d } : (d ?? {});
  const meta: Record<string, unknown> = { id };
  if (o.description !== undefined) meta.description = o.description;
  if (o.example !== undefined) meta.examples = [o.example];
  return annotate(z.lazy(build), meta);
};

// ---- values ----

/**
 * A pattern as a check: published in the schema where every JSON Schema engine reads it alike; one
 * with Unicode property escapes (\p{L}), which Python's jsonschema and ECMA-262 engines without the
 * u flag reject, is checked in code instead, with the same words in the 400, and not published.
 */
function patternCheck(pattern: RegExp, error: string): z.core.$ZodCheck<string> {
  if (!/\\[pP]\{/.test(pattern.source)) return z.regex(pattern, { error });
  return z.refine((s: string) => pattern.test(s), { error });
}

/**
 * A string. `max` bounds every string a client sends (test/limits.test.ts walks the API
 * description for one without); a pattern's explanation comes before the length bound's, which
 * says less (a 30-digit "phone number" is told what a phone number is).
 */
export function str(
  o: { min?: number; max?: number; pattern?: RegExp; patternMessage?: string; format?: string } & Doc = {},
) {
  const checks: z.core.$ZodCheck<string>[] = [];
  if (o.min !== undefined) checks.push(z.minLength(o.min));
  if (o.pattern) checks.push(patternCheck(o.pattern, o.patternMessage ?? 'has an invalid format'));
  if (o.max !== undefined) checks.push(z.maxLength(o.max));
  let s = checks.length ? z.string().check(...checks) : z.string();
  if (o.format) s = annotate(s, { format: o.format });
  return doc(s, o);
}

/** The longest E.164 number: + and 15 digits. */
const E164_MAX = 16;
export const e164 = (d: Doc = {}) =>
  str({
    max: E164_MAX,
    pattern: E164,
    patternMessage: 'must be an E.164 phone number such as +15551234567',
    example: '+14155550100',
    ...d,
  });

export const email = (o: { max?: number; pattern?: RegExp } & Doc = {}) =>
  // no format: email: the spec's pattern is looser than RFC 5322's, and a generated client must not refuse what the API takes
  str({
    min: 1,
    max: o.max ?? 254,
    pattern: o.pattern ?? EMAIL_ANY_CASE,
    patternMessage: 'must be an email address such as name@example.com',
    example: 'maria@example.com',
    ...o,
  });

/** zod says a non-number given to an integer was expected to be a number: int() marks its type issues to read "an integer". */
export const INT_TYPE = 'an integer';
/** Beyond the safe range zod reports its own bound: `message`, when given, says it instead. */
const intType = (message?: string) => z.int({ error: (iss) => (iss.code === 'invalid_type' ? INT_TYPE : message) });

export function int(o: { min?: number; max?: number; message?: string } & Doc = {}) {
  const checks: z.core.$ZodCheck<number>[] = [];
  const error = o.message ? { error: o.message } : undefined;
  if (o.min !== undefined) checks.push(z.gte(o.min, error));
  if (o.max !== undefined) checks.push(z.lte(o.max, error));
  return doc(checks.length ? intType(o.message).check(...checks) : intType(o.message), o);
}

export function num(o: { min?: number; max?: number } & Doc = {}) {
  const checks: z.core.$ZodCheck<number>[] = [];
  if (o.min !== undefined) checks.push(z.gte(o.min));
  if (o.max !== undefined) checks.push(z.lte(o.max));
  return doc(checks.length ? z.number().check(...checks) : z.number(), o);
}

export const bool = (d?: Doc | string) => doc(z.boolean(), d);

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, d?: Doc | string) =>
  doc(z.enum(values), d);

/** A UUID-shaped identifier (ids of records other than numbers): 36 characters at most (one that is not a record's id is 404). */
export const uuid = (d?: Doc | string) => doc(annotate(z.string().check(z.maxLength(36)), { format: 'uuid' }), d);

/** A timestamp in a record: ISO 8601 UTC. */
export const timestamp = (d?: Doc | string) =>
  doc(annotate(z.string(), { format: 'date-time', examples: ['2026-01-05T09:00:00.000Z'] }), d);

const ISO_MESSAGE = 'must be an ISO 8601 timestamp such as 2026-01-31T09:00:00Z';
const isoString = () =>
  z.string({ error: ISO_MESSAGE }).check(
    z.maxLength(40, { error: ISO_MESSAGE }),
    z.refine(isIsoTime, { error: ISO_MESSAGE }),
    // date-time as described (RFC 3339: Z or an offset); a date alone is taken too, as its midnight UTC
    z.meta({
      format: 'date-time',
      description: 'an RFC 3339 date-time with Z or an offset (a date alone is read as its midnight UTC)',
      examples: ['2026-01-31T09:00:00Z'],
    }),
  );

/** An ISO 8601 time sent by a client, normalised to UTC ISO (`...Z`). */
export const isoTime = () =>
  z.pipe(
    isoString(),
    z.transform((v: string) => new Date(v).toISOString()),
  );

export const nullable = <S extends z.ZodMiniType>(inner: S) => z.nullable(inner);

/**
 * A field the spec types without `|null` that may have no value: the key is left out then (the
 * spec: "`T|null` means the value may be null", so a type without it never carries null). Declared
 * optional; presenters drop the key with withoutNulls().
 */
export const absent = <S extends z.ZodMiniType>(inner: S) => z.optional(inner);

/** `o` without the listed keys whose value is null: the replies' fields declared with absent(). */
export function withoutNulls<T extends object, K extends keyof T>(
  o: T,
  keys: readonly K[],
): Omit<T, K> & { [P in K]?: Exclude<T[P], null> } {
  const out = { ...o } as Record<PropertyKey, unknown>;
  for (const k of keys) if (out[k as PropertyKey] === null) delete out[k as PropertyKey];
  return out as Omit<T, K> & { [P in K]?: Exclude<T[P], null> };
}

export function arr<S extends z.ZodMiniType>(item: S, o: { min?: number; max?: number; unique?: boolean } & Doc = {}) {
  const checks: z.core.$ZodCheck<unknown[]>[] = [];
  if (o.min !== undefined) checks.push(z.minLength(o.min));
  if (o.max !== undefined) checks.push(z.maxLength(o.max));
  if (o.unique)
    checks.push(
      z.superRefine((items: unknown[], ctx) =>
        items.forEach((v, i) => {
          const first = items.indexOf(v);
          // worded with the list's own path when the problems are explained ("repeats collect_fields[0]")
          if (first !== i)
            ctx.issues.push({ code: 'custom', message: REPEATS, path: [i], input: v, params: { first } });
        }),
      ),
    );
  const a = doc(checks.length ? z.array(item).check(...checks) : z.array(item), o);
  return o.unique ? annotate(a, { uniqueItems: true }) : a;
}
/** An arr({unique}) item's issue message, which check.ts words with the earlier item's path. */
export const REPEATS = 'repeats an earlier item';

/** A key that must never be merged is refused. */
const allowedKey = () => z.refine<string>((k) => !FORBIDDEN_KEYS.has(k), { error: 'is not an allowed key' });

/** Free-form object of JSON values in a record the API shows (what was sent, as it was stored): any keys but the forbidden ones. */
export const freeObject = (d?: Doc | string) => doc(z.record(z.string().check(allowedKey()), z.unknown()), d);

/**
 * The bounds of free-form JSON a client sends (call metadata, contact custom fields, a
 * platform's post settings), as a real service keeps such data small: keys per object, the
 * length of a key and of a string, items per list, how deep objects and lists nest (the free
 * object itself is the first level), and the whole as JSON, in bytes.
 */
export const FREE_JSON = { keys: 50, keyLength: 40, stringLength: 500, items: 50, depth: 3, bytes: 8192 } as const;

const FREE_SCALAR_MESSAGE = `must be a string, number, true/false or null: objects and lists nest at most ${FREE_JSON.depth} levels deep`;

/** A value in free-form JSON with `levels` more levels of objects and lists allowed below it. */
function freeValue(levels: number): z.ZodMiniType {
  const scalars = [str({ max: FREE_JSON.stringLength }), z.number(), z.boolean(), z.null()] as const;
  if (levels === 0) return z.union(scalars, { error: FREE_SCALAR_MESSAGE });
  const inner = freeValue(levels - 1);
  return z.union([...scalars, arr(inner, { max: FREE_JSON.items }), freeMap(inner, false)]);
}

/** A bound of a whole free object is checked even when something inside it has a problem (zod would skip it). */
const wholeObject = (payload: z.core.ParsePayload) => isPlainObject(payload.value);

/**
 * An object of free-form JSON: FREE_JSON.keys keys at most (JSON Schema maxProperties), each 1 to
 * FREE_JSON.keyLength characters. The top one is what a handler merges: the keys that must never
 * be merged are refused there (below it, values are stored as sent; `__proto__` is refused at any depth).
 */
function freeMap(value: z.ZodMiniType, top: boolean) {
  const { keys, keyLength } = FREE_JSON;
  const key = z.string().check(
    z.minLength(1, { error: `is an empty key: keys have 1 to ${keyLength} characters` }),
    z.maxLength(keyLength, {
      error: (iss) => `is a key of ${[...String(iss.input)].length} characters: keys have at most ${keyLength}`,
    }),
    ...(top ? [allowedKey()] : []),
  );
  const map = z.record(key, value).check(
    z.refine((o: Record<string, unknown>) => Object.keys(o).length <= keys, {
      error: (iss) => `must have at most ${keys} keys (got ${Object.keys(iss.input as object).length})`,
      when: wholeObject,
    }),
  );
  return annotate(map, { maxProperties: keys });
}

/**
 * Free-form JSON a client sends, bounded by FREE_JSON; every bound but the size in bytes is in
 * the schema's JSON Schema too (maxProperties, maxLength, maxItems, and the nesting as the
 * shape itself). Built on first use, as its few dozen schemas are.
 */
export const freeInput = (d: Doc = {}) =>
  lazy(() => {
    const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
    const limits =
      `at most ${FREE_JSON.keys} keys of up to ${FREE_JSON.keyLength} characters; values are strings of up to ${FREE_JSON.stringLength} characters, ` +
      `numbers, true/false, null, or lists (up to ${FREE_JSON.items} items) and objects of them, ${FREE_JSON.depth} levels deep at most (this object is the first); ${FREE_JSON.bytes} bytes as JSON at most`;
    const schema = freeMap(freeValue(FREE_JSON.depth - 1), true).check(
      z.refine((v) => bytes(v) <= FREE_JSON.bytes, {
        error: (iss) => `must be at most ${FREE_JSON.bytes} bytes as JSON (got ${bytes(iss.input)})`,
        when: wholeObject,
      }),
    );
    return doc(schema, { ...d, description: d.description ? `${d.description}: ${limits}` : limits });
  });

/** The most items one bulk request (a JSON array body) may hold, and the largest such body. */
export const BULK_MAX_ITEMS = 10_000;
export const BULK_MAX_BODY_BYTES = 32 * 1024 * 1024;
const bulkBodies = new WeakSet<z.ZodMiniType>();

/**
 * A body of one `item`, or a JSON array of up to BULK_MAX_ITEMS of them, each checked exactly as
 * one (bulk seeding). One definition: the description shows the oneOf, and a bad item's problems
 * are keyed by its index (`[3].to`).
 */
export function oneOrMany<S extends z.ZodMiniType>(item: S) {
  const many = arr(item, {
    max: BULK_MAX_ITEMS,
    description: `up to ${BULK_MAX_ITEMS.toLocaleString('en-US')} at once, added as one transaction (all or none)`,
  });
  const body = z.xor([item, many]);
  bulkBodies.add(body);
  return body;
}

/** The body schema takes an array as well as an object (made by oneOrMany). */
export const takesMany = (body: z.ZodMiniType | undefined) => body !== undefined && bulkBodies.has(body);

type Shape = Record<string, z.ZodMiniType>;
type ObjShape<S extends Shape, R extends keyof S> = { [K in keyof S]: K extends R ? S[K] : z.ZodMiniOptional<S[K]> };

/**
 * An object with known keys; unknown keys are rejected at any depth (which also keeps __proto__
 * out). Keys are optional unless listed in `required` (request bodies: a PATCH sends what changes).
 */
export function obj<S extends Shape, const R extends keyof S = never>(
  shape: S,
  o: { required?: readonly R[] } & Doc = {},
) {
  const req = new Set<keyof S>(o.required ?? []);
  const out: Record<string, z.ZodMiniType> = {};
  for (const [k, s] of Object.entries(shape)) out[k] = req.has(k) ? s : z.optional(s);
  return doc(z.strictObject(out as ObjShape<S, R>), o);
}

/** A record the API returns: every key present (nullable where the value may be null). */
export const record = <S extends Shape>(shape: S, d?: Doc | string) => doc(z.strictObject(shape), d);

// ---- query strings and path parameters ----

/** An integer query or path parameter; out of range reads "must be between min and max". */
export const qInt = (min: number, max: number, d?: Doc | string) =>
  doc(int({ min, max, message: `must be between ${min} and ${max}` }), d);
/** An ISO 8601 time in a query, as epoch milliseconds. */
export const qTime = (d?: Doc | string) =>
  doc(
    z.pipe(
      isoString(),
      z.transform((v: string) => Date.parse(v)),
    ),
    d,
  );
/** Free text in a query: 1 to 1000 characters. */
export const qString = (d?: Doc | string) => {
  const error = 'must be 1 to 1000 characters';
  return doc(z.string().check(z.minLength(1, { error }), z.maxLength(1000, { error })), d);
};

/** A JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---- envelopes (spec Part 2) ----

/** `{data: <item>}`: how every single-record reply is wrapped. */
export const dataOf = <S extends z.ZodMiniType>(item: S) => z.strictObject({ data: item });

export const ListMeta = named(
  'ListMeta',
  () =>
    z.strictObject({
      cursor: z.optional(doc(z.string(), 'opaque; pass it as `cursor` for the next page; absent on the last page')),
      total_results: z.optional(doc(z.int(), 'how many items match, on lists that report it')),
      page_size: doc(z.int(), 'the limit this page was cut at'),
    }),
  "The list envelope's meta.",
);

/** The list envelope: items newest first, and a cursor while more remain. */
export const listOf = <S extends z.ZodMiniType>(item: S) => z.strictObject({ data: z.array(item), meta: ListMeta });

export const ErrorEnvelope = named(
  'Error',
  () =>
    z.strictObject({
      error: z.strictObject({
        code: doc(z.string(), { description: 'machine code', example: 'validation_error' }),
        message: doc(z.string(), { description: 'what went wrong, for people', example: 'The request is invalid.' }),
        fields: z.optional(
          doc(z.record(z.string(), z.string()), {
            description: 'per-field explanation on validation failures',
            example: { 'to[2]': 'must be an E.164 phone number such as +15551234567' },
          }),
        ),
        doc_url: z.optional(z.string().check(z.meta({ format: 'uri' }))),
        candidates: z.optional(
          doc(
            z.array(
              z.strictObject({
                input: z.string(),
                contacts: z.array(
                  z.strictObject({ id: z.string(), name: z.nullable(z.string()), email: z.nullable(z.string()) }),
                ),
              }),
            ),
            'quick email: the contacts an ambiguous name could be',
          ),
        ),
        retry_after_seconds: z.optional(doc(z.int(), 'rate limited: when to retry')),
        limit: z.optional(doc(z.int(), 'a limit that was reached')),
        used: z.optional(doc(z.int(), 'how much of that limit is used')),
        step_seconds: z.optional(
          doc(z.int(), 'a move of the simulator clock refused as too much work at once: a step that fits, in seconds'),
        ),
        now: z.optional(
          doc(z.string(), 'a move of the simulator clock stopped short (503): where the clock stands, ISO 8601 UTC'),
        ),
      }),
    }),
  'The error envelope every error reply uses.',
);
