// What the webhooks verbs share: the two kinds (call webhooks, text webhooks) and how one looks.
import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { fields, type Cell } from '../../src/output.js';

export type Kind = 'call' | 'sms';
export const KINDS = {
  call: { path: '/v1/voice/calls/webhooks', noun: 'call webhook' },
  sms: { path: '/v1/sms/webhooks', noun: 'text webhook' },
} as const;

export const kindOf = (o: { sms?: boolean }): Kind => (o.sms ? 'sms' : 'call');

/** --events values: comma-separated, repeatable; blanks and repeats dropped. */
export const eventList = (v: string, prev: string[] = []) => [
  ...new Set([
    ...prev,
    ...v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
  ]),
];
export const withKind = (cmd: Command, what: string) =>
  cmd.option('--sms', `${what} a text webhook (sms.received) instead of a call webhook`);

export interface Webhook {
  id: string;
  url: string;
  events?: string[];
  phone_number_id: number | null;
  description?: string | null;
  created_at: string;
  secret?: string;
}

/** One webhook as "label  value" lines; the secret only when the reply carries it (creation). */
export function printWebhook(ctx: Context, kind: Kind, w: Webhook): void {
  const pairs: [string, Cell][] = [
    ['id', w.id],
    ['kind', KINDS[kind].noun],
    ['url', w.url],
    ['events', (w.events ?? ['sms.received']).join(', ')],
    ['phone number', w.phone_number_id],
  ];
  if (kind === 'call') pairs.push(['description', w.description]);
  pairs.push(['created', w.created_at]);
  if (w.secret) pairs.push(['secret', w.secret]);
  fields(ctx.io, pairs);
}
