// The reading half of the store (store.ts): the state a process keeps of its data file (the
// snapshot it read, how much of the journal it applied), and how it brings that data up to date —
// the snapshot read again when another process replaced it, only the journal bytes appended since it
// last looked otherwise, a torn last line cut off, what cannot be read refused (journal.ts). Writing
// (writer.ts) and the whole-world operations (store.ts) build on it; it asks them only for a new
// snapshot (writeSnapshot), to seed a world.
import { mkdirSync } from 'node:fs';
import { chmod, open, readdir, stat, truncate, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { dropDerived } from './derived.js';
import { damaged } from './faults.js';
import { appendAll, mtimeOf, readFileOrNull, readFrom, resolveDataFile } from './files.js';
import { countLines, isSpent, JOURNAL_VERSION, readHeader, scanEntries } from './journal.js';
import { NEEDS_LOCK, type StoreSchema, type Stored } from './schema.js';
import { accessError, isTempOf, release, tempIsOrphan, SnapshotFile, stampOf, StoreFileError } from './snapshot.js';
import { LISTED, refuseWorld } from './source.js';
import { applyOps, Tracker, type Op } from './tracker.js';

/** A store's data file as this process holds it, kept up to date with what other processes wrote. */
export abstract class StoreReader<D extends Stored> {
  protected readonly adapter: SnapshotFile<D> | null;
  protected readonly db: Low<D> | null;
  protected tracker: Tracker<D> | null = null;
  /** the snapshot as last read or written: its generation (and the one it folded in), identity on disk and size */
  protected generation: string | null = null;
  protected previous: string | null | undefined = undefined;
  /** the format version the snapshot on disk says (model.ts Data.version) */
  protected diskVersion = 0;
  protected snapshotStamp = '';
  protected snapshotBytes = 0;
  /** the journal: its inode, the bytes of it applied here, and its entries */
  protected journalIno = -1n;
  protected journalOffset = 0;
  protected journalEntries = 0;
  /** the journal's line the next entry read here is (the header is line 1), and its format (journal.ts) */
  protected journalLine = 1;
  protected journalVersion: 1 | 2 = JOURNAL_VERSION;
  protected writers: Promise<unknown> = Promise.resolve();
  protected inProcess: Promise<unknown> = Promise.resolve();
  protected cleaned = false;
  protected compacting = false;
  /** after a failed compaction: the journal size to reach before trying again, and whether it was said */
  protected compactRetryAt = 0;
  protected compactWarned = false;
  /** a failed write whose cut-back failed too: both causes (see cutBack) */
  protected uncut: string | null = null;
  /** the snapshot whose modes (and its journal's) were last made owner-only */
  protected modesOf = '';
  /** the data file as given (a symbolic link is worked on where it points: `file`) */
  readonly given: string | null;
  /** read as it stands, never written (readWorld): a file that holds no world is refused, not seeded */
  protected readOnly = false;
  /** the file as an import named it: its world is checked before anything reads it (refuseBad) */
  protected checking: string | null = null;

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
  protected get journalFile(): string | null {
    return this.file && `${this.file}.journal`;
  }

  /** Runs fn alone among the units of work of this process that use the data. */
  protected exclusive<T>(fn: () => Promise<T>): Promise<T> {
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
  protected async readAll(locked: boolean): Promise<void> {
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
  protected async refuseOrphanJournal(): Promise<void> {
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
  protected async ownerOnly(): Promise<void> {
    for (const f of [this.file!, this.journalFile!]) {
      const st = await stat(f).catch(() => null);
      // (a file someone else owns is theirs to set; ours never fails a request for it)
      if (st && (st.mode & 0o077) !== 0 && st.uid === process.getuid?.())
        await chmod(f, st.mode & 0o700).catch(() => {});
    }
  }

  /** Applies the journal entries written since this process last looked (only the new bytes are read). */
  protected async catchUp(locked: boolean): Promise<void> {
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
    const buf = await readFrom(this.file!, jf, this.journalOffset, Number(st.size));
    let at = 0;
    if (this.journalOffset === 0) {
      const start = this.firstEntry(jf, buf, st.mtimeNs, locked);
      if (start === null) return;
      at = start;
    }
    this.journalIno = st.ino;
    await this.applyNew(jf, buf, at, locked);
  }

  /**
   * Reads the header of a journal read from its start (catchUp): where its first entry begins, or
   * null when there is nothing to apply (an empty journal, or one a compaction left spent). A header
   * that does not follow the snapshot is refused as damage, judged only under the lock.
   */
  protected firstEntry(jf: string, buf: Buffer, mtimeNs: bigint, locked: boolean): number | null {
    // Without the lock, nothing odd is judged: a compaction may be under way (a new snapshot beside
    // the old journal, or the old snapshot read before a new journal), or a header being written
    const head = readHeader(buf);
    if (!head?.header || head.header.generation !== this.generation) {
      if (!locked) throw NEEDS_LOCK;
      if (!head) {
        // written whole by a rename, a journal never lacks its first line: but an empty one says nothing
        if (buf.length === 0) return null;
        throw damaged(this.file!, jf, 'its first line (the header) is not a whole line', '');
      }
      if (!head.header)
        throw damaged(this.file!, jf, 'line 1 is not a journal header', `It holds ${countLines(buf) - 1} more lines. `);
      // a compaction stopped between its two renames: the snapshot holds all this journal says
      if (
        isSpent(
          head.header.generation,
          { previous: this.previous, mtimeNs: mtimeOf(this.snapshotStamp) },
          { entries: countLines(buf) - 1, mtimeNs },
        )
      ) {
        this.journalIno = -1n;
        return null;
      }
      throw damaged(
        this.file!,
        jf,
        `line 1 says it follows snapshot generation ${head.header.generation}, but the data file is generation ${this.generation}`,
        `Its ${countLines(buf) - 1} entries belong to another snapshot. `,
      );
    }
    this.journalVersion = head.header.vmv_journal;
    return head.end;
  }

  /**
   * Applies the whole entries in `buf` from `at` (the journal's bytes past journalOffset, catchUp),
   * refusing a line that cannot be read and mending a torn last one (under the lock only).
   */
  protected async applyNew(jf: string, buf: Buffer, at: number, locked: boolean): Promise<void> {
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
  protected async cutTorn(jf: string, torn: number): Promise<void> {
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
  protected async keepWhole(jf: string, ops: Op[], bytes: number): Promise<void> {
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

  /** Refuses (source.ts) a document being imported whose values are not a world's (StoreSchema.check). */
  protected async refuseBad(doc: Record<string, unknown>): Promise<void> {
    const problems = (await this.schema.check?.(doc, LISTED + 1)) ?? [];
    if (problems.length > 0) throw refuseWorld(this.checking ?? this.given ?? '', problems);
  }

  /** A tracker over `data` with this store's record collections. */
  protected track(data: D): Tracker<D> {
    return new Tracker(data, this.schema);
  }

  /** Drops the data held here: the next unit of work reads the files again. */
  protected forget(): void {
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
  protected async stamp(): Promise<string> {
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
  protected async cleanOrphans(again = false): Promise<void> {
    if ((this.cleaned && !again) || !this.file || this.readOnly) return;
    this.cleaned = true;
    // (`.sim.json.` begins the journal's temp files too)
    for (const name of await readdir(dirname(this.file)).catch(() => []))
      if (isTempOf(this.file, name) && tempIsOrphan(this.file, name))
        await unlink(join(dirname(this.file), name)).catch(() => {});
  }

  /** Writes the data held here as a new snapshot (writer.ts); reading seeds an empty data file with it. */
  protected abstract writeSnapshot(after?: 'request' | 'fold', journal?: 'new' | 'none'): Promise<void>;
}
