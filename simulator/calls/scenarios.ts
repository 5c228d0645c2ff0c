// The simulated other party, decided by the last four digits of the destination (like a provider's
// test numbers). Pure functions: given a number and an attempt, what happens and what is said.

import type { CallTag } from '../history/index.js';
export type CallScenario =
  | 'goal'
  | 'not_interested'
  | 'rings_out'
  | 'voicemail'
  | 'busy'
  | 'answers_second'
  | 'provider_fails'
  | 'callback';
export type TextScenario = 'agrees' | 'declines' | 'silent' | 'agrees_late' | 'delivery_fails' | 'stop';

const CALLS: Record<string, CallScenario> = {
  '0100': 'goal',
  '0101': 'not_interested',
  '0102': 'rings_out',
  '0103': 'voicemail',
  '0104': 'busy',
  '0105': 'answers_second',
  '0106': 'provider_fails',
  '0107': 'callback',
};
const TEXTS: Record<string, TextScenario> = {
  '0100': 'agrees',
  '0101': 'declines',
  '0102': 'silent',
  '0103': 'silent',
  '0104': 'silent',
  '0105': 'agrees_late',
  '0106': 'delivery_fails',
  '0107': 'stop',
};

export const callScenario = (to: string): CallScenario => CALLS[to.slice(-4)] ?? 'goal';
export const textScenario = (to: string): TextScenario => TEXTS[to.slice(-4)] ?? 'agrees';

/** Simulated seconds of each phase of a call. */
export const TIMING = {
  ringBeforeAnswer: 6,
  ringOut: 30,
  ringBeforeVoicemail: 20,
  busy: 2,
  providerFailure: 3,
  reviewDelay: 5,
  talk: { goal: 52, not_interested: 18, callback: 27 } as const,
};

export const PROVIDER_CALL_ERROR = 'SIP 503 Service Unavailable: the carrier rejected the call (simulated)';
export const PROVIDER_TEXT_ERROR = '30007 Message filtered: the carrier blocked delivery (simulated)';

/** Why the carrier refuses a call or text to a number, in its words; null when it connects it. */
export type CarrierCheck = (to: string, kind: 'call' | 'text') => string | null;

/**
 * The carrier's check of a destination: a number that cannot exist by the numbering plans
 * (src/phone.ts, the check the CLI makes too: README "Quick actions") is refused, a call with a
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

export type AttemptOutcome =
  | { kind: 'answered'; talk: 'goal' | 'not_interested' | 'callback' }
  | { kind: 'no_answer' }
  | { kind: 'voicemail' }
  | { kind: 'busy' }
  | { kind: 'failed'; error: string };

/** What happens on attempt number `attempt` (1-based) to this destination. */
export function attemptOutcome(to: string, attempt: number): AttemptOutcome {
  switch (callScenario(to)) {
    case 'goal':
      return { kind: 'answered', talk: 'goal' };
    case 'not_interested':
      return { kind: 'answered', talk: 'not_interested' };
    case 'callback':
      return { kind: 'answered', talk: 'callback' };
    case 'rings_out':
      return { kind: 'no_answer' };
    case 'voicemail':
      return { kind: 'voicemail' };
    case 'busy':
      return { kind: 'busy' };
    case 'answers_second':
      return attempt === 1 ? { kind: 'no_answer' } : { kind: 'answered', talk: 'goal' };
    case 'provider_fails':
      return { kind: 'failed', error: PROVIDER_CALL_ERROR };
  }
}

/** Replaces {{CONTACT_NAME}} (any spacing) with the name, or "there" when none was given. */
export const substitute = (text: string, name: string | null) =>
  text.replace(/\{\{\s*CONTACT_NAME\s*\}\}/g, name ?? 'there');

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const goalPhrase = (goal: string) => lowerFirst(goal.trim().replace(/[.!?]+$/, ''));

export interface Turn {
  speaker: 'agent' | 'person';
  text: string;
  seconds_from_start: number;
}

/** The conversation of an answered call, spread over `seconds`, cut at the hard stop if shorter. */
export function callTranscript(
  talk: 'goal' | 'not_interested' | 'callback',
  goal: string,
  opening: string | null,
  name: string | null,
  seconds: number,
): Turn[] {
  const hello = name ? `Hi ${name}` : 'Hi there';
  const open = opening
    ? substitute(opening, name)
    : `${hello}, this is an AI assistant calling to ${goalPhrase(goal)}. Do you have a moment?`;
  const lines: [Turn['speaker'], string][] = [
    ['person', 'Hello?'],
    ['agent', open],
  ];
  if (talk === 'goal') {
    lines.push(
      ['person', 'Sure, go ahead.'],
      ['agent', `Great. I'd like to ${goalPhrase(goal)}. Would that work for you?`],
      ['person', 'Yes, that works for me.'],
      ['agent', 'Wonderful, you are all set. Thank you and goodbye!'],
    );
  } else if (talk === 'not_interested') {
    lines.push(['person', "Sorry, I'm not interested."], ['agent', 'Understood, thank you for your time. Goodbye!']);
  } else {
    lines.push(
      ['person', "I can't talk right now. Could you call me back later?"],
      ['agent', 'Of course, we will call you back later. Goodbye!'],
    );
  }
  const step = seconds / lines.length;
  return lines.map(([speaker, text], i) => ({ speaker, text, seconds_from_start: Math.round(i * step * 10) / 10 }));
}

export function callReview(
  talk: 'goal' | 'not_interested' | 'callback',
  goal: string,
  completed: boolean,
): { summary: string; tags: CallTag[] } {
  if (!completed)
    return {
      summary: `The call reached the maximum call length before the goal (${goalPhrase(goal)}) was settled.`,
      tags: [],
    };
  if (talk === 'goal') return { summary: `The recipient agreed: ${goalPhrase(goal)}.`, tags: ['interested'] };
  if (talk === 'not_interested')
    return { summary: 'The recipient said they were not interested.', tags: ['not_interested'] };
  return { summary: 'The recipient asked to be called back later.', tags: ['callback_requested'] };
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

/** The scripted reply of the simulated recipient, and how long after our message it comes. */
export function scriptedReply(to: string): { body: string; afterSeconds: number } | null {
  switch (textScenario(to)) {
    case 'agrees':
      return { body: 'Yes, that works for me!', afterSeconds: 120 };
    case 'declines':
      return { body: 'No thanks, not interested.', afterSeconds: 90 };
    case 'agrees_late':
      return { body: 'Sorry for the slow reply. Yes, that works!', afterSeconds: 20 * 3600 };
    case 'stop':
      return { body: 'STOP', afterSeconds: 60 };
    case 'silent':
    case 'delivery_fails':
      return null;
  }
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
