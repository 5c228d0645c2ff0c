// The store's journal: its header (which snapshot it follows) and its entries, one line a
// transaction, each numbered and summed: `{"n":7,"sum":"…","ops":[…]}`. Reading is strict, because
// what cannot be read is never overwritten in silence, and a journal edited so that it still parses
// (a line deleted, repeated or moved, a byte changed inside a string) must not be applied as if it
// were whole: the numbers say a line is missing, repeated or out of place, the sum that its bytes
// changed. The only bytes dropped by themselves are a last line without its newline that is not a
// whole entry (a writer killed mid-append, never acknowledged); anything else is damage, and the
// store refuses to open until `vmv sim repair` (planRepair() here says what it keeps) or a person
// deals with it.
import { sumOf } from './snapshot.js';
import { isOps, type Op } from './tracker.js';

/**
 * The journal's first line: which snapshot its entries follow. Version 2 journals number and sum
 * every entry; version 1 (written before they did) may hold entries without, read as they are.
 */
export interface JournalHeader {
  vmv_journal: 1 | 2;
  generation: string;
}
export const JOURNAL_VERSION = 2;

/** A line of the journal that cannot be read: where it is (1 is the header) and why. */
export interface BadLine {
  line: number;
  at: number;
  reason: string;
}

/** What a read of journal bytes found (offsets are relative to the bytes given). */
export interface Scan {
  /** the entries of the whole, valid lines before any bad one, and where each starts */
  entries: Op[][];
  starts: number[];
  /** where the bytes of those entries end (the next line starts here) */
  end: number;
  /** the first complete line that is not the entry expected there */
  bad: BadLine | null;
  /** bytes after the last newline: a line being written, or torn by a killed writer */
  torn: number;
  /** those bytes, when they are a whole entry that lost only its newline (kept, not dropped) */
  whole: Op[] | null;
}

export function parseLine<T>(b: Buffer): T | null {
  try {
    const v = JSON.parse(b.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as T) : null;
  } catch {
    return null;
  }
}

/** Reads the header line of a journal: null when there is no whole first line. */
export function readHeader(buf: Buffer): { header: JournalHeader | null; end: number } | null {
  const nl = buf.indexOf(10);
  if (nl < 0) return null;
  const h = parseLine<JournalHeader>(buf.subarray(0, nl));
  const ok = h !== null && (h.vmv_journal === 1 || h.vmv_journal === 2) && typeof h.generation === 'string';
  return { header: ok ? h : null, end: nl + 1 };
}

/** The header line of a new journal that follows snapshot `generation`. */
export const headerLine = (generation: string | null) =>
  `${JSON.stringify({ vmv_journal: JOURNAL_VERSION, generation })}\n`;

/** Entry number `n` of a journal, as the line that holds it. */
export function entryLine(n: number, ops: Op[]): Buffer {
  const json = JSON.stringify(ops);
  return Buffer.from(`{"n":${n},"sum":"${sumOf(json)}","ops":${json}}\n`);
}

const NUMBERED = /^\{"n":(\d+),"sum":"([0-9a-f]{16})","ops":/;

/**
 * The operations of one line (without its newline), if it is entry number `n`: numbered and summed,
 * or, in a version 1 journal, a plain `{"ops": …}`. Otherwise why not.
 */
function readEntry(line: Buffer, n: number, version: 1 | 2): Op[] | string {
  const head = NUMBERED.exec(line.subarray(0, 64).toString('latin1'));
  if (!head) {
    if (version === 2) return parseLine(line) ? 'a JSON object that is not a numbered journal entry' : 'not valid JSON';
    const entry = parseLine<{ ops: unknown }>(line);
    if (!entry) return 'not valid JSON';
    return isOps(entry.ops) ? entry.ops : 'a JSON object that is not a journal entry';
  }
  if (line[line.length - 1] !== 0x7d) return 'not valid JSON';
  const json = line.subarray(head[0].length, line.length - 1);
  if (sumOf(json) !== head[2]) return 'an entry whose bytes changed (its checksum does not match)';
  const found = Number(head[1]);
  if (found !== n) return `entry ${found} where entry ${n} belongs (a line missing, repeated or out of place)`;
  let ops: unknown;
  try {
    ops = JSON.parse(json.toString('utf8'));
  } catch {
    return 'not valid JSON';
  }
  return isOps(ops) ? ops : 'a JSON object that is not a journal entry';
}

/**
 * Reads entry lines from `buf`, the first of them line number `firstLine` and entry number
 * `firstEntry` of a journal of `version`.
 */
export function scanEntries(buf: Buffer, firstLine: number, firstEntry: number, version: 1 | 2): Scan {
  const entries: Op[][] = [];
  const starts: number[] = [];
  let at = 0;
  let line = firstLine;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) {
      // a last line without its newline: torn by a writer stopped mid-append, or a whole entry that lost only its newline
      const last = readEntry(buf.subarray(at), firstEntry + entries.length, version);
      return {
        entries,
        starts,
        end: at,
        bad: null,
        torn: buf.length - at,
        whole: typeof last === 'string' ? null : last,
      };
    }
    const entry = readEntry(buf.subarray(at, nl), firstEntry + entries.length, version);
    if (typeof entry === 'string')
      return { entries, starts, end: at, bad: { line, at, reason: entry }, torn: 0, whole: null };
    entries.push(entry);
    starts.push(at);
    at = nl + 1;
    line++;
  }
  return { entries, starts, end: at, bad: null, torn: 0, whole: null };
}

/** The number of complete lines in `buf` (entries past a bad line, for a message). */
export const countLines = (buf: Buffer): number => {
  let n = 0;
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) n++;
  return n;
};

/** What `vmv sim repair` does with a journal: the entries it applies, and what it sets aside. */
export interface RepairPlan {
  /** the entries applied, in order: every one before the first line that cannot be read */
  kept: Op[][];
  /** the first line that cannot be read, if any */
  damaged: BadLine | null;
  /** entries after it, set aside with it (a later entry may rest on what the lost one did: a charge, a timer) */
  after: number;
  /** the journal as a whole is not this snapshot's (its header): nothing of it is applied */
  wholeJournal: string | null;
}

/**
 * Plans a repair of a journal that follows snapshot `generation`: the entries before the first
 * line that cannot be read are applied; that line and every entry after it are set aside (kept in
 * the copy repair makes). Applying later entries would be a guess: they rest on what the lost one
 * did (a wallet set after a charge it made, a timer it scheduled), and money would not add up.
 */
export function planRepair(buf: Buffer, generation: string | null): RepairPlan {
  const plan: RepairPlan = { kept: [], damaged: null, after: 0, wholeJournal: null };
  const head = readHeader(buf);
  if (!head || !head.header) {
    plan.wholeJournal = 'its first line is not a journal header';
    return plan;
  }
  if (head.header.generation !== generation) {
    plan.wholeJournal = `it follows another snapshot (generation ${head.header.generation}; the data file is ${generation ?? 'of no generation'})`;
    return plan;
  }
  const rest = buf.subarray(head.end);
  const scan = scanEntries(rest, 2, 1, head.header.vmv_journal);
  plan.kept = scan.whole ? [...scan.entries, scan.whole] : scan.entries;
  if (scan.bad) {
    plan.damaged = { ...scan.bad, at: head.end + scan.bad.at };
    plan.after = countLines(rest.subarray(scan.bad.at)) - 1;
  } else if (scan.torn > 0 && !scan.whole) {
    plan.damaged = {
      line: 2 + scan.entries.length,
      at: head.end + scan.end,
      reason: 'a half-written last line (a writer stopped mid-append; never acknowledged)',
    };
  }
  return plan;
}

/**
 * Whether a journal that names another generation than its snapshot is spent: a compaction stopped
 * between its two renames left the journal it had folded in. The snapshot names that generation
 * (`previous`); one from before that was recorded (undefined) cannot, and the journal counts as
 * spent only when that is what it looks like: no entries, or none written after the snapshot.
 */
export function isSpent(
  journalGeneration: string,
  snapshot: { previous: string | null | undefined; mtimeNs: bigint },
  journal: { entries: number; mtimeNs: bigint },
): boolean {
  if (snapshot.previous !== undefined) return journalGeneration === snapshot.previous;
  return journal.entries === 0 || journal.mtimeNs <= snapshot.mtimeNs;
}
