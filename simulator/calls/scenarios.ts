// What the simulated other party's world does around a persona (persona.ts, played by
// persona-play.ts): the carrier's check of a destination, and how the text agent reads a reply and
// answers it. Pure functions.

import { goalPhrase } from './persona-play.js';

export const PROVIDER_TEXT_ERROR = '30007 Message filtered: the carrier blocked delivery (simulated)';

/** Why the carrier refuses a call or text to a number, in its words; null when it connects it. */
export type CarrierCheck = (to: string, kind: 'call' | 'text') => string | null;

/**
 * The carrier's check of a destination: a number that cannot exist by the numbering plans
 * (src/phone.ts, the check the CLI makes too: docs/spec-silent.md, "Quick actions") is refused, a call with a
 * SIP status, a text with the provider's error. Such a call never rings and such a text is never
 * sent: nothing is charged, and there is nothing to retry. Loaded by the routes that dial (the
 * numbering plans are a file of their own beside the bundle, not part of every command's load);
 * every destination is dialed or texted first by the route that creates it, so no timer needs it.
 */
export async function carrierCheck(): Promise<CarrierCheck> {
  const { numberProblem } = await import('../../src/phone.js');
  return (to, kind) => {
    const p = numberProblem(to);
    if (!p) return null;
    if (kind === 'text') return `30005 Unknown destination handset: ${to} ${p.words} (simulated)`;
    const sip = p.kind === 'too_short' ? 'SIP 484 Address Incomplete' : 'SIP 404 Not Found';
    return `${sip}: ${to} ${p.words} (simulated)`;
  };
}

// ---- texts ----

export type ReplyKind = 'stop' | 'agree' | 'decline' | 'other';
const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit', 'optout', 'revoke']);

/** How the agent reads a reply. STOP words are honoured only as the whole message, as carriers do. */
export function classifyReply(body: string): ReplyKind {
  const t = body
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '');
  if (STOP_WORDS.has(t.replace(/[\s-]+/g, ''))) return 'stop';
  if (/\b(not interested|no thanks|no thank you|not now|don't|do not)\b|^no\b/.test(t)) return 'decline';
  if (/\b(yes|yeah|yep|sure|ok|okay|sounds good|works for me|that works|agreed|confirm(ed)?)\b/.test(t)) return 'agree';
  return 'other';
}

export const OPT_OUT_TEXT = 'Reply STOP to opt out.';

export function textOpener(goal: string, first: string | null): string {
  return first ?? `Hi! I'm reaching out to ${goalPhrase(goal)}. Would that work for you?`;
}

export function agentReply(kind: Exclude<ReplyKind, 'stop'>, goal: string): string {
  if (kind === 'agree') return 'Wonderful, thank you! You are all set.';
  if (kind === 'decline') return 'Understood, thanks for letting me know. Have a great day!';
  return `Thanks for your reply! Just to check: would you like to ${goalPhrase(goal)}?`;
}
