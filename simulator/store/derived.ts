// In-memory structures derived from the store's data (indexes, the timer queue): never persisted,
// built on first use from the data they describe, and kept by identity of that data object. Code that
// changes the data in this process keeps a built structure in step (or drops it); the store drops them
// all whenever it replaces or patches the data other than by appending records (another process's
// changes to records, a rolled-back unit of work), so a structure is rebuilt rather than trusted.

const built = new WeakMap<object, Map<string, unknown>>();

/** The structure `key` of `data`, built by `build` the first time it is asked for. */
export function derived<T, D extends object = object>(data: D, key: string, build: (data: D) => T): T {
  let m = built.get(data);
  if (!m) built.set(data, (m = new Map()));
  if (!m.has(key)) m.set(key, build(data));
  return m.get(key) as T;
}

/** The structure `key` of `data` if it was built, for a writer to keep in step. */
export function builtDerived<T>(data: object, key: string): T | undefined {
  return built.get(data)?.get(key) as T | undefined;
}

/** Forgets every structure derived from `data` (the store calls it when the data changed under them). */
export function dropDerived(data: object, key?: string): void {
  if (key === undefined) built.delete(data);
  else built.get(data)?.delete(key);
}
