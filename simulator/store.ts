// The simulator's store: one lowdb JSON file (or memory, for tests of the app alone).
//
// Every request runs inside withLock(): an in-process queue plus a cross-process lock file
// (proper-lockfile), so a server and embedded CLI processes writing one file never lose an
// update. Writes go to a unique temp file that is fsync'ed and renamed over the store, so a
// kill -9 at any moment leaves a file that parses, and a reply is sent only after the rename.
// The parsed data is cached between requests and re-read only when the file changed on disk.
import { mkdirSync } from 'node:fs';
import { open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import lockfile from 'proper-lockfile';
import { clockNow } from './clock.js';
import { ApiError } from './errors.js';
import type { Data } from './model.js';
import { Rng } from './rng.js';
import { seedData, upgrade, type SeedOptions } from './seed.js';

/** A data file that is not a simulator store: said as it is, never replaced. */
export class StoreFileError extends Error {}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a JSON array' : typeof v === 'object' ? 'a JSON object of another shape' : `a JSON ${typeof v}`);

/** lowdb adapter with durable, crash-safe writes (steno's fixed temp name and missing fsync are not enough here). */
class DurableJSONFile implements Adapter<Data> {
  private n = 0;
  constructor(readonly file: string) {}

  /**
   * The store, or null for a new one: no file, or an empty one (as `mktemp` makes). Anything else
   * that is not a simulator store (invalid JSON, `null`, someone's package.json) is refused with a
   * message naming the file and how to start fresh: it is never replaced.
   */
  async read(): Promise<Data | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    if (text.trim() === '') return null;
    const fresh = 'Point --data (or VMV_SIM_DATA) at another file, or move this one away to start a fresh simulator.';
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new StoreFileError(`The simulator data file ${this.file} is not valid JSON (${(e as Error).message}). ${fresh}`);
    }
    const d = data as Partial<Data> | null;
    if (typeof d !== 'object' || d === null || Array.isArray(d) || d.version !== 1 || typeof d.meta !== 'object' || d.meta === null || !Array.isArray(d.workspaces))
      throw new StoreFileError(`The file ${this.file} is not a vmv simulator store (it holds ${describe(data)}, not {"version": 1, "meta": …}). ${fresh}`);
    return d as Data;
  }

  async write(data: Data): Promise<void> {
    const tmp = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.${++this.n}.tmp`);
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(JSON.stringify(data));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.file);
    const dir = await open(dirname(this.file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

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

export class Store {
  private db: Low<Data> | null;
  private memory: Data | null = null;
  /** identity of the file as we last read or wrote it; a mismatch means another process wrote */
  private stamp = '';
  private queue: Promise<unknown> = Promise.resolve();
  private cleaned = false;

  constructor(readonly file: string | null, private readonly seed: SeedOptions = {}) {
    this.db = file ? new Low<Data>(new DurableJSONFile(file), null as unknown as Data) : null;
    if (file) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  }

  /** Runs fn with the store locked against this and every other process. */
  withLock<T>(fn: (s: StoreSession) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const session = new StoreSession(this);
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
        await this.cleanOrphans();
        return await fn(session);
      } finally {
        await release?.();
      }
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** The current data, read from disk if another process changed it (call with the lock held). */
  async load(): Promise<Data> {
    if (!this.db) {
      this.memory ??= seedData(this.seed);
      return structuredClone(this.memory);
    }
    const stamp = await this.fileStamp();
    if (stamp === this.stamp && this.db.data) return this.db.data;
    await this.db.read();
    if (!this.db.data) {
      this.db.data = seedData(this.seed);
      await this.save(this.db.data);
    } else {
      upgrade(this.db.data);
      this.stamp = stamp;
    }
    return this.db.data;
  }

  async save(data: Data): Promise<void> {
    if (!this.db) {
      this.memory = structuredClone(data);
      return;
    }
    this.db.data = data;
    await this.db.write();
    this.stamp = await this.fileStamp();
  }

  /** Forget cached data after a failed unit of work, so its partial changes are never seen. */
  discard(): void {
    if (this.db) {
      this.db.data = null as unknown as Data;
      this.stamp = '';
    }
  }

  private async fileStamp(): Promise<string> {
    try {
      const st = await stat(this.file!, { bigint: true });
      return `${st.ino}:${st.size}:${st.mtimeNs}`;
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

/** Gives a locked caller sessions that commit or roll back as a whole. */
export class StoreSession {
  compromised = false;
  constructor(private readonly store: Store) {}

  async begin(): Promise<Session> {
    return new Session(await this.store.load());
  }

  async commit(s: Session): Promise<void> {
    if (this.compromised) {
      this.store.discard();
      throw new ApiError(503, 'store_busy', 'The data file lock was lost while this request ran; nothing was applied. Retry the request.');
    }
    await this.store.save(s.data);
    s.dirty = false;
  }

  rollback(): void {
    this.store.discard();
  }
}
