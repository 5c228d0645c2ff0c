// The history records the API returns (spec Part 2): contacts, person summaries, calls, texts and
// emails. One definition each: these schemas describe the replies in the API description, and
// their types are what the presenters in people.ts return and what the store keeps (model.ts).
import * as z from 'zod/mini';
import { arr, doc, e164, freeObject, named, nullable, oneOf, record, timestamp, uuid, type Infer } from './schema.js';

/** Call record statuses (upper-case in records; the list filter takes them lower-case). */
export const CALL_STATUSES = ['QUEUED', 'RINGING', 'IN_PROGRESS', 'COMPLETED', 'VOICEMAIL', 'NO_ANSWER', 'BUSY', 'FAILED', 'CANCELED'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const CALL_TAGS = ['booking_requested', 'callback_requested', 'complaint', 'purchase_interest', 'interested', 'qualified', 'not_interested', 'transferred'] as const;

export type CallTag = (typeof CALL_TAGS)[number];
/** The spec's filter values, plus no_answer for calls that rang out (records say NO_ANSWER). */
export const CALL_STATUS_FILTERS = ['completed', 'voicemail', 'failed', 'busy', 'canceled', 'in_progress', 'ringing', 'queued', 'no_answer'] as const;

const nullableText = () => nullable(z.string());

export const ContactSchema = named('Contact', () => record({
  id: uuid(),
  name: doc(nullableText(), { example: 'Maria Gonzalez' }),
  first_name: doc(nullableText(), { example: 'Maria' }),
  last_name: doc(nullableText(), { example: 'Gonzalez' }),
  phone_number: doc(nullableText(), { example: '+14155550100' }),
  email: doc(nullableText(), { example: 'maria@example.com' }),
  company: nullableText(),
  job_title: nullableText(),
  location: nullableText(),
  preferred_language: nullableText(),
  notes: nullableText(),
  industry: z.unknown(),
  date_of_birth: z.unknown(),
  subscription_plan: z.unknown(),
  purchase_history: z.unknown(),
  product_preferences: z.unknown(),
  tags: z.array(z.string()),
  custom_fields: freeObject(),
  consent: record({ sms_opted_in: z.boolean(), voice_opted_in: z.boolean(), email_opted_in: z.boolean(), email_subscribed: z.boolean() }),
  first_inbound_call_at: nullable(timestamp()),
  first_inbound_text_at: nullable(timestamp()),
  first_inbound_email_at: nullable(timestamp()),
  crm: doc(nullable(record({ provider: z.string(), record_id: z.string() })), 'set when the contact is synced with a CRM'),
  created_at: timestamp(),
  updated_at: timestamp(),
}), 'Contact (full record).');
export type ContactOut = Infer<typeof ContactSchema>;

export const PersonSummarySchema = named('PersonSummary', () => record({
  contact_id: doc(nullable(uuid()), 'null for someone reached who has no contact record'),
  name: doc(nullableText(), { example: 'Maria Gonzalez' }),
  phone_number: doc(nullableText(), { example: '+14155550100' }),
  email: doc(nullableText(), { example: 'maria@example.com' }),
  call_count: z.int(),
  text_count: z.int(),
  email_count: z.int(),
  first_contacted_at: nullable(timestamp()),
  last_contacted_at: nullable(timestamp()),
}), 'Person summary: a contact, or a number or address reached that belongs to no contact (folded into the contact when it does).');
export type PersonOut = Infer<typeof PersonSummarySchema>;

export const TranscriptTurnSchema = named('TranscriptTurn', () => record({
  speaker: oneOf(['agent', 'person']),
  text: doc(z.string(), { example: 'Hi, this is the assistant from Acme.' }),
  seconds_from_start: doc(nullable(z.number()), 'null when unknown'),
}));
export type TranscriptTurn = Infer<typeof TranscriptTurnSchema>;

export const CallRecordSchema = named('CallRecord', () => record({
  id: uuid(),
  direction: oneOf(['inbound', 'outbound']),
  status: doc(oneOf(CALL_STATUSES), { description: 'upper-case in records', example: 'COMPLETED' }),
  from_number: e164(),
  to_number: e164(),
  contact_id: nullable(uuid()),
  phone_number_id: doc(nullable(z.int()), 'the workspace number the call was on, if any'),
  duration_seconds: nullable(z.int()),
  summary: doc(z.string(), 'AI summary; filled shortly after the call ends'),
  transcript: doc(z.string(), { description: 'full transcript as plain text, lines labelled AI: and User:', example: 'AI: Hi!\nUser: Hello.' }),
  transcript_turns: z.array(TranscriptTurnSchema),
  tags: doc(arr(oneOf(CALL_TAGS)), 'set by an AI review after the call ends'),
  has_recording: z.boolean(),
  recording_url: doc(nullable(z.string()), { description: 'path of the recording download; null when there is no audio', example: '/v1/calls/3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90/recording' }),
  end_reason: doc(nullableText(), 'as reported by the voice stack'),
  metadata: doc(nullable(freeObject()), 'what POST /v1/voice/calls attached'),
  started_at: nullable(timestamp()),
  ended_at: nullable(timestamp()),
  created_at: timestamp(),
}), 'Call record.');
export type CallOut = Infer<typeof CallRecordSchema>;

export const TextRecordSchema = named('TextRecord', () => record({
  id: uuid(),
  direction: oneOf(['inbound', 'outbound']),
  sender: doc(oneOf(['contact', 'ai_agent', 'business']), 'contact: the person; ai_agent: auto-replies and quick AI text threads; business: the API, the inbox, single quick texts'),
  from_number: e164(),
  to_number: e164(),
  body: doc(z.string(), { example: 'Does Tuesday at 10 work for you?' }),
  status: doc(oneOf(['received', 'delivered', 'failed']), { example: 'delivered' }),
  contact_id: nullable(uuid()),
  phone_number_id: nullable(z.int()),
  quick_action_id: doc(nullable(uuid()), 'the quick AI text job the message belongs to'),
  created_at: timestamp(),
}), 'Text record.');
export type TextOut = Infer<typeof TextRecordSchema>;

export const EmailRecordSchema = named('EmailRecord', () => record({
  id: uuid(),
  direction: oneOf(['inbound', 'outbound']),
  source: doc(oneOf(['inbox', 'quick']), 'quick: sent with quick email'),
  status: oneOf(['sent', 'received']),
  from: doc(z.string(), { example: 'Acme via vmv' }),
  from_address: doc(z.string(), { example: 'quick@mail.vmv.example' }),
  to: doc(z.string(), { example: 'maria@example.com' }),
  reply_to: nullableText(),
  subject: doc(z.string(), { example: 'Your invoice' }),
  body: z.string(),
  contact_id: nullable(uuid()),
  quick_email_id: doc(nullable(uuid()), 'the quick email this copy was sent by'),
  created_at: timestamp(),
}), 'Email record (one per recipient).');
export type EmailOut = Infer<typeof EmailRecordSchema>;

// ---- what the simulator keeps beside the history: the suppression list and the audit log ----

export const SUPPRESSION_REASONS = ['unsubscribe', 'bounce', 'complaint'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const SuppressionSchema = named('Suppression', () => record({
  email: doc(z.string(), { example: 'maria@example.com' }),
  reason: oneOf(SUPPRESSION_REASONS),
  created_at: timestamp(),
}), 'An address quick email skips.');

export const AuditEntrySchema = named('AuditEntry', () => record({
  id: uuid(),
  action: doc(z.string(), { description: 'what was done', example: 'recording.download' }),
  resource_id: doc(z.string(), 'the record it was done to'),
  api_key_id: uuid('the key that did it'),
  user_id: uuid('the user who owns that key'),
  at: timestamp(),
}), 'An audit log entry.');
