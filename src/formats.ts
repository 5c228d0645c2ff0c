// Formats the command line and the simulator both check, defined once: E.164 numbers and ISO 8601
// times. Pure and dependency-free, so both bundles can carry it.

export const E164 = /^\+[1-9]\d{1,14}$/;

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
