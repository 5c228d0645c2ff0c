// The simulated other party's built-in scripts by name (the last four digits of the destination, like
// a provider's test numbers), read from the built-in personas (persona.ts); the carrier's check; how
// the text agent reads a reply and answers it. Pure functions.

import type { CallTag } from '../history/index.js';
import { builtinCall, builtinFor, builtinText, PROVIDER_CALL_ERROR, RING_SECONDS } from './persona.js';
import { attemptOf, goalPhrase, review, substitute, timedTurns, type Turn } from './persona-play.js';
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

/** The built-in script of a number's calls, by its last four digits (persona.ts: the built-in personas). */
export const callScenario = (to: string) => builtinFor(to).call as CallScenario;
/** The built-in script of a number's texts. */
export const textScenario = (to: string) => builtinFor(to).text as TextScenario;

/** Simulated seconds of each phase of a call (the personas' defaults, and the built-ins' talks). */
export const TIMING = {
  ringBeforeAnswer: RING_SECONDS.answer,
  ringOut: RING_SECONDS.no_answer,
  ringBeforeVoicemail: RING_SECONDS.voicemail,
  busy: RING_SECONDS.busy,
  providerFailure: RING_SECONDS.fails,
  reviewDelay: 5,
  talk: {
    goal: builtinCall('goal').talk_seconds!,
    not_interested: builtinCall('not_interested').talk_seconds!,
    callback: builtinCall('callback').talk_seconds!,
  },
};

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

export type AttemptOutcome =
  | { kind: 'answered'; talk: Talk }
  | { kind: 'no_answer' }
  | { kind: 'voicemail' }
  | { kind: 'busy' }
  | { kind: 'failed'; error: string };

/** The built-in talks, by the outcome a persona's call ends with. */
export type Talk = 'goal' | 'not_interested' | 'callback';
export const TALKS: Record<string, Talk> = { goal_achieved: 'goal', declined: 'not_interested', callback: 'callback' };

/** What happens on attempt number `attempt` (1-based) to this destination's built-in persona. */
export function attemptOutcome(to: string, attempt: number): AttemptOutcome {
  const call = builtinCall(callScenario(to));
  const a = attemptOf(call, attempt);
  if (a.result === 'answer') return { kind: 'answered', talk: TALKS[call.outcome ?? 'goal_achieved'] };
  if (a.result === 'fails') return { kind: 'failed', error: a.error };
  return { kind: a.result };
}

export { PROVIDER_CALL_ERROR, substitute };
export type { Turn };

/** The conversation of a built-in talk, spread over `seconds`, cut at the hard stop if shorter. */
export function callTranscript(talk: Talk, goal: string, opening: string | null, name: string | null, seconds: number) {
  return timedTurns(builtinCall(talk), { goal, opening, name, instructions: null }, seconds).turns;
}

/** The review of a built-in talk: `completed` false when the hard stop cut it. */
export function callReview(talk: Talk, goal: string, completed: boolean): { summary: string; tags: CallTag[] } {
  const outcome = builtinCall(talk).outcome ?? 'goal_achieved';
  return review({ seconds: 0, ending: completed ? 'course' : 'max', outcome }, {}, goal);
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

/** The built-in persona's first reply, and how long after our message it comes. */
export function scriptedReply(to: string): { body: string; afterSeconds: number } | null {
  const first = builtinText(textScenario(to)).replies[0];
  return first ? { body: first.says, afterSeconds: first.after_seconds } : null;
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
