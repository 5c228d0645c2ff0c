// Formats the command line and the simulator both check, defined once: E.164 numbers, ISO 8601
// times, calendar dates and time-zone names. Pure and dependency-free, so both bundles can carry it.

export const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * An ISO 8601 date (midnight UTC) or date-time with Z or an offset: a time without one would mean
 * the local time of whichever process reads it. The calendar must be real (no 30 February).
 */
export function isIsoTime(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2})))?$/.exec(v);
  if (!m) return false;
  const [y, mo, d, h = 0, mi = 0, sec = 0, oh = 0, om = 0] = m
    .slice(1)
    .map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return (
    day.getUTCFullYear() === y &&
    day.getUTCMonth() === mo - 1 &&
    day.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    sec < 60 &&
    oh < 24 &&
    om < 60
  );
}

/** A calendar date, YYYY-MM-DD, that exists. */
export function isDate(day: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return false;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).toISOString().slice(0, 10) === day;
}

/** IANA zone names: Area/Location (or Etc/…), and the handful of old names the database still keeps. */
const IANA_AREA =
  /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)(\/[A-Za-z0-9_+-]+)+$/i;
/** The old names the database still keeps, as it spells them, by their lower case. */
const IANA_OLD = new Map(
  ['UTC', 'GMT', 'UCT', 'Universal', 'Zulu', 'Greenwich', 'CET', 'EET', 'MET', 'WET', 'EST', 'HST', 'MST']
    .concat(['EST5EDT', 'CST6CDT', 'MST7MDT', 'PST8PDT'])
    .map((name) => [name.toLowerCase(), name]),
);

/**
 * The IANA name of a zone the platform knows, as the user spelled it, its letter case set right
 * (america/new_york → America/New_York; asia/kolkata → Asia/Kolkata, even where the platform calls
 * it Asia/Calcutta: the name written is kept, not swapped for the platform's older alias), or null:
 * abbreviations such as BST or PST, which the platform would take as some other zone, and offsets
 * such as +02:00 are not zone names.
 */
export function canonicalZone(zone: string): string | null {
  const old = IANA_OLD.get(zone.toLowerCase());
  if (!IANA_AREA.test(zone) && !old) return null;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    if (resolved.toLowerCase() === zone.toLowerCase()) return resolved;
    return old ?? caseOfAlias(zone);
  } catch {
    return null;
  }
}

/**
 * The letter case of a zone the platform knows only under an older name (Asia/Kolkata,
 * Europe/Kyiv, Asia/Ho_Chi_Minh, America/Argentina/Buenos_Aires): kept as written when written in
 * mixed case, else each word capitalized as the database writes these names.
 */
function caseOfAlias(zone: string): string {
  if (zone !== zone.toLowerCase() && zone !== zone.toUpperCase()) return zone;
  return zone.toLowerCase().replace(/(^|[/_-])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as every human view writes it (tables, key/value views, the clock, webhooks listen,
 * the chat, the assistant's replies, the inspector): `2026-11-28 08:17:37 UTC`. UTC because the
 * simulator's clock is not the wall clock (a manual clock sits wherever a test put it), so the
 * reader's zone adds nothing, while UTC makes a table, the inspector, a CI log read elsewhere and
 * --json agree to the second; the zone is written so it is never a guess. Seconds always (simulated
 * events are seconds apart; one width lines columns up); milliseconds never. --json and piped
 * output keep ISO 8601. A value that is not a time comes back as given.
 */
export function humanTime(t: string | number | Date): string {
  const d = t instanceof Date ? t : new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  const day = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return `${day} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC`;
}
