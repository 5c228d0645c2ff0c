// The history records the API returns (spec Part 2): contacts, person summaries, calls, texts and
// emails. One definition each: these schemas describe the replies in the API description, and
// their types are what the presenters in people.ts return and what the store keeps (model.ts).
import * as z from 'zod/mini';
import {
  absent,
  arr,
  doc,
  e164,
  freeObject,
  int,
  named,
  nullable,
  oneOf,
  record,
  timestamp,
  uuid,
  type Infer,
} from '../core/schema.js';
import type { Stored } from '../core/world.js';

/** Call record statuses (upper-case in records; the list filter takes them lower-case). */
export const CALL_STATUSES = [
  'QUEUED',
  'RINGING',
  'IN_PROGRESS',
  'COMPLETED',
  'VOICEMAIL',
  'NO_ANSWER',
  'BUSY',
  'FAILED',
  'CANCELED',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const CALL_TAGS = [
  'booking_requested',
  'callback_requested',
  'complaint',
  'purchase_interest',
  'interested',
  'qualified',
  'not_interested',
  'transferred',
] as const;

export type CallTag = (typeof CALL_TAGS)[number];
/**
 * The spec's filter values, a closed list: a call that rang out (NO_ANSWER in records) has no filter
 * value of its own, so `?status=no_answer` is 400 like any value outside the list.
 */
export const CALL_STATUS_FILTERS = [
  'completed',
  'voicemail',
  'failed',
  'busy',
  'canceled',
  'in_progress',
  'ringing',
  'queued',
] as const;

const nullableText = () => nullable(z.string());

export const ContactSchema = named(
  'Contact',
  () =>
    record({
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
      consent: record({
        sms_opted_in: z.boolean(),
        voice_opted_in: z.boolean(),
        email_opted_in: z.boolean(),
        email_subscribed: z.boolean(),
      }),
      first_inbound_call_at: nullable(timestamp()),
      first_inbound_text_at: nullable(timestamp()),
      first_inbound_email_at: nullable(timestamp()),
      crm: doc(
        nullable(record({ provider: z.string(), record_id: z.string() })),
        'set when the contact is synced with a CRM',
      ),
      created_at: timestamp(),
      updated_at: timestamp(),
    }),
  'Contact (full record).',
);
export type ContactOut = Infer<typeof ContactSchema>;

export const PersonSummarySchema = named(
  'PersonSummary',
  () =>
    record({
      contact_id: doc(nullable(uuid()), 'null for someone reached who has no contact record'),
      name: doc(z.string(), {
        description: "the contact's name; without one (or without a contact), the phone number or email address",
        example: 'Maria Gonzalez',
      }),
      phone_number: doc(z.string(), { description: 'empty when the person has none', example: '+14155550100' }),
      email: doc(z.string(), { description: 'empty when the person has none', example: 'maria@example.com' }),
      call_count: z.int(),
      text_count: z.int(),
      email_count: z.int(),
      first_contacted_at: doc(timestamp(), 'the first call, text or email; a contact never reached: its created_at'),
      last_contacted_at: doc(timestamp(), 'the latest call, text or email; a contact never reached: its created_at'),
    }),
  {
    description:
      'Person summary: a contact, or a number or address reached that belongs to no contact (folded into the contact when it does).',
    example: {
      contact_id: '5d7e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
      name: 'Maria Gonzalez',
      phone_number: '+14155550100',
      email: 'maria@example.com',
      call_count: 2,
      text_count: 5,
      email_count: 1,
      first_contacted_at: '2026-01-02T15:04:05.000Z',
      last_contacted_at: '2026-01-05T09:01:10.000Z',
    },
  },
);
export type PersonOut = Infer<typeof PersonSummarySchema>;

export const TranscriptTurnSchema = named('TranscriptTurn', () =>
  record({
    speaker: oneOf(['agent', 'person']),
    text: doc(z.string(), { example: 'Hi, this is the assistant from Acme.' }),
    seconds_from_start: doc(nullable(z.number()), 'null when unknown'),
  }),
);
export type TranscriptTurn = Infer<typeof TranscriptTurnSchema>;

export const CallRecordSchema = named(
  'CallRecord',
  () =>
    record({
      id: uuid(),
      direction: oneOf(['inbound', 'outbound']),
      status: doc(oneOf(CALL_STATUSES), { description: 'upper-case in records', example: 'COMPLETED' }),
      from_number: e164(),
      to_number: e164(),
      contact_id: nullable(uuid()),
      phone_number_id: doc(
        absent(z.int()),
        "the workspace number the call was on; absent when it was on none (a quick job's shared number, a verified caller ID), as in the call events",
      ),
      duration_seconds: nullable(z.int()),
      summary: doc(z.string(), 'AI summary; filled shortly after the call ends'),
      transcript: doc(z.string(), {
        description: 'full transcript as plain text, lines labelled AI: and User:',
        example: 'AI: Hi!\nUser: Hello.',
      }),
      transcript_turns: z.array(TranscriptTurnSchema),
      tags: doc(arr(oneOf(CALL_TAGS)), 'set by an AI review after the call ends'),
      has_recording: z.boolean(),
      recording_url: doc(nullable(z.string()), {
        description: 'path of the recording download; null when there is no audio',
        example: '/v1/calls/3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90/recording',
      }),
      end_reason: doc(nullableText(), 'as reported by the voice stack'),
      metadata: doc(nullable(freeObject()), 'what POST /v1/voice/calls attached'),
      started_at: nullable(timestamp()),
      ended_at: nullable(timestamp()),
      created_at: timestamp(),
    }),
  {
    description: 'Call record.',
    example: {
      id: '9b2f6c1e-4d7a-4e0b-8f3c-5a1d2e6b7c80',
      direction: 'outbound',
      status: 'COMPLETED',
      from_number: '+14155550123',
      to_number: '+14155550100',
      contact_id: '5d7e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
      duration_seconds: 62,
      summary: 'The recipient agreed: confirm the appointment on Tuesday at 10:00.',
      transcript:
        'User: Hello?\nAI: Hi Maria, I am calling to confirm your appointment on Tuesday at 10:00.\nUser: Yes, that works.',
      transcript_turns: [
        { speaker: 'person', text: 'Hello?', seconds_from_start: 0 },
        {
          speaker: 'agent',
          text: 'Hi Maria, I am calling to confirm your appointment on Tuesday at 10:00.',
          seconds_from_start: 2.5,
        },
        { speaker: 'person', text: 'Yes, that works.', seconds_from_start: 9 },
      ],
      tags: ['interested'],
      has_recording: true,
      recording_url: '/v1/calls/9b2f6c1e-4d7a-4e0b-8f3c-5a1d2e6b7c80/recording',
      end_reason: 'hangup',
      metadata: null,
      started_at: '2026-01-05T09:00:08.000Z',
      ended_at: '2026-01-05T09:01:10.000Z',
      created_at: '2026-01-05T09:00:00.000Z',
    },
  },
);
export type CallOut = Infer<typeof CallRecordSchema>;

export const TextRecordSchema = named(
  'TextRecord',
  () =>
    record({
      id: uuid(),
      direction: oneOf(['inbound', 'outbound']),
      sender: doc(
        oneOf(['contact', 'ai_agent', 'business']),
        'contact: the person; ai_agent: auto-replies and quick AI text threads; business: the API, the inbox, single quick texts',
      ),
      from_number: e164(),
      to_number: e164(),
      body: doc(z.string(), { example: 'Does Tuesday at 10 work for you?' }),
      status: doc(oneOf(['received', 'delivered', 'failed']), { example: 'delivered' }),
      contact_id: nullable(uuid()),
      phone_number_id: doc(
        absent(z.int()),
        "the workspace number the text was on; absent when it was on none (a quick text's shared number), as in sms.received",
      ),
      quick_action_id: doc(nullable(uuid()), 'the quick AI text job the message belongs to'),
      created_at: timestamp(),
    }),
  {
    description: 'Text record.',
    example: {
      id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      direction: 'outbound',
      sender: 'ai_agent',
      from_number: '+14155550123',
      to_number: '+14155550100',
      body: 'Hi Maria! Does Tuesday at 10:00 still work for you? Reply STOP to opt out.',
      status: 'delivered',
      contact_id: '5d7e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
      quick_action_id: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
      created_at: '2026-01-05T09:00:00.000Z',
    },
  },
);
export type TextOut = Infer<typeof TextRecordSchema>;

export const EmailRecordSchema = named(
  'EmailRecord',
  () =>
    record({
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
    }),
  {
    description: 'Email record (one per recipient).',
    example: {
      id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
      direction: 'outbound',
      source: 'quick',
      status: 'sent',
      from: 'Acme via vmv',
      from_address: 'quick@mail.vmv.example',
      to: 'maria@example.com',
      reply_to: 'billing@example.com',
      subject: 'Your invoice',
      body: 'Hi Maria, your January invoice is ready.',
      contact_id: '5d7e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
      quick_email_id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
      created_at: '2026-01-05T09:00:00.000Z',
    },
  },
);
export type EmailOut = Infer<typeof EmailRecordSchema>;

// ---- what the simulator keeps beside the history: the suppression list and the audit log ----

export const SUPPRESSION_REASONS = ['unsubscribe', 'bounce', 'complaint'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const SuppressionSchema = named(
  'Suppression',
  () =>
    record({
      email: doc(z.string(), { example: 'maria@example.com' }),
      reason: oneOf(SUPPRESSION_REASONS),
      created_at: timestamp(),
    }),
  'An address quick email skips.',
);

export const AuditEntrySchema = named(
  'AuditEntry',
  () =>
    record({
      id: uuid(),
      action: doc(z.string(), { description: 'what was done', example: 'recording.download' }),
      resource_id: doc(z.string(), 'the record it was done to'),
      api_key_id: uuid('the key that did it'),
      user_id: uuid('the user who owns that key'),
      at: timestamp(),
    }),
  'An audit log entry.',
);

export const DeliveryAttemptSchema = named(
  'WebhookDeliveryAttempt',
  () =>
    record({
      id: doc(z.string(), {
        description: "the attempt's id (what POST /_sim/webhook-deliveries/{id}/resend takes)",
        example: 'att_42',
      }),
      webhook_id: doc(nullable(z.string()), {
        description: 'the webhook it went to (null: logged before the log kept it)',
        example: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
      }),
      event_id: doc(z.string(), { example: 'evt_3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90_ended' }),
      type: oneOf(['call.started', 'call.ended', 'sms.received'], { example: 'call.ended' }),
      url: doc(z.string(), { example: 'https://example.com/hooks' }),
      attempt: int({ min: 1, description: '1 for the first attempt, then the retries', example: 1 }),
      status_code: doc(nullable(z.int()), {
        description: "the receiver's HTTP status; null when no response came",
        example: 200,
      }),
      error: doc(nullable(z.string()), 'why the attempt failed; null on a 2xx'),
      at: timestamp(),
      request: doc(
        nullable(
          z.strictObject({
            method: z.literal('POST'),
            headers: doc(z.record(z.string(), z.string()), 'every header the simulator set, the signature included'),
            body: doc(z.string(), 'the exact bytes sent (what the signature signs)'),
          }),
        ),
        'the request as sent (null: logged before the log kept requests)',
      ),
      resend_of: doc(nullable(z.string()), {
        description: 'the attempt this one resent (POST /_sim/webhook-deliveries/{id}/resend); null otherwise',
        example: null,
      }),
    }),
  'One attempt at delivering one event to one webhook, with the request as sent and the answer.',
);

/** A call's turns as one text (AI: … / User: …), as the call record and call.ended carry it. */
export const transcriptText = (turns: TranscriptTurn[]) =>
  turns.map((t) => `${t.speaker === 'agent' ? 'AI' : 'User'}: ${t.text}`).join('\n');

// ---- as stored ----

/** A contact as stored: the API's record plus the workspace it belongs to. */
export type Contact = ContactOut & { workspace_id: string };

/** A call as stored: the API's record without what is derived when presented (recording_url). */
export type CallRecord = Omit<CallOut, 'recording_url' | 'metadata' | 'phone_number_id'> &
  Stored & {
    /** null when the call is on no number of the account (presented without the key) */
    phone_number_id: number | null;
    /** what the caller of POST /v1/voice/calls attached */
    metadata?: Record<string, unknown>;
  };

export type TextRecord = Omit<TextOut, 'phone_number_id'> &
  Stored & {
    /** null when the text is on no number of the account (presented without the key) */
    phone_number_id: number | null;
  };

export type EmailRecord = EmailOut &
  Stored & {
    /**
     * when a quick email was sent (epoch ms): its created_at may be a few ms later (newRecordTime),
     * and the rolling 24-hour limit counts from the sending, to the millisecond
     */
    sent_ms?: number;
  };

/** An address quick email skips, as stored (the API's record plus its workspace). */
export type Suppression = Infer<typeof SuppressionSchema> & { workspace_id: string };

export type AuditEntry = Infer<typeof AuditEntrySchema> & { workspace_id: string };

declare module '../core/world.js' {
  interface World {
    contacts: Contact[];
    calls: CallRecord[];
    texts: TextRecord[];
    emails: EmailRecord[];
    suppressions: Suppression[];
    audit_log: AuditEntry[];
  }
  interface Workspace {
    /** recording downloads refused by compliance settings */
    recordings_disabled: boolean;
  }
}
