// How the page writes times, money, yes-or-no facts and ids: every pane writes them through these,
// so that one change here changes them everywhere.
import { humanTime } from '../src/formats.js';

/**
 * An ISO time as the page shows it: as every human view of vmv writes one (src/formats.ts, issue 33
 * point 2), `2026-11-28 08:17:37 UTC`. The one place the page writes a time.
 */
export const when = (iso: string | null | undefined) => (iso ? humanTime(iso) : '—');

/** A day as the page shows it (a plan month's start and end): the date part of `when`. */
export const day = (iso: string | null | undefined) => (iso ? when(iso).replace(/ \d\d:\d\d:\d\d/, '') : '—');

/** Cents as dollars. */
export const usd = (cents: number) => `${cents < 0 ? '−' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;

/** Dollars (as the control plane gives the wallet and the plan's rates) as dollars. */
export const dollars = (amount: number) => usd(Math.round(amount * 100));

/** A feature of the plan, in words. */
export const included = (on: boolean) => (on ? 'included' : 'not included');

/** A number with a word after it, the word in the plural unless it is one. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

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
