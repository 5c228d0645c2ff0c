// Texts to a workspace's own number: recorded, then answered by its agent as the number's SMS
// settings say (auto-reply and its delay, stop words, stop_after_replies, max_replies_per_contact,
// and SMS referrals), after the configured delay on the simulator clock; not while the number's
// line is suspended or the account is paused for texts (billing.ts).
import { ensureContact, isOptedOut, optOut, recordText } from '../calls/index.js';
import type { PhoneNumber } from './records.js';
import { type TextRecord, recordIndex, recordsWithAddress } from '../history/index.js';
import { effectiveSms, withinHours } from './config.js';
import { workspaceOf } from './numbers.js';
import { schedule, type TimerHandlers } from '../core/scheduler.js';
import type { Session } from '../core/session.js';
import { notConnected } from './lines.js';

const isStopWord = (body: string, words: string[]) =>
  words.some((w) => w.trim().toLowerCase() === body.trim().toLowerCase());

/** Why the agent will not answer this person now, or null when it will. */
function silence(s: Session, n: PhoneNumber, person: string): string | null {
  const ws = workspaceOf(s, n);
  const sms = effectiveSms(n.config, ws.defaults);
  if (!sms.auto_reply_enabled) return 'auto-reply is off';
  const refused = notConnected(s, n, 'text');
  if (refused) return refused === 'line_suspended' ? 'the line is suspended' : 'the account is paused';
  if (isOptedOut(s, n.workspace_id, person)) return 'opted out';
  const sent = sentTo(s, n, person);
  if (sms.stop_after_replies && sent.some((t) => t.sender === 'business')) return 'a person on the team has replied';
  if (sent.filter((t) => t.sender === 'ai_agent').length >= sms.max_replies_per_contact)
    return 'max_replies_per_contact reached';
  return null;
}

/** The texts number n sent to a person (looked up by the person's number: no scan of every text). */
const sentTo = (s: Session, n: PhoneNumber, person: string) =>
  recordsWithAddress(recordIndex<TextRecord>(s.data, 'texts'), n.workspace_id, person).filter(
    (t) => t.phone_number_id === n.id && t.direction === 'outbound',
  );

/** The referral that applies to this text, if any (first match in list order). */
function referral(s: Session, n: PhoneNumber, body: string): string | null {
  const c = n.config;
  for (const r of c.sms_referrals) {
    const hit =
      r.when === 'always' ||
      (r.when === 'after_hours' &&
        !withinHours(s.now, c.timezone, c.transfers.office_hours_start, c.transfers.office_hours_end)) ||
      (r.when === 'keyword' &&
        !!r.keyword &&
        new RegExp(`\\b${r.keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(body));
    if (hit) return r.message;
  }
  return null;
}

export function receiveNumberText(s: Session, n: PhoneNumber, from: string, body: string): TextRecord {
  const ws = workspaceOf(s, n);
  const contact = ensureContact(s, n.workspace_id, from); // a first-time texter is named after their number
  const rec = recordText(s, {
    workspace_id: n.workspace_id,
    direction: 'inbound',
    sender: 'contact',
    from_number: from,
    to_number: n.phone_number!,
    body,
    status: 'received',
    contact_id: contact.id,
    phone_number_id: n.id,
    quick_action_id: null,
  });
  const sms = effectiveSms(n.config, ws.defaults);
  if (isStopWord(body, sms.stop_words)) {
    optOut(s, n.workspace_id, from);
    return rec;
  }
  if (silence(s, n, from) === null)
    schedule(s, s.now + sms.reply_delay_seconds * 1000, 'number.sms_reply', {
      number: n.id,
      to: from,
      referral: referral(s, n, body),
    });
  return rec;
}

/** The AI agent's own reply to a text: a greeting the first time, an acknowledgement after that. */
function aiReply(name: string, business: string, earlier: boolean): string {
  if (earlier) return `Thanks! I've noted that, and someone from ${business} will follow up if needed.`;
  return `Hi! This is ${name} at ${business}. Thanks for your message. How can I help?`;
}

export const numberTextTimers: TimerHandlers = {
  'number.sms_reply': (s, p) => {
    const n = s.data.phone_numbers.find((x) => x.id === p.number);
    const to = String(p.to);
    if (!n?.phone_number || n.status !== 'ready' || silence(s, n, to) !== null) return; // settings may have changed meanwhile
    const earlier = sentTo(s, n, to).some((t) => t.sender === 'ai_agent');
    const business = n.config.business_name ?? n.config.name;
    const body = typeof p.referral === 'string' ? p.referral : aiReply(n.config.name, business, earlier);
    recordText(s, {
      workspace_id: n.workspace_id,
      direction: 'outbound',
      sender: 'ai_agent',
      from_number: n.phone_number,
      to_number: to,
      body,
      status: 'delivered',
      contact_id: ensureContact(s, n.workspace_id, to).id,
      phone_number_id: n.id,
      quick_action_id: null,
    });
  },
};
