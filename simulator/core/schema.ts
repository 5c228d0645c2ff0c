// The schema vocabulary of the API, on zod 4 (its tree-shakable "mini" build, which keeps the CLI's
// start-up small). Every route declares its path parameters, query, body and responses with these;
// the same declarations validate requests (app.ts), describe the API (openapi.ts) and type the code
// (z.infer). The constructors below only choose zod checks and attach descriptions and examples;
// `issuesToFields` turns zod's issues into the API's per-field explanations (`to[2]`: why).
import * as z from 'zod/mini';
import { E164, isIsoTime } from '../../src/formats.js';
import type { Fields } from './errors.js';

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
 * across fields: anyOf/oneOf of required fields), so generated clients and fuzzers do not send what
 * is always refused. The check that enforces the rule is named beside each use.
 */
export const describedAs = <S extends z.ZodMiniType>(schema: S, keywords: Record<string, unknown>): S =>
  annotate(schema, keywords);

/** `anyOf` (at least one) or `oneOf` (exactly one) of these fields is sent: the keywords for describedAs. */
export const requiredOf = (kind: 'anyOf' | 'oneOf', fields: readonly string[]) => ({
  [kind]: fields.map((f) => ({ required: [f] })),
});

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
const INT_TYPE = 'an integer';
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
const REPEATS = 'repeats an earlier item';

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

// ---- turning issues into fields ----

/** A value's JSON type as a message names it ("got array"): null and arrays apart from objects. */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'a JSON object',
  record: 'an object',
};

function pathOf(path: readonly PropertyKey[], base = ''): string {
  let out = base;
  for (const p of path) out = typeof p === 'number' ? `${out}[${p}]` : joinName(out, p);
  return out;
}

/** A field name after the path so far: `a.b`, or the bare name at the top. */
const joinName = (out: string, p: PropertyKey) => (out ? `${out}.${String(p)}` : String(p));

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, p)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** One explanation per offending field; `where` words type errors for query strings, whose values are all text. */
function explain(issue: z.core.$ZodIssue, input: unknown, where: Where): string {
  if (input === undefined) return 'is required'; // whatever the schema of an absent key (an enum's issue is invalid_value)
  switch (issue.code) {
    case 'invalid_type': {
      // JSON reads a number past ±1.8e308 (1e400) as infinity, which no number field takes
      if (typeof input === 'number' && !Number.isFinite(input))
        return 'must be a finite number; this one is too large to hold (at most ±1.8e308)';
      if (issue.message === INT_TYPE)
        return where === 'body' ? `must be an integer, got ${typeName(input)}` : 'must be an integer';
      if (issue.message !== DEFAULT_MESSAGE) return issue.message;
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return where === 'body' ? `must be ${expected}, got ${typeName(input)}` : `must be ${expected}`;
    }
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.message !== DEFAULT_MESSAGE) return issue.message;
      if (issue.origin === 'string') return n === 1 ? 'must not be empty' : `must be at least ${n} characters`;
      if (issue.origin === 'array') return n === 1 ? 'must have at least one item' : `must have at least ${n} items`;
      return `must be at least ${n}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.message !== DEFAULT_MESSAGE) return issue.message;
      if (issue.origin === 'string') return `must be at most ${n} characters (got ${[...String(input)].length})`;
      if (issue.origin === 'array') return `must have at most ${n} items (got ${(input as unknown[]).length})`;
      return `must be at most ${n}`;
    }
    case 'invalid_value':
      if (input === undefined) return 'is required';
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of: ${issue.values.join(', ')}`;
    case 'invalid_key':
      return issue.issues[0]?.message ?? 'is not an allowed key';
    case 'invalid_union':
      return issue.message !== DEFAULT_MESSAGE ? issue.message : 'does not have an accepted form';
    default:
      return issue.message === DEFAULT_MESSAGE ? 'is not valid' : issue.message;
  }
}
const DEFAULT_MESSAGE = 'Invalid input';

export type Where = 'body' | 'query' | 'path';

/**
 * The order the API has always listed problems in: object by object, depth first, each object's
 * unknown fields first, then its missing required ones, then its fields in the order of the
 * schema (zod's order, which puts the first two last). An integer's own safe-range issue comes
 * after the bound the schema declares, which says more.
 */
function inReadingOrder(issues: readonly z.core.$ZodIssue[], input: unknown): z.core.$ZodIssue[] {
  const isSafeRange = (i: z.core.$ZodIssue) => (i.code === 'too_big' || i.code === 'too_small') && i.origin === 'int';
  const list = [...issues.filter((i) => !isSafeRange(i)), ...issues.filter(isSafeRange)];
  const out: z.core.$ZodIssue[] = [];
  const emit = (prefix: readonly PropertyKey[], group: z.core.$ZodIssue[]) => {
    const depth = prefix.length;
    const here = (i: z.core.$ZodIssue) => i.path.length === depth;
    const missing = (i: z.core.$ZodIssue) =>
      i.path.length === depth + 1 && i.code !== 'invalid_union' && valueAt(input, i.path) === undefined;
    out.push(...group.filter((i) => here(i) && i.code === 'unrecognized_keys'), ...group.filter(missing));
    out.push(...group.filter((i) => here(i) && i.code !== 'unrecognized_keys'));
    const children: PropertyKey[] = [];
    for (const i of group)
      if (i.path.length > depth && !missing(i) && !children.includes(i.path[depth])) children.push(i.path[depth]);
    for (const k of children)
      emit(
        [...prefix, k],
        group.filter((i) => i.path.length > depth && i.path[depth] === k && !missing(i)),
      );
  };
  emit([], list);
  return out;
}

/** Adds the explanations of a failed parse of `input` to `errs`, field paths under `base`. */
export function issuesToFields(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  errs: Fields,
  where: Where = 'body',
  base = '',
): void {
  for (const issue of inReadingOrder(issues, input)) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        errs[pathOf([...issue.path, k], base)] ??=
          where === 'query' ? 'is not a known query parameter' : 'is not a known field';
      continue;
    }
    if (issue.code === 'invalid_union') {
      // the one option whose type the value has explains what is wrong inside it
      const typed = issue.errors.filter(
        (option) => !option.some((i) => i.path.length === 0 && i.code === 'invalid_type'),
      );
      if (typed.length === 1) {
        issuesToFields(typed[0], valueAt(input, issue.path), errs, where, pathOf(issue.path, base));
        continue;
      }
    }
    const at = pathOf(issue.path, base) || (where === 'body' ? 'body' : '');
    if (issue.path.length === 0 && issue.code === 'invalid_type' && where === 'body') {
      errs[at] ??= `must be a JSON object, got ${typeName(input)}`;
      continue;
    }
    if (issue.code === 'custom' && issue.message === REPEATS && typeof issue.params?.first === 'number') {
      errs[at] ??= `repeats ${pathOf([...issue.path.slice(0, -1), issue.params.first], base)}`;
      continue;
    }
    errs[at] ??= explain(issue, valueAt(input, issue.path), where);
  }
}

/**
 * A `__proto__` key is refused, never merged. Strict objects report it as an unknown field; a
 * free-form object (zod's record) drops it silently, so a parse that succeeded is compared with
 * its input, and a failed one has every `__proto__` in its input reported.
 */
function protoKeys(input: unknown, output: unknown, path: string, errs: Fields, depth = 0): void {
  if (typeof input !== 'object' || input === null || depth > 64) return;
  if (Array.isArray(input))
    return input.forEach((x, i) =>
      protoKeys(x, Array.isArray(output) ? output[i] : undefined, `${path}[${i}]`, errs, depth + 1),
    );
  const out = typeof output === 'object' && output !== null ? (output as Record<string, unknown>) : undefined;
  for (const k of Object.keys(input)) {
    const at = path ? `${path}.${k}` : k;
    if (k === '__proto__' && !(out && Object.hasOwn(out, k))) errs[at] ??= 'is not an allowed key';
    else if (k !== '__proto__')
      protoKeys((input as Record<string, unknown>)[k], output === FAILED ? FAILED : out?.[k], at, errs, depth + 1);
  }
}
/** Stands for the output of a parse that failed: every `__proto__` below it is reported. */
const FAILED = Symbol('failed');

/** Field explanations keyed by user-supplied names: no prototype, so "__proto__" is just a key. */
export const newFields = (): Fields => Object.create(null) as Fields;

/** Validates `value`, adding every problem to `errs`; returns the parsed value, or undefined when it has problems. */
export function check<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  errs: Fields,
  where: Where = 'body',
  base = '',
): z.output<S> | undefined {
  // jitless: zod would compile a parser per object shape on first use, which a one-request CLI never earns back
  // this parse's own error map: the explanations never depend on a locale another copy of zod in
  // the process may have set (zod's classic build, loaded by the MCP SDK, sets English messages)
  const r = schema.safeParse(value, { jitless: true, error: () => DEFAULT_MESSAGE });
  const before = Object.keys(errs).length;
  if (!r.success) issuesToFields(r.error.issues, value, errs, where, base);
  protoKeys(value, r.success ? r.data : FAILED, base, errs);
  return Object.keys(errs).length > before || !r.success ? undefined : r.data;
}

/** A parsed value's type with every part possibly missing: what `passedParts` returns. */
export type Loose<T> = T extends readonly (infer U)[]
  ? (Loose<U> | undefined)[]
  : T extends object
    ? { [K in keyof T]?: Loose<T[K]> }
    : T;

/**
 * The parts of `value` that passed check() (`errs` holds its problems): a value whose path has a
 * problem is left out, and a list item with one reads undefined, so the others keep their index.
 * A handler's checks across fields read this when the body has problems, so that one 400 lists
 * both kinds without a cross-field problem that only a structural one caused.
 */
export function passedParts<T>(value: unknown, errs: Fields, path = ''): Loose<T> {
  const keep = (v: unknown, at: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => (`${at}[${i}]` in errs ? undefined : keep(x, `${at}[${i}]`)));
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const here = at ? `${at}.${k}` : k;
      if (!FORBIDDEN_KEYS.has(k) && !(here in errs)) out[k] = keep(x, here);
    }
    return out;
  };
  return keep(value, path) as Loose<T>;
}

/**
 * Query strings and path segments are text: a parameter declared as a number or boolean is
 * converted when it reads as one (otherwise the schema explains what it must be). Unknown and
 * repeated parameters are refused by name.
 */
export function fromText(
  schema: z.ZodMiniObject,
  entries: Iterable<[string, string]>,
  errs: Fields,
  where: Where,
): Record<string, unknown> {
  const shape = schema._zod.def.shape as Record<string, z.ZodMiniType>;
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, raw] of entries) {
    if (Object.hasOwn(out, name)) {
      errs[name] = 'must be given once';
      continue;
    }
    const field = Object.hasOwn(shape, name) ? shape[name] : undefined;
    out[name] = field ? convert(field, raw, where) : raw;
  }
  return out;
}

function convert(schema: z.ZodMiniType, raw: string, where: Where): unknown {
  let def = schema._zod.def as { type: string; innerType?: z.ZodMiniType };
  while ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType)
    def = def.innerType._zod.def as typeof def;
  if (def.type === 'number') {
    const integer = (def as { format?: string }).format?.includes('int') ?? false;
    if (numberPattern(integer, where).test(raw) && raw !== '-0') return Number(raw);
  }
  if (def.type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/**
 * How a number is written in a path or query. An integer is digits (a path id unsigned, as ids
 * are): "1.0" or "-0" is refused, as always.
 */
function numberPattern(integer: boolean, where: Where): RegExp {
  if (!integer) return /^-?\d+(\.\d+)?$/;
  return where === 'path' ? /^\d+$/ : /^-?\d+$/;
}

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
