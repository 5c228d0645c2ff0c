// POST /v1/quick/emails: one plain-text email to up to 20 recipients from a shared sender.
import { iso } from '../clock.js';
import { ApiError } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import type { Contact, EmailRecord } from '../model.js';
import { charge, usd } from '../money.js';
import { contactByEmail, sameEmail } from '../people.js';
import { bestMatches } from '../fuzzy.js';
import { arr, EMAIL, EMAIL_ANY_CASE, email, newFields, obj, parse, str } from '../validate.js';

export const SERVICE_NAME = 'vmv';
export const PER_RECIPIENT_CENTS = 1;
export const DAILY_RECIPIENTS = 200;
const DAY_MS = 24 * 3600_000;

const body = obj(
  {
    to: arr(str({ min: 1, max: 254 }), { min: 1, max: 20 }),
    subject: str({ min: 1, max: 200 }),
    body: str({ min: 1, max: 20000 }),
    reply_to: email(254, EMAIL),
    from_name: str({ min: 1, max: 60 }),
  },
  { required: ['to', 'subject', 'body'] },
);

interface Recipient { input: string; email: string; contact_id: string | null; contact_name: string | null }

function resolveRecipients(c: Ctx, to: string[]): Recipient[] {
  const contacts = c.data.contacts.filter((x) => x.workspace_id === c.auth.workspace.id);
  // problems by kind, so the reply's status says the most fundamental one and its fields say all of them
  const [invalid, unmatched, ambiguous, noEmail] = [newFields(), newFields(), newFields(), newFields()];
  const candidates: { input: string; contacts: { id: string; name: string | null; email: string | null }[] }[] = [];
  const out: Recipient[] = [];
  to.forEach((input, i) => {
    const path = `to[${i}]`;
    if (input.includes('@')) {
      if (!EMAIL_ANY_CASE.test(input)) return void (invalid[path] = 'is neither a valid email address nor a contact name');
      const contact = contactByEmail(c.data, c.auth.workspace.id, input);
      return void out.push({ input, email: input, contact_id: contact?.id ?? null, contact_name: contact?.name ?? null });
    }
    const found = bestMatches(input, contacts.map((x) => ({ id: x.id, names: [x.name, x.first_name, x.last_name], contact: x })));
    if (found.length === 0) return void (unmatched[path] = `matches no contact named "${input}"`);
    if (found.length > 1) {
      ambiguous[path] = `could be ${found.length} contacts: ${found.map((f) => f.contact.name).join(', ')}`;
      return void candidates.push({ input, contacts: found.map((f) => ({ id: f.contact.id, name: f.contact.name, email: f.contact.email })) });
    }
    const contact: Contact = found[0].contact;
    if (!contact.email) return void (noEmail[path] = `matches contact "${contact.name}", who has no email address on file`);
    out.push({ input, email: contact.email, contact_id: contact.id, contact_name: contact.name });
  });
  const all = Object.assign(newFields(), invalid, unmatched, ambiguous, noEmail);
  if (Object.keys(invalid).length) throw new ApiError(400, 'validation_error', 'Some recipients are not valid.', all);
  if (Object.keys(unmatched).length) throw new ApiError(404, 'contact_not_found', 'A recipient name matches no contact in this workspace.', all);
  if (Object.keys(ambiguous).length)
    throw new ApiError(422, 'ambiguous_contact', 'A recipient name could be more than one contact; name them more fully or use their email address.', all, { candidates });
  if (Object.keys(noEmail).length) throw new ApiError(422, 'contact_without_email', 'A matched contact has no email address on file.', all);
  return out;
}

function sendQuickEmail(c: Ctx) {
  const b = parse(body, c.body);
  const { workspace, org, user } = c.auth;
  const now = c.s.now;

  // simulated rate limit: quick-email requests per workspace in any 60 seconds
  const window = workspace.recent_quick_emails.filter((t) => now - t < 60_000);
  const perMinute = workspace.rate_limits.quick_emails_per_minute;
  if (perMinute > 0 && window.length >= perMinute) {
    const retryAfter = Math.max(1, Math.ceil((window[0] + 60_000 - now) / 1000));
    throw new ApiError(429, 'rate_limited', `Too many quick emails: at most ${perMinute} requests a minute. Retry in ${retryAfter} s.`,
      undefined, { retry_after_seconds: retryAfter }, { 'retry-after': String(retryAfter) });
  }

  const recipients = resolveRecipients(c, b.to);
  const suppressed: string[] = [];
  const sentTo: string[] = [];
  for (const r of recipients) {
    const dup = (list: string[]) => list.some((x) => sameEmail(x, r.email));
    if (dup(sentTo) || dup(suppressed)) continue;
    const isSuppressed = c.data.suppressions.some((x) => x.workspace_id === workspace.id && sameEmail(x.email, r.email));
    (isSuppressed ? suppressed : sentTo).push(r.email);
  }

  const used = c.data.emails.filter((e) => e.workspace_id === workspace.id && e.source === 'quick' && now - Date.parse(e.created_at) < DAY_MS).length;
  if (used + sentTo.length > DAILY_RECIPIENTS)
    throw new ApiError(409, 'daily_limit_exceeded',
      `Quick email allows ${DAILY_RECIPIENTS} recipients per workspace per rolling 24 hours: ${used} used, this request needs ${sentTo.length}.`,
      undefined, { limit: DAILY_RECIPIENTS, used });

  const cost = sentTo.length * PER_RECIPIENT_CENTS;
  if (!charge(org, cost))
    throw new ApiError(403, 'insufficient_funds',
      `The wallet holds ${usd(org.wallet_cents).toFixed(2)} USD and this email costs ${usd(cost).toFixed(2)} USD; add funds or enable auto-recharge.`);

  const id = c.s.rng.uuid();
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
      created_at: iso(now),
    };
    c.data.emails.push(rec);
  }
  workspace.recent_quick_emails = [...window, now];

  return {
    data: {
      id,
      kind: 'email',
      status: 'sent',
      from,
      reply_to: replyTo,
      sent_to: sentTo,
      suppressed,
      recipients,
      cost_usd: usd(cost),
      pricing: { per_recipient_usd: usd(PER_RECIPIENT_CENTS), note: '0.01 USD per recipient sent to; suppressed recipients are not charged.' },
    },
  };
}

export const quickEmail: Resource = {
  routes: [{ method: 'POST', path: '/v1/quick/emails', scope: 'full', handler: (c) => ({ body: sendQuickEmail(c) }) }],
};
