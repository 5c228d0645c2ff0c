// What webhooks keep: the registered webhooks, the attempts waiting to be made, the delivery log, and
// the simulator's hosts table.

/** The events the service sends (spec Part 6), in the order it names them. */
export const EVENT_TYPES = ['call.started', 'call.ended', 'sms.received'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A registered webhook: `call` (call.started, call.ended) or `sms` (sms.received). */
export interface Webhook {
  id: string;
  seq: number;
  workspace_id: string;
  kind: 'call' | 'sms';
  url: string;
  events: EventType[];
  phone_number_id: number | null;
  description: string | null;
  /** kept to sign deliveries; shown only in the creation reply */
  secret: string;
  created_at: string;
}

/** A line of the simulator's hosts table (/_sim/hosts): what a host name resolves to for webhook deliveries. */
export interface HostEntry {
  /** lower case, IDN as punycode, no final dot */
  name: string;
  addresses: string[];
}

/** One attempt at delivering one event to one webhook, waiting to be made (webhooks/delivery.ts). */
export interface OutboxEntry {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event_id: string;
  type: EventType;
  /** the exact bytes every attempt sends */
  body: string;
  /** 1 to 4 */
  attempt: number;
  /** simulator time of the first attempt: retries fall due at fixed offsets from it */
  first_at_ms: number;
  /** simulator time this attempt is made at */
  due_at_ms: number;
  /** wall-clock lease of the process making the attempt (null: not taken) */
  claimed_until: number | null;
  /** the taker's token: only the holder of the current lease records the result */
  claim?: string | null;
  /** a resend (POST /_sim/webhook-deliveries/{id}/resend): the attempt it repeats; a failed resend is not retried */
  resend_of?: string;
}

/**
 * A line of the delivery log, as stored: one attempt made. Lines written before the log kept the
 * request (id, webhook_id, request, duration_ms, resend_of) lack them; the route fills them in.
 */
export interface DeliveryAttempt {
  seq: number;
  workspace_id: string;
  id?: string;
  webhook_id?: string;
  event_id: string;
  type: EventType;
  url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  at: string;
  request?: { method: 'POST'; headers: Record<string, string>; body: string };
  resend_of?: string | null;
}

declare module '../core/world.js' {
  interface World {
    webhooks: Webhook[];
    webhook_outbox: OutboxEntry[];
    webhook_deliveries: DeliveryAttempt[];
    hosts: HostEntry[];
  }
}
