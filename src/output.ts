// Human output: aligned tables on a terminal, tab-separated lines when piped (no header, like gh),
// colour only on a terminal and never with NO_COLOR. --json output is the API body, untouched.
// Piped output never cuts a value and keeps times as the API gives them (ISO 8601 with zone). On a
// terminal a table fits its width, measured in terminal columns (wide characters, CJK and emoji,
// take two): ids are shown by the shortest prefix that tells them apart (every command taking one
// accepts it: src/ids.ts), times go to the minute (zone in the header) where that shows a column
// more, the widest cells give way with an ellipsis, and --wide shows all whole.
import { eastAsianWidth } from 'get-east-asian-width';
import { forStderr, type IO } from './io.js';
import { shortIds } from './ids.js';
import { humanTime } from './formats.js';
import { cents, price } from './money.js';
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

/** A time as every human view writes it: `2026-11-28 08:17:37 UTC` (src/formats.ts). */
export { humanTime };

/** A cell as shown: a time value in the one human form on a terminal, as given (ISO 8601) when piped. */
const shown = (io: IO, v: Cell): string =>
  io.stdoutTTY && typeof v === 'string' && ISO_TIME.test(v) ? humanTime(v) : cell(v);

/**
 * A table's column and how it gives way on a narrow terminal (gh's tableprinter, with priorities):
 * whole columns drop, lowest priority first, until the rest fit; only free text is ever cut.
 */
export interface Column {
  header: string;
  /** Kept the longer the higher: the lowest drops first (of equals, the rightmost). */
  priority: number;
  /** Free text (a summary, a body, a subject, a goal): cut with an ellipsis to fit. Other values show whole or not at all. */
  cut?: boolean;
  /** Ids commands take back (src/ids.ts): shown by the shortest prefix that tells them apart, whole with --wide. */
  id?: boolean;
}

/** The priority of a column no terminal is too narrow for (a row's id). */
export const ALWAYS = 100;
/** An id column (first, never dropped): shown by its short unique prefix. */
export const idCol = (header = 'id'): Column => ({ header, priority: ALWAYS, id: true });
/** A column of values shown whole or not at all (numbers, times, money, states, phone numbers, addresses). */
export const col = (header: string, priority: number): Column => ({ header, priority });
/** A column of free text, cut with an ellipsis to the room left. */
export const textCol = (header: string, priority: number): Column => ({ header, priority, cut: true });

/** Free text is given at least this many columns, or its column drops (a 4-character summary says nothing). */
const LEAST_TEXT = 12;

/**
 * A table: on a terminal, aligned columns that fit its width (the columns that do not fit hidden,
 * a line on stderr says how many and that --wide shows them); piped, tab-separated lines with every
 * value whole and no header (like gh).
 */
export function table(io: IO, columns: Column[], rows: Cell[][]): void {
  if (!io.stdoutTTY) {
    for (const r of rows) io.out(r.map((c) => oneLine(cell(c))).join('\t') + '\n');
    return;
  }
  if (rows.length === 0) {
    io.err(dim(forStderr(io), 'No results.') + '\n');
    return;
  }
  const { lines, hidden } = layout(io, columns, rows);
  const [head, ...body] = lines;
  io.out(bold(io, head) + '\n');
  for (const l of body) io.out(l + '\n');
  hiddenNote(io, hidden);
}

/** The line under a table that dropped columns (stderr: a message, not data), wrapped to the terminal. */
export function hiddenNote(io: IO, hidden: string[]): void {
  if (hidden.length === 0) return;
  const n = hidden.length === 1 ? '1 more column' : `${hidden.length} more columns`;
  const note = `--wide shows ${n}: ${hidden.map((h) => h.toUpperCase()).join(', ')}`;
  for (const line of wrapWords(note, io.columns)) io.err(dim(forStderr(io), line) + '\n');
}

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id column's UUIDs shortened to the prefixes that tell them apart (other ids, such as numbers' integers, whole). */
function shortenIds(columns: Column[], text: string[][]): void {
  columns.forEach((c, i) => {
    if (!c.id) return;
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
    if (widest < 0) break; // as narrow as it goes
    w[widest]--;
  }
  return w;
}

/**
 * Which columns show in `room` terminal columns: the lowest-priority ones drop (of equals, the
 * rightmost) until what is left fits with free text at its least; then a dropped column that fits
 * in the room left comes back, highest priority first (a wide column dropped makes room for
 * narrower ones). The first column always stays.
 */
export function keptColumns(columns: Column[], least: number[], room: number): number[] {
  const kept = columns.map((_, i) => i);
  const total = (set: number[]) => set.reduce((a, i) => a + least[i], 0) + 2 * (set.length - 1);
  const dropped: number[] = [];
  while (kept.length > 1 && total(kept) > room) {
    let drop = 1;
    for (let k = 1; k < kept.length; k++) if (columns[kept[k]].priority <= columns[kept[drop]].priority) drop = k;
    dropped.push(...kept.splice(drop, 1));
  }
  for (const i of dropped.sort((a, b) => columns[b].priority - columns[a].priority)) {
    const tried = [...kept, i].sort((a, b) => a - b);
    if (total(tried) <= room) kept.splice(0, kept.length, ...tried);
  }
  return kept;
}

/**
 * A header line (upper case) and one line per row in aligned columns that fit the terminal, and the
 * headers of the columns hidden. A table too narrow for every column first writes its times to the
 * minute (the zone in the header) when that shows a column more (at 80 columns, a call's SUMMARY);
 * then the lowest-priority columns drop. With --wide every column shows, ids and values whole, and free text
 * takes the room left (at least a few columns): a row stays one line whenever its values fit.
 */
export function layout(io: IO, columns: Column[], rows: Cell[][]): { lines: string[]; hidden: string[] } {
  let fit = measure(io, columns, rows, false);
  if (!io.wide && fit.kept.length < columns.length && timeColumns(io, columns, rows).length > 0) {
    // times to the minute, the zone in their header, where that shows a column the whole times hide
    const short = measure(io, columns, rows, true);
    if (short.kept.some((i) => !fit.kept.includes(i))) fit = short;
  }
  const { headers, text, natural, least, kept } = fit;
  const widths = fitWidths(
    kept.map((i) => natural[i]),
    kept.map((i) => least[i]),
    io.columns,
  );
  const line = (r: string[]) =>
    kept
      .map((i, k) => (k === kept.length - 1 ? clip(r[i], widths[k]) : pad(clip(r[i], widths[k]), widths[k])))
      .join('  ')
      .trimEnd();
  const hidden = columns.filter((_, i) => !kept.includes(i)).map((c) => c.header);
  return { lines: [line(headers.map((h) => h.toUpperCase())), ...text.map(line)], hidden };
}

/** The columns whose every value is a time (ISO 8601), on a terminal (piped, times stay as given). */
function timeColumns(io: IO, columns: Column[], rows: Cell[][]): number[] {
  if (!io.stdoutTTY) return [];
  const isTime = (v: Cell) => typeof v === 'string' && ISO_TIME.test(v);
  const empty = (v: Cell) => v === null || v === undefined || v === '';
  return columns
    .map((_, i) => i)
    .filter((i) => rows.some((r) => isTime(r[i])) && rows.every((r) => isTime(r[i]) || empty(r[i])));
}

/**
 * A table's cells as shown, their widths, and the columns that fit the terminal; with `toMinute`,
 * its time columns written to the minute with the zone in the header (`WHEN (UTC)`,
 * `2026-11-28 08:17`): a time is still whole and in the one human form, 7 columns narrower.
 */
function measure(io: IO, columns: Column[], rows: Cell[][], toMinute: boolean) {
  const times = toMinute ? timeColumns(io, columns, rows) : [];
  const headers = columns.map((c, i) => (times.includes(i) ? `${c.header} (UTC)` : c.header));
  const text = rows.map((r) =>
    r.map((c, i) => oneLine(times.includes(i) && c ? humanTime(c as string).slice(0, 16) : shown(io, c))),
  );
  if (!io.wide) shortenIds(columns, text);
  const natural = headers.map((h, i) => Math.max(width(h), ...text.map((r) => width(r[i]))));
  const least = natural.map((n, i) => (columns[i].cut ? Math.min(n, Math.max(LEAST_TEXT, width(headers[i]))) : n));
  const kept = io.wide ? columns.map((_, i) => i) : keptColumns(columns, least, io.columns);
  return { headers, text, natural, least, kept };
}

/** A header line and one line per row, fitted to the terminal (the live views redraw these). */
export const alignedLines = (io: IO, columns: Column[], rows: Cell[][]): string[] => layout(io, columns, rows).lines;

/**
 * A single record as aligned "label  value" lines; piped, `key<TAB>value` lines (every single record
 * alike). On a terminal a long value wraps at spaces under its column (a hanging indent), so no
 * amount, time or number breaks mid-word where the terminal would cut the line.
 */
export function fields(io: IO, pairs: [string, Cell][]): void {
  const w = Math.max(...pairs.map(([k]) => width(k)));
  for (const [k, v] of pairs) {
    if (!io.stdoutTTY) {
      io.out(`${k}\t${oneLine(cell(v))}\n`);
      continue;
    }
    const [first, ...rest] = wrapWords(shown(io, v), io.columns - w - 2);
    io.out(`${dim(io, pad(k, w))}  ${first}\n`);
    for (const l of rest) io.out(`${' '.repeat(w + 2)}${l}\n`);
  }
}

/** Values a line never breaks inside: a time as shown (`2026-11-28 08:17:37 UTC`) and an amount (`16.18 USD`). */
const UNBREAKABLE = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC|-?\d+(?:\.\d+)? USD/g;

/**
 * A value's lines of at most `room` columns, broken at spaces but never inside a time or an amount
 * (a word wider than the room stays whole).
 */
export function wrapWords(s: string, room: number): string[] {
  if (room < 10 || width(s) <= room) return [s];
  const lines: string[] = [];
  let line = '';
  const words = s.replace(UNBREAKABLE, (m) => m.replaceAll(' ', '\u00a0')).split(' ');
  for (const word of words.map((w) => w.replaceAll('\u00a0', ' '))) {
    if (line && width(line) + 1 + width(word) > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/**
 * A list inside a single record (a job's targets, a call's transcript), after its fields: a table
 * below a blank line on a terminal; piped, one line per item, its key then its columns, all
 * tab-separated (`grep '^target'` picks them out).
 */
export function nested(io: IO, key: string, columns: Column[], rows: Cell[][]): void {
  if (io.stdoutTTY) {
    io.out('\n');
    table(io, columns, rows);
  } else for (const r of rows) io.out([key, ...r.map((c) => oneLine(cell(c)))].join('\t') + '\n');
}

/** Dollars as the API gives them (`cost_usd`, `wallet_usd`), written as every amount is: "12.50 USD". */
export const money = (usd: number) => price(cents(usd));

/** Shows when a list has more pages (stderr, so stdout stays data). */
export function moreHint(io: IO, meta: { cursor?: string } | undefined): void {
  if (meta?.cursor) io.err(dim(forStderr(io), `More results: add --cursor ${meta.cursor}`) + '\n');
}
