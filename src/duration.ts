// Durations on the command line (sim advance, --timeout): seconds, or units such as 90s, 15m, 2h, 1d, 1h30m.
import { usage } from './errors.js';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds in `raw`; a usage error (exit 2) when it is not a duration. */
export function parseDuration(raw: string): number {
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== raw)
    throw usage(`"${raw}" is not a duration: use seconds (90) or units like 90s, 15m, 2h, 1d, 1h30m.`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]], 0);
}
