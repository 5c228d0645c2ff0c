// Posting days in a schedule's time zone. Local dates and hours are turned into instants by
// @date-fns/tz (the platform's time-zone database through Intl), so daylight saving is the zone's
// own: 09:00 in America/New_York is 13:00Z in summer and 14:00Z in winter.
import { TZDateMini, tzOffset } from '@date-fns/tz';
import { canonicalZone, isDate } from '../../src/formats.js';

export { canonicalZone, isDate };

/**
 * The instant of `hour`:00 local time on `day` in `zone`, whatever the time zone of the machine the
 * simulator runs on. An hour a change skips moves forward by the change (02:00 on Sydney's spring
 * day is 03:00 AEDT); an hour a change repeats is its first occurrence, still on daylight time
 * (01:00 New York on 2025-11-02 is 05:00Z). This is Temporal's "compatible" disambiguation.
 *
 * Built on the zone's offsets (tzOffset, through Intl) rather than TZDateMini's constructor from
 * parts: that path goes through the host's local time and on some change days gave an instant
 * that depended on the host's zone (date-fns/tz issues 13 and 40).
 */
export function instantOf(day: string, hour: number, zone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d, hour);
  const offsetMs = (at: number) => tzOffset(zone, new Date(at)) * 60_000;
  // the offsets a day either side cover any one change on this day
  const before = offsetMs(wall - 86_400_000);
  const after = offsetMs(wall + 86_400_000);
  const readsAsWall = [wall - before, wall - after].filter((t) => t + offsetMs(t) === wall);
  if (readsAsWall.length > 0) return Math.min(...readsAsWall);
  return wall - before; // skipped: the wall time on the offset before the change, which reads later
}

/** The local date (YYYY-MM-DD) of an instant in `zone`. */
export function localDay(ms: number, zone: string): string {
  const t = new TZDateMini(ms, zone);
  return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
}

/** ISO weekday of a date: 1 Monday … 7 Sunday. */
export function weekday(day: string): number {
  const wd = new Date(`${day}T00:00:00Z`).getUTCDay();
  return wd === 0 ? 7 : wd;
}

export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);

export interface Cadence {
  days_of_week: number[];
  post_hour: number;
  time_zone: string;
  starts_on: string;
  skipped_days: string[];
  /** the last posting day run: a day runs once, even when a change of hour or zone puts its post time ahead again */
  last_run_day?: string | null;
}

/** Whether `day` is a posting day of the cadence (skips aside). */
export const isPostingDay = (c: Cadence, day: string) => day >= c.starts_on && c.days_of_week.includes(weekday(day));

/**
 * The first posting day whose post time is after `afterMs` (and not skipped), with that time; null
 * when none comes within two years (no such weekday can be missing that long: only an empty cadence).
 */
export function nextPosting(c: Cadence, afterMs: number): { day: string; at: number } | null {
  let day = localDay(afterMs, c.time_zone);
  if (day < c.starts_on) day = c.starts_on;
  for (let i = 0; i < 800; i++, day = addDays(day, 1)) {
    if (!isPostingDay(c, day) || c.skipped_days.includes(day) || (c.last_run_day && day <= c.last_run_day)) continue;
    const at = instantOf(day, c.post_hour, c.time_zone);
    if (at > afterMs) return { day, at };
  }
  return null;
}
