// The service's shared sender numbers for quick calls and texts. Each number has a daily ceiling
// by age (bought this week 15 calls, second week 40, warmed up 75; 500 texts any age). A leg draws
// at random among numbers with room, weighted by room left; a full number waits for the next UTC day.
import { iso } from '../core/clock.js';
import type { Rng } from '../core/rng.js';
import * as z from 'zod/mini';
import { doc, e164, named, oneOf, record, str, timestamp, type Infer } from '../core/schema.js';

export type PoolKind = 'calls' | 'texts';
const DAY_MS = 86_400_000;
const STAGES = ['new', 'second_week', 'warmed'] as const;

/** Eight numbers: two bought 2 days ago, three 10 days ago, three 60 days ago (fictional 555-01xx range). */
export function seedSharedPool(nowMs: number): SharedNumber[] {
  const ages = [2, 2, 10, 10, 10, 60, 60, 60];
  return ages.map((days, i) => ({
    phone_number: `+1415555015${i}`,
    bought_at: iso(nowMs - days * DAY_MS),
    usage_day: dayOf(nowMs),
    calls_today: 0,
    texts_today: 0,
  }));
}

export const dayOf = (ms: number) => iso(ms).slice(0, 10);
export const ageDays = (n: SharedNumber, nowMs: number) => Math.floor((nowMs - Date.parse(n.bought_at)) / DAY_MS);

/** A number's warm-up stage by its age: new its first week, second_week the next, warmed from 14 days. */
export function stageOf(n: SharedNumber, nowMs: number): (typeof STAGES)[number] {
  const age = ageDays(n, nowMs);
  if (age < 7) return 'new';
  return age < 14 ? 'second_week' : 'warmed';
}

export function ceiling(n: SharedNumber, kind: PoolKind, nowMs: number): number {
  if (kind === 'texts') return 500;
  return { new: 15, second_week: 40, warmed: 75 }[stageOf(n, nowMs)];
}

/** Today's usage of a number (counts from an earlier day no longer apply). */
export function usedToday(n: SharedNumber, kind: PoolKind, nowMs: number): number {
  if (n.usage_day !== dayOf(nowMs)) return 0;
  return kind === 'calls' ? n.calls_today : n.texts_today;
}

export const roomLeft = (n: SharedNumber, kind: PoolKind, nowMs: number) =>
  Math.max(0, ceiling(n, kind, nowMs) - usedToday(n, kind, nowMs));
export const poolRoom = (pool: SharedNumber[], kind: PoolKind, nowMs: number) =>
  pool.reduce((a, n) => a + roomLeft(n, kind, nowMs), 0);

/** Counts one use of a number today. */
export function use(n: SharedNumber, kind: PoolKind, nowMs: number): void {
  const day = dayOf(nowMs);
  if (n.usage_day !== day) Object.assign(n, { usage_day: day, calls_today: 0, texts_today: 0 });
  if (kind === 'calls') n.calls_today++;
  else n.texts_today++;
}

/** Draws a number with room, weighted by room left (call use() once it is really used); null when the pool is full. */
export function draw(pool: SharedNumber[], kind: PoolKind, nowMs: number, rng: Rng): SharedNumber | null {
  const i = rng.weighted(pool.map((n) => roomLeft(n, kind, nowMs)));
  return i < 0 ? null : pool[i];
}

/** Fills every number to its ceiling for `kind`, leaving `leave` slots free across the pool (first numbers first). */
export function fill(pool: SharedNumber[], kind: PoolKind, leave: number, nowMs: number): void {
  let free = leave;
  for (const n of pool) {
    const cap = ceiling(n, kind, nowMs);
    const keep = Math.min(free, cap);
    free -= keep;
    if (n.usage_day !== dayOf(nowMs)) Object.assign(n, { usage_day: dayOf(nowMs), calls_today: 0, texts_today: 0 });
    if (kind === 'calls') n.calls_today = cap - keep;
    else n.texts_today = cap - keep;
  }
}

/** A number of the pool as the control plane shows it (GET /_sim/shared-pool). */
export const SharedPoolNumberSchema = named(
  'SharedPoolNumber',
  () =>
    record({
      phone_number: e164({ example: '+14155550150' }),
      bought_at: timestamp(),
      age_days: doc(z.int(), { description: 'whole days since the number was bought', example: 10 }),
      stage: oneOf(STAGES, 'new: bought this week; second_week: 7 to 13 days old; warmed: 14 days or older'),
      limits: doc(
        record({ calls: doc(z.int(), { example: 40 }), texts: doc(z.int(), { example: 500 }) }),
        'daily ceilings: calls 15 (new), 40 (second week), 75 (warmed); texts 500 at any age',
      ),
      today: doc(
        record({
          date: str({ format: 'date', description: 'the UTC day the counts are for', example: '2026-01-05' }),
          calls: z.int(),
          texts: z.int(),
        }),
        "today's use (a new UTC day starts from zero)",
      ),
    }),
  "A number of the service's shared sender pool for quick calls and texts, with its ceilings and today's use.",
);
export type SharedPoolNumberOut = Infer<typeof SharedPoolNumberSchema>;

export function poolView(pool: SharedNumber[], nowMs: number): SharedPoolNumberOut[] {
  return pool.map((n) => ({
    phone_number: n.phone_number,
    bought_at: n.bought_at,
    age_days: ageDays(n, nowMs),
    stage: stageOf(n, nowMs),
    limits: { calls: ceiling(n, 'calls', nowMs), texts: ceiling(n, 'texts', nowMs) },
    today: { date: dayOf(nowMs), calls: usedToday(n, 'calls', nowMs), texts: usedToday(n, 'texts', nowMs) },
  }));
}

/** A number of the service's shared sender pool (global: not any workspace's). */
export interface SharedNumber {
  phone_number: string;
  bought_at: string;
  /** UTC day (YYYY-MM-DD) the counts below belong to */
  usage_day: string;
  calls_today: number;
  texts_today: number;
}

declare module '../core/world.js' {
  interface World {
    shared_numbers: SharedNumber[];
  }
}
