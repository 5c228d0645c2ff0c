// Change tracking for the store: sessions work on a view of the stored data (one Proxy per object,
// so identity is stable and derived structures can hold what they see), writes through it apply in
// place, and each write is noted by the unit it changes — a record of a top-level collection, or a
// whole top-level value such as meta — with an undo log, so a commit journals only the units a
// transaction touched and a rollback restores what was there.
//
// Why not immer or mutative patches: their drafts make every record read in a session a new proxy
// and the whole state a new object per commit. Measured on 100k records (2 cores): a find() over
// the collection in a draft costs 155 ms (immer 11) and 95 ms (mutative 2), against 5 ms on plain
// objects; on-change's in-place proxies 250 ms. A new root per commit also breaks what the simulator
// relies on: objects compared by identity across a session (filter((x) => x !== v)), and structures
// derived from the data (derived.ts) kept by its identity. Here a view is made once per object and
// kept, and the collections requests look up are indexed, so a request pays for what it touches.

/**
 * One change of a journal entry: a whole top-level value, records appended to a collection, one
 * record replaced (at its place), records removed from a collection (their places, ascending, as
 * the collection stood then) or a collection cut to a length (what pop() does). An entry's changes
 * of one collection are replayed removals first (in the order they were made), then replacements at
 * the places the records have in the end, then appends: whatever a transaction did to an array in
 * between, that sequence gives the array it left.
 */
export type Op =
  | ['set', string, unknown]
  | ['push', string, unknown[]]
  | ['put', string, number, unknown]
  | ['del', string, number[]]
  | ['trunc', string, number];

interface Owner {
  unit: string;
  /** the record of the collection `unit` this object belongs to; null: the collection array itself, or a whole value */
  rec: object | null;
}

interface Changes {
  whole: Set<string>;
  /** collection → how much of it was there before this transaction's appends (its records before that are put, after it pushed) */
  appendedFrom: Map<string, number>;
  records: Map<string, Set<object>>;
  /** collection → its removals (del, trunc) in the order they were made */
  removals: Map<string, Op[]>;
  /** what puts each write back: [object, key, whether it had the key, the value], or a function (a removal) */
  undo: ([object, PropertyKey, boolean, unknown] | (() => void))[];
}

const targets = new WeakMap<object, object>();
/** The stored object behind a view (or the value itself). */
export const raw = <T>(v: T): T => (typeof v === 'object' && v !== null ? ((targets.get(v) as T) ?? v) : v);
/**
 * A deep copy of a stored value, which may be a view: structuredClone cannot clone a Proxy, so this
 * clones what it stands for (stored objects hold no views). The simulator copies data with this,
 * never by patching the global, which a library user's own code also calls.
 */
export const clone = <T>(v: T): T => structuredClone(raw(v));

/** Replaces views inside a value about to be stored by the objects they stand for (a new array of viewed records, say). */
function unwrap(v: unknown, depth = 0): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const t = targets.get(v);
  if (t) return t;
  if (depth > 64) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'object' && x !== null) v[i] = unwrap(x, depth + 1);
    }
  } else {
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (typeof x === 'object' && x !== null) (v as Record<string, unknown>)[k] = unwrap(x, depth + 1);
    }
  }
  return v;
}

/** What a tracker is told about the data it watches (the store's schema: it knows no domain). */
export interface TrackedShape {
  /**
   * The collections that grow with use (records): a change to one of their records journals that
   * record. Every other top-level value is small and journaled whole when a transaction changed it;
   * those are handed out as they are stored (no view), and a change is found by comparing their
   * JSON before and after.
   */
  recordUnits: ReadonlySet<string>;
  /** Record fields that structures built over the records read (indexes): a change to one moves its collection's epoch. */
  keyFields: ReadonlySet<PropertyKey>;
}

const trackers = new WeakMap<object, Tracker<object>>();
/** The tracker behind a view of a collection array (removeWhere finds it so). */
const trackerOfView = new WeakMap<object, Tracker<object>>();
/** The tracker behind a view of the data (undefined for data that is not one). */
export const trackerOf = (data: object): Tracker<object> | undefined => trackers.get(data);

export class Tracker<D extends object> {
  readonly view: D;
  /**
   * Epochs move on whenever records change other than by appends: a key field of a record, a
   * collection reshaped or replaced, another process's changes (per collection), a rollback (all
   * of them). A structure built over some collections at one epoch (epochOf) is still good at the
   * same epoch once it folds in what was appended since; a change to other collections leaves it be.
   */
  private epochAll = 0;
  private readonly epochs = new Map<string, number>();
  private readonly views = new WeakMap<object, object>();
  private readonly owners = new WeakMap<object, Owner>();
  private changes: Changes = Tracker.none();
  /** whole values read in this transaction, as JSON before it changed them */
  private before = new Map<string, string>();

  constructor(
    readonly root: D,
    private readonly shape: TrackedShape,
  ) {
    const tracker = this;
    const RECORD_UNITS = shape.recordUnits;
    const r = root as unknown as Record<string, unknown>;
    this.view = new Proxy(r, {
      get(t, k, rcv) {
        const v = Reflect.get(t, k, rcv);
        if (typeof v !== 'object' || v === null || typeof k !== 'string') return v;
        if (RECORD_UNITS.has(k) && Array.isArray(v)) return tracker.wrap(v, { unit: k, rec: null });
        if (!tracker.before.has(k)) tracker.before.set(k, JSON.stringify(v));
        return v;
      },
      set(t, k, v) {
        if (typeof k === 'string' && !tracker.before.has(k)) tracker.before.set(k, JSON.stringify(t[k]) ?? 'undefined');
        if (typeof k === 'string') tracker.changes.whole.add(k);
        if (typeof k === 'string' && RECORD_UNITS.has(k)) tracker.bump(k);
        return Reflect.set(t, k, unwrap(v));
      },
      deleteProperty(t, k) {
        if (typeof k === 'string' && !tracker.before.has(k)) tracker.before.set(k, JSON.stringify(t[k]) ?? 'undefined');
        if (typeof k === 'string') tracker.changes.whole.add(k);
        return Reflect.deleteProperty(t, k);
      },
    }) as unknown as D;
    targets.set(this.view, root);
    trackers.set(this.view, this as Tracker<object>);
  }

  private static none(): Changes {
    return { whole: new Set(), appendedFrom: new Map(), records: new Map(), removals: new Map(), undo: [] };
  }

  /** The epoch of the collections `units` (see epochAll): it moves whenever one of theirs does. */
  epochOf(units: readonly string[]): number {
    let e = this.epochAll;
    for (const u of units) e += this.epochs.get(u) ?? 0;
    return e;
  }

  /** Says that the records of `unit` changed other than by appends (every unit's, without one). */
  bump(unit?: string): void {
    if (unit === undefined) this.epochAll++;
    else this.epochs.set(unit, (this.epochs.get(unit) ?? 0) + 1);
  }

  /** The view of a stored record of collection `unit` (for indexes built on the stored objects). */
  viewOf<T extends object>(unit: string, rec: T): T {
    return this.wrap(rec, { unit, rec }) as T;
  }

  private wrap(obj: object, owner: Owner): object {
    const seen = this.views.get(obj);
    if (seen) return seen;
    this.owners.set(obj, owner);
    const tracker = this;
    const p = new Proxy(obj, {
      get(t, k, r) {
        const v = Reflect.get(t, k, r);
        if (typeof v !== 'object' || v === null) return v;
        const o = tracker.owners.get(t)!;
        // an element of a collection is a record: the unit a change to it journals
        return tracker.wrap(v, o.rec === null && typeof k === 'string' ? { unit: o.unit, rec: v } : o);
      },
      set(t, k, v) {
        tracker.note(t, k, v);
        return Reflect.set(t, k, unwrap(v));
      },
      deleteProperty(t, k) {
        tracker.note(t, k, undefined, true);
        return Reflect.deleteProperty(t, k);
      },
      defineProperty(t, k, d) {
        tracker.note(t, k, d.value);
        return Reflect.defineProperty(t, k, 'value' in d ? { ...d, value: unwrap(d.value) } : d);
      },
    });
    targets.set(p, obj);
    if (Array.isArray(obj)) trackerOfView.set(p, this as Tracker<object>);
    this.views.set(obj, p);
    return p;
  }

  private note(t: object, k: PropertyKey, v: unknown, deleting = false): void {
    const c = this.changes;
    // writing past an array's end lengthens it by itself: undone after the element is (push, then rollback)
    if (Array.isArray(t) && typeof k === 'string' && Number(k) >= t.length && /^\d+$/.test(k))
      c.undo.push([t, 'length', true, t.length]);
    c.undo.push([t, k, Object.hasOwn(t, k), (t as Record<PropertyKey, unknown>)[k]]);
    // an array cut short by its length drops its last elements without a word for each: kept for an undo
    if (Array.isArray(t) && k === 'length' && typeof v === 'number')
      for (let i = v; i < t.length; i++) c.undo.push([t, String(i), true, t[i]]);
    const { unit, rec } = this.owners.get(t)!;
    if (rec) {
      if (t === rec && this.shape.keyFields.has(k)) this.bump(unit);
      this.touched(unit, rec);
      return;
    }
    if (t !== (this.root as unknown as Record<string, unknown>)[unit]) return void c.whole.add(unit);
    // The collection array itself: what push, pop, a swap, splice or sort do to it, element by element
    const arr = t as unknown[];
    const from = c.appendedFrom.get(unit) ?? arr.length;
    const index = typeof k === 'string' && /^\d+$/.test(k) ? Number(k) : -1;
    if (k === 'length' && typeof v === 'number') {
      if (v >= from)
        c.appendedFrom.set(unit, from); // longer, or only appended records cut off again
      else {
        // cut below what was there before: the records past v go (pop, splice's end)
        this.removalsOf(unit).push(['trunc', unit, v]);
        c.appendedFrom.set(unit, v);
        this.bump(unit);
      }
    } else if (index >= from || (index >= arr.length && !deleting)) {
      c.appendedFrom.set(unit, from); // an appended record, written or replaced: journaled as appended
    } else if (index >= 0 && deleting) {
      // the last element deleted goes with the length cut that follows (pop); a hole anywhere else is journaled whole
      if (index !== arr.length - 1) {
        c.whole.add(unit);
        this.bump(unit);
      }
    } else if (index >= 0 && typeof v === 'object' && v !== null) {
      // a record set in another's place (a swap, splice or sort moving records): put where it ends up
      this.touched(unit, unwrap(v) as object);
      this.bump(unit);
    } else {
      c.whole.add(unit);
      this.bump(unit);
    }
  }

  /** Notes that record `rec` of collection `unit` was written: the commit puts it where it then is. */
  private touched(unit: string, rec: object): void {
    let set = this.changes.records.get(unit);
    if (!set) this.changes.records.set(unit, (set = new Set()));
    set.add(rec);
  }

  private removalsOf(unit: string): Op[] {
    let list = this.changes.removals.get(unit);
    if (!list) this.changes.removals.set(unit, (list = []));
    return list;
  }

  /**
   * Removes the records at `indexes` (ascending) from a collection in one pass, journaled as their
   * places (a `del`), not as the records that moved up: what trimming a log or deleting a record
   * costs is what it removed. Only for a collection of the data (see removeAt).
   */
  removeFrom(unit: string, indexes: number[]): void {
    const arr = (this.root as unknown as Record<string, unknown[]>)[unit];
    const c = this.changes;
    const from = c.appendedFrom.get(unit) ?? arr.length;
    const removed = indexes.map((i) => [i, arr[i]] as const);
    let w = 0;
    for (let i = 0, j = 0; i < arr.length; i++) {
      if (j < indexes.length && indexes[j] === i) j++;
      else arr[w++] = arr[i];
    }
    arr.length = w;
    c.undo.push(() => {
      for (const [i, x] of removed) arr.splice(i, 0, x);
    });
    const before = indexes.filter((i) => i < from);
    if (before.length > 0) {
      this.removalsOf(unit).push(['del', unit, before]);
      if (c.appendedFrom.has(unit)) c.appendedFrom.set(unit, from - before.length);
    }
    this.bump(unit);
  }

  /** The collection `view` is a view of, when it is one of the data's record collections. */
  collectionOf(view: object): string | null {
    const arr = targets.get(view);
    const owner = arr && this.owners.get(arr);
    return owner && owner.rec === null && (this.root as unknown as Record<string, unknown>)[owner.unit] === arr
      ? owner.unit
      : null;
  }

  /** Starts a transaction: whole values are compared from here on (what another process changed is not ours to journal). */
  begin(): void {
    if (this.changes.undo.length === 0 && this.changes.whole.size === 0) this.before.clear();
  }

  /** Whether the transaction so far wrote anything. */
  get changed(): boolean {
    if (this.changes.undo.length > 0 || this.changes.whole.size > 0 || this.changes.removals.size > 0) return true;
    const r = this.root as unknown as Record<string, unknown>;
    for (const [k, json] of this.before) if (JSON.stringify(r[k]) !== json) return true;
    return false;
  }

  /** Ends the transaction: its changes as journal operations (values are the stored objects, to serialize now). */
  take(): Op[] {
    const c = this.changes;
    const before = this.before;
    this.changes = Tracker.none();
    this.before = new Map();
    const root = this.root as unknown as Record<string, unknown[]>;
    const ops: Op[] = [];
    for (const [unit, json] of before) if (c.whole.has(unit) || JSON.stringify(root[unit]) !== json) c.whole.add(unit);
    for (const unit of c.whole) ops.push(['set', unit, root[unit]]);
    for (const unit of new Set([...c.removals.keys(), ...c.records.keys(), ...c.appendedFrom.keys()])) {
      if (c.whole.has(unit)) continue;
      const arr = root[unit];
      const from = c.appendedFrom.get(unit) ?? arr.length;
      ops.push(...(c.removals.get(unit) ?? []));
      for (const rec of c.records.get(unit) ?? []) {
        const i = arr.lastIndexOf(rec);
        if (i >= 0 && i < from) ops.push(['put', unit, i, rec]);
      }
      if (arr.length > from) ops.push(['push', unit, arr.slice(from)]);
    }
    return ops;
  }

  /** Ends the transaction putting back everything it wrote; says whether it wrote anything. */
  undo(): boolean {
    const wrote = this.changed;
    const { undo } = this.changes;
    const before = this.before;
    this.changes = Tracker.none();
    this.before = new Map();
    if (!wrote) return false;
    this.bump();
    for (let i = undo.length - 1; i >= 0; i--) {
      const u = undo[i];
      if (typeof u === 'function') {
        u();
        continue;
      }
      const [t, k, had, old] = u;
      if (had) (t as Record<PropertyKey, unknown>)[k] = old;
      else delete (t as Record<PropertyKey, unknown>)[k];
    }
    const r = this.root as unknown as Record<string, unknown>;
    for (const [k, json] of before) {
      if (json === 'undefined') delete r[k];
      else if (JSON.stringify(r[k]) !== json) r[k] = JSON.parse(json);
    }
    return true;
  }
}

/**
 * Removes the elements of `coll` for which `drop` holds, in place: a collection of the store's data
 * is journaled as the places removed (Tracker.removeFrom), any other array simply filtered. Returns
 * how many went.
 */
export function removeWhere<T>(coll: T[], drop: (x: T, i: number) => boolean): number {
  const indexes: number[] = [];
  coll.forEach((x, i) => drop(x, i) && indexes.push(i));
  removeAt(coll, indexes);
  return indexes.length;
}

/** Removes the elements at `indexes` (ascending) of `coll`, in place, as removeWhere does. */
export function removeAt(coll: unknown[], indexes: number[]): void {
  if (indexes.length === 0) return;
  const t = trackerOfView.get(coll);
  const unit = t?.collectionOf(coll);
  if (t && unit) t.removeFrom(unit, indexes);
  else for (let j = indexes.length - 1; j >= 0; j--) coll.splice(indexes[j], 1);
}

/** Applies journal operations to stored data (replaying a journal; another process's changes). */
export function applyOps(root: object, ops: Op[]): void {
  const r = root as unknown as Record<string, unknown>;
  for (const op of ops) {
    if (op[0] === 'set') r[op[1]] = op[2];
    else if (op[0] === 'push') {
      const arr = r[op[1]] as unknown[];
      for (const x of op[2]) arr.push(x);
    } else if (op[0] === 'put') (r[op[1]] as unknown[])[op[2]] = op[3];
    else if (op[0] === 'del') {
      const arr = r[op[1]] as unknown[];
      for (let j = op[2].length - 1; j >= 0; j--) arr.splice(op[2][j], 1);
    } else (r[op[1]] as unknown[]).length = Math.min(op[2], (r[op[1]] as unknown[]).length);
  }
}

/** Whether a parsed journal line is a list of operations this version can apply. */
export function isOps(v: unknown): v is Op[] {
  return (
    Array.isArray(v) &&
    v.every(
      (op) =>
        Array.isArray(op) &&
        typeof op[1] === 'string' &&
        ((op[0] === 'set' && op.length === 3) ||
          (op[0] === 'push' && Array.isArray(op[2])) ||
          (op[0] === 'put' && Number.isInteger(op[2]) && op[2] >= 0 && op.length === 4) ||
          (op[0] === 'del' &&
            Array.isArray(op[2]) &&
            op[2].every((i: unknown) => Number.isInteger(i) && (i as number) >= 0)) ||
          (op[0] === 'trunc' && Number.isInteger(op[2]) && op[2] >= 0 && op.length === 3)),
    )
  );
}
