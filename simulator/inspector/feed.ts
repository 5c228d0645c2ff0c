// The inspector's live feed: what changed in the world, read from the store's journal as it grows.
// Every unit of work that writes appends one line to the journal beside the data file, whichever
// process ran it (this server, or a CLI command on the same file), so following that file is the
// one way to see every change. Each new line becomes a change event naming the top-level values it
// touched (texts, calls, meta…) and the ids of the records it wrote: never their content (a record
// may hold a key's hash or a webhook's secret); the page reads what it shows through the routes.
import { open, stat } from 'node:fs/promises';

/** One change of the world, as the page is told of it. */
export interface Change {
  /** this server's number for it: increasing, the SSE event id with the server's boot id */
  seq: number;
  /** the top-level values written ('*': anything may have changed, the journal was folded or replaced) */
  units: string[];
  /** ids of the records written (at most MAX_IDS) */
  ids: string[];
}

/** How often the journal's size is looked at while a page listens (the page updates within a second). */
export const POLL_MS = 200;
/**
 * Changes kept for a page that reconnects (Last-Event-ID); one further back gets a reset. With at
 * most MAX_IDS ids each, what is kept stays under a few MB however long the server runs.
 */
const KEPT = 1000;
const MAX_IDS = 50;
/** How much of the journal is read at a time. */
const READ_BYTES = 1024 * 1024;

type Op = [string, string, ...unknown[]];

/** The units and record ids of one journal line's operations (`{"n":…,"sum":…,"ops":[…]}`). */
export function changeOf(line: string): { units: string[]; ids: string[] } | null {
  let entry: { ops?: unknown };
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (!Array.isArray(entry?.ops)) return null; // the header line, or not an entry
  const units = new Set<string>();
  const ids = new Set<string>();
  const note = (rec: unknown) => {
    const id = (rec as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && ids.size < MAX_IDS) ids.add(id);
  };
  for (const op of entry.ops as Op[]) {
    units.add(op[1]);
    if (op[0] === 'push') for (const rec of op[2] as unknown[]) note(rec);
    if (op[0] === 'put') note(op[3]);
  }
  return { units: [...units], ids: [...ids] };
}

/**
 * Follows `file`'s journal (`<file>.journal`) while anyone listens: new whole lines become
 * changes, handed to each listener and kept (the last KEPT) for a page that reconnects.
 */
export class JournalFeed {
  private readonly journal: string;
  private readonly listeners = new Set<(c: Change) => void>();
  private readonly kept: Change[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private ino = -1;
  private offset = 0;
  private reading = false;

  constructor(file: string) {
    this.journal = `${file}.journal`;
  }

  /** The last change's number (0: none yet). */
  get last(): number {
    return this.seq;
  }

  /** The changes after `seq`, or null when some of them are no longer kept. */
  since(seq: number): Change[] | null {
    if (seq > this.seq) return null;
    if (seq === this.seq) return [];
    const first = this.kept[0]?.seq ?? this.seq + 1;
    if (seq < first - 1) return null;
    return this.kept.filter((c) => c.seq > seq);
  }

  /**
   * Starts following (if not yet: from the first page on, until close(), so a page that reconnects
   * gets what it missed), runs `first` with the last change's number, then calls `fn` with each
   * change after it (nothing comes between the two); the returned function stops calling it.
   */
  async listen(fn: (c: Change) => void, first: (last: number) => void = () => {}): Promise<() => void> {
    if (!this.timer) {
      await this.start();
      this.timer = setInterval(() => void this.poll(), POLL_MS);
      this.timer.unref();
    }
    first(this.seq);
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** Stops following (the server closes). */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
  }

  /** Where following starts: the journal's end as it stands (what is there already, the page reads). */
  private async start(): Promise<void> {
    const st = await stat(this.journal).catch(() => null);
    this.ino = st ? st.ino : -1;
    this.offset = st ? st.size : 0;
  }

  /** Reads what was appended since the last look; a journal replaced (folded, imported, repaired) is a reset. */
  private async poll(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const st = await stat(this.journal).catch(() => null);
      if (!st) {
        if (this.ino !== -1) this.emit({ units: ['*'], ids: [] });
        this.ino = -1;
        this.offset = 0;
        return;
      }
      if (st.ino !== this.ino || st.size < this.offset) {
        // a new journal: what the old one held last may not have been read, so everything may have changed
        this.ino = st.ino;
        this.offset = 0;
        this.emit({ units: ['*'], ids: [] });
      }
      if (st.size > this.offset) await this.readFrom(st.size);
    } finally {
      this.reading = false;
    }
  }

  /**
   * The whole lines between the offset and `size`, as changes (a line still being written waits),
   * read READ_BYTES at a time: a feed that fell behind (a busy machine, a burst of writes) does not
   * hold the whole stretch in memory at once, in bytes, text and parsed lines.
   */
  private async readFrom(size: number): Promise<void> {
    const fh = await open(this.journal, 'r').catch(() => null);
    if (!fh) return;
    try {
      let slice = READ_BYTES;
      while (this.offset < size) {
        const buf = Buffer.alloc(Math.min(size - this.offset, slice));
        const { bytesRead } = await fh.read(buf, 0, buf.length, this.offset);
        const text = buf.subarray(0, bytesRead);
        const end = text.lastIndexOf(10);
        // a line longer than the slice is read whole in a larger one; one still being written waits
        const longer = end < 0 && bytesRead === buf.length && buf.length < size - this.offset;
        if (longer) slice *= 2;
        if (longer) continue;
        if (end < 0) return;
        for (const line of text.subarray(0, end).toString('utf8').split('\n')) {
          const c = changeOf(line);
          if (c) this.emit(c);
        }
        this.offset += end + 1;
        // the file grew shorter than its size said (replaced meanwhile): the next look sees the new one
        if (bytesRead < buf.length) return;
      }
    } finally {
      await fh.close();
    }
  }

  private emit(c: Omit<Change, 'seq'>): void {
    const change = { seq: ++this.seq, ...c };
    this.kept.push(change);
    if (this.kept.length > KEPT) this.kept.shift();
    for (const fn of this.listeners) fn(change);
  }
}
