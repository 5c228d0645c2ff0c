// The outbox (/_sim/outbox): every email, text and call the workspace sent, newest first, whole.
// The history lists answer "what did this person receive?" (GET /v1/emails needs a person, as the
// spec says); the outbox answers "what did my app just send?", across people and kinds, which is
// what a developer checks after running their integration against the simulator.
import * as z from 'zod/mini';
import { notFound } from '../core/errors.js';
import { route, type Ctx, type Resource } from '../core/http.js';
import { listParams, paginate } from '../core/pagination.js';
import {
  dataOf,
  doc,
  listOf,
  named,
  obj,
  oneOf,
  qTime,
  record,
  str,
  timestamp,
  uuid,
  type Infer,
} from '../core/schema.js';
import {
  CallRecordSchema,
  EmailRecordSchema,
  TextRecordSchema,
  firstAtLeast,
  presentCall,
  presentEmail,
  presentText,
  recordIndex,
  type CallRecord,
  type EmailRecord,
  type TextRecord,
} from '../history/index.js';

export const OUTBOX_KINDS = ['email', 'text', 'call'] as const;
type Kind = (typeof OUTBOX_KINDS)[number];

/** The fields every message of the outbox has, whatever its kind: what a list of them shows (`kind` tells the types apart). */
const common = <K extends Kind>(kind: K, to: string, body: string) => ({
  kind: z.literal(kind),
  id: uuid(`the ${kind} record's id, as history shows it`),
  created_at: timestamp(`when it was sent (a call: when it was placed)`),
  status: doc(z.string(), `the record's status, as history shows it`),
  from: doc(z.string(), 'who sent it: the sending address or number'),
  to: doc(z.string(), to),
  body: doc(z.string(), body),
});

const OutboxEmail = record({
  ...common('email', 'the recipient (one message per recipient)', 'the whole body'),
  subject: z.string(),
  record: EmailRecordSchema,
});
const OutboxText = record({
  ...common('text', 'the number texted', 'the whole text'),
  record: TextRecordSchema,
});
const OutboxCall = record({
  ...common(
    'call',
    'the number called',
    'the whole transcript so far (lines labelled AI: and User:), empty before it is answered',
  ),
  record: CallRecordSchema,
});

export const OutboxMessageSchema = named(
  'OutboxMessage',
  () => z.discriminatedUnion('kind', [OutboxEmail, OutboxText, OutboxCall]),
  'An email, text or call the workspace sent: what it was, to whom, when, its whole body, and its history record.',
);
type OutboxMessage = Infer<typeof OutboxMessageSchema>;

type Sent = { kind: 'email'; r: EmailRecord } | { kind: 'text'; r: TextRecord } | { kind: 'call'; r: CallRecord };

const UNITS = { email: 'emails', text: 'texts', call: 'calls' } as const;
const ms = (r: { created_at: string }) => Date.parse(r.created_at);

function present(m: Sent): OutboxMessage {
  const base = { id: m.r.id, created_at: m.r.created_at, status: m.r.status };
  switch (m.kind) {
    case 'email':
      return {
        kind: 'email',
        ...base,
        from: m.r.from_address,
        to: m.r.to,
        subject: m.r.subject,
        body: m.r.body,
        record: presentEmail(m.r),
      };
    case 'text':
      return {
        kind: 'text',
        ...base,
        from: m.r.from_number,
        to: m.r.to_number,
        body: m.r.body,
        record: presentText(m.r),
      };
    case 'call':
      return {
        kind: 'call',
        ...base,
        from: m.r.from_number,
        to: m.r.to_number,
        body: m.r.transcript,
        record: presentCall(m.r),
      };
  }
}

/**
 * What the workspace sent of the kinds asked, created inside the time range (both ends exclusive,
 * as the history lists' filters), looked up in each collection's index by workspace and time.
 */
function sent(c: Ctx<any, any, any>, kinds: readonly Kind[], after?: number, before?: number): Sent[] {
  const ws = c.auth.workspace.id;
  const out: Sent[] = [];
  for (const kind of kinds) {
    const rows = recordIndex<EmailRecord | TextRecord | CallRecord>(c.data, UNITS[kind]).byWorkspace.get(ws) ?? [];
    const from = after === undefined ? 0 : firstAtLeast(rows, after + 1, ms);
    const to = before === undefined ? rows.length : firstAtLeast(rows, before, ms);
    for (let i = from; i < to; i++) if (rows[i].direction === 'outbound') out.push({ kind, r: rows[i] } as Sent);
  }
  return out;
}

const OutboxQuery = obj({
  ...listParams(100, 20),
  kind: oneOf(OUTBOX_KINDS, 'only messages of this kind'),
  created_after: qTime('only messages sent after this time (exclusive)'),
  created_before: qTime('only messages sent before this time (exclusive)'),
  sent_by: uuid(
    "only the messages of one send: a quick email's id (one message per recipient) or a quick text job's id",
  ),
});

/** Whether a message belongs to the send `id` (a quick email, a quick text job). */
const sentBy = (m: Sent, id: string) =>
  (m.kind === 'email' && m.r.quick_email_id === id) || (m.kind === 'text' && m.r.quick_action_id === id);

const Id = obj({ id: str({ min: 1, max: 36, example: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b' }) }, { required: ['id'] });

export const controlOutbox: Resource = {
  tag: {
    name: 'Outbox',
    description: 'What the workspace sent: every email, text and call, newest first, whole.',
  },
  routes: [
    route({
      method: 'GET',
      path: '/_sim/outbox',
      summary: 'List what the workspace sent',
      description:
        'Every email (one per recipient), text and call the workspace sent, whoever sent it (quick actions, the API, AI agents, history fixtures), ' +
        'newest first, each with its whole body and its history record. Filter by `kind`, by time and by the send (`sent_by`: the id ' +
        '`POST /v1/quick/emails` returns); paginated like every list.',
      query: OutboxQuery,
      responses: { 200: { description: 'Messages sent', schema: listOf(OutboxMessageSchema) } },
      handler: (c) => {
        const q = c.query;
        const { limit: _l, cursor: _c, order: _o, ...filters } = q;
        const all = sent(c, q.kind ? [q.kind] : OUTBOX_KINDS, q.created_after, q.created_before);
        const items = q.sent_by === undefined ? all : all.filter((m) => sentBy(m, q.sent_by!));
        return {
          body: paginate(c.s, items, q, {
            key: (m) => ms(m.r),
            tie: (m) => m.r.seq,
            scope: `outbox:${c.auth.workspace.id}:${JSON.stringify(Object.entries(filters).sort())}`,
            present,
            totalResults: true,
          }),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/_sim/outbox/{id}',
      summary: 'Show one message the workspace sent',
      description: 'An email, text or call of the outbox by its record id, whole.',
      params: Id,
      responses: { 200: { description: 'The message', schema: dataOf(OutboxMessageSchema) } },
      errors: { 404: ['not_found'] },
      handler: (c) => {
        const ws = c.auth.workspace.id;
        for (const kind of OUTBOX_KINDS) {
          const r = recordIndex<EmailRecord | TextRecord | CallRecord>(c.data, UNITS[kind]).byId.get(c.params.id);
          if (r && r.workspace_id === ws && r.direction === 'outbound')
            return { body: { data: present({ kind, r } as Sent) } };
        }
        throw notFound(`Nothing the workspace sent has the id ${c.params.id}.`);
      },
    }),
  ],
};
