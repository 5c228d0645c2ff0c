// Human output: aligned tables on a terminal, tab-separated lines when piped (no header, like gh),
// colour only on a terminal and never with NO_COLOR. --json output is the API body, untouched.
// Piped output never cuts a value and keeps times as the API gives them (ISO 8601 with zone); only a
// terminal clips the last column to its width and shows times as friendly local ones.
import { forStderr, type IO } from './io.js';

const ansi = (code: string) => (io: IO, s: string) => (io.color ? `\u001b[${code}m${s}\u001b[0m` : s);
export const bold = ansi('1');
export const dim = ansi('2');
export const red = ansi('31');
export const green = ansi('32');
export const yellow = ansi('33');

export type Cell = string | number | boolean | null | undefined;

export const cell = (v: Cell): string => (v === null || v === undefined || v === '' ? '-' : String(v));
const width = (s: string) => [...s].length;
/** Cuts a line to `max` columns with an ellipsis (for terminals only: piped values are never cut). */
export const clip = (s: string, max: number) =>
  width(s) <= max ? s : [...s].slice(0, Math.max(1, max - 1)).join('') + '…';
const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, ' ');

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const two = (n: number) => String(n).padStart(2, '0');

/** "2026-03-01T10:00:00.000Z" → "2026-03-01 11:00" in the local zone (seconds when not :00), for terminals. */
export function localTime(t: string): string {
  const d = new Date(t);
  const s = d.getSeconds() ? `:${two(d.getSeconds())}` : '';
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}${s}`;
}

/** A cell as shown: a time value becomes a friendly local time on a terminal, and stays as given when piped. */
const shown = (io: IO, v: Cell): string =>
  io.stdoutTTY && typeof v === 'string' && ISO_TIME.test(v) ? localTime(v) : cell(v);

export function table(io: IO, headers: string[], rows: Cell[][]): void {
  if (!io.stdoutTTY) {
    for (const r of rows) io.out(r.map((c) => oneLine(cell(c))).join('\t') + '\n');
    return;
  }
  if (rows.length === 0) {
    io.err(dim(forStderr(io), 'No results.') + '\n');
    return;
  }
  const [head, ...lines] = alignedLines(io, headers, rows);
  io.out(bold(io, head) + '\n');
  for (const l of lines) io.out(l + '\n');
}

/** A header line (upper case) and one line per row, in aligned columns; the last column gives way when the terminal is narrow. */
export function alignedLines(io: IO, headers: string[], rows: Cell[][]): string[] {
  const text = rows.map((r) => r.map((c) => oneLine(shown(io, c))));
  const widths = headers.map((h, i) => Math.max(width(h), ...text.map((r) => width(r[i]))));
  // the last column (a summary, a body, a subject) gives way to the terminal's width, down to 10;
  // the others are the data a reader copies (ids, numbers, addresses) and are never cut
  const last = widths.length - 1;
  const others = widths.slice(0, -1).reduce((x, w) => x + w + 2, 0);
  widths[last] = Math.max(
    Math.min(10, widths[last]),
    width(headers[last]),
    Math.min(widths[last], io.columns - others),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? clip(c, widths[i]) : clip(c, widths[i]).padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers.map((h) => h.toUpperCase())), ...text.map(line)];
}

/** A single record as aligned "label  value" lines; piped, `key<TAB>value` lines (every single record alike). */
export function fields(io: IO, pairs: [string, Cell][]): void {
  const w = Math.max(...pairs.map(([k]) => width(k)));
  for (const [k, v] of pairs) {
    io.out(io.stdoutTTY ? `${dim(io, k.padEnd(w))}  ${shown(io, v)}\n` : `${k}\t${oneLine(cell(v))}\n`);
  }
}

/**
 * A list inside a single record (a job's targets, a call's transcript), after its fields: a table
 * below a blank line on a terminal; piped, one line per item, its key then its columns, all
 * tab-separated (`grep '^target'` picks them out).
 */
export function nested(io: IO, key: string, headers: string[], rows: Cell[][]): void {
  if (io.stdoutTTY) {
    io.out('\n');
    table(io, headers, rows);
  } else for (const r of rows) io.out([key, ...r.map((c) => oneLine(cell(c)))].join('\t') + '\n');
}

export const money = (usd: number) => `${usd.toFixed(2)} USD`;

/** Shows when a list has more pages (stderr, so stdout stays data). */
export function moreHint(io: IO, meta: { cursor?: string } | undefined): void {
  if (meta?.cursor) io.err(dim(forStderr(io), `More results: add --cursor ${meta.cursor}`) + '\n');
}
