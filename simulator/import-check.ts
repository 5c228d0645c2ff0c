// What a world must be before `vmv sim import` makes it the world of a data file: the store's own
// shapes (the clock from ClockState, money as integer cents, the format's values as arrays of
// records) and the API's limits (a contact's fields as the API takes them, control/fixtures.ts). Loaded
// only by an import: the store hands it the parsed document before anything reads it (upgrade, the
// indexes), so a wrong shape is a message naming the JSON path, never a crash.
import * as z from 'zod/mini';
import { contactFields } from './control/fixtures.js';
import { clockNow, type ClockState } from './core/clock.js';
import type { RngState } from './core/rng.js';
import { BULK_MAX_BODY_BYTES } from './core/schema.js';
import { SCOPES } from './core/world.js';

/** The longest clock move the API takes (POST /_sim/clock/advance): a clock this far below year 10000 can still make it. */
const LONGEST_ADVANCE_MS = 10 * 366 * 86_400_000;
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z') - LONGEST_ADVANCE_MS;

const cents = z.int();
const id = z.string().check(z.minLength(1), z.maxLength(100));

/** The simulator clock as the store keeps it (core/clock.ts ClockState), its time within four-digit years. */
const ClockSchema = z
  .object({ mode: z.enum(['real', 'manual']), offset_ms: z.int(), frozen_ms: z.nullable(z.int()) })
  .check(
    z.refine(
      (c: ClockState) => {
        const now = clockNow(c);
        return now >= 0 && now <= LATEST_MS;
      },
      `must stand between 1970 and ${new Date(LATEST_MS).toISOString()} (so that the longest advance stays in four-digit years)`,
    ),
  ) satisfies z.ZodMiniType<ClockState>;

const MetaSchema = z.looseObject({
  seed: z.int(),
  rng: z.tuple([z.int(), z.int(), z.int(), z.int()]) satisfies z.ZodMiniType<RngState>,
  secret: z.string().check(z.maxLength(200)),
  clock: ClockSchema,
  default_api_key: z.string().check(z.maxLength(200)),
  default_workspace_id: z.string().check(z.maxLength(100)),
  next_seq: z.int().check(z.gte(1)),
});

/** Every field optional and nullable, beyond the API's own rules: a stored record may lack what a request must send. */
function stored(shape: Record<string, z.ZodMiniType>) {
  return z.looseObject(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, z.optional(z.nullable(s))])));
}

/** A record of any collection: an object with its identity and, where it has one, its workspace and order. */
const AnyRecord = z.looseObject({ id: z.optional(id), workspace_id: z.optional(id), seq: z.optional(z.int()) });

const KNOWN = {
  meta: MetaSchema,
  organizations: z.array(
    z.looseObject({ id, name: z.string().check(z.maxLength(200)), wallet_cents: z.optional(cents) }),
  ),
  workspaces: z.array(z.looseObject({ id, organization_id: id, name: z.string().check(z.maxLength(200)) })),
  api_keys: z.array(
    z.looseObject({ id, workspace_id: id, hash: z.string(), scopes: z.nullable(z.array(z.enum(SCOPES))) }),
  ),
  contacts: z.array(z.looseObject({ ...stored(contactFields()).shape, id, workspace_id: id })),
  timers: z.array(z.looseObject({ id, at_ms: z.int(), seq: z.int(), type: z.string(), payload: z.looseObject({}) })),
} as const;

/** Keys that would reach an object's prototype when copied: never part of a world. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
/** The longest string a world holds (a reply kept for an Idempotency-Key is at most a bulk body). */
const MAX_STRING = BULK_MAX_BODY_BYTES;

/** One step of a JSON path: `[3]`, `.name`, or `["odd key"]`. */
function step(p: PropertyKey): string {
  if (typeof p === 'number') return `[${p}]`;
  return /^[A-Za-z_$][\w$]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`;
}

/** `$.contacts[3].name` */
const pathOf = (path: readonly PropertyKey[]) => `$${path.map(step).join('')}`;

/** Every value of `doc`, without recursion: keys that reach prototypes, strings past the longest, numbers that are not finite. */
function walk(doc: unknown, out: string[], cap: number): void {
  const stack: [unknown, PropertyKey[]][] = [[doc, []]];
  while (stack.length > 0 && out.length < cap) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string' && v.length > MAX_STRING)
      out.push(`${pathOf(path)}: a string of ${v.length} characters (at most ${MAX_STRING})`);
    else if (typeof v === 'number' && !Number.isFinite(v)) out.push(`${pathOf(path)}: not a finite number`);
    else if (v !== null && typeof v === 'object')
      for (const k of Object.keys(v)) {
        const p = [...path, Array.isArray(v) ? Number(k) : k];
        if (FORBIDDEN.has(k)) out.push(`${pathOf(p)}: the key "${k}" is not allowed`);
        else stack.push([(v as Record<string, unknown>)[k], p]);
      }
  }
}

/**
 * The problems of a parsed world, as `$.path: why`, at most `cap` of them (and whether there were
 * more): top-level values absent are left to the store's upgrade, any present must have its shape.
 */
export function checkWorld(doc: Record<string, unknown>, collections: readonly string[], cap: number): string[] {
  const out: string[] = [];
  walk(doc, out, cap);
  for (const key of collections) {
    if (out.length >= cap || !(key in doc)) continue;
    const schema = (KNOWN as Record<string, z.ZodMiniType>)[key] ?? z.array(AnyRecord);
    const r = z.safeParse(schema, doc[key]);
    if (!r.success)
      for (const issue of r.error.issues.slice(0, cap - out.length))
        out.push(`${pathOf([key, ...issue.path])}: ${issue.message}`);
  }
  return out;
}
