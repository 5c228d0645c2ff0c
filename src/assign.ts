// `section.field=value` arguments into a nested JSON patch, and the difference of two documents
// as a patch (objects compared field by field, lists and values replaced whole).
import { usage } from './errors.js';

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value is JSON when it parses as JSON (true, 12, null, [..], {..}, "quoted"), otherwise a plain string. */
export function parseValue(raw: string): Json {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return raw;
  }
}

export function assignmentsToPatch(args: string[], into: Record<string, Json> = {}): Record<string, Json> {
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw usage(`"${arg}" is not an assignment: use section.field=value, e.g. voice.speed=1.2`);
    const path = arg.slice(0, eq).split('.');
    if (path.some((p) => p === '' || FORBIDDEN.has(p)))
      throw usage(`"${arg.slice(0, eq)}" is not a usable field path.`);
    let node: Record<string, Json> = into;
    for (const seg of path.slice(0, -1)) {
      if (!isObject(node[seg])) node[seg] = {};
      node = node[seg] as Record<string, Json>;
    }
    node[path[path.length - 1]] = parseValue(arg.slice(eq + 1));
  }
  return into;
}

/** Deep-merges b into a (objects merge; anything else replaces). */
export function merge(a: Record<string, Json>, b: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (FORBIDDEN.has(k)) continue;
    out[k] = isObject(v) && isObject(out[k]) ? merge(out[k] as Record<string, Json>, v) : v;
  }
  return out;
}

/** What changed from `before` to `after`, as a patch; fields removed in `after` are left out (nothing unsets them). */
export function diff(before: Json, after: Json): Json | undefined {
  if (isObject(before) && isObject(after)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(after)) {
      const d = Object.hasOwn(before, k) ? diff(before[k], v) : v;
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : after;
}

/** The dotted paths of a patch's leaves, for "Updated ..." messages. */
export function leafPaths(patch: Json, prefix = ''): string[] {
  if (!isObject(patch)) return [prefix];
  return Object.entries(patch).flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k));
}
