// Dates as people say them ("yesterday", "this morning", "on Thursday", "last week", "since Monday",
// "in March", "tomorrow", "next week"), read by chrono-node (MIT, a maintained natural-language date
// parser) and turned into a stretch of local time: the days and hours it covers in the workspace's
// zone. Read for a question about what happened (a weekday or a month alone is the latest one), or
// `ahead`, for one about what is to come (the next one); words that name the future ("tomorrow",
// "next week") name it either way, the span then marked `future` for the caller to answer plainly. A file of its own
// in the build (dist/dates.js, like dist/phone.js): the assistant's run imports it when it reads a
// message, so no other command loads the parser. It knows no simulator module: the caller turns the
// local days and hours into instants with the zone's calendar (schedules' instantOf).
import { casual, type ParsedResult } from 'chrono-node';

/** A local wall-clock moment: a date (YYYY-MM-DD) and an hour of it (0-24). */
export interface LocalAt {
  day: string;
  hour: number;
}

/** What a phrase covers, in local time: [from, to), `to` null for "up to now". */
export interface LocalSpan {
  from: LocalAt;
  to: LocalAt | null;
  /** the words as they read in an answer: "yesterday", "on Thursday", "since Monday", "in March" */
  label: string;
  /** the dates it covers: "2026-03-12", "2026-03-02 to 2026-03-08", "2026-03-09 to now" */
  detail: string;
  /** it begins after now: nothing in it has happened yet ("tomorrow", "next week") */
  future?: boolean;
}

/** Where the phrase was in the text (to take it out before the rest is read) and what it covers. */
export interface DateHit {
  span: LocalSpan;
  index: number;
  length: number;
}

/** Now, as the workspace sees it: its local date and hour, and its offset from UTC in minutes. */
export interface LocalNow {
  instant: Date;
  offsetMinutes: number;
  today: string;
  hour: number;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const NAMES = new RegExp(`\\b(${[...WEEKDAYS, ...MONTHS].join('|')})\\b`, 'gi');
const PARTS: [RegExp, number, number][] = [
  [/\bmorning\b/i, 0, 12],
  [/\bafternoon\b/i, 12, 18],
  [/\b(evening|tonight|night)\b/i, 18, 24],
];

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** ISO weekday: 1 Monday … 7 Sunday. */
const isoWeekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;
const addMonths = (day: string, n: number) => {
  const [y, m] = day.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return dayOf(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/** The words of a span as an answer says them: lower case, weekday and month names capitalized. */
const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(NAMES, (w) => w[0].toUpperCase() + w.slice(1));

/** Whole days [from, to] (inclusive), or from a day on (up to now; `ahead`, with no end). */
function days(from: string, last: string | null, label: string, ahead = false): LocalSpan {
  const to = last === null ? null : { day: addDays(last, 1), hour: 0 };
  let detail = last === null && ahead ? `${from} on` : `${from} to ${last ?? 'now'}`;
  if (last === from) detail = from;
  return { from: { day: from, hour: 0 }, to, label, detail };
}

/** The last day of `n` days, weeks, months or years counted from `day` (that day the first). */
function lastOf(day: string, unit: string, n: number): string {
  if (unit === 'day' || unit === 'week') return addDays(day, (unit === 'week' ? 7 : 1) * n - 1);
  const end = addMonths(day, (unit === 'year' ? 12 : 1) * n);
  return addDays(dayOf(+end.slice(0, 4), +end.slice(5, 7), Math.min(+day.slice(8, 10), 28)), -1);
}

/**
 * A stretch of a week, month or year named relative to now ("this week", "last month", "past week",
 * "next week", "the next 3 days"); `ahead`, "this week" is the rest of it rather than up to now.
 */
function periodSpan(text: string, now: LocalNow, label: string, ahead: boolean): LocalSpan | null {
  const t = text.toLowerCase();
  const unit = /\b(day|week|month|year)s?\b/.exec(t)?.[1];
  if (!unit) return null;
  const count = /\b(\d+)\s+(?:day|week|month|year)s?\b/.exec(t);
  // "in 2 weeks", "3 days from now": one day, as chrono reads it
  if (/^(?:in\s+)?\d+\s+\w+(?:\s+from now)?$/.test(t) && !/\b(next|coming|past|last)\b/.test(t)) return null;
  // "the past week", "last 3 months": that long up to now
  if ((/\b(past|last)\b/.test(t) && count) || /\bpast\b/.test(t)) {
    const n = count ? Number(count[1]) : 1;
    if (unit === 'day' || unit === 'week') return days(addDays(now.today, -(unit === 'week' ? 7 : 1) * n), null, label);
    const back = addMonths(now.today, (unit === 'year' ? -12 : -1) * n);
    return days(dayOf(+back.slice(0, 4), +back.slice(5, 7), +now.today.slice(8, 10)), null, label);
  }
  // "the next 3 days", "the coming week": that long from today; "next week": the whole one after this
  if (/\b(next|coming)\b/.test(t)) {
    if (count || /\bthe\s+(next|coming)\b/.test(t) || unit === 'day')
      return days(now.today, lastOf(now.today, unit, count ? Number(count[1]) : 1), label);
    const after = {
      week: addDays(now.today, 8 - isoWeekday(now.today)),
      month: addMonths(now.today, 1),
      year: `${Number(now.today.slice(0, 4)) + 1}-01-01`,
    }[unit as 'week' | 'month' | 'year'];
    return days(after, lastOf(after, unit, 1), label);
  }
  if (unit === 'day') return null;
  const weekStart = addDays(now.today, 1 - isoWeekday(now.today));
  const monthStart = `${now.today.slice(0, 8)}01`;
  const yearStart = `${now.today.slice(0, 4)}-01-01`;
  const start = { week: weekStart, month: monthStart, year: yearStart }[unit as 'week' | 'month' | 'year'];
  if (/\b(last|previous)\b/.test(t)) {
    const prev = {
      week: addDays(weekStart, -7),
      month: addMonths(monthStart, -1),
      year: `${Number(now.today.slice(0, 4)) - 1}-01-01`,
    }[unit as 'week' | 'month' | 'year'];
    return days(prev, addDays(start, -1), label);
  }
  // "this week": since its Monday; ahead, the rest of it
  return ahead ? days(now.today, lastOf(start, unit, 1), label) : days(start, null, label);
}

/** "this morning", "tonight": the part of `day` the words name, or null. */
function partOfDay(text: string, day: string, label: string): LocalSpan | null {
  const part = PARTS.find(([re]) => re.test(text));
  if (!part) return null;
  const [, from, to] = part;
  return { from: { day, hour: from }, to: { day, hour: to }, label, detail: `${day} ${pad(from)}:00 to ${pad(to)}:00` };
}

const yearOn = (day: string, n: number) => `${Number(day.slice(0, 4)) + n}${day.slice(4)}`;

/**
 * A span from a parse: the day, part of a day, month or year it names: a weekday, a date or a month
 * alone is the latest such one not after today, or `ahead`, the first not before it ("next Monday"
 * is after today either way; "tomorrow" is tomorrow).
 */
function spanOf(r: ParsedResult, now: LocalNow, since: boolean, label: string, ahead: boolean): LocalSpan | null {
  const period = periodSpan(r.text, now, label, ahead);
  if (period) return period;
  const s = r.start;
  let day = dayOf(s.get('year')!, s.get('month')!, s.get('day')!);
  const next = /\bnext\b/i.test(r.text) || ahead;
  const dayKnown = s.isCertain('day') || s.isCertain('weekday') || /\b(today|yesterday|tonight|ago)\b/i.test(r.text);
  if (dayKnown) {
    // a weekday on its own is the latest one: "on Thursday" asked on a Monday is last week's
    if (!s.isCertain('day') && s.isCertain('weekday')) {
      if (!next && day > now.today) day = addDays(day, -7);
      if (next && day < now.today) day = addDays(day, 7);
      if (/\bnext\b/i.test(r.text) && day === now.today) day = addDays(day, 7);
    }
    if (!s.isCertain('year') && s.isCertain('day') && !/\b(tomorrow|in|from now)\b/i.test(r.text)) {
      if (!ahead && day > now.today) day = yearOn(day, -1);
      if (ahead && day < now.today) day = yearOn(day, 1);
    }
    if (since) return days(day, null, label, ahead);
    return partOfDay(r.text, day, label) ?? days(day, day, label);
  }
  const part = partOfDay(r.text, day, label);
  if (part) return part;
  if (s.isCertain('month')) {
    let first = dayOf(s.get('year')!, s.get('month')!, 1);
    const last = (f: string) => addDays(addMonths(f, 1), -1);
    if (!s.isCertain('year') && !ahead && first > now.today) first = yearOn(first, -1);
    if (!s.isCertain('year') && ahead && last(first) < now.today) first = yearOn(first, 1);
    return since ? days(first, null, label, ahead) : days(first, last(first), label);
  }
  if (s.isCertain('year')) {
    const first = `${s.get('year')}-01-01`;
    return since ? days(first, null, label, ahead) : days(first, `${s.get('year')}-12-31`, label);
  }
  return null;
}

/** The span, marked `future` when it begins after now (the workspace's hour). */
function dated(span: LocalSpan, now: LocalNow): LocalSpan {
  const future = span.from.day > now.today || (span.from.day === now.today && span.from.hour > now.hour);
  if (!future) return span;
  // "from tomorrow": on from then, not "to now"
  return { ...span, future, detail: span.to === null ? `${span.from.day} on` : span.detail };
}

/** The preposition before a phrase that changes what it covers ("since Monday") or belongs to its words ("on Thursday"). */
const BEFORE = /\b(since|from|after|on|in|during|over)\s+(?:the\s+)?$/i;

/**
 * The first date phrase of `text` and what it covers in local time, or null. "Since"/"from"/"after"
 * make it run up to now (`ahead`: on, with no end); "between X and Y" and "from X to Y" cover both
 * ends. `ahead`: read for what is to come (see spanOf).
 */
export function readDate(text: string, now: LocalNow, ahead = false): DateHit | null {
  const found = casual.parse(text, { instant: now.instant, timezone: now.offsetMinutes }, { forwardDate: false });
  const r = found[0];
  if (!r) return null;
  const prep = BEFORE.exec(text.slice(0, r.index));
  // "from today" is today's; "from Monday" is since then; "in yesterday" is only yesterday, "in next week" next week
  const relative = /^(today|yesterday|tonight|this|last|past|next|\d+ \w+ ago)\b/i.test(r.text);
  const since = !!prep && (/^(since|after)$/i.test(prep[1]) || (/^from$/i.test(prep[1]) && !relative));
  const index = prep ? prep.index : r.index;
  const label = words(`${prep && (since || !relative) ? `${prep[1]} ` : ''}${r.text}`);
  const span = spanOf(r, now, since, label, ahead);
  if (!span) return null;
  const second = found[1];
  const joined =
    second && /^\s*(?:and|to|until|through|-)\s*$/i.test(text.slice(r.index + r.text.length, second.index));
  if (joined) {
    const end = spanOf(second, now, false, second.text, ahead);
    if (end?.to && end.to.day >= span.from.day) {
      const whole = days(
        span.from.day,
        addDays(end.to.day, -1),
        words(text.slice(index, second.index + second.text.length)),
      );
      return { span: dated(whole, now), index, length: second.index + second.text.length - index };
    }
  }
  return { span: dated(span, now), index, length: r.index + r.text.length - index };
}
