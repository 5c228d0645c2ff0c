// The store's journal, read: its header (which snapshot it follows) and its entries, one JSON line a
// transaction. Reading is strict, because what cannot be read is never overwritten in silence: the
// only bytes dropped by themselves are a last line without its newline (a writer killed mid-append,
// never acknowledged); a complete line that does not parse, a header that names a snapshot other
// than the one beside it, or a journal beside no snapshot is damage, and the store refuses to open
// until `vmv sim repair` (repair() here plans what it keeps) or a person deals with it.
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

/** What `vmv sim repair` does with a journal: which entries it applies, which it sets aside and why. */
export interface RepairPlan {
  /** entries applied in order (every whole entry that still applies) */
  kept: Op[][];
  /** lines not applied, with why */
  dropped: BadLine[];
  /** the journal as a whole is not this snapshot's (its header): nothing of it is applied */
  wholeJournal: string | null;
}

/**
 * Plans a repair: every valid entry is applied in order, damaged lines skipped. Past the first
 * damaged line, an entry is applied only if each of its changes can be placed for certain (a record
 * replaced where a record of the same id still sits, or found by its id): an entry lost before it may
 * have added records, so positions no longer prove anything. An entry that cannot be placed whole is
 * set aside whole (a transaction is never half applied). `apply` tries one entry on the data, throwing
 * when a change cannot be placed, and leaves the data untouched then.
 */
export function planRepair(buf: Buffer, generation: string | null, apply: (ops: Op[], strict: boolean) => void): RepairPlan {
  const plan: RepairPlan = { kept: [], dropped: [], wholeJournal: null };
  const head = readHeader(buf);
  if (!head || !head.header) {
    plan.wholeJournal = 'its first line is not a journal header';
    return plan;
  }
  if (head.header.generation !== generation) {
    plan.wholeJournal = `it follows another snapshot (generation ${head.header.generation}; the data file is ${generation ?? 'of no generation'})`;
    return plan;
  }
  let at = head.end;
  let line = 2;
  let damaged = false;
  while (at < buf.length) {
    const scan = scanEntries(buf.subarray(at), line);
    scan.entries.forEach((ops, i) => {
      try {
        apply(ops, damaged);
        plan.kept.push(ops);
      } catch (e) {
        plan.dropped.push({ line, at: at + scan.starts[i], reason: (e as Error).message });
      }
      line++;
    });
    at += scan.end;
    if (scan.bad) {
      plan.dropped.push({ line, at, reason: scan.bad.reason });
      damaged = true;
      at = buf.indexOf(10, at) + 1;
      line++;
    } else if (scan.torn > 0) {
      plan.dropped.push({ line, at, reason: 'a half-written last line (a writer stopped mid-append; never acknowledged)' });
      break;
    }
  }
  return plan;
}
