// What the schedules verbs share: how a schedule looks (its times in its own zone and in UTC),
// the days of the week on the command line, and time-zone names checked on this machine (Intl,
// the same zone data the simulator reads).
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { canonicalZone, humanTime, isDate } from '../../src/formats.js';
import { TZDateMini } from '@date-fns/tz';
import { ALWAYS, type Cell, col, fields, nested, textCol } from '../../src/output.js';
import type { VideoScheduleSchema } from '../../simulator/schedules/schemas.js';
import type { Infer } from '../../simulator/core/schema.js';
import { price } from '../../src/money.js';

// the record's type comes from the API's own schema (type-only: nothing of it is loaded)
export type Schedule = Infer<typeof VideoScheduleSchema>;

export const schedulePath = (id: string) => `/v1/video-schedules/${encodeURIComponent(id)}`;

// ---- days of the week: 1 Monday … 7 Sunday, as the API numbers them ----

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const FULL_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A day: 1-7, or a name of at least three letters (mon, tues, thursday); undefined when it is none. */
function dayNumber(word: string): number | undefined {
  const w = word.trim().toLowerCase();
  if (/^[1-7]$/.test(w)) return Number(w);
  if (w.length < 3) return undefined;
  const i = FULL_NAMES.findIndex((n) => n.startsWith(w));
  return i < 0 ? undefined : i + 1;
}

/**
 * --days: days of the week, comma-separated or repeated, as names (mon, monday), numbers (1 Monday
 * … 7 Sunday) or ranges (mon-fri, fri-mon); each once, Monday first.
 */
export const daysArg = Object.assign(
  (v: string, prev: number[] = []) => {
    const days = new Set(prev);
    for (const part of v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [from, to, extra] = part.split('-').map(dayNumber);
      const ends = part.includes('-') ? [from, to] : [from];
      if (ends.some((d) => d === undefined) || extra !== undefined || (part.match(/-/g) ?? []).length > 1)
        throw usage(
          `--days takes days of the week: mon … sun (or monday …, or 1 Monday … 7 Sunday), comma-separated or repeated, or a range such as mon-fri; got "${part}".`,
        );
      if (to === undefined) days.add(from!);
      else
        for (let d = from!; ; d = (d % 7) + 1) {
          days.add(d);
          if (d === to) break;
        }
    }
    return [...days].sort((a, b) => a - b);
  },
  { choices: DAYS },
);

/** [1, 3, 5] → "mon,wed,fri" (what --days takes). */
export const daysText = (days: readonly number[]) => days.map((d) => DAYS[d - 1] ?? String(d)).join(',');

// ---- time zones and dates ----

export function zoneArg(name: string) {
  return (v: string) => {
    const zone = canonicalZone(v);
    if (!zone)
      throw usage(`${name} takes an IANA time zone name such as America/New_York, Europe/London or UTC; got "${v}".`);
    return zone;
  };
}

/** Your time zone: this machine's (TZ, else the system's). */
export const userZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A calendar date, YYYY-MM-DD, that exists. */
export function dateArg(name: string) {
  return (v: string) => {
    if (!isDate(v)) throw usage(`${name} takes a date, YYYY-MM-DD (2026-01-31); got "${v}".`);
    return v;
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The wall-clock fields of an instant in a zone, and the zone's offset then (minutes east of UTC). */
function wall(ms: number, zone: string) {
  const t = new TZDateMini(ms, zone);
  return {
    y: t.getFullYear(),
    mo: t.getMonth() + 1,
    d: t.getDate(),
    h: t.getHours(),
    mi: t.getMinutes(),
    s: t.getSeconds(),
    offset: -t.getTimezoneOffset(),
  };
}

/** "2026-03-09 09:00 America/New_York" (seconds when not :00). */
export function timeIn(iso: string, zone: string): string {
  const w = wall(Date.parse(iso), zone);
  return `${w.y}-${two(w.mo)}-${two(w.d)} ${two(w.h)}:${two(w.mi)}${w.s ? `:${two(w.s)}` : ''} ${zone}`;
}

/** ISO 8601 with the zone's offset at that instant: "2026-03-09T09:00:00-04:00" (for scripts). */
export function isoIn(iso: string, zone: string): string {
  const w = wall(Date.parse(iso), zone);
  const offset = w.offset;
  const sign = offset < 0 ? '-' : '+';
  return `${w.y}-${two(w.mo)}-${two(w.d)}T${two(w.h)}:${two(w.mi)}:${two(w.s)}${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
}

/** A schedule's time for people: in its own zone (its posting hour), then as every time is written (src/formats.ts). */
export function whenText(iso: string | null, zone: string): string | null {
  if (iso === null) return null;
  return zone === 'UTC' || zone === 'Etc/UTC' ? humanTime(iso) : `${timeIn(iso, zone)} (${humanTime(iso)})`;
}

// ---- a schedule ----

export const hourText = (s: Pick<Schedule, 'post_hour' | 'time_zone'>) => `${two(s.post_hour)}:00 ${s.time_zone}`;

/** A text value as --setting reads it back: bare, or as JSON when bare it would read as JSON or hold a space. */
function settingValue(v: unknown): string {
  if (typeof v !== 'string' || /\s/.test(v) || v === '') return JSON.stringify(v);
  try {
    JSON.parse(v);
    return JSON.stringify(v); // "12", "true": text, not a number or a boolean
  } catch {
    return v;
  }
}

/** Pinned settings as the key=value words --setting takes (nested objects dotted). */
export function settingsText(settings: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(settings).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? settingsText(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k}=${settingValue(v)}`],
  );
}

const estimateText = (s: Schedule) =>
  `${price(s.estimated_price_cents_per_video)} per video${s.estimate_depends_on_template ? ' (depends on template)' : ''}`;

/**
 * One schedule, as `vmv schedules get` shows it. On a terminal its times are in its own zone and in
 * yours; piped they are ISO UTC as every other time, plus `next_run_local` in its zone. The next
 * posting day's videos follow once planned (one `plan` line each when piped).
 */
export function printSchedule(ctx: Context, s: Schedule): void {
  const { io } = ctx;
  const time = (iso: string | null): Cell => (io.stdoutTTY ? whenText(iso, s.time_zone) : iso);
  const pairs: [string, Cell][] = [
    ['id', s.id],
    ['name', s.name],
    ['status', s.status],
    ['days', daysText(s.days_of_week)],
    ['hour', hourText(s)],
    ['starts on', s.starts_on],
    ['videos per day', s.videos_per_day],
    ['accounts', s.connection_ids.join(' ')],
    ['templates', s.allowed_templates.length ? s.allowed_templates.join(',') : 'any (the director picks)'],
    ['direction', s.direction],
    ['settings', settingsText(s.video_settings).join(' ')],
    ['source video', s.source_video_id],
    ['notice', `${s.notify_hours_before} h before${s.notify_by_email ? ', by email' : ''}`],
    ['next run', time(s.next_run_at)],
  ];
  if (!io.stdoutTTY) pairs.push(['next_run_local', s.next_run_at && isoIn(s.next_run_at, s.time_zone)]);
  pairs.push(
    ['planning', time(s.next_planning_at)],
    ['estimate', estimateText(s)],
    ['last run', time(s.last_run_at)],
    ['last error', s.last_error],
    ['skipped days', s.skipped_days.join(' ')],
    ['created', s.created_at],
    ['updated', s.updated_at],
  );
  fields(io, pairs);
  if (s.next_plan?.length)
    nested(
      io,
      'plan',
      [col('template', ALWAYS), col('preset', 4), textCol('angle', 3), textCol('topic', 5), textCol('caption', 2)],
      s.next_plan.map((v) => [v.template, v.preset, v.angle, v.topic, v.caption]),
    );
}

/** The next run, said in a message (stderr): in the schedule's zone and in UTC, or why there is none. */
export function nextRunText(s: Schedule): string {
  if (s.next_run_at) return `next run ${whenText(s.next_run_at, s.time_zone)}`;
  return s.status === 'paused' ? 'paused' : 'no posting day left';
}
