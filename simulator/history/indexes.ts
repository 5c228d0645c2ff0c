// Indexes over the store's records, for what requests look up: contacts by id, number and address;
// calls, texts and emails by id, workspace, contact, address and time; the people of a workspace
// (store/derived.ts keeps them by the data's identity; store/kept.ts keeps them current). Each is built on first use from the stored objects
// (no views: a build reads 100k records in milliseconds) and brought up to date on every use: the
// records appended since (by this process or another) are folded in, and any other change to what it
// reads (a key field of a record, a collection reshaped, a rollback, another process's change to a
// record: the tracker's epoch of the collections it reads) has it built again. Lookups hand out
// views (store/tracker.ts), so a caller may change what it finds.
import { asView, kept, type Synced } from '../store/kept.js';
import { iso } from '../core/clock.js';
import type { CallRecord, Contact, EmailRecord, TextRecord } from './records.js';
import type { World } from '../core/world.js';
import { hasSaved, saved, unparsed } from '../store/snapshot.js';
import { raw } from '../store/tracker.js';

export type HistoryRecord = CallRecord | TextRecord | EmailRecord;
export type RecordUnit = 'calls' | 'texts' | 'emails';

export { asView };

const wsKey = (ws: string, s: string) => `${ws}\u0000${s}`;

// ---- contacts ----

interface ContactIndex {
  sync: Synced;
  byId: Map<string, Contact>;
  /** by workspace, the first contact with a number or address (lower case), as a find() would */
  byPhone: Map<string, Map<string, Contact>>;
  byEmail: Map<string, Map<string, Contact>>;
}

function addContact(ix: Omit<ContactIndex, 'sync'>, c: Contact): void {
  if (!ix.byId.has(c.id)) ix.byId.set(c.id, c);
  const first = (m: Map<string, Map<string, Contact>>, k: string) => {
    let byKey = m.get(c.workspace_id);
    if (!byKey) m.set(c.workspace_id, (byKey = new Map()));
    if (!byKey.has(k)) byKey.set(k, c);
  };
  if (c.phone_number) first(ix.byPhone, c.phone_number);
  if (c.email) first(ix.byEmail, c.email.toLowerCase());
}

/** Contacts by id, and a workspace's by number and by address (stored objects: read them; asView to change one). */
export function contactIndex(data: World): ContactIndex {
  return kept<ContactIndex>(
    data,
    'index:contacts',
    ['contacts'],
    (root) => {
      const ix = { byId: new Map(), byPhone: new Map(), byEmail: new Map() };
      for (const c of root.contacts as Contact[]) addContact(ix, c);
      return ix;
    },
    (ix, _u, c: Contact) => addContact(ix, c),
  );
}

export const contactWithPhone = (ix: ContactIndex, ws: string, phone: string) => ix.byPhone.get(ws)?.get(phone);
export const contactWithEmail = (ix: ContactIndex, ws: string, email: string) =>
  ix.byEmail.get(ws)?.get(email.toLowerCase());

// ---- calls, texts and emails ----

/** A record's creation time in epoch milliseconds. */
export const ms = (r: { created_at: string }) => Date.parse(r.created_at);
/** Records in time order, ties in creation order. */
const before = (a: HistoryRecord, b: HistoryRecord) => ms(a) - ms(b) || a.seq - b.seq;

/** Where `x` goes in `sorted` (after its equals). */
function upperBound<T>(sorted: readonly T[], x: T, cmp: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(sorted[mid], x) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first place in `sorted` whose item is not below `t` by `key`. */
export function firstAtLeast<T>(sorted: readonly T[], t: number, key: (x: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(sorted[mid]) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts keeping the order (records mostly come last: a push). */
function insertSorted<T>(sorted: T[], x: T, cmp: (a: T, b: T) => number): void {
  if (sorted.length === 0 || cmp(sorted[sorted.length - 1], x) <= 0) sorted.push(x);
  else sorted.splice(upperBound(sorted, x, cmp), 0, x);
}

interface RecordIndex<T extends HistoryRecord> {
  sync: Synced;
  byId: Map<string, T>;
  /** each list in time order */
  byWorkspace: Map<string, T[]>;
  /** by the other party's number, or address in lower case */
  byAddress: Map<string, T[]>;
  byContactId: Map<string, T[]>;
  /** emails: a workspace's quick emails, for the rolling 24-hour count */
  quick: Map<string, T[]>;
}

/** The other party's number or address on a record. */
const counterpartPhone = (r: CallRecord | TextRecord) => (r.direction === 'outbound' ? r.to_number : r.from_number);
const counterpartEmail = (r: EmailRecord) => (r.direction === 'outbound' ? r.to : r.from_address);

/** The other party's number, or address in lower case. */
const counterpart = (r: HistoryRecord): string =>
  'source' in r ? counterpartEmail(r).toLowerCase() : counterpartPhone(r);

function listIn<T>(m: Map<string, T[]>, k: string): T[] {
  let l = m.get(k);
  if (!l) m.set(k, (l = []));
  return l;
}

function addRecord<T extends HistoryRecord>(ix: Omit<RecordIndex<T>, 'sync'>, r: T): void {
  if (!ix.byId.has(r.id)) ix.byId.set(r.id, r);
  insertSorted(listIn(ix.byWorkspace, r.workspace_id), r, before);
  insertSorted(listIn(ix.byAddress, wsKey(r.workspace_id, counterpart(r))), r, before);
  if (r.contact_id) insertSorted(listIn(ix.byContactId, r.contact_id), r, before);
  if ('source' in r && r.source === 'quick') insertSorted(listIn(ix.quick, r.workspace_id), r, before);
}

/** A collection of history records by id, workspace, address and contact, in time order. */
export function recordIndex<T extends HistoryRecord>(data: World, unit: RecordUnit): RecordIndex<T> {
  return kept<RecordIndex<T>>(
    data,
    `index:${unit}`,
    [unit],
    (root) => {
      const ix = {
        byId: new Map(),
        byWorkspace: new Map(),
        byAddress: new Map(),
        byContactId: new Map(),
        quick: new Map(),
      };
      // in time order once, so that every list below is built by appends
      const all = (root[unit] as T[]).map((r) => ({ r, t: ms(r) })).sort((a, b) => a.t - b.t || a.r.seq - b.r.seq);
      for (const { r } of all) addRecord(ix, r);
      return ix;
    },
    (ix, _u, r: T) => addRecord(ix, r),
  );
}

/**
 * The `created_at` of a record a workspace makes now: the simulator time, or 1 ms after the
 * workspace's latest record of the list when that is not earlier. On a manual clock every record of
 * one instant would otherwise share its time, and the spec's incremental sync (poll with
 * `created_after`, exclusive, set to the newest created_at seen) would miss those made in the
 * instant after a poll; so the times of a list are distinct and increasing in creation order (a
 * burst of n records in one instant ends n-1 ms ahead of the clock).
 */
export function newRecordTime(data: World, unit: RecordUnit, ws: string, now: number): string {
  const rows = recordIndex(data, unit).byWorkspace.get(ws);
  const last = rows?.length ? ms(rows[rows.length - 1]) : Number.NEGATIVE_INFINITY;
  return iso(Math.max(now, last + 1));
}

export const recordsWithAddress = <T extends HistoryRecord>(
  ix: RecordIndex<T>,
  ws: string,
  address: string,
): readonly T[] => ix.byAddress.get(wsKey(ws, address)) ?? [];

/** Merges lists in time order, each record once. */
export function mergeRecords<T extends HistoryRecord>(lists: readonly (readonly T[])[]): T[] {
  const seen = new Set<T>();
  const out: T[] = [];
  for (const l of lists) for (const r of l) if (!seen.has(r)) seen.add(r), out.push(r);
  return lists.filter((l) => l.length > 0).length > 1 ? out.sort(before) : out;
}

// ---- calls under way ----

/** A call's states while it is under way: once it leaves them (it ends), it never comes back to one. */
export const LIVE_CALL_STATES: ReadonlySet<string> = new Set(['QUEUED', 'RINGING', 'IN_PROGRESS']);

interface LiveCallIndex {
  sync: Synced;
  /**
   * by workspace, the places in `calls` of the calls under way when last looked at: a call's state
   * changes in place (not a key field: the other indexes over calls are kept), so each use looks at
   * them again and lets go of those that ended
   */
  byWorkspace: Map<string, number[]>;
}

/** The name the places of the calls under way are saved under, beside the data. */
const SAVED_LIVE = 'calls-live';

function addLive(ix: Omit<LiveCallIndex, 'sync'>, r: CallRecord, at: number): void {
  if (LIVE_CALL_STATES.has(r.status)) listIn(ix.byWorkspace, r.workspace_id).push(at);
}

function liveCallIndex(data: World): LiveCallIndex {
  return kept<LiveCallIndex>(
    data,
    'index:calls-live',
    ['calls'],
    (root) => {
      const ix = { byWorkspace: new Map<string, number[]>() };
      (root.calls as CallRecord[]).forEach((r, at) => addLive(ix, r, at));
      return ix;
    },
    (ix, _u, r: CallRecord, at) => addLive(ix, r, at),
    () => {
      // what the snapshot saved, while the calls are those it holds: the places, no call parsed
      const got = saved(raw(data), SAVED_LIVE);
      if (typeof got !== 'object' || got === null) return undefined;
      const byWorkspace = new Map<string, number[]>();
      for (const [ws, places] of Object.entries(got)) {
        if (!Array.isArray(places) || !places.every((n) => Number.isInteger(n) && n >= 0)) return undefined;
        byWorkspace.set(ws, places);
      }
      return { byWorkspace };
    },
  );
}

/**
 * How many calls of workspace `ws` are under way (queued, ringing or in progress): a few places
 * looked at, never the whole collection; with the calls not parsed yet (a one-shot command on a
 * snapshot), what the snapshot saved beside them, parsing none.
 */
export function liveCallCount(data: World, ws: string): number {
  const ix = liveCallIndex(data);
  const places = ix.byWorkspace.get(ws);
  if (!places?.length) return 0;
  const root = raw(data);
  if (unparsed(root, 'calls')) return places.length;
  const still = places.filter((at) => LIVE_CALL_STATES.has(root.calls[at]?.status));
  ix.byWorkspace.set(ws, still);
  return still.length;
}

/** The places of the calls under way, for the snapshot to save beside the data. */
function savedLiveCalls(data: World): Record<string, string> {
  const ix = liveCallIndex(data);
  const root = raw(data);
  const out: Record<string, number[]> = {};
  for (const ws of ix.byWorkspace.keys()) {
    if (!unparsed(root, 'calls')) liveCallCount(data, ws);
    out[ws] = ix.byWorkspace.get(ws)!;
  }
  return { [SAVED_LIVE]: JSON.stringify(out) };
}

// ---- people ----

/** A person: a contact, or a number or address reached that belongs to none. */
export interface PersonSummary {
  id: string;
  contact_id: string | null;
  name: string | null;
  phone_number: string | null;
  email: string | null;
  call_count: number;
  text_count: number;
  email_count: number;
  /** null until reached (a contact never reached is shown with its created_at: presentPerson) */
  first_contacted_at: string | null;
  last_contacted_at: string | null;
  /** a contact's created_at (the moment the workspace first had it); null for someone reached without a contact */
  created_at: string | null;
  sort_ms: number;
  /** creation order, for people with the same time: a contact's place among contacts, or (after every contact) the first record's */
  order: number;
}

/** Orders people reached without a contact after every contact, by their first record. */
const ADDRESS_ORDER = 2 ** 40;
const bySortTime = (a: PersonSummary, b: PersonSummary) => a.sort_ms - b.sort_ms || a.order - b.order;

interface PeopleIndex {
  sync: Synced;
  /** (empty when seeded from what a snapshot saved: such an index is never changed, only built again) */
  byKey: Map<string, PersonSummary>;
  /** by last contact (a contact never reached: its creation), oldest first */
  sorted: PersonSummary[];
}

/** Who a record belongs to: its contact when the number or address is a contact's (or it names one), else the raw address. */
export function personKeyOf(contacts: ContactIndex, ws: string): (r: HistoryRecord) => string {
  const phones = contacts.byPhone.get(ws);
  const emails = contacts.byEmail.get(ws);
  return (r) => {
    if (r.contact_id && contacts.byId.get(r.contact_id)?.workspace_id === ws) return r.contact_id;
    const addr = counterpart(r);
    if ('source' in r) return emails?.get(addr)?.id ?? `email:${addr}`;
    return phones?.get(addr)?.id ?? `phone:${addr}`;
  };
}

function contactPerson(c: Contact, order: number): PersonSummary {
  return {
    id: c.id,
    contact_id: c.id,
    name: c.name,
    phone_number: c.phone_number,
    email: c.email,
    call_count: 0,
    text_count: 0,
    email_count: 0,
    first_contacted_at: null,
    last_contacted_at: null,
    created_at: c.created_at,
    // "most recent first" is by last contact; never reached, that is its created_at (presentPerson)
    sort_ms: Date.parse(c.created_at),
    order,
  };
}

function addressPerson(key: string, r: HistoryRecord): PersonSummary {
  const isEmail = 'source' in r;
  const addr = isEmail ? counterpartEmail(r) : counterpartPhone(r);
  return {
    id: key,
    contact_id: null,
    name: addr,
    phone_number: isEmail ? null : addr,
    email: isEmail ? addr : null,
    call_count: 0,
    text_count: 0,
    email_count: 0,
    first_contacted_at: null,
    last_contacted_at: null,
    created_at: null,
    sort_ms: 0,
    order: ADDRESS_ORDER + r.seq,
  };
}

/** Counts a record (or a person reached without a contact, taken over by a new contact) into person p. */
function count(
  p: PersonSummary,
  n: Pick<PersonSummary, 'call_count' | 'text_count' | 'email_count' | 'first_contacted_at' | 'last_contacted_at'>,
): void {
  p.call_count += n.call_count;
  p.text_count += n.text_count;
  p.email_count += n.email_count;
  if (n.first_contacted_at && (!p.first_contacted_at || n.first_contacted_at < p.first_contacted_at))
    p.first_contacted_at = n.first_contacted_at;
  if (n.last_contacted_at && (!p.last_contacted_at || n.last_contacted_at > p.last_contacted_at))
    p.last_contacted_at = n.last_contacted_at;
  if (p.last_contacted_at) p.sort_ms = Date.parse(p.last_contacted_at);
}

const COUNT_OF = { calls: 'call_count', texts: 'text_count', emails: 'email_count' } as const;
const ofRecord = (unit: RecordUnit, r: HistoryRecord) => ({
  call_count: 0,
  text_count: 0,
  email_count: 0,
  [COUNT_OF[unit]]: 1,
  first_contacted_at: r.created_at,
  last_contacted_at: r.created_at,
});

function unsort(ix: PeopleIndex, p: PersonSummary): void {
  const i = upperBound(ix.sorted, p, bySortTime) - 1;
  if (ix.sorted[i] === p) ix.sorted.splice(i, 1);
}

/**
 * Everyone workspace `ws` has reached or has on file, folded by contact: records belong to their
 * contact by number or address even when the record came first.
 */
export function peopleIndex(data: World, ws: string): PeopleIndex {
  const units = ['contacts', 'calls', 'texts', 'emails'] as const;
  return kept<PeopleIndex>(
    data,
    `index:people:${ws}`,
    units,
    (root) => buildPeople(data, ws, root),
    (ix, unit, rec, at) => addToPeople(data, ws, ix, unit, rec, at),
    () => peopleAsSaved(data, ws),
  );
}

/** The people index built from every record of the workspace. */
function buildPeople(data: World, ws: string, root: Record<string, unknown[]>): Omit<PeopleIndex, 'sync'> {
  const byKey = new Map<string, PersonSummary>();
  (root.contacts as Contact[]).forEach((c, order) => {
    if (c.workspace_id === ws) byKey.set(c.id, contactPerson(c, order));
  });
  const keyOf = personKeyOf(contactIndex(data), ws);
  // (the loop of count(), unrolled: it runs once per record)
  for (const unit of ['calls', 'texts', 'emails'] as const) {
    const field = COUNT_OF[unit];
    for (const r of root[unit] as HistoryRecord[]) {
      if (r.workspace_id !== ws) continue;
      const key = keyOf(r);
      let p = byKey.get(key);
      if (!p) byKey.set(key, (p = addressPerson(key, r)));
      else if (p.contact_id === null && ADDRESS_ORDER + r.seq < p.order) p.order = ADDRESS_ORDER + r.seq;
      p[field]++;
      const at = r.created_at;
      if (!p.first_contacted_at || at < p.first_contacted_at) p.first_contacted_at = at;
      if (!p.last_contacted_at || at > p.last_contacted_at) p.last_contacted_at = at;
    }
  }
  for (const p of byKey.values()) if (p.last_contacted_at) p.sort_ms = Date.parse(p.last_contacted_at);
  return { byKey, sorted: [...byKey.values()].sort(bySortTime) };
}

/** A record appended since the last look, folded in: a new contact takes over the people reached at its number or address. */
function addToPeople(
  data: World,
  ws: string,
  ix: PeopleIndex,
  unit: string,
  rec: Contact | HistoryRecord,
  at: number,
): void {
  if (rec.workspace_id !== ws) return;
  const contacts = contactIndex(data);
  if (unit === 'contacts') {
    const c = rec as Contact;
    const p = contactPerson(c, at);
    // the people reached at its number or address before it existed are now this contact
    const taken = [
      c.phone_number && contactWithPhone(contacts, ws, c.phone_number) === c ? `phone:${c.phone_number}` : null,
      c.email && contactWithEmail(contacts, ws, c.email) === c ? `email:${c.email.toLowerCase()}` : null,
    ];
    for (const key of taken) {
      const q = key ? ix.byKey.get(key) : undefined;
      if (!q) continue;
      unsort(ix, q);
      ix.byKey.delete(key!);
      count(p, q);
    }
    ix.byKey.set(c.id, p);
    insertSorted(ix.sorted, p, bySortTime);
    return;
  }
  const r = rec as HistoryRecord;
  const key = personKeyOf(contacts, ws)(r);
  let p = ix.byKey.get(key);
  if (p) unsort(ix, p);
  else ix.byKey.set(key, (p = addressPerson(key, r)));
  // records appended since the last look come collection by collection: a text may be older than a call
  if (p.contact_id === null && ADDRESS_ORDER + r.seq < p.order) p.order = ADDRESS_ORDER + r.seq;
  count(p, ofRecord(unit as RecordUnit, r));
  insertSorted(ix.sorted, p, bySortTime);
}

/**
 * The people index as a snapshot saved it (savedPeople, below), while no record collection changed
 * since: undefined when it saved none for the workspace.
 */
function peopleAsSaved(data: World, ws: string): Omit<PeopleIndex, 'sync'> | undefined {
  // what the snapshot saved (savedPeople), while no record collection changed since: read a
  // page's worth at a time (a list's first page reads the last part), never changed in place
  const root = raw(data);
  const count = (saved(root, SAVED_KEY) as Record<string, unknown> | undefined)?.[ws];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return undefined;
  const parts: PersonSummary[][] = [];
  for (let k = 0; k * SAVED_PART < count; k++) if (!hasSaved(root, `${SAVED_KEY}:${ws}:${k}`)) return undefined;
  const part = (k: number) => {
    if (!parts[k]) {
      const got = saved(root, `${SAVED_KEY}:${ws}:${k}`);
      parts[k] = Array.isArray(got) ? got : [];
    }
    return parts[k];
  };
  const sorted = new Proxy([] as PersonSummary[], {
    get(t, k) {
      if (k === 'length') return count;
      if (typeof k === 'string' && /^\d+$/.test(k))
        return Number(k) < count ? part(Math.floor(Number(k) / SAVED_PART))[Number(k) % SAVED_PART] : undefined;
      return Reflect.get(t, k);
    },

    // slice(), forEach() and the like ask whether an index is there before reading it
    has: (t, k) => (typeof k === 'string' && /^\d+$/.test(k) ? Number(k) < count : Reflect.has(t, k)),
  });
  return { byKey: new Map(), sorted };
}

/**
 * The name the people are saved under: a new name when their order or shape changes (people2:
 * contacts never reached after everyone contacted; people3: among everyone by their created_at, which
 * each keeps), so a file saved in an older order is read as if nothing was saved.
 */
const SAVED_KEY = 'people3';

/** People saved per part: a page of the list parses one or two. */
const SAVED_PART = 2000;

/** What the snapshot saves beside the data: the people and the calls under way, read by a process without parsing a record. */
export const savedIndexes = (data: World): Record<string, string> => ({
  ...savedPeople(data),
  ...savedLiveCalls(data),
});

/** The people of every workspace, for the snapshot to save: a process that reads it lists people without parsing a record. */
function savedPeople(data: World): Record<string, string> {
  const out: Record<string, string> = {};
  const counts: Record<string, number> = {};
  for (const w of raw(data).workspaces) {
    const sorted = peopleIndex(data, w.id).sorted;
    counts[w.id] = sorted.length;
    for (let k = 0; k * SAVED_PART < sorted.length; k++)
      out[`${SAVED_KEY}:${w.id}:${k}`] = JSON.stringify(sorted.slice(k * SAVED_PART, (k + 1) * SAVED_PART));
  }
  out[SAVED_KEY] = JSON.stringify(counts);
  return out;
}
