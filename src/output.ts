// Human output: aligned tables on a terminal, tab-separated lines when piped (no header, like gh),
// colour only on a terminal and never with NO_COLOR. --json output is the API body, untouched.
// Piped output never cuts a value and keeps times as the API gives them (ISO 8601 with zone). On a
// terminal a table fits its width, measured in terminal columns (wide characters, CJK and emoji,
// take two): ids are shown by the shortest prefix that tells them apart (every command taking one
// accepts it: src/ids.ts), the widest cells give way with an ellipsis, and --wide shows all whole.
import { eastAsianWidth } from 'get-east-asian-width';
import { forStderr, type IO } from './io.js';
import { shortIds } from './ids.js';
import { visible } from './visible.js';

import { bold, dim } from './colors.js';

export { bold, dim, green, red, yellow } from './colors.js';

export type Cell = string | number | boolean | null | undefined;

/** A value as a cell shows it: `-` for none, control characters made visible (src/visible.ts). */
export const cell = (v: Cell): string => (v === null || v === undefined || v === '' ? '-' : visible(String(v)));
let segmenter: Intl.Segmenter | undefined;
/** A grapheme that takes no column: combining marks, format and control characters alone. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;
const REGIONAL = /\p{Regional_Indicator}/u;

/** The columns one grapheme takes on a terminal: 2 for wide and fullwidth characters and emoji, 0 for marks alone. */
function graphemeWidth(g: string): number {
  if (ZERO_WIDTH.test(g)) return 0;
  const cp = g.codePointAt(0)!;
  // emoji presentation (U+FE0F), keycaps and flags are drawn two columns wide
  if (eastAsianWidth(cp) === 2 || g.includes('\uFE0F') || g.includes('\u20E3') || REGIONAL.test(g)) return 2;
  return 1;
}

/** The graphemes of a string (what a terminal draws as one character). */
const graphemes = (s: string): string[] => [...(segmenter ??= new Intl.Segmenter()).segment(s)].map((x) => x.segment);

/** A string's width in terminal columns (printable ASCII: its length, without segmenting). */
export function width(s: string): number {
  if (/^[\x20-\x7e]*$/.test(s)) return s.length;
  return graphemes(s).reduce((w, g) => w + graphemeWidth(g), 0);
}

/** Cuts a line to `max` columns with an ellipsis (for terminals only: piped values are never cut). */
export function clip(s: string, max: number): string {
  if (width(s) <= max) return s;
  let out = '';
  let w = 0;
  for (const g of graphemes(s)) {
    const gw = graphemeWidth(g);
    if (w + gw > Math.max(1, max - 1)) break;
    out += g;
    w += gw;
  }
  return `${out}…`;
}

/** Pads to `w` columns. */
const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - width(s)));
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

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Columns of ids that commands take back as a prefix (src/ids.ts): a list's `id`, the contact list's `contact`. */
const ID_HEADERS = new Set(['id', 'contact']);
/** Prose (a summary, a subject, a name): cut first, before the values a reader copies (numbers, times, states). */
const isProse = (values: string[]) => values.some((v) => v.length > 16 && /\s/.test(v) && !/^[\d+-]/.test(v));
/** The least a column is cut to on a narrow terminal: a few characters (an id: its 8-character prefix). */
const MIN_COLUMN = 5;
const SHORT_ID = 8;

/** Column i's ids shortened to the prefixes that tell them apart, where the column is headed `id` and holds UUIDs. */
function shortenIds(headers: string[], text: string[][]): void {
  headers.forEach((h, i) => {
    if (!ID_HEADERS.has(h) || !text.some((r) => UUID_LIKE.test(r[i]))) return;
    const short = shortIds(text.map((r) => r[i]).filter((v) => UUID_LIKE.test(v)));
    for (const r of text) r[i] = short.get(r[i]) ?? r[i];
  });
}

/**
 * The widths that fit `room` columns: while the row is too wide, the widest column (of those above
 * their least) gives one column, so long cells share the cut and short ones keep their width.
 */
export function fitWidths(natural: number[], least: number[], room: number): number[] {
  const w = [...natural];
  const total = () => w.reduce((a, b) => a + b, 0) + 2 * (w.length - 1);
  for (let over = total() - room; over > 0; over--) {
    let widest = -1;
    for (let i = 0; i < w.length; i++) if (w[i] > least[i] && (widest < 0 || w[i] > w[widest])) widest = i;
    if (widest < 0) break; // as narrow as it goes: the terminal wraps the rest
    w[widest]--;
  }
  return w;
}

/** A header line (upper case) and one line per row, in aligned columns that fit the terminal (all whole with --wide). */
export function alignedLines(io: IO, headers: string[], rows: Cell[][]): string[] {
  const text = rows.map((r) => r.map((c) => oneLine(shown(io, c))));
  if (!io.wide) shortenIds(headers, text);
  const natural = headers.map((h, i) => Math.max(width(h), ...text.map((r) => width(r[i]))));
  // a narrow terminal cuts headers too, down to a few characters (ids to their shortest prefix)
  const least = natural.map((n, i) => Math.min(n, ID_HEADERS.has(headers[i]) ? SHORT_ID : MIN_COLUMN));
  // prose gives way first; only when that is not enough do the other columns
  const prose = headers.map((_, i) => isProse(text.map((r) => r[i])));
  const first = fitWidths(
    natural,
    natural.map((n, i) => (prose[i] ? least[i] : n)),
    io.columns,
  );
  const widths = io.wide ? natural : fitWidths(first, least, io.columns);
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? clip(c, widths[i]) : pad(clip(c, widths[i]), widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers.map((h) => h.toUpperCase())), ...text.map(line)];
}

/** A single record as aligned "label  value" lines; piped, `key<TAB>value` lines (every single record alike). */
export function fields(io: IO, pairs: [string, Cell][]): void {
  const w = Math.max(...pairs.map(([k]) => width(k)));
  for (const [k, v] of pairs) {
    io.out(io.stdoutTTY ? `${dim(io, pad(k, w))}  ${shown(io, v)}\n` : `${k}\t${oneLine(cell(v))}\n`);
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
