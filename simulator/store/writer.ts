// The writing half of the store (store.ts): units of work under the cross-process lock (transact)
// or without it (peek), a transaction's changes appended to the journal as one fsync'ed line (a
// failed write cut back, so what is served is what the disk holds), the journal folded into a new
// snapshot as it grows, and the sessions a unit of work commits or rolls back. Built on the reading
// half (reader.ts); the whole-world operations (store.ts) build on it.
import { randomBytes } from 'node:crypto';
import { open, statfs, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ApiError } from '../core/errors.js';
import { dropDerived } from './derived.js';
import { AFTER_FAILURE, diskFull, UNCUT, UNCUT_AFTER, writeFailure } from './faults.js';
import { appendAll } from './files.js';
import { entryLine, headerLine, JOURNAL_VERSION } from './journal.js';
import { lockFile } from './lock.js';
import { StoreReader } from './reader.js';
import { NEEDS_LOCK, type Stored } from './schema.js';
import { writeDurably } from './snapshot.js';
import type { Op } from './tracker.js';

/** Compaction folds the journal into the snapshot once it outgrows both of these, or holds this many entries. */
const COMPACT_MIN_BYTES = 1 << 20;
const COMPACT_MAX_ENTRIES = 10_000;
/** After a compaction failed (a full disk), the journal grows this much more before the next try. */
const COMPACT_RETRY_BYTES = 256 * 1024;

/** The store's units of work, and what they write: the journal, and new snapshots. */
export abstract class StoreWriter<D extends Stored> extends StoreReader<D> {
  /** Runs fn with the store locked against this and every other process. */
  transact<T>(fn: (s: StoreSession<D>) => Promise<T>): Promise<T> {
    // writers take the lock file one at a time; a writer waiting for it does not hold up reads
    const run = this.writers.then(async () => {
      const session = new StoreSession<D>(this, true);
      const release = this.file ? await lockFile(this.file, () => void (session.compromised = true)) : null;
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
  protected async cutBack(fh: FileHandle, failed: unknown): Promise<void> {
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
  protected async roomToFold(): Promise<void> {
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
  protected journalIsLong(): boolean {
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
  protected compactIf(cond: () => boolean): Promise<void> {
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
  protected async writeSnapshot(after: 'request' | 'fold' = 'request', journal: 'new' | 'none' = 'new'): Promise<void> {
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

  protected async newJournal(): Promise<void> {
    const header = Buffer.from(headerLine(this.generation));
    this.journalVersion = JOURNAL_VERSION;
    const st = await writeDurably(this.journalFile!, header);
    this.journalIno = st.ino;
    this.journalOffset = header.length;
    this.journalEntries = 0;
    this.journalLine = 2;
  }
}

/** Gives a locked caller sessions that commit or roll back as a whole. */
export class StoreSession<D extends Stored> {
  compromised = false;
  /** `locked`: run under transact(), which may write; otherwise under peek(), which may not */
  constructor(
    private readonly store: StoreWriter<D>,
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
