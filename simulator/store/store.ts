// The simulator's store: a lowdb JSON snapshot plus an append-only journal beside it (or memory,
// for tests of the app alone).
//
// Every unit of work that may write runs inside transact(): an in-process queue plus a cross-process
// lock file (proper-lockfile), so a server and embedded CLI processes writing one file never lose an
// update. A transaction's changes (tracker.ts: the records and values it wrote) are appended to the
// journal as one JSON line, fsync'ed before the reply, so a commit costs what it changes and a kill -9
// at any moment loses nothing acknowledged. Each process keeps the data in memory and, under the
// lock, reads only the journal bytes other processes appended since it last looked. Past a size the
// journal is folded into a new snapshot (written whole to a unique temp file, fsync'ed, renamed),
// which a clean shutdown of the server also does.
//
// What it promises under faults: a reply is sent only once every byte of its journal line is on disk
// (a short write on a full disk is an error, the line is cut back off, and the process reads its data
// again from the disk, so what it serves is what the disk holds); what cannot be read is refused,
// never overwritten (journal.ts); a data file that is a symbolic link is worked on where it points;
// a file the process may not write fails at once, naming the file and the permission.
import { randomBytes } from 'node:crypto';
import { constants as fsConstants, lstatSync, mkdirSync, readlinkSync, realpathSync, type StatsFs } from 'node:fs';
import { chmod, copyFile, open, readdir, stat, statfs, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Low } from 'lowdb';
import { dropDerived } from './derived.js';
import { ApiError } from '../core/errors.js';
import {
  countLines,
  entryLine,
  headerLine,
  isSpent,
  JOURNAL_VERSION,
  planRepair,
  readHeader,
  scanEntries,
  type BadLine,
} from './journal.js';
import {
  ACCESS_CODES,
  accessError,
  isTempOf,
  release,
  tempIsOrphan,
  SnapshotFile,
  stampOf,
  StoreAccessError,
  StoreFileError,
  writeDurably,
} from './snapshot.js';
import { checkSource, ImportRefused, LISTED, refuseWorld } from './source.js';
import { applyOps, Tracker, type Op, type TrackedShape } from './tracker.js';

/** What `vmv sim repair` found and did. */
export interface RepairReport {
  file: string;
  journal: string;
  /** whether anything stopped the store from opening */
  needed: boolean;
  /** where the journal as it was went (null: nothing to keep, or a dry run) */
  copy: string | null;
  /** the data file was missing or empty: a fresh world was started */
  fresh: boolean;
  /** entries applied */
  kept: number;
  /** the first line that could not be read, and why */
  damaged: BadLine | null;
  /** entries after it, set aside with it (they are in the copy) */
  after: number;
  /** why no entry of the journal applied at all (its header), if so */
  wholeJournal: string | null;
}

/** Said by a unit of work run without the lock that finds it needs it (see Store.peek). */
export const NEEDS_LOCK: unique symbol = Symbol('needs the lock');

/** Compaction folds the journal into the snapshot once it outgrows both of these, or holds this many entries. */
const COMPACT_MIN_BYTES = 1 << 20;
const COMPACT_MAX_ENTRIES = 10_000;
/** After a compaction failed (a full disk), the journal grows this much more before the next try. */
const COMPACT_RETRY_BYTES = 256 * 1024;
/** How long a unit of work waits for another process's lock before answering 503 store_busy. */
const LOCK_WAIT_MS = 60_000;

/**
 * The file a data file path stands for: a symbolic link is followed (to a file that may not exist
 * yet), so the journal, the lock and new snapshots sit beside the real file and a compaction
 * replaces the file, never the link.
 */
export function resolveDataFile(file: string): string {
  let f = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    let st;
    try {
      st = lstatSync(f);
    } catch {
      // (a path that does not exist yet: its folder may still be reached through links)
      try {
        return join(realpathSync(dirname(f)), basename(f));
      } catch {
        return f;
      }
    }
    if (!st.isSymbolicLink()) {
      try {
        return realpathSync(f);
      } catch {
        return f;
      }
    }
    f = resolve(dirname(f), readlinkSync(f));
  }
  return f;
}

/** A snapshot's modification time, from its stamp (snapshot.ts stampOf). */
const mtimeOf = (stamp: string): bigint => BigInt(stamp.split(':')[2] || 0);

/** The time in a file name: 20261126T101500Z. */
const stampNow = () => new Date().toISOString().replace(/[-:]|\.\d+/g, '');

/** Writes every byte of `buf` at the end of the file, or throws: a short write (a full disk) is an error. */
async function appendAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off, null);
    if (bytesWritten <= 0)
      throw Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC', written: off });
    off += bytesWritten;
  }
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

/** What a failed write whose cut-back failed too means (Store.cutBack). */
const UNCUT_AFTER =
  'written whole, the change stands and later requests see it; torn, it is cut off by the next request (or, if that fails too, the journal is refused, naming the byte).';
const UNCUT = `The journal could not be cut back to its last whole entry (a warning names the file and the byte), so this change may have been applied after all: ${UNCUT_AFTER}`;

/** What a failed write means, by what was being written. */
const AFTER_FAILURE = {
  request:
    'Nothing was applied. Free some space and send the request again; the simulator carries on by itself once there is room.',
  fold: 'The journal keeps every change; folding it into the data file is tried again as the journal grows, once there is room.',
} as const;

/** A write of the store that failed, as the reply says it: 507 on a full disk, the file's own error otherwise. */
async function writeFailure(
  e: unknown,
  dataFile: string,
  file: string,
  what: string,
  after: keyof typeof AFTER_FAILURE = 'request',
): Promise<Error> {
  const err = e as NodeJS.ErrnoException & { written?: number };
  if (e instanceof ApiError || e instanceof StoreFileError) return e;
  if (err.code && ACCESS_CODES.has(err.code)) return accessError(err, dataFile, err.path ?? file);
  if (err.code && DISK_FULL.has(err.code))
    return diskFull(err.code, file, `could not write ${what} ${file}`, AFTER_FAILURE[after]);
  return e instanceof Error ? e : new Error(String(e));
}

/** What the disk has no room for, as the 507 says it: files (its inodes spent), or bytes (how many are free). */
function roomLeft(f: StatsFs | null): string {
  if (!f) return '';
  if (f.ffree === 0) return ' of files (no more can be made there, whatever the bytes free)';
  return ` (${f.bavail * f.bsize} bytes free)`;
}

/** 507: the disk holding `file` is full, or has no room for one more file (its inodes spent). */
async function diskFull(code: string, file: string, what: string, after: string): Promise<ApiError> {
  const dir = dirname(file);
  const f = await statfs(dir).catch(() => null);
  const room = roomLeft(f);
  return new ApiError(
    507,
    'insufficient_storage',
    `The disk holding ${dir} is full${room}: the simulator ${what} (${code}). ${after}`,
  );
}

/** A journal the store will not open: the file, the line, and what to do. */
function damaged(file: string, journal: string, where: string, after: string): StoreFileError {
  return new StoreFileError(
    `The simulator's journal ${journal} is damaged: ${where}. ${after}Nothing has been changed: the store refuses to open rather than lose what it cannot read. ` +
      `Run \`vmv sim repair --data ${file}\` to keep every entry before the damage (what it sets aside stays in a copy of the journal as it is, ${journal}.damaged-<time>; ` +
      '--dry-run says what it would keep), or restore the world from an export (`vmv sim import`).',
  );
}

/**
 * What a store is told about the data it keeps, by the composition root that opens it (world.ts):
 * the store itself knows no domain. D is the data's shape; its `version` is the format.
 */
export interface StoreSchema<D extends Stored> extends TrackedShape {
  /** the format version written (a file of an older one is written anew before its first journal entry) */
  version: number;
  /** a fresh world, for a data file that holds none */
  seed(): D;
  /** data read from a file of any version this store reads, brought to the current shape (in place) */
  upgrade(data: D): D;
  /** why a parsed document is not such a store, in words (what it holds), or null when it is one */
  refuse(doc: Record<string, unknown>): string | null;
  /** values read at once whatever their size: what tells a store from another file */
  eager: readonly string[];
  /** structures derived from the data, saved beside it so that a process can read them without the records */
  saved?(view: D): Record<string, string>;
  /** an imported document's problems (`$.path: why`), at most `cap`, before anything reads it (source.ts) */
  check?(doc: Record<string, unknown>, cap: number): Promise<string[]>;
}

/** What every stored document has: its format version. */
export interface Stored {
  version: number;
}

export class Store<D extends Stored> {
  private readonly adapter: SnapshotFile<D> | null;
  private readonly db: Low<D> | null;
  private tracker: Tracker<D> | null = null;
  /** the snapshot as last read or written: its generation (and the one it folded in), identity on disk and size */
  private generation: string | null = null;
  private previous: string | null | undefined = undefined;
  /** the format version the snapshot on disk says (model.ts Data.version) */
  private diskVersion = 0;
  private snapshotStamp = '';
  private snapshotBytes = 0;
  /** the journal: its inode, the bytes of it applied here, and its entries */
  private journalIno = -1n;
  private journalOffset = 0;
  private journalEntries = 0;
  /** the journal's line the next entry read here is (the header is line 1), and its format (journal.ts) */
  private journalLine = 1;
  private journalVersion: 1 | 2 = JOURNAL_VERSION;
  private writers: Promise<unknown> = Promise.resolve();
  private inProcess: Promise<unknown> = Promise.resolve();
  private cleaned = false;
  private compacting = false;
  /** after a failed compaction: the journal size to reach before trying again, and whether it was said */
  private compactRetryAt = 0;
  private compactWarned = false;
  /** a failed write whose cut-back failed too: both causes (see cutBack) */
  private uncut: string | null = null;
  /** the snapshot whose modes (and its journal's) were last made owner-only */
  private modesOf = '';
  /** the data file as given (a symbolic link is worked on where it points: `file`) */
  readonly given: string | null;
  /** read as it stands, never written (readWorld): a file that holds no world is refused, not seeded */
  private readOnly = false;
  /** the file as an import named it: its world is checked before anything reads it (refuseBad) */
  private checking: string | null = null;

  constructor(
    file: string | null,
    readonly schema: StoreSchema<D>,
  ) {
    this.given = file;
    this.file = file && resolveDataFile(file);
    this.adapter = this.file ? new SnapshotFile<D>(this.file, schema) : null;
    this.db = this.adapter && new Low<D>(this.adapter, null as unknown as D);
    if (this.file) {
      try {
        mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      } catch (e) {
        throw accessError(e as NodeJS.ErrnoException, this.file);
      }
    }
  }

  /** The data file worked on (a symbolic link given is resolved). */
  readonly file: string | null;

  /** The append-only journal of transactions beside the snapshot. */
  private get journalFile(): string | null {
    return this.file && `${this.file}.journal`;
  }

  /** Runs fn with the store locked against this and every other process. */
  transact<T>(fn: (s: StoreSession<D>) => Promise<T>): Promise<T> {
    // writers take the lock file one at a time; a writer waiting for it does not hold up reads
    const run = this.writers.then(async () => {
      const session = new StoreSession<D>(this, true);
      const release = this.file ? await this.lock(() => void (session.compromised = true)) : null;
      try {
        return await this.exclusive(async () => {
          await this.cleanOrphans();
          let out: T;
          try {
            out = await fn(session);
          } catch (e) {
            session.rollback();
            throw e;
          }
          // what a unit of work changed without committing (a read that wrote) is kept, as it always was
          if (this.tracker?.changed) await session.commitChanges();
          return out;
        });
      } finally {
        // (a lock already lost, ERELEASED: what the unit did stands; commit() refused to write on a lost lock)
        await release?.().catch(() => {});
      }
    });
    this.writers = run.catch(() => {});
    return run;
  }

  /**
   * Runs a unit of work that should change nothing without the cross-process lock, when this process
   * can bring its data up to date without it (in this process it runs alone, after the work before
   * it). Returns NEEDS_LOCK, having put back anything it wrote, when it cannot or when the work
   * turned out to write (ran due timers, say): the caller runs it again under transact().
   */
  peek<T>(fn: (s: StoreSession<D>) => Promise<T>): Promise<T | typeof NEEDS_LOCK> {
    return this.exclusive(async () => {
      const session = new StoreSession<D>(this, false);
      try {
        const out = await fn(session);
        if (!this.tracker?.changed) return out;
        throw NEEDS_LOCK;
      } catch (e) {
        if (e !== NEEDS_LOCK) throw e;
        session.rollback();
        return NEEDS_LOCK;
      }
    });
  }

  /**
   * Takes the cross-process lock, waiting while another process holds it (up to LOCK_WAIT_MS, then
   * 503 store_busy). Any other failure (permission denied, a read-only file system) fails at once:
   * waiting would not change it.
   */
  private async lock(onCompromised: () => void): Promise<() => Promise<void>> {
    // loaded at the first write, not with the store: it brings graceful-fs and signal-exit (whose
    // exit hooks load assert), about 2 ms a read-only command does not need
    const { default: lockfile } = await import('proper-lockfile');
    const deadline = Date.now() + LOCK_WAIT_MS;
    let delay = 2;
    for (;;) {
      try {
        return await lockfile.lock(this.file!, {
          realpath: false,
          // a lock left by a killed process is taken over after 2 s (the library's minimum);
          // a live holder refreshes it every second, and our transactions take milliseconds
          stale: 2_000,
          update: 1_000,
          retries: 0,
          // a holder stalled past the stale time: another process may have taken the lock, so this
          // unit of work must not write (commit() refuses and the request fails, unapplied)
          onCompromised,
        });
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        if (err.code && DISK_FULL.has(err.code))
          throw await diskFull(
            err.code,
            this.file!,
            `could not make its lock ${this.file}.lock`,
            AFTER_FAILURE.request,
          );
        if (err.code !== 'ELOCKED') throw accessError(err, this.file!);
        if (Date.now() > deadline)
          throw new ApiError(
            503,
            'store_busy',
            `Another process has held the lock on ${this.file} for over ${LOCK_WAIT_MS / 1000} s; nothing was applied. Retry the request.`,
          );
        await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random())));
        delay = Math.min(25, delay * 1.3);
      }
    }
  }

  /** Runs fn alone among the units of work of this process that use the data. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.inProcess.then(fn);
    this.inProcess = run.catch(() => {});
    return run;
  }

  /**
   * The current data, brought up to date with what other processes wrote. Without the lock, anything
   * that needs it (a new store, a journal to repair, a compaction under way) throws NEEDS_LOCK.
   */
  async load(locked = true): Promise<D> {
    if (!this.adapter) {
      this.tracker ??= this.track(this.schema.seed());
      this.tracker.begin();
      return this.tracker.view;
    }
    if (!this.tracker || (await this.stamp()) !== this.snapshotStamp) {
      const replaced = this.tracker !== null;
      await this.readAll(locked);
      // (another process wrote a snapshot: one killed before it could has left its temp file)
      if (replaced && locked) await this.cleanOrphans(true);
    } else {
      try {
        await this.catchUp(locked);
      } catch (e) {
        // (what cannot be read is not served from memory either)
        if (e instanceof StoreFileError) this.forget();
        throw e;
      }
    }
    if (locked && !this.readOnly && this.modesOf !== this.snapshotStamp) {
      this.modesOf = this.snapshotStamp;
      await this.ownerOnly();
    }
    this.tracker!.begin();
    return this.tracker!.view;
  }

  /** Reads the snapshot and replays its journal. */
  private async readAll(locked: boolean): Promise<void> {
    this.forget();
    await this.db!.read();
    if (!this.db!.data) {
      if (this.readOnly) throw new StoreFileError(`${this.given} holds no simulator world (it is empty or blank).`);
      if (!locked) throw NEEDS_LOCK;
      await this.refuseOrphanJournal();
      this.tracker = this.track(this.schema.seed());
      await this.writeSnapshot();
      return;
    }
    this.diskVersion = this.db!.data.version;
    if (this.checking !== null) await this.refuseBad(this.db!.data as unknown as Record<string, unknown>);
    const tracker = this.track(this.schema.upgrade(this.db!.data));
    this.db!.data = null as unknown as D;
    ({
      generation: this.generation,
      previous: this.previous,
      bytes: this.snapshotBytes,
      stamp: this.snapshotStamp,
    } = this.adapter!.last);
    this.tracker = tracker;
    this.journalIno = -1n;
    this.journalOffset = 0;
    this.journalEntries = 0;
    this.journalLine = 2;
    try {
      await this.catchUp(locked);
    } catch (e) {
      this.forget();
      throw e;
    }
  }

  /**
   * A snapshot that is missing or empty beside a journal that holds entries: the entries follow a
   * snapshot that is gone, and seeding a fresh world would write over them.
   */
  private async refuseOrphanJournal(): Promise<void> {
    const buf = await readFileOrNull(this.journalFile!);
    if (!buf) return;
    const head = readHeader(buf);
    const entries = head ? countLines(buf.subarray(head.end)) : countLines(buf);
    if (buf.length === 0 || (head?.header && entries === 0 && head.end === buf.length)) return;
    throw new StoreFileError(
      `The simulator's data file ${this.file} is ${this.adapter!.last.bytes === 0 ? 'missing or empty' : 'unreadable'}, but its journal ${this.journalFile} holds ${entries} ` +
        `entr${entries === 1 ? 'y' : 'ies'} that follow it. Nothing has been changed: a fresh world would write over them. Restore the data file from a copy, or run ` +
        `\`vmv sim repair --data ${this.file}\` to set the journal aside (as ${this.journalFile}.damaged-<time>) and start a fresh world.`,
    );
  }

  /** The data file and its journal readable by their owner only, whoever made them (a snapshot replaced by hand, say). */
  private async ownerOnly(): Promise<void> {
    for (const f of [this.file!, this.journalFile!]) {
      const st = await stat(f).catch(() => null);
      // (a file someone else owns is theirs to set; ours never fails a request for it)
      if (st && (st.mode & 0o077) !== 0 && st.uid === process.getuid?.())
        await chmod(f, st.mode & 0o700).catch(() => {});
    }
  }

  /** Applies the journal entries written since this process last looked (only the new bytes are read). */
  private async catchUp(locked: boolean): Promise<void> {
    const jf = this.journalFile!;
    let st;
    try {
      st = await stat(jf, { bigint: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw accessError(e as NodeJS.ErrnoException, this.file!, jf);
      if (this.journalOffset > 0) return this.readAll(locked); // the journal went away under us: start over
      return;
    }
    if (this.journalIno !== -1n && (st.ino !== this.journalIno || Number(st.size) < this.journalOffset))
      return this.readAll(locked);
    if (Number(st.size) === this.journalOffset) return;
    if (st.isDirectory())
      throw accessError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), this.file!, jf);
    const fh = await open(jf, 'r').catch((e: NodeJS.ErrnoException) => {
      throw accessError(e, this.file!, jf);
    });
    let buf: Buffer;
    try {
      buf = Buffer.alloc(Number(st.size) - this.journalOffset);
      await fh.read(buf, 0, buf.length, this.journalOffset);
    } finally {
      await fh.close();
    }
    let at = 0;
    if (this.journalOffset === 0) {
      // Without the lock, nothing odd is judged: a compaction may be under way (a new snapshot beside
      // the old journal, or the old snapshot read before a new journal), or a header being written
      const head = readHeader(buf);
      if (!head?.header || head.header.generation !== this.generation) {
        if (!locked) throw NEEDS_LOCK;
        if (!head) {
          // written whole by a rename, a journal never lacks its first line: but an empty one says nothing
          if (buf.length === 0) return;
          throw damaged(this.file!, jf, 'its first line (the header) is not a whole line', '');
        }
        if (!head.header)
          throw damaged(
            this.file!,
            jf,
            'line 1 is not a journal header',
            `It holds ${countLines(buf) - 1} more lines. `,
          );
        // a compaction stopped between its two renames: the snapshot holds all this journal says
        if (
          isSpent(
            head.header.generation,
            { previous: this.previous, mtimeNs: mtimeOf(this.snapshotStamp) },
            { entries: countLines(buf) - 1, mtimeNs: st.mtimeNs },
          )
        ) {
          this.journalIno = -1n;
          return;
        }
        throw damaged(
          this.file!,
          jf,
          `line 1 says it follows snapshot generation ${head.header.generation}, but the data file is generation ${this.generation}`,
          `Its ${countLines(buf) - 1} entries belong to another snapshot. `,
        );
      }
      at = head.end;
      this.journalVersion = head.header.vmv_journal;
    }
    this.journalIno = st.ino;
    const scan = scanEntries(buf.subarray(at), this.journalLine, this.journalEntries + 1, this.journalVersion);
    const applied = scan.entries;
    if (scan.bad) {
      if (!locked) throw NEEDS_LOCK;
      const rest = buf.subarray(at + scan.bad.at);
      const after = countLines(rest) - 1;
      this.forget();
      throw damaged(
        this.file!,
        jf,
        `line ${scan.bad.line} (byte ${this.journalOffset + at + scan.bad.at}) is ${scan.bad.reason}`,
        after > 0
          ? `${after} more line${after === 1 ? '' : 's'} follow it, and would be lost if it were cut off there. `
          : '',
      );
    }
    // records appended are folded into the indexes as this process's own appends are; any other
    // change to a collection's records moves its epoch, so what is built over it is built again
    // (indexes.ts, the timer queue) and what is built over the others is kept
    for (const ops of applied) {
      for (const op of ops) if (op[0] !== 'push' && this.schema.recordUnits.has(op[1])) this.tracker!.bump(op[1]);
      applyOps(this.tracker!.root, ops);
    }
    this.journalOffset += at + scan.end;
    this.journalEntries += applied.length;
    this.journalLine += applied.length;
    if (scan.torn > 0) {
      // without the lock, it may be a line being appended: the lock tells
      if (!locked) throw NEEDS_LOCK;
      if (scan.whole) return this.keepWhole(jf, scan.whole, scan.torn);
      // a writer killed mid-append leaves half a line without its newline: it was never
      // acknowledged, and is cut off so that the entries appended after it are whole lines
      if (this.readOnly) return; // (read as it stands: the entries before it)
      await this.cutTorn(jf, scan.torn);
    }
  }

  /**
   * Cuts a half-written last entry (a writer killed mid-append, never acknowledged) off the journal,
   * so that the entries appended after it are whole lines; one that cannot be cut is refused, named.
   */
  private async cutTorn(jf: string, torn: number): Promise<void> {
    process.emitWarning(
      `vmv simulator: discarded ${torn} bytes at the end of the journal ${jf} (a half-written last entry, never acknowledged); every entry before it is kept.`,
    );
    const at = this.journalOffset;
    await truncate(jf, at).catch((e: NodeJS.ErrnoException) => {
      this.forget();
      throw new StoreFileError(
        `The simulator could not cut the half-written last entry (${torn} bytes, never acknowledged) off its journal ${jf} at byte ${at}: ${e.message}. ` +
          'Nothing has been changed; no entry can follow it until it is cut. Mend the cause (space, permissions), or run `vmv sim repair`.',
      );
    });
    this.uncut = null;
  }

  /**
   * A last entry whole but for its newline (the newline lost, the entry acknowledged or not): it is
   * applied, and its newline written, so that the entries appended after it are lines of their own.
   */
  private async keepWhole(jf: string, ops: Op[], bytes: number): Promise<void> {
    for (const op of ops) if (op[0] !== 'push' && this.schema.recordUnits.has(op[1])) this.tracker!.bump(op[1]);
    applyOps(this.tracker!.root, ops);
    this.journalEntries++;
    this.journalLine++;
    if (this.readOnly) return void (this.journalOffset += bytes);
    const fh = await open(jf, 'a');
    try {
      await appendAll(fh, Buffer.from('\n'));
      await fh.datasync();
    } finally {
      await fh.close();
    }
    this.journalOffset += bytes + 1;
  }

  /**
   * Makes a transaction's changes durable: one journal line, every byte of it written and fsync'ed
   * before the caller replies. A write that fails (a full disk: a short write) cuts the journal back
   * to its last whole entry and forgets the data held here, so the next unit of work reads what the
   * disk holds: the request fails unapplied, in memory as on disk.
   */
  async append(ops: Op[]): Promise<void> {
    if (!this.adapter || ops.length === 0) return;
    let what = 'its data file';
    try {
      // a snapshot without a generation, or of an older format (an older vmv's), is written anew
      // before any journal entry follows it: an older vmv then refuses the store instead of
      // misreading entries it does not know
      if (this.generation === null || this.diskVersion < 3) return await this.writeSnapshot();
      what = 'its journal';
      if (this.journalIno === -1n) await this.newJournal();
      const line = entryLine(this.journalEntries + 1, ops);
      const fh = await open(this.journalFile!, 'a', 0o600);
      try {
        // under the lock nobody else appends: a journal longer than this process knows it means a
        // lock lost while it stood still, and this change rests on a stale view (nothing applied)
        const { size } = await fh.stat();
        if (size !== this.journalOffset)
          throw new ApiError(
            503,
            'store_busy',
            this.uncut
              ? `The journal ${this.journalFile} still ends with the remains of a write that failed (${this.uncut}), past its last whole entry at byte ${this.journalOffset}; nothing was applied. Run \`vmv sim repair --data ${this.file}\` once the cause is mended.`
              : `Another process wrote to ${this.journalFile} while this one held its lock; nothing was applied. Retry the request.`,
          );
        try {
          await appendAll(fh, line);
          await fh.datasync();
        } catch (e) {
          // (a failed fsync may have lost bytes the kernel held: cut back to what was whole before)
          await this.cutBack(fh, e);
          throw e;
        }
      } finally {
        await fh.close();
      }
      this.journalOffset += line.length;
      this.journalEntries++;
      this.journalLine++;
    } catch (e) {
      this.forget();
      const err = await writeFailure(e, this.file!, what === 'its journal' ? this.journalFile! : this.file!, what);
      // (the line may stand whole in the journal: then "nothing was applied" would not be true)
      if (!this.uncut) throw err;
      const said = err instanceof ApiError ? err.message.replace(/ Nothing was applied\..*$/, '') : err.message;
      throw new ApiError(
        err instanceof ApiError ? err.status : 500,
        err instanceof ApiError ? err.code : 'internal_error',
        `The simulator could not write its journal ${this.journalFile}: ${said}. ${UNCUT}`,
      );
    }
    if (!this.compacting && this.journalIsLong() && this.journalOffset >= this.compactRetryAt) {
      // in the background: the reply does not wait for it (the next unit of work in this process does)
      this.compacting = true;
      const tried = this.journalOffset;
      void this.roomToFold()
        .then(() => this.compactIf(() => this.journalIsLong()))
        .then(
          () => {
            this.compactRetryAt = 0;
            this.compactWarned = false;
          },
          (e) => {
            // the journal still holds everything: said once, tried again once it has grown some more
            // (from its size when tried: a failure forgets the data, offsets included)
            this.compactRetryAt = tried + COMPACT_RETRY_BYTES;
            if (!this.compactWarned)
              process.emitWarning(
                `vmv simulator: could not fold the journal into ${this.file}: ${(e as Error).message}`,
              );
            this.compactWarned = true;
          },
        )
        .finally(() => (this.compacting = false));
    }
  }

  /**
   * Cuts the journal back to its last whole entry after a write that failed. A cut-back that fails
   * too is said at once (the file, the byte, both causes) and remembered, so that what later finds
   * the bytes left there says what they are (append), never "another process wrote".
   */
  private async cutBack(fh: FileHandle, failed: unknown): Promise<void> {
    try {
      await fh.truncate(this.journalOffset);
      await fh.datasync();
      this.uncut = null;
    } catch (e) {
      this.uncut = `${(failed as Error).message}; cutting it back failed: ${(e as Error).message}`;
      process.emitWarning(
        `vmv simulator: could not cut the journal ${this.journalFile} back to its last whole entry (byte ${this.journalOffset}) after a failed write (${this.uncut}). ` +
          `The request failed, but its line may stand: ${UNCUT_AFTER}`,
      );
    }
  }

  /**
   * Throws (507) when the disk plainly has no room for a new snapshot (about the snapshot and the
   * journal together): a compaction would write until the disk is full, and fail, on every try.
   */
  private async roomToFold(): Promise<void> {
    const f = await statfs(dirname(this.file!)).catch(() => null);
    const need = this.snapshotBytes + this.journalOffset;
    if (f && f.bavail * f.bsize < need)
      throw await diskFull(
        'ENOSPC',
        this.file!,
        `has no room to fold the journal into ${this.file} (about ${need} bytes needed)`,
        AFTER_FAILURE.fold,
      );
  }

  /** Replaying the journal would cost more than reading the snapshot again (or it holds many entries). */
  private journalIsLong(): boolean {
    return (
      this.journalOffset > Math.max(COMPACT_MIN_BYTES, this.snapshotBytes) || this.journalEntries >= COMPACT_MAX_ENTRIES
    );
  }

  /** Folds the journal into the snapshot (a clean shutdown; the store compacts by itself as the journal grows). */
  async compact(): Promise<void> {
    if (!this.adapter) return;
    await this.compactIf(() => this.journalEntries > 0);
  }

  /** Under the lock, with the data up to date: writes a new snapshot when `cond` holds. */
  private compactIf(cond: () => boolean): Promise<void> {
    return this.transact(async (ss) => {
      await this.load();
      await this.cleanOrphans(true);
      if (!cond()) return;
      // a lock lost while this process stood still: another may be appending, which a new journal would drop
      if (ss.compromised)
        throw new ApiError(
          503,
          'store_busy',
          `The lock on ${this.file} was lost; the journal was not folded in (it keeps every change).`,
        );
      await this.writeSnapshot('fold');
    });
  }

  /**
   * Writes the whole data as a new snapshot generation, then an empty journal that follows it. A
   * failure at either step (a full disk) forgets the data held here: the files on disk are whole
   * either way (the old snapshot and journal; or the new snapshot beside the old journal, which it
   * names as folded in), and the next unit of work reads them.
   */
  private async writeSnapshot(after: 'request' | 'fold' = 'request', journal: 'new' | 'none' = 'new'): Promise<void> {
    let writing = this.file!;
    try {
      this.adapter!.nextGeneration = randomBytes(8).toString('hex');
      this.adapter!.nextPrevious = this.generation;
      this.adapter!.nextSaved = this.schema.saved?.(this.tracker!.view) ?? {};
      this.db!.data = this.tracker!.root;
      await this.db!.write();
      ({
        generation: this.generation,
        previous: this.previous,
        bytes: this.snapshotBytes,
        stamp: this.snapshotStamp,
      } = this.adapter!.last);
      this.diskVersion = this.tracker!.root.version;
      // (the journal on disk follows the snapshot before: never appended to again)
      this.journalIno = -1n;
      writing = this.journalFile!;
      // a world written whole (an export, an import) leaves no journal: the one beside it is spent, and goes
      if (journal === 'new') await this.newJournal();
      else
        await unlink(this.journalFile!).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'ENOENT') throw e;
        });
    } catch (e) {
      this.forget();
      throw await writeFailure(e, this.file!, writing, writing === this.file ? 'its data file' : 'its journal', after);
    } finally {
      this.db!.data = null as unknown as D;
    }
  }

  private async newJournal(): Promise<void> {
    const header = Buffer.from(headerLine(this.generation));
    this.journalVersion = JOURNAL_VERSION;
    const st = await writeDurably(this.journalFile!, header);
    this.journalIno = st.ino;
    this.journalOffset = header.length;
    this.journalEntries = 0;
    this.journalLine = 2;
  }

  /**
   * Mends a store that refuses to open (journal.ts says what it keeps), under the lock: every
   * journal entry that can still be applied is, the rest are reported by line, a copy of the journal
   * as it was is kept as `<journal>.damaged-<time>`, and the result becomes a new snapshot with an
   * empty journal. A missing or empty data file beside a journal starts a fresh world (the journal
   * kept aside). The data file itself damaged is beyond repair here: restore it from a copy.
   * `dryRun` says what it would do and changes nothing.
   */
  repair(o: { dryRun?: boolean } = {}): Promise<RepairReport> {
    return this.transact(async () => {
      this.forget();
      const jf = this.journalFile!;
      const buf = await readFileOrNull(jf);
      let data: D | null;
      try {
        data = await this.adapter!.read();
        // every part read now, so that one whose bytes changed is found (a command reads only those it uses)
        if (data) for (const k of Object.keys(data)) void (data as unknown as Record<string, unknown>)[k];
      } catch (e) {
        if (e instanceof StoreAccessError) throw e;
        throw new StoreFileError(
          `${(e as Error).message} \`vmv sim repair\` mends the journal, not the data file itself: restore the data file from a copy (\`vmv sim import\`), or move it away to start afresh.`,
        );
      }
      const report: RepairReport = {
        file: this.file!,
        journal: jf,
        copy: null,
        needed: false,
        fresh: false,
        kept: 0,
        damaged: null,
        after: 0,
        wholeJournal: null,
      };
      if (!data) {
        const head = buf && readHeader(buf);
        // the entries: the lines after the header line (every line when there is none)
        const entries = buf ? countLines(buf.subarray(head?.end ?? 0)) : 0;
        report.needed = entries > 0 || (buf !== null && !head?.header && buf.length > 0);
        report.fresh = report.needed;
        if (report.needed)
          report.wholeJournal = `the data file it follows is ${this.adapter!.last.bytes === 0 ? 'missing or empty' : 'gone'}`;
      } else {
        const root = this.schema.upgrade(data);
        const { generation, previous, stamp } = this.adapter!.last;
        const head = buf && readHeader(buf);
        const jst = buf && (await stat(jf, { bigint: true }));
        const spent =
          head?.header &&
          jst &&
          head.header.generation !== generation &&
          isSpent(
            head.header.generation,
            { previous, mtimeNs: mtimeOf(stamp) },
            { entries: countLines(buf!.subarray(head.end)), mtimeNs: jst.mtimeNs },
          );
        if (buf && buf.length > 0 && !spent) {
          const plan = planRepair(buf, generation);
          for (const ops of plan.kept) applyOps(root, ops);
          Object.assign(report, {
            kept: plan.kept.length,
            damaged: plan.damaged,
            after: plan.after,
            wholeJournal: plan.wholeJournal,
          });
          report.needed = plan.damaged !== null || plan.wholeJournal !== null;
        }
        // (the new snapshot names the one read as folded in)
        this.generation = generation;
        if (report.needed && !o.dryRun) this.tracker = this.track(root);
        else release(root);
      }
      if (!report.needed || o.dryRun) return report;
      if (buf) report.copy = await keepCopy(jf, `${jf}.damaged-${stampNow()}`);
      this.tracker ??= this.track(this.schema.seed());
      await this.writeSnapshot();
      this.forget();
      return report;
    });
  }

  /**
   * The whole world in one self-contained file (the journal folded in), read as one moment under
   * the lock so that servers and other processes may run meanwhile: written to `to` as import()
   * writes a world (under that file's lock, its journal made spent), or returned as bytes (for
   * standard output) when `to` is null. The file is a data file of its own (--data takes it). The
   * caller asks before writing over a world (vmv sim export --yes).
   */
  async export(to: string | null): Promise<{ bytes: number; content: Buffer | null }> {
    const out = to && resolveDataFile(to);
    if (out && (out === this.file || out === this.journalFile))
      throw new StoreFileError(`${to} is this simulator's own data file: export to another file.`);
    const data = await this.readWorld();
    if (out) return { ...(await new Store<D>(out, this.schema).replaceWorld(data)), content: null };
    const file = new SnapshotFile<D>(this.file!, this.schema);
    file.nextGeneration = randomBytes(8).toString('hex');
    file.nextSaved = this.schema.saved?.(this.tracker?.view ?? data) ?? {};
    const content = Buffer.concat(file.render(data).map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
    return { bytes: content.length, content };
  }

  /**
   * Replaces the world with the one in `from` (an export, or a data file with its journal), read as
   * it stands and never written. The caller asks before overwriting a world (vmv sim import --yes).
   */
  async import(from: string): Promise<{ bytes: number; data: D }> {
    const src = resolveDataFile(from);
    if (src === this.file) throw new StoreFileError(`${from} is this simulator's own data file: nothing to import.`);
    await checkSource(from, src);
    const reader = new Store<D>(src, this.schema);
    reader.checking = from;
    // (a source that holds no world is refused as what it is: a local file error, exit 2)
    const data = await reader.readWorld().catch((e: unknown) => {
      throw e instanceof StoreFileError && !(e instanceof StoreAccessError)
        ? new ImportRefused(`${from} cannot be imported: ${e.message}`)
        : e;
    });
    // (again with its journal applied)
    await reader.refuseBad(data as unknown as Record<string, unknown>);
    return { ...(await this.replaceWorld(data)), data };
  }

  /** Refuses (source.ts) a document being imported whose values are not a world's (StoreSchema.check). */
  private async refuseBad(doc: Record<string, unknown>): Promise<void> {
    const problems = (await this.schema.check?.(doc, LISTED + 1)) ?? [];
    if (problems.length > 0) throw refuseWorld(this.checking ?? this.given ?? '', problems);
  }

  /**
   * The world this data file holds, its journal folded in, for a copy: read under the lock where
   * one can be taken (in a folder nobody may write, nobody is writing), and never written — no
   * world is seeded for a file that holds none, no torn line is cut, no mode is changed.
   */
  async readWorld(): Promise<D> {
    const st = await stat(this.file!).catch((e: NodeJS.ErrnoException) => {
      throw e.code === 'ENOENT'
        ? new StoreFileError(`${this.given} does not exist: it holds no simulator world.`)
        : accessError(e, this.file!);
    });
    if (st.isDirectory()) throw accessError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), this.file!);
    this.readOnly = true;
    const take = async (ss: StoreSession<D>) => (await ss.begin(), this.tracker!.root);
    try {
      return await this.transact(take);
    } catch (e) {
      if (!(e instanceof StoreAccessError) || !ACCESS_CODES.has(e.code)) throw e;
      return this.exclusive(async () => (await this.load(true), this.tracker!.root));
    }
  }

  /**
   * Makes `data` the world of this data file, under its lock: a new snapshot generation that names
   * the current one as folded in, so the journal of the world replaced is spent, and goes: the file
   * is one self-contained world until its next write. Other processes read it at their next unit of work.
   */
  private replaceWorld(data: D): Promise<{ bytes: number }> {
    return this.transact(async () => {
      // (the world replaced may be unreadable: an import is how a person restores one)
      const before = await this.adapter!.read().then(
        (d) => (d && release(d), this.adapter!.last.generation),
        () => null,
      );
      this.forget();
      this.tracker = this.track(data);
      this.generation = before;
      try {
        await this.writeSnapshot('request', 'none');
      } finally {
        this.tracker = null; // (the data is the caller's: never released here)
      }
      return { bytes: this.snapshotBytes };
    });
  }

  /** Whether the data file (or a journal beside it) holds anything: an import over it replaces a world. */
  async holdsWorld(): Promise<boolean> {
    if (!this.file) return false;
    const sizes = await Promise.all(
      [this.file, this.journalFile!].map((f) =>
        stat(f).then(
          (st) => st.size,
          () => 0,
        ),
      ),
    );
    return sizes.some((n) => n > 0);
  }

  /** A tracker over `data` with this store's record collections. */
  private track(data: D): Tracker<D> {
    return new Tracker(data, this.schema);
  }

  /** Drops the data held here: the next unit of work reads the files again. */
  private forget(): void {
    if (this.tracker) {
      dropDerived(this.tracker.view);
      release(this.tracker.root);
    }
    this.tracker = null;
    this.snapshotStamp = '';
    this.journalIno = -1n;
    this.journalOffset = 0;
  }

  /** The data as this process holds it, for the store's sessions (null once forgotten). */
  get current(): Tracker<D> | null {
    return this.tracker;
  }

  /** The snapshot's identity on disk. */
  private async stamp(): Promise<string> {
    try {
      const st = await stat(this.file!, { bigint: true });
      return stampOf(st);
    } catch {
      return 'missing';
    }
  }

  /**
   * Temp files of a writer killed mid-write (a SIGKILLed import, say) are never renamed: removed when
   * the store opens here, at each compaction, and when another process replaced the snapshot, once
   * the process that named them is gone (snapshot.ts tempIsOrphan).
   */
  private async cleanOrphans(again = false): Promise<void> {
    if ((this.cleaned && !again) || !this.file || this.readOnly) return;
    this.cleaned = true;
    // (`.sim.json.` begins the journal's temp files too)
    for (const name of await readdir(dirname(this.file)).catch(() => []))
      if (isTempOf(this.file, name) && tempIsOrphan(this.file, name))
        await unlink(join(dirname(this.file), name)).catch(() => {});
  }
}

/** Copies `file` to `name` (or `name-2`, `-3`, …: a copy already there is never replaced), owner-only; the copy's name. */
async function keepCopy(file: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const to = n === 1 ? name : `${name}-${n}`;
    try {
      await copyFile(file, to, fsConstants.COPYFILE_EXCL);
      await chmod(to, 0o600);
      return to;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

async function readFileOrNull(file: string): Promise<Buffer | null> {
  try {
    const fh = await open(file, 'r');
    try {
      return await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw accessError(e as NodeJS.ErrnoException, file.replace(/\.journal$/, ''), file);
  }
}

/** Gives a locked caller sessions that commit or roll back as a whole. */
export class StoreSession<D extends Stored> {
  compromised = false;
  /** `locked`: run under transact(), which may write; otherwise under peek(), which may not */
  constructor(
    private readonly store: Store<D>,
    readonly locked: boolean,
  ) {}

  /** The data, up to date, as a view whose changes are journaled at commit (or put back by rollback). */
  begin(): Promise<D> {
    return this.store.load(this.locked);
  }

  /** Journals what was written since the last commit (nothing is applied when the lock was lost). */
  async commitChanges(): Promise<void> {
    if (!this.locked) throw NEEDS_LOCK;
    if (this.compromised) {
      this.rollback();
      throw new ApiError(
        503,
        'store_busy',
        'The data file lock was lost while this request ran; nothing was applied. Retry the request.',
      );
    }
    const t = this.store.current;
    if (t) await this.store.append(t.take());
  }

  /** Puts back what the unit of work wrote, so its partial changes are never seen. */
  rollback(): void {
    const t = this.store.current;
    // (a failed request that wrote nothing leaves the indexes as they are)
    if (t?.undo()) dropDerived(t.view);
  }
}
