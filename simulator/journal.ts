// The store's journal, read: its header (which snapshot it follows) and its entries, one JSON line a
// transaction. Reading is strict, because what cannot be read is never overwritten in silence: the
// only bytes dropped by themselves are a last line without its newline (a writer killed mid-append,
// never acknowledged); a complete line that does not parse, a header that names a snapshot other
// than the one beside it, or a journal beside no snapshot is damage, and the store refuses to open
// until `vmv sim repair` (planRepair() here says what it keeps) or a person deals with it.
import { isOps, type Op } from './tracker.js';

/** The journal's first line: which snapshot its entries follow. */
export interface JournalHeader { vmv_journal: 1; generation: string }

/** A line of the journal that cannot be read: where it is (1 is the header) and why. */
export interface BadLine { line: number; at: number; reason: string }

/** What a read of journal bytes found (offsets are relative to the bytes given). */
export interface Scan {
  /** the entries of the whole, valid lines before any bad one, and where each starts */
  entries: Op[][];
  starts: number[];
  /** where the bytes of those entries end (the next line starts here) */
  end: number;
  /** the first complete line that is not an entry */
  bad: BadLine | null;
  /** bytes after the last newline: a line being written, or torn by a killed writer */
  torn: number;
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
  const ok = h !== null && h.vmv_journal === 1 && typeof h.generation === 'string';
  return { header: ok ? h : null, end: nl + 1 };
}

/** Reads entry lines from `buf`, the first of them line number `firstLine` of the journal. */
export function scanEntries(buf: Buffer, firstLine: number): Scan {
  const entries: Op[][] = [];
  const starts: number[] = [];
  let at = 0;
  let line = firstLine;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) return { entries, starts, end: at, bad: null, torn: buf.length - at };
    const entry = parseLine<{ ops: unknown }>(buf.subarray(at, nl));
    if (!entry || !isOps(entry.ops)) {
      const reason = entry ? 'a JSON object that is not a journal entry' : 'not valid JSON';
      return { entries, starts, end: at, bad: { line, at, reason }, torn: 0 };
    }
    entries.push(entry.ops);
    starts.push(at);
    at = nl + 1;
    line++;
  }
  return { entries, starts, end: at, bad: null, torn: 0 };
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
  const scan = scanEntries(rest, 2);
  plan.kept = scan.entries;
  if (scan.bad) {
    plan.damaged = { ...scan.bad, at: head.end + scan.bad.at };
    plan.after = countLines(rest.subarray(scan.bad.at)) - 1;
  } else if (scan.torn > 0) {
    plan.damaged = { line: 2 + scan.entries.length, at: head.end + scan.end, reason: 'a half-written last line (a writer stopped mid-append; never acknowledged)' };
  }
  return plan;
}

/**
 * Whether a journal that names another generation than its snapshot is spent: a compaction stopped
 * between its two renames left the journal it had folded in. The snapshot names that generation
 * (`previous`); one from before that was recorded (undefined) cannot, and the journal counts as
 * spent only when that is what it looks like: no entries, or none written after the snapshot.
 */
export function isSpent(journalGeneration: string, snapshot: { previous: string | null | undefined; mtimeNs: bigint }, journal: { entries: number; mtimeNs: bigint }): boolean {
  if (snapshot.previous !== undefined) return journalGeneration === snapshot.previous;
  return journal.entries === 0 || journal.mtimeNs <= snapshot.mtimeNs;
}
