// The store's snapshot: one lowdb JSON file, written so that a process reads only what it uses.
//
// The first line names the snapshot's generation (the journal beside it follows one) and where in
// the file each large value sits; the small values (meta, workspaces, keys, timers…) come next and
// are read at once, the large ones (the records) last, each parsed the first time it is used:
//
//   {"store":{"generation":"…","bytes":"000052733172","small_end":"000000004711","small_sum":"…","lazy":{"calls":["000000004720","000052733170","…"],…}},
//   "version":2,"meta":{…},…,"calls":[…],…}
//
// Each part carries the checksum of its bytes (`small_sum`, the third element of a range), checked
// when the part is read: a byte changed that leaves the JSON valid (an id, an amount) would otherwise
// be served, and written into every snapshot after. A file read whole (edited by hand) has none.
//
// Structures derived from the data and saved with it (the people index: indexes.ts) come after the
// data, under keys starting with `$`, and are never data. It stays one JSON document (offsets are
// fixed-width strings, so the first line's length does not depend on them). A file without that line (an older vmv's, or edited by hand into another shape)
// is parsed whole. Parsing a 100k-record store costs 350 ms and a peak of its whole text; a command
// that reads no records reads a few kilobytes, and one that does parses only the collections it uses.
import { createHash } from 'node:crypto';
import { readSync, type BigIntStats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

/** A data file that is not a simulator store, or one damaged: said as it is, never replaced. */
export class StoreFileError extends Error {}

/**
 * The data file cannot be used at all: permission denied, a read-only file system, a folder where
 * the file should be. `code` is the system's (EACCES, EROFS, EPERM, EISDIR…), so the CLI reports it
 * as the local file error it is (exit 2) rather than as an answer of the API.
 */
export class StoreAccessError extends StoreFileError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Why a file operation on the store failed, in words a person can act on (the path and the permission). */
export function accessError(e: NodeJS.ErrnoException, file: string, path: string = e.path ?? file): StoreAccessError {
  const code = e.code ?? 'EIO';
  const dir = dirname(file);
  const need = `The simulator keeps its data file, its journal (${basename(file)}.journal), a lock (${basename(file)}.lock) and new snapshots side by side in ${dir}`;
  const move = 'or point --data (VMV_SIM_DATA) at a file in a folder you can write.';
  const why: Record<string, string> = {
    EACCES: `permission denied (EACCES) on ${path}. ${need}: give your user read and write access there, ${move}`,
    EPERM: `operation not permitted (EPERM) on ${path}. ${need}: give your user read and write access there, ${move}`,
    EROFS: `${dir} is on a read-only file system (EROFS). ${need}: ${move}`,
    EISDIR:
      path === file
        ? `${file} is a directory, not a data file: point --data (VMV_SIM_DATA) at a file, such as ${join(file, 'sim.json')}.`
        : `${path} is a directory, where the simulator keeps a file of its own: move it away.`,
    ENOTDIR: `a part of ${file} is a file, not a directory (ENOTDIR): point --data (VMV_SIM_DATA) at a file in a folder.`,
  };
  return new StoreAccessError(
    `The simulator cannot use its data file ${file}: ${why[code] ?? `${e.message} (${code}).`}`,
    code,
  );
}

/** System errors that mean "not allowed here", whatever is retried: they never go away by waiting. */
export const ACCESS_CODES: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS', 'EISDIR', 'ENOTDIR']);

/**
 * What the last read or write saw of the file: the generation its journal follows, the generation
 * whose journal it folded in (null: none, the first snapshot; undefined: a file older than that
 * record, which cannot tell), its size, its identity.
 */
export interface Snapshot {
  generation: string | null;
  previous: string | null | undefined;
  bytes: number;
  stamp: string;
}

export const stampOf = (st: BigIntStats) => `${st.ino}:${st.size}:${st.mtimeNs}`;

/** Values at least this long (as JSON) are written last and parsed when first used. */
const LAZY_BYTES = 64 * 1024;
const DIGITS = 12;
const pad = (n: number) => String(n).padStart(DIGITS, '0');

/** A part's place in the file and, since checksums were written, the checksum of its bytes. */
type Range = [string, string] | [string, string, string];
interface Header {
  store: {
    generation: string;
    previous?: string | null;
    bytes: string;
    small_end: string;
    small_sum?: string;
    lazy: Record<string, Range>;
    saved?: Record<string, Range>;
  };
}

/** The checksum of a part of a snapshot or a journal entry: the first 16 hex digits of its SHA-1. */
export const sumOf = (bytes: Buffer | string | (Buffer | string)[]): string => {
  const h = createHash('sha1');
  for (const b of Array.isArray(bytes) ? bytes : [bytes]) h.update(b);
  return h.digest('hex').slice(0, 16);
};

/**
 * The large values of a data object not parsed yet, and the structures saved beside it not read
 * yet: the file they are read from (kept open while values are left: a compaction may replace it),
 * where each lies and its checksum.
 */
interface Unread {
  fh: FileHandle;
  fd: number;
  ranges: Map<string, [number, number]>;
  sums: Map<string, string>;
  /** saved structures not read yet: where each lies, and its checksum (none is read once every value is parsed) */
  saved: Map<string, [number, number, string | undefined]>;
  /**
   * the bytes of the values parsed in one go (a request that needs several), one buffer for them
   * all, let go of when that work ends: each value's bytes are garbage once parsed, and a buffer
   * apiece left ~40 MB of them to the next collection at 100k records (the server's peak memory)
   */
  scratch: Buffer | null;
}
const unread = new WeakMap<object, Unread>();
/** Structures saved with the snapshot beside the data (an index: see indexes.ts), as read (its bytes, checked) or parsed. */
const savedWith = new WeakMap<object, Map<string, Buffer | { value: unknown }>>();

/**
 * Closes the file behind `u` once every value is parsed, as it always did: the saved structures
 * not read by then are let go of (derived from the data, they are built again if asked for), so
 * that an old snapshot a compaction replaced is not held open for them.
 */
function closeIfDone(u: Unread): void {
  if (u.ranges.size > 0) return;
  u.saved.clear();
  u.scratch = null;
  void u.fh.close();
}

/** Whether value `key` of `data` is still to be parsed from its snapshot (a structure saved beside it may answer instead). */
export const unparsed = (data: object, key: string): boolean =>
  !!Object.getOwnPropertyDescriptor(data, key)?.get && !!unread.get(data)?.ranges.has(key);

/** The collections of a data object as read from its snapshot (or parsed from it since), and their lengths then. */
const asRead = new WeakMap<object, Map<string, { value: unknown[]; length: number }>>();
function noteRead(data: object, key: string, v: unknown): void {
  if (!Array.isArray(v)) return;
  let m = asRead.get(data);
  if (!m) asRead.set(data, (m = new Map()));
  m.set(key, { value: v, length: v.length });
}

/**
 * Whether collection `key` of `data` still holds what its snapshot did: not parsed yet, or the same
 * array of the same length (appends change the length; a caller that needs more, such as a record's
 * fields, checks the tracker's epoch too).
 */
export function pristine(data: object, key: string): boolean {
  if (unparsed(data, key)) return true;
  const was = asRead.get(data)?.get(key);
  const d = Object.getOwnPropertyDescriptor(data, key);
  return !!was && d !== undefined && d.value === was.value && was.value.length === was.length;
}

/**
 * Whether structure `name` was saved with the snapshot `data` was read from, and is whole: it is
 * read from the file now, the first time it is asked for (a process whose records changed never
 * asks, and never holds its bytes), and one whose checksum does not match is as if not saved (it
 * is derived from the data: its user builds it again).
 */
export function hasSaved(data: object, name: string): boolean {
  const kept = savedWith.get(data);
  if (!kept) return false;
  const u = unread.get(data);
  const where = u?.saved.get(name);
  if (u && where) {
    u.saved.delete(name);
    const [start, end, sum] = where;
    try {
      const bytes = readRange(u.fd, start, end);
      if (sum === undefined || sumOf(bytes) === sum) kept.set(name, bytes);
    } catch {
      // a range the file does not hold, or a read that failed: as if not saved (it is built again)
    }
  }
  return kept.has(name);
}

/** Structure `name` saved with the snapshot `data` was read from, if it was (and is whole: see hasSaved). */
export function saved(data: object, name: string): unknown {
  if (!hasSaved(data, name)) return undefined;
  const entry = savedWith.get(data)?.get(name);
  if (!entry) return undefined;
  if (Buffer.isBuffer(entry)) {
    let value: unknown;
    try {
      value = JSON.parse(entry.toString('utf8'));
    } catch {
      value = undefined;
    }
    savedWith.get(data)!.set(name, { value });
    return value;
  }
  return entry.value;
}

/** A part of a snapshot whose bytes are not those written (its checksum): said as it is, never served. */
const damagedPart = (file: string, part: string) =>
  new StoreFileError(
    `The simulator data file ${file} is damaged: ${part} does not match its checksum (its bytes changed since it was written). ` +
      'Nothing has been changed. Restore the world from an export (`vmv sim import`), or move the file away to start a fresh simulator.',
  );

const fresh = 'Point --data (or VMV_SIM_DATA) at another file, or move this one away to start a fresh simulator.';

/** Bytes start..end of the file, into `into` when given (a buffer at least that long), else a buffer of their own. */
function readRange(fd: number, start: number, end: number, into?: Buffer): Buffer {
  const buf = into ? into.subarray(0, end - start) : Buffer.allocUnsafe(end - start);
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Makes `key` of `data` a value parsed from the file on first use (or replaced before it is). */
function defer(data: Record<string, unknown>, key: string, file: string, u: Unread): void {
  const settle = (v: unknown) => {
    Object.defineProperty(data, key, { value: v, writable: true, enumerable: true, configurable: true });
    u.ranges.delete(key);
    closeIfDone(u);
  };
  Object.defineProperty(data, key, {
    enumerable: true,
    configurable: true,
    get() {
      const [start, end] = u.ranges.get(key)!;
      if (!u.scratch || u.scratch.length < end - start) {
        if (!u.scratch) setImmediate(() => (u.scratch = null)).unref();
        u.scratch = Buffer.allocUnsafeSlow(end - start);
      }
      const bytes = readRange(u.fd, start, end, u.scratch);
      const sum = u.sums.get(key);
      if (sum !== undefined && sumOf(bytes) !== sum) throw damagedPart(file, `its part "${key}"`);
      let v: unknown;
      try {
        v = JSON.parse(bytes.toString('utf8'));
      } catch (e) {
        throw new StoreFileError(
          `The simulator data file ${file} is damaged (its ${key} is not valid JSON${/at position \d+/.test((e as Error).message) ? ` ${/at position \d+/.exec((e as Error).message)![0]}` : ''}). ${fresh}`,
        );
      }
      settle(v);
      noteRead(data, key, v);
      return v;
    },
    set: settle,
  });
}

/** Lets go of the file behind the values of `data` never parsed (the process holds the data no more). */
export function release(data: object): void {
  const u = unread.get(data);
  if (u && u.ranges.size > 0) {
    u.ranges.clear();
    closeIfDone(u);
  }
}

/**
 * lowdb adapter for the snapshot, with durable, crash-safe writes (steno's fixed temp name and
 * missing fsync are not enough here), in the layout above.
 */
/** What a snapshot is told of the data it holds (the store's schema): which values tell a store, and how to tell one. */
export interface SnapshotShape {
  /** values read at once whatever their size */
  eager: readonly string[];
  /** why a parsed JSON value is not such a store, in words (what it holds), or null when it is one */
  refuse(doc: unknown): string | null;
}

export class SnapshotFile<D extends object> implements Adapter<D> {
  last: Snapshot = { generation: null, previous: null, bytes: 0, stamp: '' };
  /** the generation the next write gives the snapshot */
  nextGeneration: string | null = null;
  /**
   * the generation whose journal the next write folds in: a journal that still names it is spent
   * (a compaction stopped between its two renames), any other generation is damage
   */
  nextPrevious: string | null = null;
  /** structures the next write saves beside the data, as JSON (read back with saved()) */
  nextSaved: Record<string, string> = {};
  constructor(
    readonly file: string,
    private readonly shape: SnapshotShape,
  ) {}

  /**
   * The store, or null for a new one: no file, or an empty one (as `mktemp` makes). Anything else
   * that is not a simulator store (invalid JSON, `null`, someone's package.json) is refused with a
   * message naming the file and how to start fresh: it is never replaced.
   */
  async read(): Promise<D | null> {
    let fh;
    try {
      fh = await open(this.file, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw accessError(e as NodeJS.ErrnoException, this.file);
    }
    let keep = false;
    try {
      const st = await fh.stat({ bigint: true });
      if (st.isDirectory())
        throw accessError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), this.file);
      const size = Number(st.size);
      const head = Buffer.alloc(Math.min(size, 64 * 1024));
      await fh.read(head, 0, head.length, 0);
      const header = parseHeader(head, size);
      let data: Record<string, unknown>;
      let generation: string | null;
      let previous: string | null | undefined;
      if (header) {
        const { small_end, small_sum, lazy, generation: g, previous: p, saved: extra = {} } = header.store;
        previous = p === null || typeof p === 'string' ? p : undefined;
        const first = head.indexOf(10) + 1;
        const small = Buffer.alloc(Number(small_end) - first);
        await fh.read(small, 0, small.length, first);
        if (small_sum !== undefined && sumOf(small) !== small_sum)
          throw damagedPart(this.file, 'its first part (meta, workspaces, keys and the other small values)');
        // the small values end with the comma before the large ones, or the document's closing brace
        data = this.parse(`{${small.subarray(0, -1).toString('utf8')}}`);
        generation = g;
        // the structures saved beside the data: read when first asked for (hasSaved), or now when
        // no value is left to read (the file is closed at once)
        savedWith.set(data, new Map());
        const u: Unread = {
          fh,
          fd: fh.fd,
          ranges: new Map(Object.entries(lazy).map(([k, [s, e]]) => [k, [Number(s), Number(e)]])),
          sums: new Map(Object.entries(lazy).flatMap(([k, r]) => (r[2] === undefined ? [] : [[k, r[2]]]))),
          saved: new Map(
            Object.entries(extra).map(([name, [start, end, sum]]) => [name, [Number(start), Number(end), sum]]),
          ),
          scratch: null,
        };
        for (const k of u.ranges.keys()) defer(data, k, this.file, u);
        unread.set(data, u);
        if (u.ranges.size > 0) keep = true;
        else for (const name of [...u.saved.keys()]) hasSaved(data, name);
      } else {
        const text = size > head.length ? await fh.readFile('utf8') : head.toString('utf8');
        if (text.trim() === '') return null;
        data = this.parse(text);
        const store = data.store as { generation?: unknown; previous?: unknown } | undefined;
        generation = typeof store?.generation === 'string' ? store.generation : null;
        previous = store?.previous === null || typeof store?.previous === 'string' ? store.previous : undefined;
      }
      // (what is saved beside the data is not data, nor is it when the file was reformatted)
      for (const k of Object.keys(data)) {
        if (k === 'store' || k.startsWith('$')) delete data[k];
        else if (!unparsed(data, k)) noteRead(data, k, data[k]);
      }
      this.last = { generation, previous, bytes: size, stamp: stampOf(st) };
      return data as unknown as D;
    } finally {
      // the file stays open while values of it are still to be parsed (closed when the last one is)
      if (!keep) await fh.close();
    }
  }

  private parse(text: string): Record<string, unknown> {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      // (never the parser's words: they quote the text, and the file may be someone else's)
      const at = /at position (\d+)/.exec((e as Error).message)?.[1];
      throw new StoreFileError(
        `The simulator data file ${this.file} is not valid JSON${at ? ` (at byte ${at})` : ''}. ${fresh}`,
      );
    }
    const why = this.shape.refuse(data);
    if (why !== null)
      throw new StoreFileError(`The file ${this.file} is not a vmv simulator store (it holds ${why}). ${fresh}`);
    return data as Record<string, unknown>;
  }

  async write(data: D): Promise<void> {
    const st = await writeDurably(this.file, this.render(data));
    this.last = {
      generation: this.nextGeneration,
      previous: this.nextPrevious,
      bytes: Number(st.size),
      stamp: stampOf(st),
    };
  }

  /** The snapshot of `data` in the layout above, as the chunks of one file (an export writes them elsewhere). */
  render(data: D): (string | Buffer)[] {
    const root = data as unknown as Record<string, unknown>;
    const u = unread.get(root);
    // each value as JSON, or as the bytes it was read from when it was never parsed
    const parts = Object.keys(root).flatMap((k) => {
      const d = Object.getOwnPropertyDescriptor(root, k)!;
      const range = u && d.get ? u.ranges.get(k) : undefined;
      const body: string | Buffer | undefined = range ? readRange(u!.fd, range[0], range[1]) : JSON.stringify(root[k]);
      return body === undefined
        ? []
        : [{ k, body, bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.length }];
    });
    const isLarge = (p: { k: string; bytes: number }) => p.bytes >= LAZY_BYTES && !this.shape.eager.includes(p.k);
    const small = parts.filter((p) => !isLarge(p));
    const large = parts.filter(isLarge);
    const extra = Object.entries(this.nextSaved).map(([name, body]) => ({
      k: `$${name}`,
      name,
      body,
      bytes: Buffer.byteLength(body),
    }));
    const keyOf = (k: string) => `${JSON.stringify(k)}:`;
    // the parts in order, each the key, the value and what ends it (a comma, or the document's brace)
    const all = [...small, ...large, ...extra];
    const pieces = all.map((p, i) => [keyOf(p.k), p.body, i === all.length - 1 ? '}' : ','] as const);
    const smallSum = sumOf(pieces.slice(0, small.length).flat());
    const sums = new Map(all.slice(small.length).map((p) => [p.k, sumOf(p.body)]));
    const headerOf = (total: number, smallEnd: number, lazy: Record<string, Range>, saved: Record<string, Range>) =>
      `${JSON.stringify({ store: { generation: this.nextGeneration, previous: this.nextPrevious, bytes: pad(total), small_end: pad(smallEnd), small_sum: smallSum, lazy, saved } } satisfies { store: Omit<Header['store'], 'generation'> & { generation: string | null } }).slice(0, -1)},\n`;
    // offsets are fixed-width (and sums are known): the header's length is known before the offsets are
    const zero = (ps: { k: string; name?: string }[]) =>
      Object.fromEntries(ps.map((p) => [p.name ?? p.k, [pad(0), pad(0), sums.get(p.k)!] as Range]));
    let at = Buffer.byteLength(headerOf(0, 0, zero(large), zero(extra)));
    for (const p of small) at += Buffer.byteLength(keyOf(p.k)) + p.bytes + 1;
    const smallEnd = at;
    const lazy: Record<string, Range> = {};
    const place = (p: { k: string; bytes: number }): Range => {
      const start = at + Buffer.byteLength(keyOf(p.k));
      at = start + p.bytes + 1;
      return [pad(start), pad(start + p.bytes), sums.get(p.k)!];
    };
    for (const p of large) lazy[p.k] = place(p);
    const savedAt: Record<string, Range> = {};
    for (const p of extra) savedAt[p.name] = place(p);
    return [headerOf(at, smallEnd, lazy, savedAt), ...pieces.flat()];
  }
}

/** The first line of a snapshot in the layout above, when it is one and fits the file. */
function parseHeader(head: Buffer, size: number): Header | null {
  const nl = head.indexOf(10);
  if (nl < 0 || !head.subarray(0, 9).equals(Buffer.from('{"store":'))) return null;
  try {
    const h = JSON.parse(`${head.subarray(0, nl).toString('utf8').replace(/,\s*$/, '')}}`) as Header;
    const s = h.store;
    // the file's length as written: a file edited by hand since (one value longer or shorter) has
    // other offsets, and is read whole instead
    const ok =
      typeof s?.generation === 'string' &&
      Number(s.bytes) === size &&
      typeof s.small_end === 'string' &&
      Number(s.small_end) > nl &&
      Number(s.small_end) <= size &&
      typeof s.lazy === 'object' &&
      s.lazy !== null &&
      [...Object.values(s.lazy), ...Object.values(s.saved ?? {})].every(
        (r) =>
          Array.isArray(r) &&
          Number(r[0]) >= Number(s.small_end) &&
          Number(r[0]) <= Number(r[1]) &&
          Number(r[1]) <= size,
      );
    return ok ? h : null;
  } catch {
    return null;
  }
}

let tmpCount = 0;
/** The temp files writeDurably names for `file` (a writer killed mid-write leaves one behind). */
export const isTempOf = (file: string, name: string) => name.startsWith(`.${basename(file)}.`) && name.endsWith('.tmp');

/**
 * Whether the process that named temp file `name` (of `file`, or of its journal) is gone: a temp
 * file of a live process may be one it is writing (an export, an import under the file's lock).
 */
export function tempIsOrphan(file: string, name: string): boolean {
  const pid = Number(/^(?:journal\.)?(\d+)\.\d+\.tmp$/.exec(name.slice(basename(file).length + 2))?.[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Writes a file whole: a unique temp file, fsync'ed, renamed over `file`, the directory fsync'ed.
 * A write that fails (a full disk) removes its temp file at once and leaves `file` as it was.
 */
export async function writeDurably(file: string, content: string | Buffer | (string | Buffer)[]): Promise<BigIntStats> {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${++tmpCount}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  let st: BigIntStats;
  try {
    try {
      // (writeFile writes every byte or throws: it loops over short writes, and the write after a
      // short one on a full disk fails with ENOSPC)
      for (const c of Array.isArray(content) ? content : [content]) await fh.writeFile(c);
      await fh.sync();
      st = await fh.stat({ bigint: true });
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  const dir = await open(dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return st;
}
