// The simulator's store: a lowdb JSON snapshot plus an append-only journal beside it (or memory,
// for tests of the app alone).
//
// Every unit of work that may write runs inside withLock(): an in-process queue plus a cross-process
// lock file (proper-lockfile), so a server and embedded CLI processes writing one file never lose an
// update. A transaction's changes (tracker.ts: the records and values it wrote) are appended to the
// journal as one JSON line, fsync'ed before the reply, so a commit costs what it changes and a kill -9
// at any moment loses nothing acknowledged. Each process keeps the data in memory and, under the
// lock, reads only the journal bytes other processes appended since it last looked. Past a size the
// journal is folded into a new snapshot (written whole to a unique temp file, fsync'ed, renamed),
// which a clean shutdown of the server also does.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, readdir, stat, truncate, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import lockfile from 'proper-lockfile';
import { clockNow } from './clock.js';
import { dropDerived } from './derived.js';
import { savedPeople } from './indexes.js';
import { ApiError } from './errors.js';
import type { Data } from './model.js';
import { Rng } from './rng.js';
import { seedData, upgrade, type SeedOptions } from './seed.js';
import { release, SnapshotFile, stampOf, writeDurably } from './snapshot.js';
import { applyOps, isOps, RECORD_UNITS, Tracker, type Op } from './tracker.js';

/** One locked unit of work on the store. */
export class Session {
  dirty = false;
  readonly rng: Rng;
  /** simulator time of this session; the scheduler moves it while running due transitions */
  now: number;

  constructor(readonly data: Data) {
    this.rng = new Rng(data.meta.rng, () => (this.dirty = true));
    this.now = clockNow(data.meta.clock);
  }

  markDirty(): void {
    this.dirty = true;
  }

  nextSeq(): number {
    this.dirty = true;
    return this.data.meta.next_seq++;
  }
}

/** Said by a unit of work run without the lock that finds it needs it (see Store.withRead). */
export const NEEDS_LOCK: unique symbol = Symbol('needs the lock');

/** The journal's first line: which snapshot its entries follow. */
interface JournalHeader { vmv_journal: 1; generation: string }

/** Compaction folds the journal into the snapshot once it outgrows both of these, or holds this many entries. */
const COMPACT_MIN_BYTES = 1 << 20;
const COMPACT_MAX_ENTRIES = 10_000;

export class Store {
  private readonly adapter: SnapshotFile | null;
  private readonly db: Low<Data> | null;
  private tracker: Tracker | null = null;
  /** the snapshot as last read or written: its generation, identity on disk and size */
  private generation: string | null = null;
  private snapshotStamp = '';
  private snapshotBytes = 0;
  /** the journal: its inode, the bytes of it applied here, and its entries */
  private journalIno = -1n;
  private journalOffset = 0;
  private journalEntries = 0;
  private writers: Promise<unknown> = Promise.resolve();
  private inProcess: Promise<unknown> = Promise.resolve();
  private cleaned = false;
  private compacting = false;

  constructor(readonly file: string | null, private readonly seed: SeedOptions = {}) {
    this.adapter = file ? new SnapshotFile(file) : null;
    this.db = this.adapter && new Low<Data>(this.adapter, null as unknown as Data);
    if (file) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  }

  /** The append-only journal of transactions beside the snapshot. */
  private get journalFile(): string | null {
    return this.file && `${this.file}.journal`;
  }

  /** Runs fn with the store locked against this and every other process. */
  withLock<T>(fn: (s: StoreSession) => Promise<T>): Promise<T> {
    // writers take the lock file one at a time; a writer waiting for it does not hold up reads
    const run = this.writers.then(async () => {
      const session = new StoreSession(this, true);
      const release = this.file
        ? await lockfile.lock(this.file, {
            realpath: false,
            // a lock left by a killed process is taken over after 2 s (the library's minimum);
            // a live holder refreshes it every second, and our transactions take milliseconds
            stale: 2_000,
            update: 1_000,
            retries: { retries: 2_000, minTimeout: 2, maxTimeout: 25, factor: 1.3 },
            // a holder stalled past the stale time: another process may have taken the lock, so this
            // unit of work must not write (commit() refuses and the request fails, unapplied)
            onCompromised: () => void (session.compromised = true),
          })
        : null;
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
        await release?.();
      }
    });
    this.writers = run.catch(() => {});
    return run;
  }

  /**
   * Runs a unit of work that should change nothing without the cross-process lock, when this process
   * can bring its data up to date without it (in this process it runs alone, after the work before
   * it). Returns NEEDS_LOCK, having put back anything it wrote, when it cannot or when the work
   * turned out to write (ran due timers, say): the caller runs it again under withLock().
   */
  withRead<T>(fn: (s: StoreSession) => Promise<T>): Promise<T | typeof NEEDS_LOCK> {
    return this.exclusive(async () => {
      const session = new StoreSession(this, false);
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
  async load(locked = true): Promise<Data> {
    if (!this.adapter) {
      this.tracker ??= new Tracker(seedData(this.seed));
      this.tracker.begin();
      return this.tracker.view;
    }
    if (!this.tracker || (await this.stamp()) !== this.snapshotStamp) await this.readAll(locked);
    else await this.catchUp(locked);
    this.tracker!.begin();
    return this.tracker!.view;
  }

  /** Reads the snapshot and replays its journal. */
  private async readAll(locked: boolean): Promise<void> {
    this.forget();
    await this.db!.read();
    if (!this.db!.data) {
      if (!locked) throw NEEDS_LOCK;
      this.tracker = new Tracker(seedData(this.seed));
      await this.writeSnapshot();
      return;
    }
    const tracker = new Tracker(upgrade(this.db!.data));
    this.db!.data = null as unknown as Data;
    ({ generation: this.generation, bytes: this.snapshotBytes, stamp: this.snapshotStamp } = this.adapter!.last);
    this.tracker = tracker;
    this.journalIno = -1n;
    this.journalOffset = 0;
    this.journalEntries = 0;
    try {
      await this.catchUp(locked);
    } catch (e) {
      this.forget();
      throw e;
    }
  }

  /** Applies the journal entries written since this process last looked (only the new bytes are read). */
  private async catchUp(locked: boolean): Promise<void> {
    const jf = this.journalFile!;
    let st;
    try {
      st = await stat(jf, { bigint: true });
    } catch {
      if (this.journalOffset > 0) return this.readAll(locked); // the journal went away under us: start over
      return;
    }
    if (this.journalIno !== -1n && (st.ino !== this.journalIno || Number(st.size) < this.journalOffset)) return this.readAll(locked);
    if (Number(st.size) === this.journalOffset) return;
    const fh = await open(jf, 'r');
    let buf: Buffer;
    try {
      buf = Buffer.alloc(Number(st.size) - this.journalOffset);
      await fh.read(buf, 0, buf.length, this.journalOffset);
    } finally {
      await fh.close();
    }
    let at = 0;
    if (this.journalOffset === 0) {
      // a journal that follows another snapshot (a compaction stopped between its two renames) is spent;
      // without the lock, it may be a compaction under way
      const nl = buf.indexOf(10);
      const header = nl < 0 ? null : parseLine<JournalHeader>(buf.subarray(0, nl));
      if (!header || header.vmv_journal !== 1 || header.generation !== this.generation) {
        if (!locked) throw NEEDS_LOCK;
        this.journalIno = -1n;
        return;
      }
      at = nl + 1;
    }
    this.journalIno = st.ino;
    const applied: Op[][] = [];
    let bad = -1;
    while (at < buf.length) {
      const nl = buf.indexOf(10, at);
      const entry = nl < 0 ? null : parseLine<{ ops: unknown }>(buf.subarray(at, nl));
      if (!entry || !isOps(entry.ops)) {
        bad = at;
        break;
      }
      applied.push(entry.ops);
      at = nl + 1;
    }
    if (applied.length > 0) {
      // records appended are folded into the indexes as this process's own appends are; any other
      // change to records has every derived structure built again (indexes.ts; the timer queue
      // rebuilds by itself, as a journal replaces data.timers whole)
      if (applied.some((ops) => ops.some((op) => op[0] !== 'push' && RECORD_UNITS.has(op[1])))) {
        this.tracker!.epoch++;
        dropDerived(this.tracker!.view);
      }
      for (const ops of applied) applyOps(this.tracker!.root, ops);
    }
    this.journalOffset += at;
    this.journalEntries += applied.length;
    if (bad >= 0) {
      // without the lock, it may be a line being appended: the lock tells
      if (!locked) throw NEEDS_LOCK;
      // a writer killed mid-append leaves half a line: it was never acknowledged, and is cut off so
      // that the entries appended after it are whole lines
      process.emitWarning(`vmv simulator: discarded ${buf.length - bad} bytes at the end of the journal ${jf} (a malformed or half-written entry); the entries before it are kept.`);
      await truncate(jf, this.journalOffset);
    }
  }

  /** Makes a transaction's changes durable: one journal line, fsync'ed before the caller replies. */
  async append(ops: Op[]): Promise<void> {
    if (!this.adapter || ops.length === 0) return;
    try {
      // a snapshot without a generation (an older vmv's) gets one before any journal follows it
      if (this.generation === null) return await this.writeSnapshot();
      if (this.journalIno === -1n) await this.newJournal();
      const line = Buffer.from(`${JSON.stringify({ ops })}\n`);
      const fh = await open(this.journalFile!, 'a', 0o600);
      try {
        await fh.write(line);
        await fh.datasync();
      } finally {
        await fh.close();
      }
      this.journalOffset += line.length;
      this.journalEntries++;
    } catch (e) {
      this.forget();
      throw e;
    }
    if (!this.compacting && this.journalIsLong()) {
      // in the background: the reply does not wait for it (the next unit of work in this process does)
      this.compacting = true;
      void this.compactIf(() => this.journalIsLong()).catch((e) => process.emitWarning(`vmv simulator: could not compact ${this.file}: ${(e as Error).message}`))
        .finally(() => (this.compacting = false));
    }
  }

  /** Replaying the journal would cost more than reading the snapshot again (or it holds many entries). */
  private journalIsLong(): boolean {
    return this.journalOffset > Math.max(COMPACT_MIN_BYTES, this.snapshotBytes) || this.journalEntries >= COMPACT_MAX_ENTRIES;
  }

  /** Folds the journal into the snapshot (a clean shutdown; the store compacts by itself as the journal grows). */
  async compact(): Promise<void> {
    if (!this.adapter) return;
    await this.compactIf(() => this.journalEntries > 0);
  }

  /** Under the lock, with the data up to date: writes a new snapshot when `cond` holds. */
  private compactIf(cond: () => boolean): Promise<void> {
    return this.withLock(async () => {
      await this.load();
      if (cond()) await this.writeSnapshot();
    });
  }

  /** Writes the whole data as a new snapshot generation, then an empty journal that follows it. */
  private async writeSnapshot(): Promise<void> {
    this.adapter!.nextGeneration = randomBytes(8).toString('hex');
    this.adapter!.nextSaved = savedPeople(this.tracker!.view);
    this.db!.data = this.tracker!.root;
    await this.db!.write();
    ({ generation: this.generation, bytes: this.snapshotBytes, stamp: this.snapshotStamp } = this.adapter!.last);
    await this.newJournal();
  }

  private async newJournal(): Promise<void> {
    const header = Buffer.from(`${JSON.stringify({ vmv_journal: 1, generation: this.generation } satisfies { vmv_journal: 1; generation: string | null })}\n`);
    const st = await writeDurably(this.journalFile!, header);
    this.journalIno = st.ino;
    this.journalOffset = header.length;
    this.journalEntries = 0;
  }

  /** Drops the data held here: the next unit of work reads the files again. */
  private forget(): void {
    if (this.tracker) {
      dropDerived(this.tracker.view);
      release(this.tracker.root);
    }
    this.tracker = null;
    this.snapshotStamp = '';
  }

  /** The data as this process holds it, for the store's sessions (null once forgotten). */
  get current(): Tracker | null {
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

  /** Temp files of a writer killed mid-write are never renamed; with the lock held, any found are orphans. */
  private async cleanOrphans(): Promise<void> {
    if (this.cleaned || !this.file) return;
    this.cleaned = true;
    const prefix = `.${basename(this.file)}.`;
    for (const name of await readdir(dirname(this.file))) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) await unlink(join(dirname(this.file), name)).catch(() => {});
    }
  }
}

function parseLine<T>(b: Buffer): T | null {
  try {
    const v = JSON.parse(b.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as T) : null;
  } catch {
    return null;
  }
}

/** Gives a locked caller sessions that commit or roll back as a whole. */
export class StoreSession {
  compromised = false;
  /** `locked`: run under withLock(), which may write; otherwise under withRead(), which may not */
  constructor(private readonly store: Store, readonly locked: boolean) {}

  async begin(): Promise<Session> {
    return new Session(await this.store.load(this.locked));
  }

  async commit(s: Session): Promise<void> {
    await this.commitChanges();
    s.dirty = false;
  }

  /** Journals what was written since the last commit (nothing is applied when the lock was lost). */
  async commitChanges(): Promise<void> {
    if (!this.locked) throw NEEDS_LOCK;
    if (this.compromised) {
      this.rollback();
      throw new ApiError(503, 'store_busy', 'The data file lock was lost while this request ran; nothing was applied. Retry the request.');
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
