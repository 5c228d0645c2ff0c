// Webhooks (spec Part 4 and Part 6): call webhooks under /v1/voice/calls/webhooks and text webhooks
// under /v1/sms/webhooks (register, list, delete, test send), declared here with the control plane's
// delivery log (its routes in delivery-log.ts) and the hosts table deliveries resolve names with
// (hosts.ts). Deliveries themselves: webhooks/events.ts, delivery.ts, and targets.ts (where they may go).
import { randomBytes } from 'node:crypto';
import { iso } from '../core/clock.js';
import { ApiError, notFound, validationError } from '../core/errors.js';
import { route, type Ctx, type Resource, type Route } from '../core/http.js';
import { EVENT_TYPES, type EventType, type Webhook } from './records.js';
import { listParams, paginate } from '../core/pagination.js';
import { transcriptText } from '../history/index.js';
import { isLoopbackHost } from '../../src/webhooks.js';
import * as z from 'zod/mini';
import {
  arr,
  absent,
  dataOf,
  doc,
  int,
  listOf,
  named,
  obj,
  oneOf,
  record,
  str,
  timestamp,
  uuid,
  withoutNulls,
  type Infer,
} from '../core/schema.js';
import { literalAddress, refusedAs } from './targets.js';
import { logRoutes } from './delivery-log.js';
import { hostRoutes } from './hosts.js';
import {
  CALL_EVENTS,
  callEndedData,
  callEventId,
  callStartedData,
  enqueue,
  envelope,
  smsReceivedData,
  textEventId,
  type Envelope,
  type EventCall,
  type EventContact,
} from './events.js';

/** Per workspace and kind (the spec names 25 for call webhooks; the simulator caps text webhooks alike). */
export const MAX_WEBHOOKS = 25;

/** Secrets are credentials, not simulation: they come from the OS's secure random source. */
const newSecret = () => `whsec_${randomBytes(24).toString('hex')}`;

/**
 * Why a webhook URL is refused, or undefined: http(s) only, never to an address that is not public
 * (targets.ts), and plain http only to this machine (local receivers). A host name is judged at
 * delivery, by what it resolves to then.
 */
function urlProblem(s: string): string | undefined {
  if (s.trim() !== s) return 'must not have spaces around it';
  if (/[\u0000-\u001f\u007f]/.test(s)) return 'must not contain control characters (tabs, line breaks)';
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return 'must be an absolute http(s) URL such as https://example.com/hooks';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return 'must be an https URL (http is accepted only on loopback hosts)';
  if (u.username || u.password) return 'must not carry a user name or password';
  // the URL parser has already turned odd spellings (decimal, hex, octal IPv4) into the address they mean
  const literal = literalAddress(u.hostname);
  const refused = literal === undefined ? undefined : refusedAs(literal);
  if (refused)
    return `must not point at ${literal}, ${refused}: webhook targets must be public (loopback is allowed for local receivers)`;
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname))
    return 'must use https; plain http is accepted only for 127.0.0.0/8, localhost and [::1]';
  return undefined;
}

/** An http(s) URL; plain http only to this machine, as the real service wants public HTTPS. */
const webhookUrl = () =>
  doc(
    z.string().check(
      z.minLength(1),
      z.maxLength(2048),
      z.superRefine((s: string, ctx) => {
        const why = urlProblem(s);
        if (why) ctx.issues.push({ code: 'custom', message: why, input: s });
      }),
      z.meta({ format: 'uri' }),
    ),
    {
      description:
        'where deliveries are POSTed: a public https URL (plain http only to 127.0.0.0/8, localhost and [::1]), at most 2048 characters. ' +
        'An address that is not public (private, shared, link-local, multicast, unspecified, reserved; IPv4 and IPv6) is refused; a host name is judged by what it resolves to at each delivery.',
      example: 'https://example.com/hooks',
    },
  );

const phoneNumberId = (what: string) =>
  int({ min: 1, description: `only events of this workspace number; omit for ${what}`, example: 1001 });

const CallBody = obj(
  {
    url: webhookUrl(),
    events: arr(oneOf(CALL_EVENTS), {
      min: 1,
      max: 10,
      description: 'the events to deliver (default both)',
      example: ['call.started', 'call.ended'],
    }),
    phone_number_id: phoneNumberId('calls on every number'),
    description: str({ max: 500, description: 'a note for people', example: 'CRM sync' }),
  },
  { required: ['url'] },
);
const TextBody = obj(
  { url: webhookUrl(), phone_number_id: phoneNumberId('texts to every number') },
  { required: ['url'] },
);

const Id = obj({ id: uuid() }, { required: ['id'] });

const common = {
  id: uuid(),
  url: doc(z.string(), { example: 'https://example.com/hooks' }),
  phone_number_id: doc(absent(z.int()), {
    description: 'the workspace number it is limited to; absent for every number (an integer in the spec: never null)',
    example: 1001,
  }),
};
const callShape = {
  ...common,
  events: arr(oneOf(CALL_EVENTS), { example: ['call.started', 'call.ended'] }),
  description: doc(absent(z.string()), 'absent when none was given'),
  created_at: timestamp(),
};
const textShape = { ...common, created_at: timestamp() };
const secret = doc(z.string(), {
  description:
    'signs every delivery (hex HMAC-SHA256 of the raw body in the `X-Service-Signature-256` header); shown only in this reply: a lost secret cannot be recovered',
  example: 'whsec_3b1f0c9e2d4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a',
});

export const CallWebhook = named(
  'CallWebhook',
  () => record(callShape),
  'Call webhook (the secret is shown only at creation).',
);
export const TextWebhook = named(
  'TextWebhook',
  () => record(textShape),
  'Text webhook (the secret is shown only at creation).',
);
const CallWebhookCreated = named(
  'CallWebhookCreated',
  () => record({ ...callShape, secret }),
  'A call webhook just registered, with its secret (shown this once).',
);
const TextWebhookCreated = named(
  'TextWebhookCreated',
  () => record({ ...textShape, secret }),
  'A text webhook just registered, with its secret (shown this once).',
);
const Deleted = record({ id: uuid(), deleted: z.literal(true) });
const TestSend = record({
  event_id: doc(z.string(), {
    description: 'the id of the sample event (its deliveries are in the log under it)',
    example: 'evt_3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90_ended',
  }),
  type: oneOf(EVENT_TYPES, { example: 'call.ended' }),
  test: z.literal(true),
  url: doc(z.string(), { example: 'https://example.com/hooks' }),
});

// ---- handlers ----

/** What the helpers below read of a request: never its params, query or body. */
type Req = Ctx<unknown, unknown, unknown>;

const KINDS = {
  call: { path: '/v1/voice/calls/webhooks', noun: 'call webhook', Out: CallWebhook },
  sms: { path: '/v1/sms/webhooks', noun: 'text webhook', Out: TextWebhook },
} as const;

const callView = (w: Webhook): Infer<typeof CallWebhook> =>
  withoutNulls(
    {
      id: w.id,
      url: w.url,
      events: CALL_EVENTS.filter((e) => w.events.includes(e)),
      phone_number_id: w.phone_number_id,
      description: w.description,
      created_at: w.created_at,
    },
    ['phone_number_id', 'description'],
  );
const textView = (w: Webhook): Infer<typeof TextWebhook> =>
  withoutNulls({ id: w.id, url: w.url, phone_number_id: w.phone_number_id, created_at: w.created_at }, [
    'phone_number_id',
  ]);
const view = (w: Webhook) => (w.kind === 'call' ? callView(w) : textView(w));

const mine = (c: Req, kind: Webhook['kind']) =>
  c.data.webhooks.filter((w) => w.workspace_id === c.auth.workspace.id && w.kind === kind);

function create(c: Req, kind: Webhook['kind'], b: Infer<typeof CallBody>): Webhook {
  const phoneNumberId = b.phone_number_id ?? null;
  if (
    phoneNumberId !== null &&
    !c.data.phone_numbers.some((n) => n.id === phoneNumberId && n.workspace_id === c.auth.workspace.id)
  )
    throw validationError({ phone_number_id: 'is not a phone number of this workspace' });
  if (mine(c, kind).length >= MAX_WEBHOOKS)
    throw new ApiError(
      409,
      'webhook_limit_exceeded',
      `A workspace has at most ${MAX_WEBHOOKS} ${KINDS[kind].noun}s; delete one first.`,
    );
  const events: EventType[] =
    kind === 'sms' ? ['sms.received'] : CALL_EVENTS.filter((e) => (b.events ?? CALL_EVENTS).includes(e));
  const w: Webhook = {
    id: c.s.rng.uuid(),
    seq: c.s.nextSeq(),
    workspace_id: c.auth.workspace.id,
    kind,
    url: b.url,
    events,
    phone_number_id: phoneNumberId,
    description: b.description ?? null,
    secret: newSecret(),
    created_at: iso(c.s.now),
  };
  c.data.webhooks.push(w);
  return w;
}

function find(c: Req, kind: Webhook['kind'], id: string): Webhook {
  const w = mine(c, kind).find((x) => x.id === id);
  if (!w) throw notFound(`No ${KINDS[kind].noun} ${id} in this workspace.`);
  return w;
}

function remove(c: Req, kind: Webhook['kind'], id: string): Infer<typeof Deleted> {
  const w = find(c, kind, id);
  // pending attempts and retries go with it (delivery.ts drops what belongs to no webhook)
  c.data.webhooks = c.data.webhooks.filter((x) => x !== w);
  c.s.markDirty();
  return { id: w.id, deleted: true };
}

/** A signed sample with test true: call.ended (or call.started when that is all the webhook takes), or sms.received. */
function test(c: Req, kind: Webhook['kind'], id: string): Infer<typeof TestSend> {
  const w = find(c, kind, id);
  const sample = sampleCall(c, w, sampleNumber(c, w));
  const contact = {
    id: c.s.rng.uuid(),
    name: 'Sample Contact',
    phone_number: sample.to_number,
    email: 'sample.contact@example.com',
  };
  const event = sampleEvent(c, kind, w, sample, contact);
  enqueue(c.s, w, event);
  return { event_id: event.id, type: event.type, test: true, url: w.url };
}

/** The test's sample event: sms.received for a text webhook; call.ended, or call.started if that is all it takes. */
function sampleEvent(c: Req, kind: Webhook['kind'], w: Webhook, sample: EventCall, contact: EventContact): Envelope {
  if (kind === 'sms')
    return envelope(
      c.s,
      textEventId(sample.id),
      'sms.received',
      smsReceivedData(
        {
          id: sample.id,
          from_number: sample.to_number,
          to_number: sample.from_number,
          phone_number_id: sample.phone_number_id,
          body: 'This is a sample text sent by a webhook test.',
          created_at: iso(c.s.now),
        },
        contact,
      ),
      true,
    );
  if (w.events.includes('call.ended'))
    return envelope(
      c.s,
      callEventId(sample.id, 'call.ended'),
      'call.ended',
      callEndedData(sample, contact, true),
      true,
    );
  return envelope(
    c.s,
    callEventId(sample.id, 'call.started'),
    'call.started',
    callStartedData({ ...sample, status: 'RINGING' }, contact),
    true,
  );
}

/**
 * The number a test sample is on: the webhook's, else the workspace's first (phone_number_id is an
 * integer of the workspace in the spec's events); none when the workspace has no number, and the
 * sample then says phone_number_id 0 (SAMPLE_NO_NUMBER), so it keeps the spec's shape.
 */
/** A test sample's phone_number_id in a workspace with no number: an integer no number has (ids start at 1). */
const SAMPLE_NO_NUMBER = 0;

function sampleNumber(c: Req, w: Webhook) {
  const own = c.data.phone_numbers.filter((n) => n.workspace_id === c.auth.workspace.id);
  return own.find((n) => n.id === w.phone_number_id) ?? own.sort((a, b) => a.id - b.id)[0];
}

function sampleCall(c: Req, w: Webhook, number: { id: number; phone_number: string | null } | undefined): EventCall {
  const turns = [
    { speaker: 'agent' as const, text: 'Hi, this is a sample call from your AI assistant.', seconds_from_start: 0 },
    { speaker: 'person' as const, text: 'Thanks, this is only a test.', seconds_from_start: 3.5 },
  ];
  return {
    id: c.s.rng.uuid(),
    direction: 'outbound',
    status: 'COMPLETED',
    from_number: number?.phone_number ?? '+14155550123',
    to_number: '+12025550123',
    phone_number_id: number?.id ?? SAMPLE_NO_NUMBER,
    started_at: iso(c.s.now - 12_000),
    ended_at: iso(c.s.now),
    duration_seconds: 12,
    end_reason: 'hangup',
    created_at: iso(c.s.now - 18_000),
    transcript: transcriptText(turns),
    transcript_turns: turns,
  };
}

// ---- routes ----

const SIGNING =
  "Deliveries are signed with the webhook's secret (`X-Service-Signature-256`: hex HMAC-SHA256 of the raw body); a failed delivery is retried 1, 5 and 30 minutes after the first attempt.";

/** List, delete and test: the same for both kinds. */
function commonRoutes(kind: Webhook['kind']): Route[] {
  const { path, noun, Out } = KINDS[kind];
  return [
    route({
      method: 'GET',
      path,
      scope: 'full',
      summary: `List ${noun}s`,
      description: `The workspace's ${noun}s, newest first (without their secrets).`,
      query: obj(listParams()),
      responses: { 200: { description: `${noun[0].toUpperCase()}${noun.slice(1)}s`, schema: listOf(Out) } },
      handler: (c) => ({
        body: paginate(c.s, mine(c, kind), c.query, {
          key: (w) => Date.parse(w.created_at),
          tie: (w) => w.seq,
          scope: `${c.auth.workspace.id}|webhooks|${kind}`,
          present: view,
        }),
      }),
    }),
    route({
      method: 'DELETE',
      path: `${path}/{id}`,
      scope: 'full',
      summary: `Delete a ${noun}`,
      description: 'Removes the webhook; deliveries not yet made to it, retries included, are dropped.',
      params: Id,
      responses: { 200: { description: 'Deleted', schema: dataOf(Deleted) } },
      handler: (c) => ({ body: { data: remove(c, kind, c.params.id) } }),
    }),
    route({
      method: 'POST',
      path: `${path}/{id}/test`,
      scope: 'full',
      summary: `Send a test event to a ${noun}`,
      description:
        (kind === 'call'
          ? 'Sends a signed sample call.ended (call.started when that is the only event the webhook takes) with `test` true.'
          : 'Sends a signed sample sms.received with `test` true.') +
        ' The reply comes once the first delivery attempt has been made; its outcome is in the delivery log.',
      params: Id,
      responses: { 200: { description: 'The sample event was sent', schema: dataOf(TestSend) } },
      // a test send answers once its first attempt has been made
      flush: true,
      handler: (c) => ({ body: { data: test(c, kind, c.params.id) } }),
    }),
  ];
}

const routes: Route[] = [
  route({
    method: 'POST',
    path: KINDS.call.path,
    scope: 'full',
    summary: 'Register a call webhook',
    description:
      `Delivers call.started and call.ended (or the one named in \`events\`) for the workspace's calls, or for one number's. ${SIGNING} ` +
      `The reply includes the \`secret\` once: a lost secret cannot be recovered (delete and recreate). At most ${MAX_WEBHOOKS} per workspace.`,
    body: CallBody,
    responses: { 201: { description: 'Registered', schema: dataOf(CallWebhookCreated) } },
    errors: { 409: ['webhook_limit_exceeded'] },
    handler: (c) => {
      const w = create(c, 'call', c.body);
      // the one time the secret is shown
      return { status: 201, body: { data: { ...callView(w), secret: w.secret } } };
    },
  }),
  ...commonRoutes('call'),
  route({
    method: 'POST',
    path: KINDS.sms.path,
    scope: 'full',
    summary: 'Register a text webhook',
    description:
      `Delivers sms.received for texts to the workspace's numbers, or to one number. ${SIGNING} ` +
      `The reply includes the \`secret\` once: a lost secret cannot be recovered (delete and recreate). At most ${MAX_WEBHOOKS} per workspace.`,
    body: TextBody,
    responses: { 201: { description: 'Registered', schema: dataOf(TextWebhookCreated) } },
    errors: { 409: ['webhook_limit_exceeded'] },
    handler: (c) => {
      const w = create(c, 'sms', c.body);
      return { status: 201, body: { data: { ...textView(w), secret: w.secret } } };
    },
  }),
  ...commonRoutes('sms'),
  ...logRoutes,
];

export const webhooks: Resource = {
  tag: {
    name: 'Webhooks',
    description:
      'Call webhooks (call.started, call.ended) and text webhooks (sms.received): register, list, delete, send a test event; the delivery log and the hosts table.',
  },
  routes: [...routes, ...hostRoutes],
};
