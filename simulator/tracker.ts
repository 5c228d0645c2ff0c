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
import type { Data } from './model.js';

/** One change of a journal entry: a whole top-level value, records appended to a collection, or one record replaced. */
export type Op = ['set', string, unknown] | ['push', string, unknown[]] | ['put', string, number, unknown];

interface Owner {
  unit: string;
  /** the record of the collection `unit` this object belongs to; null: the collection array itself, or a whole value */
  rec: object | null;
}

interface Changes {
  whole: Set<string>;
  /** collection → its length when first appended to in this transaction */
  appendedFrom: Map<string, number>;
  records: Map<string, Set<object>>;
  undo: [object, PropertyKey, boolean, unknown][];
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

/**
 * The collections that grow with use (records): a change to one of their records journals that
 * record. Every other top-level value (meta, workspaces, timers, …) is small and journaled whole when
 * a transaction changed it; those are handed out as they are stored (no view), and a change is
 * found by comparing their JSON before and after.
 */
export const RECORD_UNITS: ReadonlySet<string> = new Set([
  'contacts', 'calls', 'texts', 'emails', 'audit_log', 'webhook_deliveries', 'notifications', 'ledger', 'posts', 'suppressions', 'opt_outs',
  // they grow too (replays kept 24 h, jobs, videos, conversations, deliveries waiting): journaled by record, like the others
  'idempotency', 'quick_jobs', 'videos', 'assistant_conversations', 'webhook_outbox', 'phone_numbers', 'video_schedules',
]);

/** Record fields that indexes read (indexes.ts): a change to one of them rebuilds them, any other change does not. */
const KEY_FIELDS: ReadonlySet<PropertyKey> = new Set([
  'id', 'seq', 'workspace_id', 'contact_id', 'direction', 'from_number', 'to_number', 'from_address', 'to', 'source',
  'phone_number', 'email', 'name', 'created_at',
]);

const trackers = new WeakMap<object, Tracker>();
/** The tracker behind a view of the data (undefined for data that is not one). */
export const trackerOf = (data: Data): Tracker | undefined => trackers.get(data);

export class Tracker {
  readonly view: Data;
  /**
   * Moves on whenever the records change other than by appends: a key field of a record, a
   * collection reshaped or replaced, a rollback, another process's changes. An index built at one
   * epoch is still good at the same epoch once it folds in what was appended since.
   */
  epoch = 0;
  private readonly views = new WeakMap<object, object>();
  private readonly owners = new WeakMap<object, Owner>();
  private changes: Changes = Tracker.none();
  /** whole values read in this transaction, as JSON before it changed them */
  private before = new Map<string, string>();

  constructor(readonly root: Data) {
    const tracker = this;
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
        if (typeof k === 'string' && RECORD_UNITS.has(k)) tracker.epoch++;
        return Reflect.set(t, k, unwrap(v));
      },
      deleteProperty(t, k) {
        if (typeof k === 'string' && !tracker.before.has(k)) tracker.before.set(k, JSON.stringify(t[k]) ?? 'undefined');
        if (typeof k === 'string') tracker.changes.whole.add(k);
        return Reflect.deleteProperty(t, k);
      },
    }) as unknown as Data;
    targets.set(this.view, root);
    trackers.set(this.view, this);
  }

  private static none(): Changes {
    return { whole: new Set(), appendedFrom: new Map(), records: new Map(), undo: [] };
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
        tracker.note(t, k, undefined);
        return Reflect.deleteProperty(t, k);
      },
      defineProperty(t, k, d) {
        tracker.note(t, k, d.value);
        return Reflect.defineProperty(t, k, 'value' in d ? { ...d, value: unwrap(d.value) } : d);
      },
    });
    targets.set(p, obj);
    this.views.set(obj, p);
    return p;
  }

  private note(t: object, k: PropertyKey, v: unknown): void {
    const c = this.changes;
    // writing past an array's end lengthens it by itself: undone after the element is (push, then rollback)
    if (Array.isArray(t) && typeof k === 'string' && Number(k) >= t.length && /^\d+$/.test(k)) c.undo.push([t, 'length', true, t.length]);
    c.undo.push([t, k, Object.hasOwn(t, k), (t as Record<PropertyKey, unknown>)[k]]);
    const { unit, rec } = this.owners.get(t)!;
    if (rec) {
      if (t === rec && KEY_FIELDS.has(k)) this.epoch++;
      let set = c.records.get(unit);
      if (!set) c.records.set(unit, (set = new Set()));
      set.add(rec);
      return;
    }
    if (t !== (this.root as unknown as Record<string, unknown>)[unit]) return void c.whole.add(unit);
    // appends (push) journal the new records; anything else that reshapes the array journals it whole
    const arr = t as unknown[];
    const from = c.appendedFrom.get(unit) ?? arr.length;
    const appends = k === 'length' ? typeof v === 'number' && v >= from : typeof k === 'string' && /^\d+$/.test(k) && Number(k) >= from && Number(k) >= arr.length;
    if (appends) c.appendedFrom.set(unit, from);
    else {
      c.whole.add(unit);
      this.epoch++;
    }
  }

  /** Starts a transaction: whole values are compared from here on (what another process changed is not ours to journal). */
  begin(): void {
    if (this.changes.undo.length === 0 && this.changes.whole.size === 0) this.before.clear();
  }

  /** Whether the transaction so far wrote anything. */
  get changed(): boolean {
    if (this.changes.undo.length > 0 || this.changes.whole.size > 0) return true;
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
    for (const [unit, recs] of c.records) {
      if (c.whole.has(unit)) continue;
      const arr = root[unit];
      const from = c.appendedFrom.get(unit) ?? arr.length;
      for (const rec of recs) {
        const i = arr.lastIndexOf(rec);
        if (i >= 0 && i < from) ops.push(['put', unit, i, rec]);
      }
    }
    for (const [unit, from] of c.appendedFrom) if (!c.whole.has(unit) && root[unit].length > from) ops.push(['push', unit, root[unit].slice(from)]);
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
    this.epoch++;
    for (let i = undo.length - 1; i >= 0; i--) {
      const [t, k, had, old] = undo[i];
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

/** Applies journal operations to stored data (replaying a journal; another process's changes). */
export function applyOps(root: Data, ops: Op[]): void {
  const r = root as unknown as Record<string, unknown>;
  for (const op of ops) {
    if (op[0] === 'set') r[op[1]] = op[2];
    else if (op[0] === 'push') {
      const arr = r[op[1]] as unknown[];
      for (const x of op[2]) arr.push(x);
    } else (r[op[1]] as unknown[])[op[2]] = op[3];
  }
}

/** Whether a parsed journal line is a list of operations this version can apply. */
export function isOps(v: unknown): v is Op[] {
  return Array.isArray(v) && v.every((op) => Array.isArray(op) && typeof op[1] === 'string' && (
    (op[0] === 'set' && op.length === 3) || (op[0] === 'push' && Array.isArray(op[2])) || (op[0] === 'put' && Number.isInteger(op[2]) && op.length === 4)));
}
