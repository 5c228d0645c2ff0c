// Conversation history and contacts: both route families of the spec, all free reads.
import { RECORDING_TYPE, type RecordedCall, recordingBytes, recordingPieces } from './audio.js';
import { byteRange, rangeNotSatisfiable } from '../core/request.js';
import { iso } from '../core/clock.js';
import { notFound, validationError } from '../core/errors.js';
import { route, type Ctx, type Resource, type Route } from '../core/http.js';
import type { CallRecord, EmailRecord, TextRecord } from './records.js';
import { listParams, paginateSorted } from '../core/pagination.js';
import {
  asView,
  firstAtLeast,
  ms,
  recordIndex,
  recordsWithAddress,
  type HistoryRecord,
  type RecordUnit,
} from './indexes.js';
import {
  contactById,
  contactRecords,
  people,
  presentCall,
  presentContact,
  presentEmail,
  presentPerson,
  presentText,
} from './people.js';
import {
  CALL_STATUS_FILTERS,
  CallRecordSchema,
  ContactSchema,
  EmailRecordSchema,
  PersonSummarySchema,
  TextRecordSchema,
} from './records.js';
import {
  dataOf,
  e164,
  EMAIL_ANY_CASE,
  listOf,
  obj,
  oneOf,
  qString,
  qTime,
  str,
  uuid,
  type Infer,
} from '../core/schema.js';

// ---- declarations ----

const Id = obj({ id: uuid() }, { required: ['id'] });

/** The person and time filters shared by calls, texts and emails. */
const filters = {
  direction: oneOf(['inbound', 'outbound'], 'only calls or messages in this direction'),
  created_after: qTime(
    'only records created after this time (exclusive); poll with the newest created_at seen for incremental sync',
  ),
  created_before: qTime('only records created before this time (exclusive)'),
  contact_id: qString({
    description: 'only records with this contact (not together with the address filter)',
    example: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
  }),
};
const phoneFilter = e164({
  description: 'only records with this number as the other party (not together with contact_id)',
});

const CallsQuery = obj({
  ...listParams(50),
  ...filters,
  phone_number: phoneFilter,
  status: oneOf(CALL_STATUS_FILTERS, {
    description: 'only calls in this status (lower case; records say it in upper case)',
    example: 'completed',
  }),
});
const TextsQuery = obj({ ...listParams(), ...filters, phone_number: phoneFilter });
const EmailsQuery = obj({
  ...listParams(),
  ...filters,
  email: str({
    max: 254,
    pattern: EMAIL_ANY_CASE,
    patternMessage: 'must be an email address',
    format: 'email',
    description: 'only emails with this address as the other party, any letter case (not together with contact_id)',
    example: 'maria@example.com',
  }),
});
const { order: _order, ...peopleParams } = listParams();
/** The people list is always most recent first: no `order`. */
const PeopleQuery = obj(peopleParams);

// ---- handlers ----

type Filters = Infer<typeof CallsQuery> & { email?: string };

/** What the helpers below read of a request: never its params, query or body. */
type Req = Ctx<unknown, unknown, unknown>;

const bySeq = (r: { seq: number }) => r.seq;
const scopeOf = (c: Req, list: string, q: Record<string, unknown>) => {
  const { limit: _l, cursor: _c, order: _o, ...f } = q;
  return `${c.auth.workspace.id}|${list}|${JSON.stringify(Object.entries(f).sort())}`;
};

function requireContact(c: Req, id: string) {
  const contact = contactById(c.data, id, c.auth.workspace.id);
  if (!contact) throw notFound(`No contact ${id} in this workspace.`);
  return contact;
}

/**
 * The records of a list with the person, direction and time filters shared by calls, texts and
 * emails applied, oldest first: looked up in the collection's index (by contact, address or
 * workspace, then the time range), so a page costs its person's records, not the store's.
 */
function filterRecords<T extends HistoryRecord>(
  c: Req,
  unit: RecordUnit,
  q: Omit<Filters, 'status'>,
  personRequired: boolean,
  addressName: 'phone_number' | 'email',
  extra?: (r: T) => boolean,
): readonly T[] {
  const given = [q.contact_id !== undefined, q[addressName] !== undefined].filter(Boolean).length;
  if (given > 1) throw validationError({ contact_id: `give either contact_id or ${addressName}, not both` });
  if (personRequired && given === 0)
    throw validationError(
      { contact_id: `name one person with contact_id or ${addressName}` },
      `This list needs contact_id or ${addressName}.`,
    );
  const ws = c.auth.workspace.id;
  const ix = recordIndex<T>(c.data, unit);
  let rows: readonly T[];
  if (q.contact_id !== undefined) rows = contactRecords<T>(c.data, unit, ws, requireContact(c, q.contact_id));
  else if (q.phone_number !== undefined) rows = recordsWithAddress(ix, ws, q.phone_number);
  else if (q.email !== undefined) rows = recordsWithAddress(ix, ws, q.email.toLowerCase());
  else rows = ix.byWorkspace.get(ws) ?? [];
  const from = q.created_after === undefined ? 0 : firstAtLeast(rows, q.created_after + 1, ms);
  const to = q.created_before === undefined ? rows.length : firstAtLeast(rows, q.created_before, ms);
  if (from > 0 || to < rows.length) rows = rows.slice(from, to);
  if (q.direction !== undefined || extra)
    rows = rows.filter((r) => (q.direction === undefined || r.direction === q.direction) && (!extra || extra(r)));
  return rows;
}

function findCall(c: Req, id: string): CallRecord {
  const call = recordIndex<CallRecord>(c.data, 'calls').byId.get(id);
  if (!call || call.workspace_id !== c.auth.workspace.id) throw notFound(`No call ${id} in this workspace.`);
  return asView(c.data, 'calls', call);
}

function recording(c: Ctx<Infer<typeof Id>>) {
  const call = findCall(c, c.params.id);
  if (!call.has_recording) throw notFound('This call has no recording.');
  if (c.auth.workspace.recordings_disabled)
    throw notFound("Recordings are turned off by this workspace's compliance settings.");
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
  // a copy: the store's views are not to be read once the unit of work is over, and the file is
  // made after it, a piece at a time as the client reads (recordingPieces), the store free meanwhile
  const heard: RecordedCall = JSON.parse(
    JSON.stringify({ id: call.id, duration_seconds: call.duration_seconds, transcript_turns: call.transcript_turns }),
  );
  const size = recordingBytes(heard);
  const range = byteRange(c.header('range'), size);
  if (range === 'unsatisfiable') throw rangeNotSatisfiable(size, 'recording');
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const headers: Record<string, string> = { 'cache-control': 'no-store', 'accept-ranges': 'bytes' };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  return {
    status: range ? 206 : 200,
    headers,
    stream: {
      contentType: RECORDING_TYPE,
      size: end - start + 1,
      pieces: () => afterTurn(recordingPieces(heard, start, end, nextTurn)),
    },
  };
}

const waiting: (() => void)[] = [];
let turning = false;
/**
 * Between two pieces of a recording, the process's other work goes first: the recordings being sent
 * take turns, one piece (a few ms) each time round the event loop, so however many are read at once
 * a request waits behind a piece or two, not one of each (20 downloads filling their sockets at once
 * otherwise held a health check for over a second).
 */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!turning) turn();
  });
}
/** The pieces, the first of them too made in its turn (20 downloads begun at once make theirs one by one). */
async function* afterTurn(pieces: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  await nextTurn();
  yield* pieces;
}
function turn(): void {
  turning = true;
  setImmediate(() => {
    turning = false;
    waiting.shift()?.();
    if (waiting.length > 0) turn();
  });
}

// ---- routes ----

const PERSON_404 = { 404: ['not_found'] } as const;
const sync = 'Filter with `created_after` set to the newest created_at seen for incremental sync.';
/** The /v1/history/* lists name one person; the others may. */
const personText = (history: boolean, address: string) =>
  history
    ? `Names one person with exactly one of \`contact_id\` or \`${address}\` (400 without, or with both; 404 for an unknown contact).`
    : `Without a person, the whole workspace; with one of \`contact_id\` or \`${address}\` (not both), that person's (404 for an unknown contact).`;

function peopleList(path: string): Route {
  return route({
    method: 'GET',
    path,
    scope: 'contacts:read',
    summary: path === '/v1/contacts' ? 'List contacts and people reached' : 'List the people contacted',
    description:
      'Person summaries, most recent first: every contact, and every number or address reached that belongs to no contact ' +
      '(folded into the contact when it does), with how many calls, texts and emails each had.',
    query: PeopleQuery,
    responses: { 200: { description: 'Person summaries, most recent first', schema: listOf(PersonSummarySchema) } },
    handler: (c) => ({
      body: paginateSorted(c.s, people(c.data, c.auth.workspace.id), c.query, {
        key: (p) => p.sort_ms,
        tie: (p) => p.order,
        scope: scopeOf(c, 'people', {}),
        present: presentPerson,
        totalResults: true,
      }),
    }),
  });
}

function callList(path: string, personRequired: boolean): Route {
  return route({
    method: 'GET',
    path,
    scope: 'calls:read',
    summary: personRequired ? "List one person's calls" : 'List calls',
    description: `Call records, newest first, each with its transcript (so at most 50 a page). ${personText(personRequired, 'phone_number')} ${sync}`,
    query: CallsQuery,
    responses: { 200: { description: 'Call records', schema: listOf(CallRecordSchema) } },
    errors: PERSON_404,
    handler: (c) => {
      const q = c.query;
      const status = q.status?.toUpperCase();
      const rows = filterRecords<CallRecord>(
        c,
        'calls',
        q,
        personRequired,
        'phone_number',
        status ? (r) => r.status === status : undefined,
      );
      return {
        body: paginateSorted(c.s, rows, q, {
          key: ms,
          tie: bySeq,
          scope: scopeOf(c, 'calls', q),
          present: presentCall,
          totalResults: true,
        }),
      };
    },
  });
}

function textList(path: string, personRequired: boolean): Route {
  return route({
    method: 'GET',
    path,
    scope: 'sms:read',
    summary: personRequired ? "List one person's texts" : 'List texts',
    description: `Text records, newest first, including texts from the shared senders (replies to a quick text show as inbound). ${personText(personRequired, 'phone_number')} ${sync}`,
    query: TextsQuery,
    responses: { 200: { description: 'Text records', schema: listOf(TextRecordSchema) } },
    errors: PERSON_404,
    handler: (c) => {
      const rows = filterRecords<TextRecord>(c, 'texts', c.query, personRequired, 'phone_number');
      return {
        body: paginateSorted(c.s, rows, c.query, {
          key: ms,
          tie: bySeq,
          scope: scopeOf(c, 'texts', c.query),
          present: presentText,
          totalResults: true,
        }),
      };
    },
  });
}

function emailList(path: string): Route {
  return route({
    method: 'GET',
    path,
    scope: 'email:read',
    summary: "List one person's emails",
    description: `Email records (one per recipient, quick emails included), newest first. ${personText(true, 'email')} ${sync}`,
    query: EmailsQuery,
    responses: { 200: { description: 'Email records', schema: listOf(EmailRecordSchema) } },
    errors: PERSON_404,
    handler: (c) => {
      const rows = filterRecords<EmailRecord>(c, 'emails', c.query, true, 'email');
      return {
        body: paginateSorted(c.s, rows, c.query, {
          key: ms,
          tie: bySeq,
          scope: scopeOf(c, 'emails', c.query),
          present: presentEmail,
          totalResults: true,
        }),
      };
    },
  });
}

function callRead(path: string): Route {
  return route({
    method: 'GET',
    path,
    scope: 'calls:read',
    summary: 'Read a call',
    description: 'One call record with its transcript, AI summary and tags.',
    params: Id,
    responses: { 200: { description: 'The call record', schema: dataOf(CallRecordSchema) } },
    handler: (c) => ({ body: { data: presentCall(findCall(c, c.params.id)) } }),
  });
}

function recordingRead(path: string): Route {
  return route({
    method: 'GET',
    path,
    scope: 'calls:read',
    summary: 'Download a call recording',
    description:
      'The raw audio of the call, never cached. 404 when the call has no recording, when recording is turned off by the ' +
      "workspace's compliance settings, or when the call is not in the workspace. Each download is written to the compliance audit log, " +
      "attributed to the API key's owner. HEAD answers the size (Content-Length) without making the file. The file is made as " +
      'it is read (a slow reader holds the simulator to a few pieces of it, never the whole), and a single `Range: bytes=…` is ' +
      'served as 206 Partial Content (a player seeks, a cut download resumes).',
    params: Id,
    responses: {
      200: {
        description:
          "The recording: the call's whole length (duration_seconds), each transcript turn heard from its seconds_from_start, " +
          '8 kHz mono G.711 mu-law WAV (8,000 bytes a second)',
        contentType: RECORDING_TYPE,
        headers: {
          'Cache-Control': {
            description: 'no-store: a recording is never cached',
            schema: { type: 'string', enum: ['no-store'] },
          },
        },
      },
      206: {
        description: 'The range asked for, the same bytes as in the whole file',
        contentType: RECORDING_TYPE,
        headers: {
          'Content-Range': {
            description: 'which bytes of the file these are',
            schema: { type: 'string', example: 'bytes 44-80043/480044' },
          },
        },
      },
    },
    errors: { 416: ['range_not_satisfiable'] },
    handler: recording,
  });
}

export const history: Resource = {
  tag: {
    name: 'History and contacts',
    description:
      'Free reads of calls, texts, emails, contacts and the people reached. Two equivalent route families: /v1/history/* and /v1/contacts, /v1/calls, /v1/messages, /v1/emails.',
  },
  routes: [
    peopleList('/v1/history/people'),
    peopleList('/v1/contacts'),
    route({
      method: 'GET',
      path: '/v1/contacts/{id}',
      scope: 'contacts:read',
      summary: 'Read a contact',
      description: "The contact's full record.",
      params: Id,
      responses: { 200: { description: 'The contact', schema: dataOf(ContactSchema) } },
      handler: (c) => ({ body: { data: presentContact(requireContact(c, c.params.id)) } }),
    }),
    callList('/v1/history/calls', true),
    callList('/v1/calls', false),
    callRead('/v1/history/calls/{id}'),
    callRead('/v1/calls/{id}'),
    recordingRead('/v1/history/calls/{id}/recording'),
    recordingRead('/v1/calls/{id}/recording'),
    textList('/v1/history/texts', true),
    textList('/v1/messages', false),
    emailList('/v1/history/emails'),
    emailList('/v1/emails'),
  ],
};
