// A small schema checker for request bodies and query strings. Every failure is collected
// per field path (`to[2]`, `call_settings.hd_voice_enabled`) so one 400 explains everything.
import { validationError, type Fields } from './errors.js';

export interface Schema<T = unknown> {
  check(value: unknown, path: string, errs: Fields): T | undefined;
}

type Out<S> = S extends Schema<infer T> ? T : never;

export const E164 = /^\+[1-9]\d{1,14}$/;
/** The spec's address pattern (quick email reply_to): no whitespace or @<>(),;:" in either part, a dot, a lower-case ending of 2+ letters. */
export const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[a-z]{2,}$/;
/** Keys that must never reach an object merge (prototype pollution). */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export function str(o: { min?: number; max?: number; pattern?: RegExp; patternMessage?: string } = {}): Schema<string> {
  return {
    check(v, path, errs) {
      if (typeof v !== 'string') return void (errs[path] = `must be a string, got ${typeName(v)}`);
      const len = [...v].length;
      if (o.min !== undefined && len < o.min)
        return void (errs[path] = o.min === 1 ? 'must not be empty' : `must be at least ${o.min} characters`);
      if (o.max !== undefined && len > o.max) return void (errs[path] = `must be at most ${o.max} characters (got ${len})`);
      if (o.pattern && !o.pattern.test(v)) return void (errs[path] = o.patternMessage ?? 'has an invalid format');
      return v;
    },
  };
}

export const e164 = () => str({ pattern: E164, patternMessage: 'must be an E.164 phone number such as +15551234567' });
/** An address in the spec's pattern, any letter case (reply_to alone needs a lower-case ending: EMAIL). */
export const EMAIL_ANY_CASE = new RegExp(EMAIL.source, 'i');
export const email = (max = 254, pattern = EMAIL_ANY_CASE) => str({ min: 1, max, pattern, patternMessage: 'must be an email address such as name@example.com' });

export function int(o: { min?: number; max?: number } = {}): Schema<number> {
  return {
    check(v, path, errs) {
      if (typeof v !== 'number' || !Number.isInteger(v)) return void (errs[path] = `must be an integer, got ${typeName(v)}`);
      if (o.min !== undefined && v < o.min) return void (errs[path] = `must be at least ${o.min}`);
      if (o.max !== undefined && v > o.max) return void (errs[path] = `must be at most ${o.max}`);
      return v;
    },
  };
}

export function num(o: { min?: number; max?: number } = {}): Schema<number> {
  return {
    check(v, path, errs) {
      if (typeof v !== 'number' || !Number.isFinite(v)) return void (errs[path] = `must be a number, got ${typeName(v)}`);
      if (o.min !== undefined && v < o.min) return void (errs[path] = `must be at least ${o.min}`);
      if (o.max !== undefined && v > o.max) return void (errs[path] = `must be at most ${o.max}`);
      return v;
    },
  };
}

export const bool = (): Schema<boolean> => ({
  check(v, path, errs) {
    if (typeof v !== 'boolean') return void (errs[path] = `must be true or false, got ${typeName(v)}`);
    return v;
  },
});

export function oneOf<const T extends string>(values: readonly T[]): Schema<T> {
  return {
    check(v, path, errs) {
      if (typeof v !== 'string' || !values.includes(v as T)) return void (errs[path] = `must be one of: ${values.join(', ')}`);
      return v as T;
    },
  };
}

export const isoTime = (): Schema<string> => ({
  check(v, path, errs) {
    if (typeof v !== 'string' || !isIsoTime(v)) return void (errs[path] = 'must be an ISO 8601 timestamp such as 2026-01-31T09:00:00Z');
    return new Date(v).toISOString();
  },
});

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return { check: (v, path, errs) => (v === null ? null : inner.check(v, path, errs)) };
}

export function arr<T>(item: Schema<T>, o: { min?: number; max?: number } = {}): Schema<T[]> {
  return {
    check(v, path, errs) {
      if (!Array.isArray(v)) return void (errs[path] = `must be an array, got ${typeName(v)}`);
      if (o.min !== undefined && v.length < o.min)
        return void (errs[path] = o.min === 1 ? 'must have at least one item' : `must have at least ${o.min} items`);
      if (o.max !== undefined && v.length > o.max) return void (errs[path] = `must have at most ${o.max} items (got ${v.length})`);
      const out: T[] = [];
      v.forEach((x, i) => out.push(item.check(x, `${path}[${i}]`, errs) as T));
      return out;
    },
  };
}

/** Free-form object of JSON values (custom fields, metadata): any keys but the forbidden ones. */
export const freeObject = (): Schema<Record<string, unknown>> => ({
  check(v, path, errs) {
    if (!isPlainObject(v)) return void (errs[path] = `must be an object, got ${typeName(v)}`);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (FORBIDDEN_KEYS.has(k)) errs[`${path}.${k}`] = 'is not an allowed key';
      else out[k] = x;
    }
    return out;
  },
});

type Shape = Record<string, Schema<any>>;
type ObjOut<S extends Shape, R extends keyof S> = { [K in R]: Out<S[K]> } & { [K in Exclude<keyof S, R>]?: Out<S[K]> };

/** An object with known keys; unknown keys are rejected at any depth (this is what keeps __proto__ out). */
export function obj<S extends Shape, const R extends keyof S = never>(shape: S, o: { required?: readonly R[] } = {}): Schema<ObjOut<S, R>> {
  return {
    check(v, path, errs) {
      if (!isPlainObject(v)) return void (errs[path || 'body'] = `must be a JSON object, got ${typeName(v)}`);
      const out: Record<string, unknown> = {};
      const at = (k: string) => (path ? `${path}.${k}` : k);
      for (const k of Object.keys(v)) {
        if (!Object.hasOwn(shape, k) || FORBIDDEN_KEYS.has(k)) errs[at(k)] = 'is not a known field';
      }
      for (const k of o.required ?? []) if (!Object.hasOwn(v, k as string)) errs[at(k as string)] = 'is required';
      for (const [k, s] of Object.entries(shape)) {
        if (!Object.hasOwn(v, k) || FORBIDDEN_KEYS.has(k)) continue;
        const r = s.check((v as Record<string, unknown>)[k], at(k), errs);
        if (r !== undefined) out[k] = r;
      }
      return out as ObjOut<S, R>;
    },
  };
}

/** Checks and returns the value, or throws one 400 listing every offending field. */
export function parse<T>(schema: Schema<T>, value: unknown, path = ''): T {
  const errs = newFields();
  const out = schema.check(value, path, errs);
  if (Object.keys(errs).length > 0) throw validationError(errs);
  return out as T;
}

/** Field explanations keyed by user-supplied names: no prototype, so "__proto__" is just a key. */
export const newFields = (): Fields => Object.create(null) as Fields;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * An ISO 8601 date (midnight UTC) or date-time with Z or an offset: a time without one would mean
 * the local time of whichever process reads it. The calendar must be real (no 30 February).
 */
export function isIsoTime(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2})))?$/.exec(v);
  if (!m) return false;
  const [y, mo, d, h = 0, mi = 0, sec = 0, oh = 0, om = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && sec < 60 && oh < 24 && om < 60;
}

// ---- query strings ----

export type QueryParser<T> = (raw: string, name: string, errs: Fields) => T | undefined;

export const qInt = (min: number, max: number): QueryParser<number> => (raw, name, errs) => {
  if (!/^-?\d+$/.test(raw)) return void (errs[name] = 'must be an integer');
  const n = Number(raw);
  if (n < min || n > max) return void (errs[name] = `must be between ${min} and ${max}`);
  return n;
};
export const qEnum = <const T extends string>(values: readonly T[]): QueryParser<T> => (raw, name, errs) => {
  if (!values.includes(raw as T)) return void (errs[name] = `must be one of: ${values.join(', ')}`);
  return raw as T;
};
export const qTime: QueryParser<number> = (raw, name, errs) => {
  if (!isIsoTime(raw)) return void (errs[name] = 'must be an ISO 8601 timestamp such as 2026-01-31T09:00:00Z');
  return Date.parse(raw);
};
export const qMatch = (re: RegExp, message: string): QueryParser<string> => (raw, name, errs) => {
  if (!re.test(raw)) return void (errs[name] = message);
  return raw;
};
export const qString: QueryParser<string> = (raw, name, errs) => {
  if (raw.length === 0 || raw.length > 1000) return void (errs[name] = 'must be 1 to 1000 characters');
  return raw;
};

/** Parses a query string against known parameters; unknown or repeated parameters are 400. */
export function parseQuery<P extends Record<string, QueryParser<any>>>(
  params: URLSearchParams,
  spec: P,
): { [K in keyof P]?: P[K] extends QueryParser<infer T> ? T : never } {
  const errs = newFields();
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [name, raw] of params) {
    if (!Object.hasOwn(spec, name)) errs[name] = 'is not a known query parameter';
    else if (seen.has(name)) errs[name] = 'must be given once';
    else {
      seen.add(name);
      const v = spec[name](raw, name, errs);
      if (v !== undefined) out[name] = v;
    }
  }
  if (Object.keys(errs).length > 0) throw validationError(errs);
  return out as never;
}
