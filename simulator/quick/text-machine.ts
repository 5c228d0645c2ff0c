// Quick AI texts: an opener from a shared number (opt-out language appended for a new recipient),
// the person's replies as the number's persona says (words and delays; none: silence), and each
// reply is answered until the goal is met, max_messages outbound are sent, the recipient
// is quiet for conversation_timeout_hours, or they text STOP.
import {
  ensureContact,
  isOptedOut,
  optOut,
  recordText,
  agentReply,
  classifyReply,
  OPT_OUT_TEXT,
  PROVIDER_TEXT_ERROR,
  personaFor,
  substitute,
  textOpener,
} from '../calls/index.js';
import type { QuickJob, QuickTarget } from './jobs.js';
import { type TextRecord, recordIndex, recordsWithAddress, contactById } from '../history/index.js';
import { charge } from '../billing/index.js';
import { cancelTimers, schedule, type TimerHandlers } from '../core/scheduler.js';
import { draw, roomLeft, use } from './shared-pool.js';
import type { Session } from '../core/session.js';
import { finish, isFinal, jobOf, POOL_LIMIT, TEXT_MESSAGE_CENTS, WALLET_EMPTY } from './jobs.js';

/** Seconds the agent takes to answer a reply. */
export const AGENT_REPLY_SECONDS = 30;

const timersOf = (job: QuickJob, i: number, types: string[]) => (type: string, p: Record<string, unknown>) =>
  types.includes(type) && p.job === job.id && p.i === i;

/**
 * Sends one outbound message on target i's thread; false when it could not be sent (the target has
 * ended). `refusal`: the carrier refuses the number (the opener, at creation).
 */
function send(s: Session, job: QuickJob, i: number, body: string, refusal: string | null = null): boolean {
  const t = job.targets[i];
  const number = s.data.shared_numbers.find((n) => n.phone_number === t.from_number)!;
  // a thread keeps its number; once that number is full for the day the thread cannot go on
  if (roomLeft(number, 'texts', s.now) === 0) return (finish(s, job, t, 'failed', POOL_LIMIT), false);
  const what = {
    kind: 'quick_text',
    reference_id: job.id,
    description: `Quick text ${job.id} to ${t.to_number}`,
  } as const;
  // a number the carrier refuses: the text fails unsent, free, using no slot of the number's day
  if (!refusal) {
    if (!charge(s, job.workspace_id, TEXT_MESSAGE_CENTS, what))
      return (finish(s, job, t, 'failed', WALLET_EMPTY), false);
    use(number, 'texts', s.now);
    job.cost_cents += TEXT_MESSAGE_CENTS;
  }
  const failed = refusal !== null || personaFor(s.data, t.to_number).text.delivery === 'fails';
  recordText(s, {
    workspace_id: job.workspace_id,
    direction: 'outbound',
    sender: 'ai_agent',
    from_number: number.phone_number,
    to_number: t.to_number,
    body,
    status: failed ? 'failed' : 'delivered',
    contact_id: t.contact_id,
    phone_number_id: null,
    quick_action_id: job.id,
  });
  if (refusal) return (finish(s, job, t, 'failed', refusal), false);
  t.messages_sent++;
  if (failed) return (finish(s, job, t, 'failed', PROVIDER_TEXT_ERROR), false);
  return true;
}

/** After an outbound message: end at the cap, or wait for the person (quiet timeout restarts). */
function awaitReply(s: Session, job: QuickJob, i: number): void {
  const t = job.targets[i];
  cancelTimers(s, timersOf(job, i, ['qtext.timeout']));
  if (t.messages_sent >= job.text!.max_messages)
    return finish(s, job, t, t.replied ? 'completed' : 'no_answer', 'max_messages');
  schedule(s, s.now + job.text!.conversation_timeout_hours * 3600_000, 'qtext.timeout', { job: job.id, i });
}

/** Starts target i's thread: a shared number with room, the opener, and the scripted reply if any (`refusal`: the carrier refuses its number, see send). */
export function startThread(s: Session, job: QuickJob, i: number, refusal: string | null = null): void {
  const t = job.targets[i];
  if (isOptedOut(s, job.workspace_id, t.to_number)) return finish(s, job, t, 'opted_out', 'opted_out');
  const number = draw(s.data.shared_numbers, 'texts', s.now, s.rng);
  if (!number) return finish(s, job, t, 'failed', POOL_LIMIT);
  t.from_number = number.phone_number;
  job.from_number ??= number.phone_number;
  t.status = 'in_progress';
  t.attempts = 1;
  const isNew = recordsWithAddress(recordIndex(s.data, 'texts'), job.workspace_id, t.to_number).length === 0;
  const contact = t.contact_id ? contactById(s.data, t.contact_id) : undefined;
  const name = contact?.name && contact.name !== t.to_number ? contact.name : null;
  const opener = substitute(textOpener(job.goal, job.text!.first_message), name);
  if (!send(s, job, i, isNew ? `${opener} ${OPT_OUT_TEXT}` : opener, refusal)) return;
  scheduleReply(s, job, i, 0);
  awaitReply(s, job, i);
}

/**
 * The persona's reply number `n` (0-based), due its after_seconds from now: the first answers the
 * opener, each next one the agent's next message. None left: silence. One at a time: a reply still
 * pending (the person answered by hand meanwhile) is not doubled.
 */
function scheduleReply(s: Session, job: QuickJob, i: number, n: number): void {
  const reply = personaFor(s.data, job.targets[i].to_number).text.replies[n];
  if (!reply || s.data.timers.some((x) => timersOf(job, i, ['qtext.scripted'])(x.type, x.payload))) return;
  schedule(s, s.now + reply.after_seconds * 1000, 'qtext.scripted', { job: job.id, i, body: reply.says });
}

/** A text from the person on target i's thread (scripted, or sent through /_sim/inbound/texts). */
export function receiveReply(s: Session, job: QuickJob, i: number, body: string): TextRecord {
  const t = job.targets[i];
  const rec = recordText(s, {
    workspace_id: job.workspace_id,
    direction: 'inbound',
    sender: 'contact',
    from_number: t.to_number,
    to_number: t.from_number!,
    body,
    status: 'received',
    contact_id: ensureContact(s, job.workspace_id, t.to_number).id,
    phone_number_id: null,
    quick_action_id: job.id,
  });
  const kind = classifyReply(body);
  if (kind === 'stop') optOut(s, job.workspace_id, t.to_number); // honoured even after the thread ended
  if (isFinal(t)) return rec; // the thread is over: the text is recorded; the target's final state stands
  t.messages_received++;
  t.replied = true;
  if (kind === 'stop') {
    cancelTimers(s, timersOf(job, i, ['qtext.timeout', 'qtext.agent', 'qtext.scripted']));
    finish(s, job, t, 'opted_out', 'opted_out');
    return rec;
  }
  // the agent answers the latest message
  cancelTimers(s, timersOf(job, i, ['qtext.agent', 'qtext.timeout']));
  schedule(s, s.now + AGENT_REPLY_SECONDS * 1000, 'qtext.agent', { job: job.id, i, kind });
  return rec;
}

export function cancelTexts(s: Session, job: QuickJob): void {
  job.targets.forEach((t, i) => {
    if (isFinal(t)) return;
    cancelTimers(s, timersOf(job, i, ['qtext.timeout', 'qtext.agent', 'qtext.scripted']));
    finish(s, job, t, 'canceled', 'canceled');
  });
}

/** The live thread (or else the latest one) between a shared number and a person, in any workspace. */
export function threadFor(s: Session, shared: string, person: string): { job: QuickJob; i: number } | null {
  let found: { job: QuickJob; i: number } | null = null;
  for (const job of s.data.quick_jobs) {
    if (job.kind !== 'ai_text') continue;
    job.targets.forEach((t: QuickTarget, i) => {
      if (t.from_number !== shared || t.to_number !== person) return;
      if (!found || !isFinal(t) || (isFinal(found.job.targets[found.i]) && job.seq > found.job.seq)) found = { job, i };
    });
  }
  return found;
}

export const quickTextTimers: TimerHandlers = {
  'qtext.scripted': (s, p) => {
    const job = jobOf(s, p.job);
    if (job) receiveReply(s, job, Number(p.i), String(p.body));
  },
  'qtext.agent': (s, p) => {
    const job = jobOf(s, p.job);
    const i = Number(p.i);
    const t = job?.targets[i];
    if (!job || !t || isFinal(t)) return;
    const kind = p.kind as 'agree' | 'decline' | 'other';
    const sent = send(s, job, i, agentReply(kind, job.goal));
    // the person's answer settles the thread even if the closing message could not go out
    if (kind === 'agree') return finish(s, job, t, 'completed', 'goal_achieved', true);
    if (kind === 'decline') return finish(s, job, t, 'completed', 'answered');
    if (!sent) return;
    scheduleReply(s, job, i, t.messages_received);
    awaitReply(s, job, i);
  },
  'qtext.timeout': (s, p) => {
    const job = jobOf(s, p.job);
    const t = job?.targets[Number(p.i)];
    if (!job || !t || isFinal(t)) return;
    cancelTimers(s, timersOf(job, Number(p.i), ['qtext.scripted']));
    // quiet after replying: the conversation happened; never replied: the one attempt went unanswered
    finish(s, job, t, t.replied ? 'completed' : 'no_answer', t.replied ? 'answered' : 'max_attempts');
  },
};
