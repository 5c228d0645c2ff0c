// What a store is handed by the world that opens it (StoreSchema), what every stored document has
// (Stored), and the signal a unit of work run without the lock gives when it needs it (NEEDS_LOCK).
// Apart from store.ts so that both halves of the store (reader.ts, writer.ts) and its callers share
// one definition; store.ts re-exports them.
import type { TrackedShape } from './tracker.js';

/** Said by a unit of work run without the lock that finds it needs it (see Store.peek). */
export const NEEDS_LOCK: unique symbol = Symbol('needs the lock');

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
