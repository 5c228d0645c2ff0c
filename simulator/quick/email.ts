// POST /v1/quick/emails: one plain-text email to up to 20 recipients from a shared sender.
import { ApiError } from '../core/errors.js';
import type { Ctx, Resource } from '../core/http.js';
import {
  type Contact,
  type EmailRecord,
  contactByEmail,
  sameEmail,
  firstAtLeast,
  newRecordTime,
  recordIndex,
} from '../history/index.js';
import { canCover, charge, price, usd } from '../billing/index.js';
import { bestMatches } from '../core/fuzzy.js';
import * as z from 'zod/mini';
import {
  arr,
  dataOf,
  doc,
  EMAIL,
  EMAIL_ANY_CASE,
  email,
  named,
  nullable,
  num,
  obj,
  record,
  str,
  uuid,
  type Infer,
} from '../core/schema.js';
import { newFields } from '../core/check.js';

export const SERVICE_NAME = 'vmv';
export const PER_RECIPIENT_CENTS = 1;
export const DAILY_RECIPIENTS = 200;
const DAY_MS = 24 * 3600_000;

const Body = obj(
  {
    to: arr(
      str({
        min: 1,
        max: 254,
        description:
          'an email address, or the name of a workspace contact (matched case-insensitively, small typos tolerated)',
        example: 'maria@example.com',
      }),
      { min: 1, max: 20, example: ['maria@example.com', 'Ada Lovelace'] },
    ),
    subject: str({ min: 1, max: 200, example: 'Your invoice' }),
    body: str({
      min: 1,
      max: 20000,
      description: 'plain text',
      example: 'Hi! Your invoice for January is attached to your account.',
    }),
    reply_to: email({
      pattern: EMAIL,
      description: 'where replies go; default the email of the user who owns the API key',
      example: 'billing@example.com',
    }),
    from_name: str({
      min: 1,
      max: 60,
      description: 'shown as "<from_name> via vmv"; default the workspace name',
      example: 'Acme Billing',
    }),
  },
  { required: ['to', 'subject', 'body'] },
);

const Recipient = record({
  input: doc(z.string(), 'what was sent in `to`'),
  email: doc(z.string(), 'the address used'),
  contact_id: nullable(uuid()),
  contact_name: nullable(z.string()),
});
type Recipient = Infer<typeof Recipient>;

export const QuickEmailResult = named(
  'QuickEmailResult',
  () =>
    record({
      id: uuid(),
      kind: z.literal('email'),
      status: z.literal('sent'),
      from: doc(z.string(), { description: 'the display sender', example: 'Acme via vmv' }),
      reply_to: nullable(z.string()),
      sent_to: doc(z.array(z.string()), 'addresses actually sent to'),
      suppressed: doc(z.array(z.string()), 'recipients skipped because they are on the suppression list'),
      recipients: z.array(Recipient),
      cost_usd: num({ example: 0.02 }),
      pricing: record({ per_recipient_usd: num({ example: 0.01 }), note: z.string() }),
    }),
  {
    description: 'Quick email result (spec Part 2).',
    example: {
      id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
      kind: 'email',
      status: 'sent',
      from: 'Acme Billing via vmv',
      reply_to: 'billing@example.com',
      sent_to: ['maria@example.com', 'ada@example.com'],
      suppressed: ['gone@example.com'],
      recipients: [
        {
          input: 'Maria Gonzalez',
          email: 'maria@example.com',
          contact_id: '5d7e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
          contact_name: 'Maria Gonzalez',
        },
        { input: 'ada@example.com', email: 'ada@example.com', contact_id: null, contact_name: null },
        { input: 'gone@example.com', email: 'gone@example.com', contact_id: null, contact_name: null },
      ],
      cost_usd: 0.02,
      pricing: {
        per_recipient_usd: 0.01,
        note: '0.01 USD per recipient sent to; suppressed recipients are not charged.',
      },
    },
  },
);

function resolveRecipients(c: Ctx, to: string[]): Recipient[] {
  const contacts = c.data.contacts.filter((x) => x.workspace_id === c.auth.workspace.id);
  // problems by kind, so the reply's status says the most fundamental one and its fields say all of them
  const [invalid, unmatched, ambiguous, noEmail] = [newFields(), newFields(), newFields(), newFields()];
  const candidates: { input: string; contacts: { id: string; name: string | null; email: string | null }[] }[] = [];
  const out: Recipient[] = [];
  to.forEach((input, i) => {
    const path = `to[${i}]`;
    if (input.includes('@')) {
      if (!EMAIL_ANY_CASE.test(input))
        return void (invalid[path] = 'is neither a valid email address nor a contact name');
      const contact = contactByEmail(c.data, c.auth.workspace.id, input);
      return void out.push({
        input,
        email: input,
        contact_id: contact?.id ?? null,
        contact_name: contact?.name ?? null,
      });
    }
    const found = bestMatches(
      input,
      contacts.map((x) => ({ id: x.id, names: [x.name, x.first_name, x.last_name], contact: x })),
    );
    if (found.length === 0) return void (unmatched[path] = `matches no contact named "${input}"`);
    if (found.length > 1) {
      ambiguous[path] = `could be ${found.length} contacts: ${found.map((f) => f.contact.name).join(', ')}`;
      return void candidates.push({
        input,
        contacts: found.map((f) => ({ id: f.contact.id, name: f.contact.name, email: f.contact.email })),
      });
    }
    const contact: Contact = found[0].contact;
    if (!contact.email)
      return void (noEmail[path] = `matches contact "${contact.name}", who has no email address on file`);
    out.push({ input, email: contact.email, contact_id: contact.id, contact_name: contact.name });
  });
  const all = Object.assign(newFields(), invalid, unmatched, ambiguous, noEmail);
  if (Object.keys(invalid).length) throw new ApiError(400, 'validation_error', 'Some recipients are not valid.', all);
  if (Object.keys(unmatched).length)
    throw new ApiError(404, 'contact_not_found', 'A recipient name matches no contact in this workspace.', all);
  if (Object.keys(ambiguous).length)
    throw new ApiError(
      422,
      'ambiguous_contact',
      'A recipient name could be more than one contact; name them more fully or use their email address.',
      all,
      { candidates },
    );
  if (Object.keys(noEmail).length)
    throw new ApiError(422, 'contact_without_email', 'A matched contact has no email address on file.', all);
  return out;
}

function sendQuickEmail(c: Ctx<{}, {}, Infer<typeof Body>>): Infer<typeof QuickEmailResult> {
  const b = c.body;
  const { workspace, org, user } = c.auth;
  const now = c.s.now;
  const window = rateWindow(workspace, now);
  const recipients = resolveRecipients(c, b.to);
  const { sentTo, suppressed } = splitSuppressed(c, recipients);
  checkDailyLimit(c, now, sentTo.length);

  const cost = sentTo.length * PER_RECIPIENT_CENTS;
  if (!canCover(org, cost))
    throw new ApiError(
      403,
      'insufficient_funds',
      `The wallet holds ${price(org.wallet_cents)} and this email costs ${price(cost)}; add funds or enable auto-recharge.`,
    );

  const id = c.s.rng.uuid();
  charge(c.s, workspace.id, cost, {
    kind: 'email',
    reference_id: id,
    description: `Quick email ${id}: ${sentTo.length} recipient${sentTo.length === 1 ? '' : 's'} at ${price(PER_RECIPIENT_CENTS)}`,
  });
  const from = `${b.from_name ?? workspace.name} via ${SERVICE_NAME}`;
  const replyTo = b.reply_to ?? user.email;
  for (const to of sentTo) {
    const r = recipients.find((x) => sameEmail(x.email, to))!;
    const rec: EmailRecord = {
      id: c.s.rng.uuid(),
      seq: c.s.nextSeq(),
      workspace_id: workspace.id,
      direction: 'outbound',
      source: 'quick',
      status: 'sent',
      from,
      from_address: `quick@mail.${SERVICE_NAME}.example`,
      to,
      reply_to: replyTo,
      subject: b.subject,
      body: b.body,
      contact_id: r.contact_id,
      quick_email_id: id,
      created_at: newRecordTime(c.data, 'emails', workspace.id, now),
      sent_ms: now,
    };
    c.data.emails.push(rec);
  }
  workspace.recent_quick_emails = [...window, now];

  return {
    id,
    kind: 'email',
    status: 'sent',
    from,
    reply_to: replyTo,
    sent_to: sentTo,
    suppressed,
    recipients,
    cost_usd: usd(cost),
    pricing: {
      per_recipient_usd: usd(PER_RECIPIENT_CENTS),
      note: '0.01 USD per recipient sent to; suppressed recipients are not charged.',
    },
  };
}

/** The simulated rate limit, quick-email requests per workspace in any 60 seconds: the requests of the last minute, or a 429. */
function rateWindow(workspace: Ctx['auth']['workspace'], now: number): number[] {
  const window = workspace.recent_quick_emails.filter((t) => now - t < 60_000);
  const perMinute = workspace.rate_limits.quick_emails_per_minute;
  if (perMinute > 0 && window.length >= perMinute) {
    const retryAfter = Math.max(1, Math.ceil((window[0] + 60_000 - now) / 1000));
    throw new ApiError(
      429,
      'rate_limited',
      `Too many quick emails: at most ${perMinute} requests a minute. Retry in ${retryAfter} s.`,
      undefined,
      { retry_after_seconds: retryAfter },
      { 'retry-after': String(retryAfter) },
    );
  }
  return window;
}

/** Each address once: those to send to, and those the workspace suppressed (not sent to, not charged). */
function splitSuppressed(c: Ctx, recipients: Recipient[]): { sentTo: string[]; suppressed: string[] } {
  const suppressed: string[] = [];
  const sentTo: string[] = [];
  for (const r of recipients) {
    const dup = (list: string[]) => list.some((x) => sameEmail(x, r.email));
    if (dup(sentTo) || dup(suppressed)) continue;
    const isSuppressed = c.data.suppressions.some(
      (x) => x.workspace_id === c.auth.workspace.id && sameEmail(x.email, r.email),
    );
    (isSuppressed ? suppressed : sentTo).push(r.email);
  }
  return { sentTo, suppressed };
}

/** DAILY_RECIPIENTS a workspace in the rolling 24 hours, counted in the index of quick emails (by time): a 409 past it. */
function checkDailyLimit(c: Ctx, now: number, adding: number): void {
  const quick = recordIndex<EmailRecord>(c.data, 'emails').quick.get(c.auth.workspace.id) ?? [];
  const used = quick.length - firstAtLeast(quick, now - DAY_MS + 1, (e) => e.sent_ms ?? Date.parse(e.created_at));
  if (used + adding > DAILY_RECIPIENTS)
    throw new ApiError(
      409,
      'daily_limit_exceeded',
      `Quick email allows ${DAILY_RECIPIENTS} recipients per workspace per rolling 24 hours: ${used} used, this request needs ${adding}.`,
      undefined,
      { limit: DAILY_RECIPIENTS, used },
    );
}

export const quickEmail: Resource = {
  tag: {
    name: 'Quick email',
    description: 'One plain-text email to up to 20 recipients from a shared sender address.',
  },
  routes: [
    {
      method: 'POST',
      path: '/v1/quick/emails',
      scope: 'full',
      summary: 'Send a quick email',
      description:
        'Each recipient gets an individual copy from a shared address shown as "<from_name or workspace name> via vmv". ' +
        'Recipients on the suppression list are skipped. 0.01 USD per recipient sent to, from the organization wallet; at most 200 recipients per workspace per rolling 24 hours.',
      body: Body,
      responses: { 200: { description: 'Sent', schema: dataOf(QuickEmailResult) } },
      errors: {
        403: ['insufficient_funds'],
        404: ['contact_not_found'],
        409: ['daily_limit_exceeded'],
        422: ['ambiguous_contact', 'contact_without_email'],
        429: ['rate_limited'],
      },
      handler: (c) => ({ body: { data: sendQuickEmail(c) } }),
    },
  ],
};
