// Events of spec Part 6 (call.started, call.ended, sms.received): their envelopes, and emission,
// which puts one delivery per matching webhook in the outbox. Emission happens inside a transaction
// (conversations.ts calls it); the HTTP happens after commit (delivery.ts).
import { iso } from '../core/clock.js';
import { withoutNulls } from '../core/schema.js';
import { type CallRecord, type Contact, type TextRecord, contactById } from '../history/index.js';
import type { EventType, Webhook } from './records.js';
import type { Session } from '../core/session.js';

export const CALL_EVENTS = ['call.started', 'call.ended'] as const satisfies readonly EventType[];

export interface Envelope {
  id: string;
  type: EventType;
  created_at: string;
  test: boolean;
  data: Record<string, unknown>;
}

export type EventContact = Pick<Contact, 'id' | 'name' | 'phone_number' | 'email'>;
export type EventCall = Pick<
  CallRecord,
  | 'id'
  | 'direction'
  | 'status'
  | 'from_number'
  | 'to_number'
  | 'phone_number_id'
  | 'started_at'
  | 'ended_at'
  | 'duration_seconds'
  | 'end_reason'
  | 'transcript'
  | 'transcript_turns'
  | 'created_at'
>;
export type EventText = Pick<
  TextRecord,
  'id' | 'from_number' | 'to_number' | 'phone_number_id' | 'body' | 'created_at'
>;

/** Ids are derived from the record, so a receiver can drop duplicates (docs/spec-silent.md, "Webhooks"). */
export const callEventId = (callId: string, type: 'call.started' | 'call.ended') =>
  `evt_${callId}_${type === 'call.started' ? 'started' : 'ended'}`;
export const textEventId = (messageId: string) => `evt_${messageId}_received`;

/**
 * Whether a call's transcript goes into call.ended (null when transcription is off for the number):
 * calls on a workspace number follow its call_settings; shared-number calls (quick jobs) are transcribed.
 */
export function transcriptionEnabled(s: Session, call: EventCall): boolean {
  const n = call.phone_number_id === null ? undefined : s.data.phone_numbers.find((x) => x.id === call.phone_number_id);
  return n ? n.config.call_settings.transcription_enabled : true;
}

const contactView = (c: EventContact | null | undefined) =>
  c ? { id: c.id, name: c.name, phone_number: c.phone_number, email: c.email } : null;

/**
 * phone_number_id is an integer in the spec's events, never null: a call or text on no number of the
 * account (a shared number's, a verified caller ID's) is sent without the key (docs/spec-silent.md, "Webhooks").
 */
const onNumber = <T extends { phone_number_id: number | null }>(o: T) => withoutNulls(o, ['phone_number_id']);

export function callStartedData(call: EventCall, contact: EventContact | null) {
  return {
    call: onNumber({
      id: call.id,
      direction: call.direction,
      status: call.status,
      from_number: call.from_number,
      to_number: call.to_number,
      phone_number_id: call.phone_number_id,
      started_at: null,
      ended_at: null,
      duration_seconds: null,
    }),
    contact: contactView(contact),
  };
}

export function callEndedData(call: EventCall, contact: EventContact | null, transcription: boolean) {
  return {
    call: onNumber({
      id: call.id,
      direction: call.direction,
      status: call.status,
      from_number: call.from_number,
      to_number: call.to_number,
      // filled for every call, as the spec says: one that never connected started when it was
      // placed, and lasted 0 s
      phone_number_id: call.phone_number_id,
      started_at: call.started_at ?? call.created_at,
      ended_at: call.ended_at ?? call.created_at,
      duration_seconds: call.duration_seconds ?? 0,
      end_reason: call.end_reason,
    }),
    contact: contactView(contact),
    transcript: transcription ? call.transcript : null,
    transcript_turns: transcription ? call.transcript_turns : [],
  };
}

export function smsReceivedData(text: EventText, contact: EventContact | null) {
  return onNumber({
    message_id: text.id,
    from: text.from_number,
    to: text.to_number,
    phone_number_id: text.phone_number_id,
    body: text.body,
    received_at: text.created_at,
    contact: contactView(contact),
  });
}

export function envelope(
  s: Session,
  id: string,
  type: EventType,
  data: Record<string, unknown>,
  test = false,
): Envelope {
  return { id, type, created_at: iso(s.now), test, data };
}

const contactOf = (s: Session, id: string | null) => (id ? (contactById(s.data, id) ?? null) : null);

/** call.started or call.ended for a call the simulator made or received. */
export function emitCallEvent(s: Session, call: CallRecord, type: 'call.started' | 'call.ended'): void {
  if (!hasWebhooks(s, call.workspace_id, 'call')) return;
  const contact = contactOf(s, call.contact_id);
  const data =
    type === 'call.started'
      ? callStartedData(call, contact)
      : callEndedData(call, contact, transcriptionEnabled(s, call));
  emit(s, call.workspace_id, call.phone_number_id, envelope(s, callEventId(call.id, type), type, data));
}

/** sms.received for an inbound text to a number. */
export function emitTextReceived(s: Session, text: TextRecord): void {
  if (!hasWebhooks(s, text.workspace_id, 'sms')) return;
  const data = smsReceivedData(text, contactOf(s, text.contact_id));
  emit(s, text.workspace_id, text.phone_number_id, envelope(s, textEventId(text.id), 'sms.received', data));
}

const hasWebhooks = (s: Session, workspaceId: string, kind: Webhook['kind']) =>
  s.data.webhooks.some((w) => w.workspace_id === workspaceId && w.kind === kind);

/** Queues the event for every webhook of the workspace that subscribes to it and whose number filter lets it through. */
function emit(s: Session, workspaceId: string, phoneNumberId: number | null, event: Envelope): void {
  for (const w of s.data.webhooks) {
    if (w.workspace_id !== workspaceId || !w.events.includes(event.type)) continue;
    if (w.phone_number_id !== null && w.phone_number_id !== phoneNumberId) continue;
    enqueue(s, w, event);
  }
}

/** Puts the first attempt of delivering `event` to `webhook` in the outbox, due now. */
export function enqueue(s: Session, webhook: Webhook, event: Envelope): void {
  s.data.webhook_outbox.push({
    id: `dlv_${s.nextSeq()}`,
    webhook_id: webhook.id,
    workspace_id: webhook.workspace_id,
    event_id: event.id,
    type: event.type,
    body: JSON.stringify(event),
    attempt: 1,
    first_at_ms: s.now,
    due_at_ms: s.now,
    claimed_until: null,
  });
}
