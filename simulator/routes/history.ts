// Conversation history and contacts: both route families of the spec, all free reads.
import { recordingWav } from '../audio.js';
import { iso } from '../clock.js';
import { notFound, validationError } from '../errors.js';
import type { Ctx, Resource, Route } from '../http.js';
import type { CallRecord, EmailRecord, Scope, TextRecord } from '../model.js';
import { listParams, paginate } from '../pagination.js';
import {
  counterpartEmail, counterpartPhone, people, personKeys, presentCall, presentContact, presentEmail, presentPerson, presentText,
} from '../people.js';
import { E164, EMAIL_ANY_CASE, parseQuery, qEnum, qMatch, qString, qTime } from '../validate.js';

/** The spec's filter values, plus no_answer for calls that rang out (records say NO_ANSWER). */
export const CALL_STATUS_FILTERS = ['completed', 'voicemail', 'failed', 'busy', 'canceled', 'in_progress', 'ringing', 'queued', 'no_answer'] as const;

const qPhone = qMatch(E164, 'must be an E.164 phone number such as +15551234567');
const qEmail = qMatch(EMAIL_ANY_CASE, 'must be an email address');
const qDirection = qEnum(['inbound', 'outbound'] as const);

const ms = (r: { created_at: string }) => Date.parse(r.created_at);
const bySeq = (r: { seq: number }) => r.seq;
const scopeOf = (c: Ctx, list: string, q: Record<string, unknown>) => {
  const { limit: _l, cursor: _c, order: _o, ...filters } = q;
  return `${c.auth.workspace.id}|${list}|${JSON.stringify(Object.entries(filters).sort())}`;
};

function requireContact(c: Ctx, id: string) {
  const contact = c.data.contacts.find((x) => x.id === id && x.workspace_id === c.auth.workspace.id);
  if (!contact) throw notFound(`No contact ${id} in this workspace.`);
  return contact;
}

/** Applies the person, direction and time filters shared by calls, texts and emails. */
function filterRecords<T extends CallRecord | TextRecord | EmailRecord>(
  c: Ctx,
  records: readonly T[],
  q: { contact_id?: string; phone_number?: string; email?: string; direction?: string; created_after?: number; created_before?: number },
  personRequired: boolean,
  addressName: 'phone_number' | 'email',
): T[] {
  const given = [q.contact_id !== undefined, q[addressName] !== undefined].filter(Boolean).length;
  if (given > 1) throw validationError({ contact_id: `give either contact_id or ${addressName}, not both` });
  if (personRequired && given === 0)
    throw validationError({ contact_id: `name one person with contact_id or ${addressName}` }, `This list needs contact_id or ${addressName}.`);
  if (q.contact_id !== undefined) requireContact(c, q.contact_id);
  const ws = c.auth.workspace.id;
  const keyOf = personKeys(c.data, ws);
  return records.filter((r) => {
    if (r.workspace_id !== ws) return false;
    if (q.contact_id !== undefined && keyOf(r) !== q.contact_id) return false;
    if (q.phone_number !== undefined && counterpartPhone(r as CallRecord) !== q.phone_number) return false;
    if (q.email !== undefined && counterpartEmail(r as EmailRecord).toLowerCase() !== q.email.toLowerCase()) return false;
    if (q.direction !== undefined && r.direction !== q.direction) return false;
    if (q.created_after !== undefined && ms(r) <= q.created_after) return false;
    if (q.created_before !== undefined && ms(r) >= q.created_before) return false;
    return true;
  });
}

const timeFilters = { direction: qDirection, created_after: qTime, created_before: qTime, contact_id: qString };

function listCalls(personRequired: boolean) {
  return (c: Ctx) => {
    const q = parseQuery(c.query, { ...listParams(50), ...timeFilters, phone_number: qPhone, status: qEnum(CALL_STATUS_FILTERS) });
    let rows = filterRecords(c, c.data.calls, q, personRequired, 'phone_number');
    if (q.status) rows = rows.filter((r) => r.status === q.status!.toUpperCase());
    return { body: paginate(c.s, rows, q, { key: ms, tie: bySeq, scope: scopeOf(c, 'calls', q), present: presentCall, totalResults: true }) };
  };
}

function listTexts(personRequired: boolean) {
  return (c: Ctx) => {
    const q = parseQuery(c.query, { ...listParams(), ...timeFilters, phone_number: qPhone });
    const rows = filterRecords(c, c.data.texts, q, personRequired, 'phone_number');
    return { body: paginate(c.s, rows, q, { key: ms, tie: bySeq, scope: scopeOf(c, 'texts', q), present: presentText, totalResults: true }) };
  };
}

function listEmails(c: Ctx) {
  const q = parseQuery(c.query, { ...listParams(), ...timeFilters, email: qEmail });
  const rows = filterRecords(c, c.data.emails, q, true, 'email');
  return { body: paginate(c.s, rows, q, { key: ms, tie: bySeq, scope: scopeOf(c, 'emails', q), present: presentEmail, totalResults: true }) };
}

function listPeople(c: Ctx) {
  const { order: _o, ...params } = listParams();
  const q = parseQuery(c.query, params);
  const rows = people(c.data, c.auth.workspace.id);
  return { body: paginate(c.s, rows, q, { key: (p) => p.sort_ms, tie: (p) => p.order, scope: scopeOf(c, 'people', {}), present: presentPerson, totalResults: true }) };
}

function findCall(c: Ctx): CallRecord {
  const call = c.data.calls.find((x) => x.id === c.params.id && x.workspace_id === c.auth.workspace.id);
  if (!call) throw notFound(`No call ${c.params.id} in this workspace.`);
  return call;
}

function recording(c: Ctx) {
  parseQuery(c.query, {});
  const call = findCall(c);
  if (!call.has_recording) throw notFound('This call has no recording.');
  if (c.auth.workspace.recordings_disabled) throw notFound('Recordings are turned off by this workspace\'s compliance settings.');
  c.data.audit_log.push({
    id: c.s.rng.uuid(),
    workspace_id: c.auth.workspace.id,
    action: 'recording.download',
    resource_id: call.id,
    api_key_id: c.auth.key!.id,
    user_id: c.auth.user.id,
    at: iso(c.s.now),
  });
  c.s.markDirty();
  return { raw: { bytes: recordingWav(call.id), contentType: 'audio/wav' }, headers: { 'cache-control': 'no-store' } };
}

const both = (paths: string[], scope: Scope, handler: Route['handler']): Route[] =>
  paths.map((path) => ({ method: 'GET', path, scope, handler }));

export const history: Resource = {
  routes: [
    ...both(['/v1/history/people', '/v1/contacts'], 'contacts:read', listPeople),
    ...both(['/v1/contacts/{id}'], 'contacts:read', (c) => {
      parseQuery(c.query, {});
      return { body: { data: presentContact(requireContact(c, c.params.id)) } };
    }),
    ...both(['/v1/history/calls'], 'calls:read', listCalls(true)),
    ...both(['/v1/calls'], 'calls:read', listCalls(false)),
    ...both(['/v1/history/calls/{id}', '/v1/calls/{id}'], 'calls:read', (c) => {
      parseQuery(c.query, {});
      return { body: { data: presentCall(findCall(c)) } };
    }),
    ...both(['/v1/history/calls/{id}/recording', '/v1/calls/{id}/recording'], 'calls:read', recording),
    ...both(['/v1/history/texts'], 'sms:read', listTexts(true)),
    ...both(['/v1/messages'], 'sms:read', listTexts(false)),
    ...both(['/v1/history/emails', '/v1/emails'], 'email:read', listEmails),
  ],
};
