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
//
// It is three layers, one file each: reader.ts (the state a process keeps, brought up to date from
// the files), writer.ts (units of work, the journal appended, compaction), and this file (a world
// handled whole: repair, export, import). files.ts, faults.ts, lock.ts and schema.ts hold what they share.
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { keepCopy, mtimeOf, readFileOrNull, resolveDataFile, stampNow } from './files.js';
import { countLines, isSpent, planRepair, readHeader, type BadLine } from './journal.js';
import type { Stored } from './schema.js';
import { ACCESS_CODES, accessError, release, SnapshotFile, StoreAccessError, StoreFileError } from './snapshot.js';
import { checkSource, ImportRefused } from './source.js';
import { applyOps } from './tracker.js';
import { StoreWriter, type StoreSession } from './writer.js';

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

/** A store of one data file: its units of work (writer.ts), and its world repaired, exported or imported whole. */
export class Store<D extends Stored> extends StoreWriter<D> {
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
}
