// Contacts and the people reached: how calls, texts and emails fold into the person they were with,
// and how records are presented (internal fields such as workspace_id never leave the simulator).
import { iso } from '../core/clock.js';
import { withoutNulls } from '../core/schema.js';
import type { CallRecord, Contact, EmailRecord, SuppressionReason, TextRecord } from './records.js';
import type { World } from '../core/world.js';
import type { Rng } from '../core/rng.js';
import type { CallOut, ContactOut, EmailOut, PersonOut, TextOut } from './records.js';
import {
  asView,
  contactIndex,
  contactWithEmail,
  contactWithPhone,
  mergeRecords,
  peopleIndex,
  personKeyOf,
  recordIndex,
  recordsWithAddress,
  type HistoryRecord,
  type PersonSummary,
  type RecordUnit,
} from './indexes.js';
import { raw } from '../store/tracker.js';

export const sameEmail = (a: string | null, b: string | null) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

export function contactByPhone(data: World, workspaceId: string, phone: string): Contact | undefined {
  return asView(data, 'contacts', contactWithPhone(contactIndex(data), workspaceId, phone));
}

export function contactByEmail(data: World, workspaceId: string, email: string): Contact | undefined {
  return asView(data, 'contacts', contactWithEmail(contactIndex(data), workspaceId, email));
}

/** The contact with this id (of the workspace, when one is given). */
export function contactById(data: World, id: string, workspaceId?: string): Contact | undefined {
  const c = contactIndex(data).byId.get(id);
  return c && (workspaceId === undefined || c.workspace_id === workspaceId) ? asView(data, 'contacts', c) : undefined;
}

export interface ContactInput {
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  phone_number?: string | null;
  email?: string | null;
  [k: string]: unknown;
}

export function newContact(rng: Rng, workspaceId: string, now: number, input: ContactInput): Contact {
  const name = input.name ?? ([input.first_name, input.last_name].filter(Boolean).join(' ') || null);
  const [first, ...rest] = (name ?? '').split(/\s+/).filter(Boolean);
  const at = iso(now);
  return {
    id: rng.uuid(),
    workspace_id: workspaceId,
    name,
    first_name: input.first_name ?? first ?? null,
    last_name: input.last_name ?? (rest.length ? rest.join(' ') : null),
    phone_number: input.phone_number ?? null,
    email: input.email ?? null,
    company: null,
    job_title: null,
    location: null,
    preferred_language: null,
    notes: null,
    industry: null,
    date_of_birth: null,
    subscription_plan: null,
    purchase_history: null,
    product_preferences: null,
    tags: [],
    custom_fields: {},
    consent: { sms_opted_in: false, voice_opted_in: false, email_opted_in: false, email_subscribed: true },
    first_inbound_call_at: null,
    first_inbound_text_at: null,
    first_inbound_email_at: null,
    crm: null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Changes a contact (a view of it) and moves its `updated_at`: whatever sets a field of a contact,
 * a user's edit or inbound traffic (first_inbound_call_at, an opt-out), changes the record. Never
 * backwards: a change dated by a record's created_at (a few ms ahead of the clock in a burst,
 * newRecordTime) followed in the same instant by one at the clock's time (a STOP's opt-out).
 */
export function changeContact(c: Contact, change: Partial<Omit<Contact, 'id' | 'workspace_id'>>, now: number): void {
  Object.assign(c, change, { updated_at: iso(Math.max(now, Date.parse(c.updated_at))) });
}

/** The contact field that holds the time of its first inbound record of each collection. */
const FIRST_INBOUND = {
  calls: 'first_inbound_call_at',
  texts: 'first_inbound_text_at',
  emails: 'first_inbound_email_at',
} as const satisfies Record<RecordUnit, keyof Contact>;

/**
 * Notes an inbound call, text or email of contact `c` (a view): its first_inbound_*_at is the
 * earliest one's created_at, however it arrived (live, or a history fixture, which may be dated
 * before the ones already noted). `now` dates the change (updated_at).
 */
export function noteInbound(c: Contact, unit: RecordUnit, createdAt: string, now: number): void {
  const field = FIRST_INBOUND[unit];
  const first = c[field];
  if (first === null || Date.parse(createdAt) < Date.parse(first)) changeContact(c, { [field]: createdAt }, now);
}

/** Suppression reasons that mean the person asked for no more email (a bounce is the address failing, not a choice). */
const UNSUBSCRIBED_BY: ReadonlySet<SuppressionReason> = new Set(['unsubscribe', 'complaint']);

/** Whether an address is on the workspace's suppression list because its owner unsubscribed (any letter case). */
const unsubscribed = (data: World, ws: string, email: string) =>
  data.suppressions.some((x) => x.workspace_id === ws && UNSUBSCRIBED_BY.has(x.reason) && sameEmail(x.email, email));

/** An address was suppressed: a contact with it that unsubscribed (or reported spam) no longer takes email. */
export function noteSuppressed(data: World, ws: string, email: string, reason: SuppressionReason, now: number): void {
  const c = contactByEmail(data, ws, email);
  if (c && UNSUBSCRIBED_BY.has(reason) && c.consent.email_subscribed)
    changeContact(c, { consent: { ...c.consent, email_subscribed: false } }, now);
}

/**
 * Adds a new contact to the world, as what came before it makes it: its first inbound call, text and
 * email are the earliest records at its number and address (records fold into a contact even when
 * they came first), and an address already unsubscribed does not take email.
 */
export function addContact(data: World, c: Contact): Contact {
  const at = (unit: RecordUnit, address: string | null) =>
    address
      ? (recordsWithAddress(recordIndex(data, unit), c.workspace_id, address).find((r) => r.direction === 'inbound')
          ?.created_at ?? null)
      : null;
  c.first_inbound_call_at = at('calls', c.phone_number);
  c.first_inbound_text_at = at('texts', c.phone_number);
  c.first_inbound_email_at = at('emails', c.email?.toLowerCase() ?? null);
  if (c.email && unsubscribed(data, c.workspace_id, c.email)) c.consent.email_subscribed = false;
  data.contacts.push(c);
  return c;
}

export function presentContact(c: Contact): ContactOut {
  const { workspace_id: _w, ...rest } = c;
  return rest;
}

export function presentCall(c: CallRecord): CallOut {
  // an explicit list: internal fields (workspace_id, seq) stay inside; phone_number_id is an integer
  // in the spec's call events, whose field names "match the call record": left out when none
  return withoutNulls(callFields(c), ['phone_number_id']);
}

function callFields(c: CallRecord) {
  return {
    id: c.id,
    direction: c.direction,
    status: c.status,
    from_number: c.from_number,
    to_number: c.to_number,
    contact_id: c.contact_id,
    phone_number_id: c.phone_number_id,
    duration_seconds: c.duration_seconds,
    summary: c.summary,
    transcript: c.transcript,
    transcript_turns: c.transcript_turns,
    tags: c.tags,
    has_recording: c.has_recording,
    recording_url: c.has_recording ? `/v1/calls/${c.id}/recording` : null,
    end_reason: c.end_reason,
    metadata: c.metadata ?? null,
    started_at: c.started_at,
    ended_at: c.ended_at,
    created_at: c.created_at,
  };
}

export function presentText(t: TextRecord): TextOut {
  const { workspace_id: _w, seq: _s, ...rest } = t;
  return withoutNulls(rest, ['phone_number_id']);
}

export function presentEmail(e: EmailRecord): EmailOut {
  const { workspace_id: _w, seq: _s, sent_ms: _t, ...rest } = e;
  return rest;
}

/** Who each record belongs to: its contact when the number or address is a contact's, else the raw address. */
export function personKeys(data: World, workspaceId: string): (r: CallRecord | TextRecord | EmailRecord) => string {
  return personKeyOf(contactIndex(data), workspaceId);
}

/**
 * A contact's records of one collection, oldest first: those naming it, and those at its number
 * (calls, texts) or address (emails) that fold into it, looked up in the collection's index.
 */
export function contactRecords<T extends HistoryRecord>(
  data: World,
  unit: RecordUnit,
  ws: string,
  contact: Contact,
): T[] {
  const ix = recordIndex<T>(data, unit);
  const keyOf = personKeys(data, ws);
  const c = raw(contact);
  const address = unit === 'emails' ? c.email?.toLowerCase() : c.phone_number;
  return mergeRecords([ix.byContactId.get(c.id) ?? [], address ? recordsWithAddress(ix, ws, address) : []]).filter(
    (r) => r.workspace_id === ws && keyOf(r) === c.id,
  );
}

/**
 * A person's records of one collection, oldest first, the person named as the people list names
 * them: a contact's id, or a number or address (a contact's: that contact's records; else the
 * records at it).
 */
export function personRecords<T extends HistoryRecord>(
  data: World,
  unit: RecordUnit,
  ws: string,
  who: string,
): readonly T[] {
  const ix = contactIndex(data);
  const byId = ix.byId.get(who);
  const contact = byId?.workspace_id === ws ? byId : (contactWithPhone(ix, ws, who) ?? contactWithEmail(ix, ws, who));
  if (contact) return contactRecords<T>(data, unit, ws, contact);
  return recordsWithAddress(recordIndex<T>(data, unit), ws, who.includes('@') ? who.toLowerCase() : who);
}

/** Who each record of a workspace was with, in words: its contact's name (as the people list folds them), or the number or address. */
export function personNames(data: World, ws: string): (r: HistoryRecord) => string {
  const ix = contactIndex(data);
  const keyOf = personKeyOf(ix, ws);
  return (r) => {
    const key = keyOf(r);
    const c = ix.byId.get(key);
    return c ? (c.name ?? c.phone_number ?? c.email ?? key) : key.slice(key.indexOf(':') + 1);
  };
}

/** Everyone the workspace has reached or has on file, folded by contact, by last contact (or creation), oldest first. */
export function people(data: World, workspaceId: string): readonly PersonSummary[] {
  return peopleIndex(data, workspaceId).sorted;
}

/**
 * A person as the spec's Person summary, every field of its type (name, phone_number, email strings;
 * the contact times timestamps; none null, none missing): a contact never reached was first and last
 * "contacted" when the workspace first had it (its created_at), the order the list is in; a missing
 * address is the empty string, and a person without a name is named by their number or address.
 */
export function presentPerson(p: PersonSummary): PersonOut {
  const { id: _i, sort_ms: _s, order: _o, created_at, ...rest } = p;
  const since = created_at ?? '';
  return {
    ...rest,
    name: p.name ?? p.phone_number ?? p.email ?? '',
    phone_number: p.phone_number ?? '',
    email: p.email ?? '',
    first_contacted_at: p.first_contacted_at ?? since,
    last_contacted_at: p.last_contacted_at ?? since,
  };
}
