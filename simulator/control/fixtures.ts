// The control plane's fixtures (/_sim/contacts, /_sim/suppressions, /_sim/calls, /_sim/texts,
// /_sim/emails): what the API cannot create, added as if it had happened: contacts, suppressed
// addresses, and call, text and email records; one at a time or an array of them in one transaction.
// And the one read the API lacks: an email by its id (GET /_sim/emails/{id}).
import * as z from 'zod/mini';
import { iso } from '../core/clock.js';
import { ApiError, notFound, validationError } from '../core/errors.js';
import { route, type Ctx, type Reply } from '../core/http.js';
import {
  arr,
  BULK_MAX_BODY_BYTES,
  BULK_MAX_ITEMS,
  bool,
  dataOf,
  doc,
  e164,
  email,
  freeInput,
  int,
  isoTime,
  named,
  nullable,
  num,
  obj,
  oneOf,
  oneOrMany,
  record,
  str,
  type Infer,
} from '../core/schema.js';
import { newFields } from '../core/check.js';
import {
  type CallRecord,
  type EmailRecord,
  type Suppression,
  type TextRecord,
  addContact,
  contactByEmail,
  contactById,
  contactByPhone,
  newContact,
  noteInbound,
  noteSuppressed,
  newRecordTime,
  presentCall,
  presentContact,
  presentEmail,
  presentText,
  recordIndex,
  CALL_STATUS_FILTERS,
  CALL_TAGS,
  CallRecordSchema,
  ContactSchema,
  EmailRecordSchema,
  SUPPRESSION_REASONS,
  SuppressionSchema,
  TextRecordSchema,
  type CallStatus,
} from '../history/index.js';

const presentSuppression = (s: Suppression): Infer<typeof SuppressionSchema> => ({
  email: s.email,
  reason: s.reason,
  created_at: s.created_at,
});

/** A contact's fields as the API takes them, with their limits: the fixture's body, and what an imported world's contacts are checked against (import-check.ts). */
export const contactFields = () => ({
  name: str({ min: 1, max: 200, example: 'Maria Gonzalez' }),
  first_name: nullable(str({ max: 100, example: 'Maria' })),
  last_name: nullable(str({ max: 100, example: 'Gonzalez' })),
  email: nullable(email()),
  phone_number: nullable(e164()),
  company: nullable(str({ max: 200 })),
  job_title: nullable(str({ max: 200 })),
  location: nullable(str({ max: 200 })),
  preferred_language: nullable(str({ max: 50 })),
  notes: nullable(str({ max: 5000 })),
  tags: arr(str({ min: 1, max: 100 }), { max: 100, example: ['vip'] }),
  custom_fields: freeInput({ description: 'JSON values by name', example: { plan: 'gold' } }),
});

const ContactBody = named('ContactFixture', () => obj(contactFields(), { required: ['name'] }), 'A contact to add.');

const DIRECTIONS = ['inbound', 'outbound'] as const;
/** Upper-case, as in records: the call list's filter values in their order, then NO_ANSWER (no filter value). */
const FIXTURE_CALL_STATUSES = [...CALL_STATUS_FILTERS.map((x) => x.toUpperCase()), 'NO_ANSWER'] as unknown as readonly [
  CallStatus,
  ...CallStatus[],
];

const Turn = obj(
  {
    speaker: oneOf(['agent', 'person'] as const),
    text: str({ max: 10_000, example: 'Hi, this is the assistant from Acme.' }),
    seconds_from_start: nullable(num({ min: 0 })),
  },
  { required: ['speaker', 'text'] },
);

const CallFixture = named(
  'CallFixture',
  () =>
    obj(
      {
        direction: oneOf(DIRECTIONS),
        status: oneOf(FIXTURE_CALL_STATUSES, 'default COMPLETED'),
        from_number: e164(),
        to_number: e164(),
        duration_seconds: nullable(int({ min: 0, example: 95 })),
        summary: str({ max: 10_000 }),
        transcript_turns: arr(Turn, { max: 1000 }),
        tags: arr(oneOf(CALL_TAGS), { max: CALL_TAGS.length, unique: true }),
        has_recording: bool(),
        created_at: doc(isoTime(), "when it happened; not in the simulator's future (default: now)"),
      },
      { required: ['direction', 'from_number', 'to_number'] },
    ),
  'A call record to add.',
);

const TextFixture = named(
  'TextFixture',
  () =>
    obj(
      {
        direction: oneOf(DIRECTIONS),
        sender: oneOf(
          ['contact', 'ai_agent', 'business'] as const,
          'default contact for inbound, business for outbound',
        ),
        from_number: e164(),
        to_number: e164(),
        body: str({ min: 1, max: 2000, example: 'Does Tuesday at 10 work for you?' }),
        created_at: doc(isoTime(), "when it happened; not in the simulator's future (default: now)"),
      },
      { required: ['direction', 'from_number', 'to_number', 'body'] },
    ),
  'A text record to add.',
);

const EmailFixture = named(
  'EmailFixture',
  () =>
    obj(
      {
        direction: oneOf(DIRECTIONS),
        from_address: email(),
        to: email(),
        subject: str({ max: 200, example: 'Your invoice' }),
        body: str({ max: 20_000 }),
        created_at: doc(isoTime(), "when it happened; not in the simulator's future (default: now)"),
      },
      { required: ['direction', 'from_address', 'to'] },
    ),
  'An email record to add.',
);

/** A fixture's time: given, or now; never in the simulator's future. */
/** A fixture's created_at: the one sent (history as it was), else now as a record made now gets it (newRecordTime). */
function fixtureTime(c: Ctx<any, any, any>, at: string | undefined, unit: 'calls' | 'texts' | 'emails'): string {
  if (at !== undefined && Date.parse(at) > c.s.now)
    throw validationError({ created_at: "must not be in the simulator's future" });
  return at ?? newRecordTime(c.data, unit, c.auth.workspace.id, c.s.now);
}

const transcriptOf = (turns: { speaker: string; text: string }[]) =>
  turns.map((t) => `${t.speaker === 'agent' ? 'AI' : 'User'}: ${t.text}`).join('\n');

/** An inbound history fixture of a contact is its first inbound one of that kind when nothing earlier is (spec Part 2, Contact). */
function noteInboundFixture(
  c: Ctx<any, any, any>,
  unit: 'calls' | 'texts' | 'emails',
  rec: CallRecord | TextRecord | EmailRecord,
) {
  const who = rec.direction === 'inbound' && rec.contact_id ? contactById(c.data, rec.contact_id) : undefined;
  if (who) noteInbound(who, unit, rec.created_at, c.s.now);
}

const FIXTURE_NOTE =
  'A history fixture: a record as if it had happened (quick actions and the inbound helpers make real ones). ' +
  "The contact is the workspace contact with the other party's number or address, if any.";

const BULK_NOTE =
  `The body may also be a JSON array of up to ${BULK_MAX_ITEMS.toLocaleString('en-US')} of them (bulk seeding; bodies up to ${BULK_MAX_BODY_BYTES / 1024 / 1024} MiB), ` +
  'added in order as one transaction: each item is checked as it would be alone, and when any is refused one error names every refused item by its index (`[3].to`) and nothing is added.';

const BulkAdded = record({
  count: doc(z.int(), { description: 'how many were added', example: 2 }),
  ids: doc(z.array(z.string()), {
    description: 'their ids, in the order sent',
    example: ['3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90', '9b1d4e77-2c3a-4f5e-8d6c-1a2b3c4d5e6f'],
  }),
});

/** The 201 of a route that adds one fixture (its record) or an array of them (how many, and their ids). */
const added = (item: z.ZodMiniType) => ({
  201: {
    description: 'Added: one item answers its record; an array answers how many were added and their ids',
    schema: z.xor([dataOf(item), BulkAdded]),
  },
});

/**
 * Adds one fixture, or each of an array of them in order (a later item sees the earlier ones).
 * An item is refused as it would be alone; then every refused item's fields are answered in one
 * error, keyed by its index (`[3].created_at`), and the request's transaction adds nothing.
 */
function addFixtures<B, R extends { id: string }>(
  body: B | B[],
  add: (item: B) => R,
  present: (rec: R) => unknown,
): Reply {
  if (!Array.isArray(body)) return { status: 201, body: { data: present(add(body)) } };
  const ids: string[] = [];
  const fields = newFields();
  let first: ApiError | null = null;
  let refused = 0;
  for (const [i, item] of body.entries()) {
    try {
      ids.push(add(item).id);
    } catch (e) {
      if (!(e instanceof ApiError) || !e.fields) throw e;
      first ??= e;
      refused++;
      for (const [k, why] of Object.entries(e.fields)) fields[`[${i}].${k}`] = why;
    }
  }
  if (first)
    throw new ApiError(
      first.status,
      first.code,
      `${refused} of the ${body.length} items cannot be added (the fields name them by index); nothing was added.`,
      fields,
    );
  return { status: 201, body: { count: ids.length, ids } satisfies Infer<typeof BulkAdded> };
}

/** Contacts, suppressions and history records added. */
export const fixtureRoutes = [
  route({
    method: 'POST',
    path: '/_sim/contacts',
    summary: 'Add a contact, or many',
    description:
      'A workspace contact (the API cannot create contacts). First and last name are taken from `name` unless given. ' +
      `Phone numbers and email addresses (any letter case) are unique within a workspace. ${BULK_NOTE}`,
    body: oneOrMany(ContactBody),
    responses: added(ContactSchema),
    errors: { 409: ['conflict'] },
    handler: (c) => {
      const ws = c.auth.workspace.id;
      return addFixtures(
        c.body,
        (b) => {
          if (b.phone_number && contactByPhone(c.data, ws, b.phone_number))
            throw new ApiError(409, 'conflict', 'A contact already has this phone number.', {
              phone_number: "is already a contact's number",
            });
          if (b.email && contactByEmail(c.data, ws, b.email))
            throw new ApiError(409, 'conflict', 'A contact already has this email address.', {
              email: "is already a contact's address",
            });
          const contact = newContact(c.s.rng, ws, c.s.now, b);
          for (const k of ['company', 'job_title', 'location', 'preferred_language', 'notes'] as const)
            if (b[k] !== undefined) contact[k] = b[k];
          if (b.tags) contact.tags = b.tags;
          if (b.custom_fields) contact.custom_fields = b.custom_fields;
          return addContact(c.data, contact);
        },
        presentContact,
      );
    },
  }),
  route({
    method: 'POST',
    path: '/_sim/suppressions',
    summary: 'Suppress an email address',
    description:
      'Quick email skips the address (any letter case) and does not charge for it. An address already suppressed answers 200 with its entry unchanged.',
    body: obj({ email: email(), reason: oneOf(SUPPRESSION_REASONS, 'default unsubscribe') }, { required: ['email'] }),
    responses: {
      200: { description: 'Already suppressed', schema: dataOf(SuppressionSchema) },
      201: { description: 'Suppressed', schema: dataOf(SuppressionSchema) },
    },
    handler: (c) => {
      const b = c.body;
      const ws = c.auth.workspace.id;
      const existing = c.data.suppressions.find(
        (x) => x.workspace_id === ws && x.email.toLowerCase() === b.email.toLowerCase(),
      );
      const entry = existing ?? {
        workspace_id: ws,
        email: b.email,
        reason: b.reason ?? 'unsubscribe',
        created_at: iso(c.s.now),
      };
      if (!existing) {
        c.data.suppressions.push(entry);
        noteSuppressed(c.data, ws, entry.email, entry.reason, c.s.now);
      }
      return { status: existing ? 200 : 201, body: { data: presentSuppression(entry) } };
    },
  }),

  // history fixtures: records as if a call, text or email had happened (quick actions make real ones)
  route({
    method: 'POST',
    path: '/_sim/calls',
    summary: 'Add a call record, or many',
    description: `${FIXTURE_NOTE} The transcript is built from \`transcript_turns\`; a duration sets ended_at. ${BULK_NOTE}`,
    body: oneOrMany(CallFixture),
    responses: added(CallRecordSchema),
    handler: (c) =>
      addFixtures(
        c.body,
        (b) => {
          const ws = c.auth.workspace.id;
          const other = b.direction === 'outbound' ? b.to_number : b.from_number;
          const turns = b.transcript_turns ?? [];
          const created = fixtureTime(c, b.created_at, 'calls');
          const rec: CallRecord = {
            id: c.s.rng.uuid(),
            seq: c.s.nextSeq(),
            workspace_id: ws,
            direction: b.direction,
            status: b.status ?? 'COMPLETED',
            from_number: b.from_number,
            to_number: b.to_number,
            contact_id: contactByPhone(c.data, ws, other)?.id ?? null,
            phone_number_id: null,
            duration_seconds: b.duration_seconds ?? null,
            summary: b.summary ?? '',
            transcript: transcriptOf(turns),
            transcript_turns: turns.map((t) => ({
              seconds_from_start: t.seconds_from_start ?? null,
              speaker: t.speaker,
              text: t.text,
            })),
            tags: b.tags ?? [],
            has_recording: b.has_recording ?? false,
            end_reason: null,
            started_at: created,
            ended_at: b.duration_seconds != null ? iso(Date.parse(created) + b.duration_seconds * 1000) : null,
            created_at: created,
          };
          c.data.calls.push(rec);
          noteInboundFixture(c, 'calls', rec);
          return rec;
        },
        presentCall,
      ),
  }),
  route({
    method: 'POST',
    path: '/_sim/texts',
    summary: 'Add a text record, or many',
    description: `${FIXTURE_NOTE} A text from or to one of the workspace's numbers belongs to that number. ${BULK_NOTE}`,
    body: oneOrMany(TextFixture),
    responses: added(TextRecordSchema),
    handler: (c) =>
      addFixtures(
        c.body,
        (b) => {
          const ws = c.auth.workspace.id;
          const other = b.direction === 'outbound' ? b.to_number : b.from_number;
          const rec: TextRecord = {
            id: c.s.rng.uuid(),
            seq: c.s.nextSeq(),
            workspace_id: ws,
            direction: b.direction,
            sender: b.sender ?? (b.direction === 'inbound' ? 'contact' : 'business'),
            from_number: b.from_number,
            to_number: b.to_number,
            body: b.body,
            status: b.direction === 'inbound' ? 'received' : 'delivered',
            contact_id: contactByPhone(c.data, ws, other)?.id ?? null,
            quick_action_id: null,
            created_at: fixtureTime(c, b.created_at, 'texts'),
            // a text from or to one of the workspace's numbers belongs to that number
            phone_number_id:
              c.data.phone_numbers.find(
                (n) =>
                  n.workspace_id === ws &&
                  n.phone_number === (b.direction === 'outbound' ? b.from_number : b.to_number),
              )?.id ?? null,
          };
          c.data.texts.push(rec);
          noteInboundFixture(c, 'texts', rec);
          return rec;
        },
        presentText,
      ),
  }),
  route({
    method: 'POST',
    path: '/_sim/emails',
    summary: 'Add an email record, or many',
    description: `${FIXTURE_NOTE} ${BULK_NOTE}`,
    body: oneOrMany(EmailFixture),
    responses: added(EmailRecordSchema),
    handler: (c) =>
      addFixtures(
        c.body,
        (b) => {
          const ws = c.auth.workspace.id;
          const other = b.direction === 'outbound' ? b.to : b.from_address;
          const rec: EmailRecord = {
            id: c.s.rng.uuid(),
            seq: c.s.nextSeq(),
            workspace_id: ws,
            direction: b.direction,
            source: 'inbox',
            status: b.direction === 'inbound' ? 'received' : 'sent',
            from: b.from_address,
            from_address: b.from_address,
            to: b.to,
            reply_to: null,
            subject: b.subject ?? '',
            body: b.body ?? '',
            contact_id: contactByEmail(c.data, ws, other)?.id ?? null,
            quick_email_id: null,
            created_at: fixtureTime(c, b.created_at, 'emails'),
          };
          c.data.emails.push(rec);
          noteInboundFixture(c, 'emails', rec);
          return rec;
        },
        presentEmail,
      ),
  }),
  route({
    method: 'GET',
    path: '/_sim/emails/{id}',
    summary: 'Show one email record',
    description:
      'An email of the workspace, sent or received, by its id: the record the history lists give. The API reads emails only ' +
      "by person (`GET /v1/emails` needs `contact_id` or `email`); this is the simulator's way to one (the inspector's email page).",
    params: obj(
      { id: str({ min: 1, max: 36, example: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b' }) },
      { required: ['id'] },
    ),
    responses: { 200: { description: 'The email', schema: dataOf(EmailRecordSchema) } },
    errors: { 404: ['not_found'] },
    handler: (c) => {
      const e = recordIndex<EmailRecord>(c.data, 'emails').byId.get(c.params.id);
      if (!e || e.workspace_id !== c.auth.workspace.id) throw notFound(`No email ${c.params.id} in this workspace.`);
      return { body: { data: presentEmail(e) } };
    },
  }),
];
