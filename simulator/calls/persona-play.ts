// A persona played: pure functions from a persona (persona.ts) and the job's side (goal,
// instructions, opening message, the person's name) to what an attempt meets, the conversation's
// turns with their times, how it ends, and the review that follows (summary, tags). The machines
// (quick calls, voice calls) call these and keep the result in their timers' payloads, so a
// persona changed mid-call does not change a call already answered.
import type { CallTag } from '../history/index.js';
import { type CallPersona, PROVIDER_CALL_ERROR, RING_SECONDS } from './persona.js';

export interface Turn {
  speaker: 'agent' | 'person';
  text: string;
  seconds_from_start: number;
}

/** What attempt number `attempt` (1-based) meets: the persona's entry, the last one repeating. */
export function attemptOf(call: CallPersona, attempt: number) {
  const a = call.attempts[Math.min(Math.max(attempt, 1), call.attempts.length) - 1];
  return {
    result: a.result,
    ring_seconds: a.ring_seconds ?? RING_SECONDS[a.result],
    error: a.error ?? PROVIDER_CALL_ERROR,
  };
}

/**
 * What a one-off call meets (a voice call placed through the API, a forward or transfer to the
 * number): the persona's last attempt, the behaviour it settles into (its attempts describe a quick
 * job's tries: the built-in 0105 rings out only on a first automatic attempt).
 */
export const oneOffCall = (call: CallPersona) => attemptOf(call, call.attempts.length);

/** The agent's side of a call: what the job says. */
export interface AgentSide {
  goal: string;
  instructions: string | null;
  opening: string | null;
  name: string | null;
}

/** Replaces {{CONTACT_NAME}} (any spacing) with the name, or "there" when none was given. */
export const substitute = (text: string, name: string | null) =>
  text.replace(/\{\{\s*CONTACT_NAME\s*\}\}/g, name ?? 'there');

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
export const goalPhrase = (goal: string) => lowerFirst(goal.trim().replace(/[.!?]+$/, ''));
const firstSentence = (text: string) => /^[^.!?]*[.!?]?/.exec(text.trim())?.[0].trim() || text.trim();

const CLOSING: Record<string, string> = {
  goal_achieved: 'Wonderful, you are all set. Thank you and goodbye!',
  declined: 'Understood, thank you for your time. Goodbye!',
  callback: 'Of course, we will call you back later. Goodbye!',
};

/** The agent's answer to a line between the first and the last: a question gets a fact, then the goal. */
function middle(said: string, k: number, side: AgentSide): string {
  if (said.trim().endsWith('?'))
    return `Let me check. ${side.instructions ? firstSentence(side.instructions) : `I'm calling to ${goalPhrase(side.goal)}.`}`;
  if (k === 1) return `Great. I'd like to ${goalPhrase(side.goal)}. Would that work for you?`;
  return `I understand. Just to confirm: would you like to ${goalPhrase(side.goal)}?`;
}

/** The lines of an answered call in order: each of the person's, then the agent's answer (none after a hang-up). */
export function script(call: CallPersona, side: AgentSide): [Turn['speaker'], string, number | undefined][] {
  const lines = call.lines ?? [];
  const outcome = call.outcome ?? 'goal_achieved';
  const hello = side.name ? `Hi ${side.name}` : 'Hi there';
  const open = side.opening
    ? substitute(side.opening, side.name)
    : `${hello}, this is an AI assistant calling to ${goalPhrase(side.goal)}. Do you have a moment?`;
  const out: [Turn['speaker'], string, number | undefined][] = [];
  lines.forEach((l, k) => {
    out.push(['person', l.says, l.pause_seconds]);
    const last = k === lines.length - 1;
    if (k === 0) out.push(['agent', open, undefined]);
    else if (!last) out.push(['agent', middle(l.says, k, side), undefined]);
    if (last && outcome !== 'hangs_up') out.push(['agent', CLOSING[outcome], undefined]);
  });
  return out;
}

/** Seconds a turn takes to say: 0.4 s a word, at least 1.5 s. */
export const speakingSeconds = (text: string) => Math.max(1.5, text.split(/\s+/).filter(Boolean).length * 0.4);
const tenth = (x: number) => Math.round(x * 10) / 10;

/**
 * The turns over time. With `talk_seconds`, spread evenly over it (the built-ins'); otherwise each
 * turn starts when the one before it ended plus its pause (the person's pause_seconds, default 1 s;
 * the agent's 1 s), and the call lasts until the last turn ends (1 s more unless the person hangs
 * up). The timing never depends on how the call ends: a cut drops what comes after it.
 */
export function timedTurns(call: CallPersona, side: AgentSide): { turns: Turn[]; seconds: number } {
  const lines = script(call, side);
  if (call.talk_seconds !== undefined) {
    const seconds = call.talk_seconds;
    const step = seconds / lines.length;
    return {
      turns: lines.map(([speaker, text], i) => ({ speaker, text, seconds_from_start: tenth(i * step) })),
      seconds,
    };
  }
  let t = 0;
  const turns = lines.map(([speaker, text, pause], i) => {
    const start = i === 0 ? 0 : t + (pause ?? 1);
    t = start + speakingSeconds(text);
    return { speaker, text, seconds_from_start: tenth(start) };
  });
  return { turns, seconds: Math.ceil(t + (call.outcome === 'hangs_up' ? 0 : 1)) };
}

/** How an answered call ended: ran its course, the person hung up early, the hard stop, or our side hung up (the API). */
export type Ending = 'course' | 'person' | 'max' | 'hangup';

/** An answered call planned: its turns (those said by the end), its length, how it ends. */
export interface Conversation {
  turns: Turn[];
  seconds: number;
  ending: Ending;
  outcome: NonNullable<CallPersona['outcome']>;
  goal_achieved: boolean;
}

/**
 * The conversation of an answered call, cut by the person's hang-up or the hard stop `maxSeconds`:
 * the turns keep their times and those after the cut were never said (the spec's "hard stop on call
 * length"), so a call stopped before the goal has no agreement and no goodbye in its transcript.
 */
export function planConversation(call: CallPersona, side: AgentSide, maxSeconds: number): Conversation {
  const outcome = call.outcome ?? 'goal_achieved';
  const { turns, seconds: full } = timedTurns(call, side);
  const hangUp = call.hang_up_after_seconds ?? Number.POSITIVE_INFINITY;
  const seconds = Math.min(full, hangUp, maxSeconds);
  let ending: Ending = 'course';
  if (seconds < full) ending = seconds === maxSeconds && maxSeconds < hangUp ? 'max' : 'person';
  if (ending === 'course' && outcome === 'hangs_up') ending = 'person';
  return {
    turns: turns.filter((x) => x.seconds_from_start <= seconds),
    seconds,
    ending,
    outcome,
    goal_achieved: ending === 'course' && outcome === 'goal_achieved',
  };
}

/** The review of a call that ran its course, by its outcome: with the job's goal, or (null) a voice call's, which has none. */
function byOutcome(outcome: Conversation['outcome'], goal: string | null, seconds: number) {
  const reviews: Record<Conversation['outcome'], { summary: string; tags: CallTag[] }> = {
    goal_achieved: {
      summary: goal === null ? 'The call connected and went well.' : `The recipient agreed: ${goalPhrase(goal)}.`,
      tags: ['interested'],
    },
    declined: {
      summary: goal === null ? 'The person was not interested.' : 'The recipient said they were not interested.',
      tags: ['not_interested'],
    },
    callback: {
      summary: goal === null ? 'The person asked to be called back.' : 'The recipient asked to be called back later.',
      tags: ['callback_requested'],
    },
    hangs_up: { summary: `The recipient hung up after ${seconds} s.`, tags: [] },
  };
  return reviews[outcome];
}

/**
 * The AI review of an answered call: the persona's summary and tags when it ran its course, else by
 * how it ended. `goal` null: a voice call placed through the API, which has none.
 */
export function review(
  c: Pick<Conversation, 'seconds' | 'ending' | 'outcome'>,
  call: Pick<CallPersona, 'summary' | 'tags'>,
  goal: string | null,
): { summary: string; tags: CallTag[] } {
  if (c.ending === 'max')
    return {
      summary:
        goal === null
          ? 'The call reached the maximum call length.'
          : `The call reached the maximum call length before the goal (${goalPhrase(goal)}) was settled.`,
      tags: [],
    };
  if (c.ending === 'hangup') return { summary: `The call was hung up after ${c.seconds} s.`, tags: [] };
  if (c.ending === 'person' && c.outcome !== 'hangs_up')
    return { summary: `The recipient hung up after ${c.seconds} s.`, tags: [] };
  const r = byOutcome(c.outcome, goal, c.seconds);
  return { summary: call.summary ?? r.summary, tags: call.tags ? [...call.tags] : r.tags };
}
