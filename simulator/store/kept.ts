// Structures kept over the store's records (indexes): built on first use from the stored objects,
// then brought up to date on every use — the records appended since (by this process or another)
// are folded in, and any other change to what they read (a key field of a record, a collection
// reshaped, a rollback, another process's change: the tracker's epoch of those collections) has
// them built again. While the collections hold what the snapshot did, one may be seeded from what
// the snapshot saved beside the data, parsing none of them. What they index is the caller's: this
// module knows no collection.
import { derived, dropDerived } from './derived.js';
import { pristine } from './snapshot.js';
import { raw, trackerOf } from './tracker.js';

export interface Synced {
  epoch: number;
  /** the arrays it was built from and how much of each it has seen; null: seeded from what the snapshot saved */
  arrays: unknown[][] | null;
  seen: number[];
}

type Root = Record<string, unknown[]>;

/**
 * The index `key` over collections `units`, current: built by `build`, or brought up to date by
 * `add` for each record appended since (in the order of `units`, each with its place in its array).
 * While the collections hold what the snapshot did, `seed` may give it from what the snapshot saved,
 * parsing none of them.
 */
export function kept<T extends { sync: Synced }>(
  data: object,
  key: string,
  units: readonly string[],
  build: (root: Root) => Omit<T, 'sync'>,
  add: (ix: T, unit: string, rec: any, at: number) => void,
  seed?: () => Omit<T, 'sync'> | undefined,
): T {
  const tracker = trackerOf(data);
  const root = raw(data) as unknown as Root;
  // (epoch 0: no record changed other than by appends since the data was read, nor a journal's)
  const epoch = () => tracker?.epochOf(units) ?? NaN;
  const untouched = () => seed !== undefined && epoch() === 0 && units.every((u) => pristine(root, u));
  const make = () => {
    const seeded = untouched() ? seed!() : undefined;
    const ix = (seeded ?? build(root)) as T;
    ix.sync = seeded
      ? { epoch: epoch(), arrays: null, seen: [] }
      : { epoch: epoch(), arrays: units.map((u) => root[u]), seen: units.map((u) => root[u].length) };
    return ix;
  };
  let ix = derived(data, key, make);
  const { sync } = ix;
  const stale =
    sync.arrays === null
      ? sync.epoch !== epoch() || !untouched()
      : sync.epoch !== epoch() || units.some((u, i) => root[u] !== sync.arrays![i] || root[u].length < sync.seen[i]);
  if (stale) {
    dropDerived(data, key);
    ix = derived(data, key, make);
  } else if (sync.arrays) {
    units.forEach((u, i) => {
      const arr = root[u];
      for (let j = sync.seen[i]; j < arr.length; j++) add(ix, u, arr[j], j);
      sync.seen[i] = arr.length;
    });
  }
  return ix;
}

/** What a lookup hands out: the view of a stored record, which a caller may change. */
export function asView<T extends object>(data: object, unit: string, rec: T): T;
export function asView<T extends object>(data: object, unit: string, rec: T | undefined): T | undefined;
export function asView<T extends object>(data: object, unit: string, rec: T | undefined): T | undefined {
  return rec && (trackerOf(data)?.viewOf(unit, rec) ?? rec);
}

interface IdIndex<T> {
  sync: Synced;
  byId: Map<string, T>;
}

/**
 * The record of collection `unit` whose `id` is `id` (the first, as find() would), as a view the
 * caller may change: a Map kept over the collection, so a lookup costs the same however many
 * records it holds (a year of a daily video schedule makes thousands of videos and posts, and every
 * step of each looked its record up by a scan).
 */
export function recordById<T extends { id: string }>(data: object, unit: string, id: string): T | undefined {
  const add = (m: Map<string, T>, r: T) => m.has(r.id) || m.set(r.id, r);
  const ix = kept<IdIndex<T>>(
    data,
    `id:${unit}`,
    [unit],
    (root) => {
      const byId = new Map<string, T>();
      for (const r of root[unit] as T[]) add(byId, r);
      return { byId };
    },
    (x, _u, r: T) => add(x.byId, r),
  );
  return asView(data, unit, ix.byId.get(id));
}
