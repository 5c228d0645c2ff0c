// Dates as people say them ("yesterday", "this morning", "on Thursday", "last week", "since Monday",
// "in March"), read by chrono-node (MIT, a maintained natural-language date parser) and turned into
// a stretch of local time: the days and hours it covers in the workspace's zone. A file of its own
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

/** Whole days [from, to] (inclusive), or from a day up to now. */
function days(from: string, last: string | null, label: string): LocalSpan {
  const to = last === null ? null : { day: addDays(last, 1), hour: 0 };
  let detail = `${from} to ${last ?? 'now'}`;
  if (last === from) detail = from;
  return { from: { day: from, hour: 0 }, to, label, detail };
}

/** A stretch of a week, month or year named relative to now ("this week", "last month", "past week"). */
function periodSpan(text: string, now: LocalNow, label: string): LocalSpan | null {
  const t = text.toLowerCase();
  const unit = /\b(day|week|month|year)s?\b/.exec(t)?.[1];
  if (!unit) return null;
  const count = /\b(\d+)\s+(?:day|week|month|year)s?\b/.exec(t);
  // "the past week", "last 3 months": that long up to now
  if ((/\b(past|last)\b/.test(t) && count) || /\bpast\b/.test(t)) {
    const n = count ? Number(count[1]) : 1;
    if (unit === 'day' || unit === 'week') return days(addDays(now.today, -(unit === 'week' ? 7 : 1) * n), null, label);
    const back = addMonths(now.today, (unit === 'year' ? -12 : -1) * n);
    return days(dayOf(+back.slice(0, 4), +back.slice(5, 7), +now.today.slice(8, 10)), null, label);
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
  return days(start, null, label); // "this week": since its Monday
}

/** "this morning", "tonight": the part of `day` the words name, or null. */
function partOfDay(text: string, day: string, label: string): LocalSpan | null {
  const part = PARTS.find(([re]) => re.test(text));
  if (!part) return null;
  const [, from, to] = part;
  return { from: { day, hour: from }, to: { day, hour: to }, label, detail: `${day} ${pad(from)}:00 to ${pad(to)}:00` };
}

/** A span from a parse: the day, part of a day, month or year it names (the latest such one not after today). */
function spanOf(r: ParsedResult, now: LocalNow, since: boolean, label: string): LocalSpan | null {
  const period = periodSpan(r.text, now, label);
  if (period) return period;
  const s = r.start;
  let day = dayOf(s.get('year')!, s.get('month')!, s.get('day')!);
  const dayKnown = s.isCertain('day') || s.isCertain('weekday') || /\b(today|yesterday|tonight|ago)\b/i.test(r.text);
  if (dayKnown) {
    // a weekday on its own is the latest one: "on Thursday" asked on a Monday is last week's
    if (!s.isCertain('day') && s.isCertain('weekday') && day > now.today) day = addDays(day, -7);
    if (!s.isCertain('year') && s.isCertain('day') && day > now.today)
      day = `${Number(day.slice(0, 4)) - 1}${day.slice(4)}`;
    if (since) return days(day, null, label);
    return partOfDay(r.text, day, label) ?? days(day, day, label);
  }
  const part = partOfDay(r.text, day, label);
  if (part) return part;
  if (s.isCertain('month')) {
    let first = dayOf(s.get('year')!, s.get('month')!, 1);
    if (!s.isCertain('year') && first > now.today) first = `${Number(first.slice(0, 4)) - 1}${first.slice(4)}`;
    return since ? days(first, null, label) : days(first, addDays(addMonths(first, 1), -1), label);
  }
  if (s.isCertain('year')) {
    const first = `${s.get('year')}-01-01`;
    return since ? days(first, null, label) : days(first, `${s.get('year')}-12-31`, label);
  }
  return null;
}

/** The preposition before a phrase that changes what it covers ("since Monday") or belongs to its words ("on Thursday"). */
const BEFORE = /\b(since|from|after|on|in|during|over)\s+(?:the\s+)?$/i;

/**
 * The first date phrase of `text` and what it covers in local time, or null. "Since"/"from"/"after"
 * make it run up to now; "between X and Y" and "from X to Y" cover both ends.
 */
export function readDate(text: string, now: LocalNow): DateHit | null {
  const found = casual.parse(text, { instant: now.instant, timezone: now.offsetMinutes }, { forwardDate: false });
  const r = found[0];
  if (!r) return null;
  const prep = BEFORE.exec(text.slice(0, r.index));
  // "from today" is today's; "from Monday" is since then; "in yesterday" is only yesterday
  const relative = /^(today|yesterday|tonight|this|last|past|\d+ \w+ ago)\b/i.test(r.text);
  const since = !!prep && (/^(since|after)$/i.test(prep[1]) || (/^from$/i.test(prep[1]) && !relative));
  const index = prep ? prep.index : r.index;
  const label = words(`${prep && (since || !relative) ? `${prep[1]} ` : ''}${r.text}`);
  const span = spanOf(r, now, since, label);
  if (!span) return null;
  const second = found[1];
  const joined =
    second && /^\s*(?:and|to|until|through|-)\s*$/i.test(text.slice(r.index + r.text.length, second.index));
  if (joined) {
    const end = spanOf(second, now, false, second.text);
    if (end?.to && end.to.day >= span.from.day) {
      const whole = days(
        span.from.day,
        addDays(end.to.day, -1),
        words(text.slice(index, second.index + second.text.length)),
      );
      return { span: whole, index, length: second.index + second.text.length - index };
    }
  }
  return { span, index, length: r.index + r.text.length - index };
}
