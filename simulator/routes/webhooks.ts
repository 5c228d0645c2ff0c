// Webhooks (spec Part 4 and Part 6): call webhooks under /v1/voice/calls/webhooks and text webhooks
// under /v1/sms/webhooks (register, list, delete, test send), and the delivery log on the control
// plane, GET /_sim/webhook-deliveries. Deliveries themselves: webhooks/events.ts and delivery.ts.
import { randomBytes } from 'node:crypto';
import { iso } from '../clock.js';
import { transcriptText } from '../conversations.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { Ctx, Resource, Route } from '../http.js';
import type { EventType, Webhook } from '../model.js';
import { listParams, paginate } from '../pagination.js';
import { isLoopbackHost } from '../../src/webhooks.js';
import { arr, int, obj, oneOf, parse, parseQuery, qString, str, type Schema } from '../validate.js';
import { deliverOutbox, deliveryTimers } from '../webhooks/delivery.js';
import {
  CALL_EVENTS, callEndedData, callEventId, callStartedData, enqueue, envelope, smsReceivedData, textEventId, type EventCall,
} from '../webhooks/events.js';

/** Per workspace and kind (the spec names 25 for call webhooks; the simulator caps text webhooks alike). */
export const MAX_WEBHOOKS = 25;

/** Secrets are credentials, not simulation: they come from the OS's secure random source. */
const newSecret = () => `whsec_${randomBytes(24).toString('hex')}`;

/** An http(s) URL; plain http only to this machine (local receivers), as the real service wants public HTTPS. */
const webhookUrl = (): Schema<string> => ({
  check(v, path, errs) {
    const s = str({ min: 1, max: 2048 }).check(v, path, errs);
    if (s === undefined) return undefined;
    if (s.trim() !== s) return void (errs[path] = 'must not have spaces around it');
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      return void (errs[path] = 'must be an absolute http(s) URL such as https://example.com/hooks');
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return void (errs[path] = 'must be an https URL (http is accepted only on loopback hosts)');
    if (u.username || u.password) return void (errs[path] = 'must not carry a user name or password');
    if (u.protocol === 'http:' && !isLoopbackHost(u.hostname))
      return void (errs[path] = 'must use https; plain http is accepted only for 127.0.0.0/8, localhost and [::1]');
    return s;
  },
});

const callBody = obj({
  url: webhookUrl(),
  events: arr(oneOf(CALL_EVENTS), { min: 1, max: 10 }),
  phone_number_id: int({ min: 1 }),
  description: str({ max: 500 }),
}, { required: ['url'] });
const smsBody = obj({ url: webhookUrl(), phone_number_id: int({ min: 1 }) }, { required: ['url'] });

const KINDS = {
  call: { path: '/v1/voice/calls/webhooks', noun: 'call webhook' },
  sms: { path: '/v1/sms/webhooks', noun: 'text webhook' },
} as const;

function view(w: Webhook) {
  return w.kind === 'call'
    ? { id: w.id, url: w.url, events: w.events, phone_number_id: w.phone_number_id, description: w.description, created_at: w.created_at }
    : { id: w.id, url: w.url, phone_number_id: w.phone_number_id, created_at: w.created_at };
}

const mine = (c: Ctx, kind: Webhook['kind']) => c.data.webhooks.filter((w) => w.workspace_id === c.auth.workspace.id && w.kind === kind);

function create(kind: Webhook['kind']) {
  return (c: Ctx) => {
    const b = kind === 'call' ? parse(callBody, c.body) : { ...parse(smsBody, c.body), events: undefined, description: undefined };
    const phoneNumberId = b.phone_number_id ?? null;
    if (phoneNumberId !== null && !c.data.phone_numbers.some((n) => n.id === phoneNumberId && n.workspace_id === c.auth.workspace.id))
      throw validationError({ phone_number_id: 'is not a phone number of this workspace' });
    if (mine(c, kind).length >= MAX_WEBHOOKS)
      throw new ApiError(409, 'webhook_limit_exceeded', `A workspace has at most ${MAX_WEBHOOKS} ${KINDS[kind].noun}s; delete one first.`);
    const events: EventType[] = kind === 'sms' ? ['sms.received'] : CALL_EVENTS.filter((e) => (b.events ?? CALL_EVENTS).includes(e));
    const w: Webhook = {
      id: c.s.rng.uuid(), seq: c.s.nextSeq(), workspace_id: c.auth.workspace.id, kind, url: b.url, events,
      phone_number_id: phoneNumberId, description: b.description ?? null, secret: newSecret(), created_at: iso(c.s.now),
    };
    c.data.webhooks.push(w);
    // the one time the secret is shown
    return { status: 201, body: { data: { ...view(w), secret: w.secret } } };
  };
}

function find(c: Ctx, kind: Webhook['kind']): Webhook {
  const w = mine(c, kind).find((x) => x.id === c.params.id);
  if (!w) throw notFound(`No ${KINDS[kind].noun} ${c.params.id} in this workspace.`);
  return w;
}

function list(kind: Webhook['kind']) {
  return (c: Ctx) => {
    const q = parseQuery(c.query, listParams());
    return {
      body: paginate(c.s, mine(c, kind), q, {
        key: (w) => Date.parse(w.created_at), tie: (w) => w.seq, scope: `${c.auth.workspace.id}|webhooks|${kind}`, present: view,
      }),
    };
  };
}

function remove(kind: Webhook['kind']) {
  return (c: Ctx) => {
    parse(obj({}), c.body);
    const w = find(c, kind);
    // pending attempts and retries go with it (delivery.ts drops what belongs to no webhook)
    c.data.webhooks = c.data.webhooks.filter((x) => x !== w);
    c.s.markDirty();
    return { body: { data: { id: w.id, deleted: true } } };
  };
}

/** A signed sample with test true: call.ended (or call.started when that is all the webhook takes), or sms.received. */
function test(kind: Webhook['kind']) {
  return (c: Ctx) => {
    parse(obj({}), c.body);
    const w = find(c, kind);
    const sample = sampleCall(c, w);
    const contact = { id: c.s.rng.uuid(), name: 'Sample Contact', phone_number: sample.to_number, email: 'sample.contact@example.com' };
    const event = kind === 'sms'
      ? envelope(c.s, textEventId(sample.id), 'sms.received', smsReceivedData({
        id: sample.id, from_number: sample.to_number, to_number: sample.from_number, phone_number_id: w.phone_number_id,
        body: 'This is a sample text sent by a webhook test.', created_at: iso(c.s.now),
      }, contact), true)
      : w.events.includes('call.ended')
        ? envelope(c.s, callEventId(sample.id, 'call.ended'), 'call.ended', callEndedData(sample, contact, true), true)
        : envelope(c.s, callEventId(sample.id, 'call.started'), 'call.started', callStartedData({ ...sample, status: 'RINGING' }, contact), true);
    enqueue(c.s, w, event);
    return { body: { data: { event_id: event.id, type: event.type, test: true, url: w.url } } };
  };
}

function sampleCall(c: Ctx, w: Webhook): EventCall {
  const number = c.data.phone_numbers.find((n) => n.id === w.phone_number_id);
  const turns = [
    { speaker: 'agent' as const, text: 'Hi, this is a sample call from your AI assistant.', seconds_from_start: 0 },
    { speaker: 'person' as const, text: 'Thanks, this is only a test.', seconds_from_start: 3.5 },
  ];
  return {
    id: c.s.rng.uuid(), direction: 'outbound', status: 'COMPLETED', from_number: number?.phone_number ?? '+14155550123', to_number: '+12025550123',
    phone_number_id: w.phone_number_id, started_at: iso(c.s.now - 12_000), ended_at: iso(c.s.now), duration_seconds: 12, end_reason: 'hangup',
    transcript: transcriptText(turns), transcript_turns: turns,
  };
}

function deliveryLog(c: Ctx) {
  const q = parseQuery(c.query, { event_id: qString });
  const rows = c.data.webhook_deliveries
    .filter((d) => d.workspace_id === c.auth.workspace.id && (q.event_id === undefined || d.event_id === q.event_id))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq);
  return { body: { data: rows.map((d) => ({ event_id: d.event_id, type: d.type, url: d.url, attempt: d.attempt, status_code: d.status_code, error: d.error, at: d.at })) } };
}

const routes: Route[] = (['call', 'sms'] as const).flatMap((kind): Route[] => [
  { method: 'POST', path: KINDS[kind].path, scope: 'full', handler: create(kind) },
  { method: 'GET', path: KINDS[kind].path, scope: 'full', handler: list(kind) },
  { method: 'DELETE', path: `${KINDS[kind].path}/{id}`, scope: 'full', handler: remove(kind) },
  // a test send answers once its first attempt has been made
  { method: 'POST', path: `${KINDS[kind].path}/{id}/test`, scope: 'full', handler: test(kind), flush: true },
]);
routes.push({ method: 'GET', path: '/_sim/webhook-deliveries', handler: deliveryLog });

export const webhooks: Resource = { routes, timers: deliveryTimers, afterCommit: deliverOutbox };
