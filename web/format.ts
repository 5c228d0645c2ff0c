// How the page writes times, money and ids.
import { humanTime } from '../src/formats.js';

/** An ISO time as the page shows it: as every human view of vmv writes one (src/formats.ts), `2026-11-28 08:17:37 UTC`. */
export const when = (iso: string | null | undefined) => (iso ? humanTime(iso) : '—');

/** Cents as dollars. */
export const usd = (cents: number) => `${cents < 0 ? '−' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;

/** An id's first characters: enough to tell items apart on a line (the whole id is in the title). */
export const short = (id: string) => id.slice(0, 8);

/** A span of time in words (seconds, minutes, hours, days). */
export function span(ms: number): string {
  const s = Math.round(ms / 1000);
  if (Math.abs(s) < 60) return `${s} s`;
  if (Math.abs(s) < 3600) return `${Math.round(s / 60)} min`;
  if (Math.abs(s) < 86400) return `${(s / 3600).toFixed(1).replace(/\.0$/, '')} h`;
  return `${(s / 86400).toFixed(1).replace(/\.0$/, '')} d`;
}
