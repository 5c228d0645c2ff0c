// Checking a value against its schema (schema.ts) the API's way: every problem at once, each as a
// per-field explanation (`to[2]`: why) in the order the API has always listed them, a `__proto__`
// key refused rather than merged, the parts of a body that passed (for a handler's cross-field
// checks), and query strings and path segments read from text. The request pipeline (request.ts)
// and handlers that check a body themselves use it.
import type * as z from 'zod/mini';
import type { Fields } from './errors.js';
import { describedAs, FORBIDDEN_KEYS, INT_TYPE, isPlainObject, REPEATS } from './schema.js';

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

/** A rule across a body's fields, written once: declared in its JSON schema and enforced with a reason per field. */
export interface FieldsRule {
  /** The schema with the rule in its JSON schema (the API description, the MCP tool's input). */
  on<S extends z.ZodMiniType>(schema: S): S;
  /** Adds the rule's reason to each of its fields when `value` breaks it (a field's earlier problem kept). */
  check(value: Record<string, unknown>, errs: Fields): void;
}

/**
 * `anyOf`: at least one of `fields` is sent ("source_url or source_text is required"); `oneOf`:
 * exactly one ("send either message or approvals"), each field named in the 400. zod cannot say
 * this in the API's words and order, so the handler calls `check` where its own cross-field checks
 * run, after the structural problems, whose explanations come first.
 */
export function requiredOf(kind: 'anyOf' | 'oneOf', fields: readonly [string, string, ...string[]]): FieldsRule {
  const names = fields.join(' or ');
  const reason = kind === 'anyOf' ? `${names} is required` : `send either ${names}`;
  return {
    on: (schema) => describedAs(schema, { [kind]: fields.map((f) => ({ required: [f] })) }),
    check(value, errs) {
      const sent = fields.filter((f) => value[f] !== undefined).length;
      if (kind === 'anyOf' ? sent > 0 : sent === 1) return;
      for (const f of fields) errs[f] ??= reason;
    },
  };
}
