// Quick AI calls: each target is dialled from a shared number, rings, and is answered, rings out,
// reaches voicemail, is busy or fails as the number's persona says for that attempt (once answered,
// the persona's lines, outcome and hang-up); unanswered attempts are retried after
// retry_delay_minutes until retry_attempts is spent. Every step is a timer on the simulator clock.
import { type CallRecord, type CallStatus, type CallTag, contactById } from '../history/index.js';
import {
  closeCall,
  answerCall,
  findCall,
  openCall,
  attemptOf,
  planConversation,
  personaFor,
  review,
  substitute,
  REVIEW_DELAY_SECONDS,
  type CallPersona,
  type Conversation,
} from '../calls/index.js';
import type { QuickJob, QuickTarget } from './jobs.js';
import { charge, chargeUpTo, price } from '../billing/index.js';
import { cancelTimers, schedule, type TimerHandlers } from '../core/scheduler.js';
import { draw, use } from './shared-pool.js';
import type { Session } from '../core/session.js';
import { CALL_MINUTE_CENTS, CALL_START_CENTS, finish, isFinal, jobOf, POOL_LIMIT, WALLET_EMPTY } from './jobs.js';

type P = Record<string, unknown>;
const at = (s: Session, seconds: number) => s.now + seconds * 1000;

function nameFor(s: Session, job: QuickJob, t: QuickTarget): string | null {
  if (job.call!.contact_name) return job.call!.contact_name;
  const c = t.contact_id ? contactById(s.data, t.contact_id) : undefined;
  return c?.name && c.name !== t.to_number ? c.name : null;
}

/**
 * Places the next attempt for target i: draws a shared number, charges the placed-call fee, rings;
 * or, when the carrier refuses the number (`refusal`: its reason, given at creation, the first
 * attempt), fails it at once.
 */
export function dial(s: Session, job: QuickJob, i: number, refusal: string | null = null): void {
  const t = job.targets[i];
  if (job.canceled) return finish(s, job, t, 'canceled', 'canceled');
  const number = draw(s.data.shared_numbers, 'calls', s.now, s.rng);
  if (!number) return finish(s, job, t, 'failed', POOL_LIMIT);
  // a number the carrier refuses: no fee, no slot of the number's day (below)
  const fee = {
    kind: 'quick_call',
    reference_id: job.id,
    description: `Quick call ${job.id} to ${t.to_number}, attempt ${t.attempts + 1}: the placed-call fee`,
  } as const;
  if (!refusal) {
    if (!charge(s, job.workspace_id, CALL_START_CENTS, fee)) return finish(s, job, t, 'failed', WALLET_EMPTY);
    use(number, 'calls', s.now);
    job.cost_cents += CALL_START_CENTS;
  }
  job.from_number ??= number.phone_number;
  t.from_number = number.phone_number;
  t.attempts++;
  const call = openCall(s, {
    workspace_id: job.workspace_id,
    direction: 'outbound',
    from_number: number.phone_number,
    to_number: t.to_number,
    contact_id: t.contact_id,
    phone_number_id: null,
  });
  t.last_call_id = call.id;
  t.status = 'in_progress';
  t.live_call_status = 'ringing';
  if (refusal) {
    // it begins and ends at once, FAILED with the carrier's reason; no retry reaches such a number
    closeCall(s, call, { status: 'FAILED', end_reason: refusal, duration_seconds: null });
    return finish(s, job, t, 'failed', refusal);
  }
  const p = { job: job.id, i, call: call.id };
  // what this attempt meets: the persona of the number (its own, or the built-in of its last four digits)
  const a = attemptOf(personaFor(s.data, t.to_number).call, t.attempts);
  const ring = at(s, a.ring_seconds);
  switch (a.result) {
    case 'answer':
      return void schedule(s, ring, 'qcall.answer', p);
    case 'no_answer':
      return void schedule(s, ring, 'qcall.unanswered', { ...p, status: 'NO_ANSWER' });
    case 'busy':
      return void schedule(s, ring, 'qcall.unanswered', { ...p, status: 'BUSY' });
    case 'voicemail':
      return void schedule(s, ring, 'qcall.voicemail', p);
    case 'fails':
      return void schedule(s, ring, 'qcall.failed', { ...p, error: a.error });
  }
}

/** After an unanswered attempt: retry later, or end the target. */
function retryOrEnd(s: Session, job: QuickJob, i: number, exhausted: 'max_attempts' | 'voicemail'): void {
  const t = job.targets[i];
  t.live_call_status = null;
  if (job.canceled || t.stop_after_call) return finish(s, job, t, 'canceled', 'canceled');
  if (t.attempts <= job.call!.retry_attempts) {
    t.status = 'pending';
    schedule(s, at(s, job.call!.retry_delay_minutes * 60), 'qcall.retry', { job: job.id, i });
  } else {
    finish(s, job, t, 'no_answer', exhausted);
  }
}

/** Cancel: ringing calls are hung up and pending retries dropped; a connected call may finish. */
export function cancelCalls(s: Session, job: QuickJob): void {
  job.targets.forEach((t, i) => {
    if (isFinal(t)) return;
    // a connected call (or a voicemail being left) finishes; its target then ends canceled
    if (t.live_call_status === 'in_progress' || t.live_call_status === 'voicemail')
      return void (t.stop_after_call = true);
    cancelTimers(s, (type, p) => type.startsWith('qcall.') && p.job === job.id && p.i === i && type !== 'qcall.review');
    const call = t.live_call_status === 'ringing' && t.last_call_id ? findCall(s, t.last_call_id) : undefined;
    if (call) closeCall(s, call, { status: 'CANCELED', end_reason: 'canceled', duration_seconds: null });
    finish(s, job, t, 'canceled', 'canceled');
  });
}

type Live = { job: QuickJob; i: number; t: QuickTarget; call: CallRecord };

/**
 * A connected call ends after `seconds` of the `p.seconds` planned: its lines said by then, the
 * minutes billed by the second, the AI review shortly after; the target ends completed (goal met
 * only when the call ran its course), or canceled when a cancel waited for it.
 */
function endConversation(s: Session, c: Live, p: P, seconds: number, endReason: string): void {
  const { job, t, call } = c;
  const planned = p.conversation as unknown as Conversation;
  // cut short (a hang-up through the API) before the planned end: the person's part never settled
  const ending = seconds >= planned.seconds ? planned.ending : 'hangup';
  const goal = ending === 'course' && planned.goal_achieved;
  closeCall(s, call, {
    status: 'COMPLETED',
    end_reason: endReason,
    duration_seconds: seconds,
    turns: planned.turns, // those said by then (closeCall)
    has_recording: true,
  });
  // conversation minutes, billed by the second; the wallet never goes below zero
  job.cost_cents += chargeUpTo(s, job.workspace_id, Math.round((CALL_MINUTE_CENTS * seconds) / 60), {
    kind: 'quick_call',
    reference_id: job.id,
    description: `Quick call ${job.id} to ${t.to_number}: call ${call.id}, ${seconds} s at ${price(CALL_MINUTE_CENTS)} a minute`,
  });
  const r = review(
    { ...planned, seconds, ending },
    (p.persona ?? {}) as Pick<CallPersona, 'summary' | 'tags'>,
    job.goal,
  );
  schedule(s, at(s, REVIEW_DELAY_SECONDS), 'qcall.review', { job: job.id, call: call.id, review: r });
  // canceled while connected: the call was allowed to finish, the target ends canceled (goal_achieved stays true to what happened)
  if (t.stop_after_call) return finish(s, job, t, 'canceled', 'canceled', goal);
  finish(s, job, t, 'completed', goal ? 'goal_achieved' : 'answered', goal);
}

/** The conversation an answered attempt will have, from the number's persona and the job's side. */
function plan(s: Session, job: QuickJob, t: QuickTarget): P {
  const call = personaFor(s.data, t.to_number).call;
  const side = {
    goal: job.goal,
    instructions: job.call!.instructions,
    opening: job.call!.opening_message,
    name: nameFor(s, job, t),
  };
  const conversation = planConversation(call, side, job.call!.max_call_duration_seconds);
  return {
    conversation: conversation as unknown as P,
    persona: { summary: call.summary, tags: call.tags } as P,
    seconds: conversation.seconds,
  };
}

/**
 * POST /v1/voice/calls/{id}/hangup on a quick job's call (calls/routes.ts hands it over as a
 * transition due now): a ringing call ends CANCELED and its target canceled, with no retry; a
 * connected one ends COMPLETED with the time so far (billed by the second), its target answered;
 * a voicemail being left ends VOICEMAIL with what was said, its target no_answer/voicemail.
 */
function hangUpQuickCall(s: Session, c: Live): void {
  const { job, i, t, call } = c;
  const pending = s.data.timers.find((x) => x.type.startsWith('qcall.') && x.payload.call === call.id);
  cancelTimers(s, (type, p) => type.startsWith('qcall.') && p.job === job.id && p.i === i && type !== 'qcall.review');
  const seconds = Math.max(0, Math.round((s.now - Date.parse(call.started_at ?? call.created_at)) / 1000));
  if (t.live_call_status === 'in_progress' && pending?.type === 'qcall.hangup')
    return endConversation(s, c, pending.payload, seconds, 'hangup');
  if (t.live_call_status === 'voicemail' && pending?.type === 'qcall.voicemail_left') {
    const turns = [{ speaker: 'agent' as const, text: String(pending.payload.message), seconds_from_start: 0 }];
    closeCall(s, call, {
      status: 'VOICEMAIL',
      end_reason: 'hangup',
      duration_seconds: seconds,
      turns,
      has_recording: true,
    });
    call.summary = 'Reached voicemail; the call was hung up while the agent left its message.';
    t.live_call_status = null;
    return finish(s, job, t, 'no_answer', 'voicemail');
  }
  closeCall(s, call, { status: 'CANCELED', end_reason: 'hangup', duration_seconds: null });
  finish(s, job, t, 'canceled', 'canceled');
}

function context(s: Session, p: P) {
  const job = jobOf(s, p.job);
  const i = Number(p.i);
  const t = job?.targets[i];
  const call = typeof p.call === 'string' ? findCall(s, p.call) : undefined;
  return job && t && !isFinal(t) ? { job, i, t, call } : null;
}

export const quickCallTimers: TimerHandlers = {
  'qcall.retry': (s, p) => {
    const c = context(s, p);
    if (c) dial(s, c.job, c.i);
  },
  'qcall.answer': (s, p) => {
    const c = context(s, p);
    if (!c?.call) return;
    answerCall(s, c.call);
    c.t.live_call_status = 'in_progress';
    const planned = plan(s, c.job, c.t);
    schedule(s, at(s, Number(planned.seconds)), 'qcall.hangup', { ...p, ...planned });
  },
  'qcall.hangup': (s, p) => {
    const c = context(s, p);
    if (!c?.call) return;
    const ending = (p.conversation as unknown as Conversation).ending;
    endConversation(s, { ...c, call: c.call }, p, Number(p.seconds), ending === 'max' ? 'max_call_duration' : 'hangup');
  },
  'qcall.hung_up': (s, p) => {
    const c = context(s, p);
    if (c?.call) hangUpQuickCall(s, { ...c, call: c.call });
  },
  'qcall.unanswered': (s, p) => {
    const c = context(s, p);
    if (!c?.call) return;
    closeCall(s, c.call, {
      status: String(p.status) as CallStatus,
      end_reason: String(p.status).toLowerCase(),
      duration_seconds: 0,
    });
    retryOrEnd(s, c.job, c.i, 'max_attempts');
  },
  'qcall.voicemail': (s, p) => {
    const c = context(s, p);
    if (!c?.call) return;
    const { job, t, call } = c;
    if (!job.call!.voicemail_enabled) {
      closeCall(s, call, { status: 'VOICEMAIL', end_reason: 'voicemail', duration_seconds: 0 });
      return retryOrEnd(s, job, c.i, 'voicemail');
    }
    // the agent speaks its message after the beep, then hangs up
    answerCall(s, call);
    t.live_call_status = 'voicemail';
    const message = substitute(
      job.call!.voicemail_message ??
        `Hi {{CONTACT_NAME}}, this is an AI assistant calling about: ${job.goal}. Please call us back. Thank you!`,
      nameFor(s, job, t),
    );
    const seconds = Math.min(
      job.call!.max_call_duration_seconds,
      Math.max(5, Math.ceil(message.split(/\s+/).length * 0.4)),
    );
    schedule(s, at(s, seconds), 'qcall.voicemail_left', { ...p, message, seconds });
  },
  'qcall.voicemail_left': (s, p) => {
    const c = context(s, p);
    if (!c?.call) return;
    const turns = [{ speaker: 'agent' as const, text: String(p.message), seconds_from_start: 0 }];
    closeCall(s, c.call, {
      status: 'VOICEMAIL',
      end_reason: 'voicemail',
      duration_seconds: Number(p.seconds),
      turns,
      has_recording: true,
    });
    c.call.summary = 'Reached voicemail; the agent left a message.';
    retryOrEnd(s, c.job, c.i, 'voicemail');
  },
  'qcall.failed': (s, p) => {
    const c = context(s, p);
    if (!c?.call) return;
    closeCall(s, c.call, { status: 'FAILED', end_reason: String(p.error), duration_seconds: null });
    finish(s, c.job, c.t, 'failed', String(p.error));
  },
  'qcall.review': (s, p) => {
    const job = jobOf(s, p.job);
    const call = findCall(s, String(p.call));
    if (!job || !call) return;
    const r = p.review as { summary: string; tags: CallTag[] };
    call.summary = r.summary;
    call.tags = r.tags;
    const t = job.targets.find((x) => x.last_call_id === call.id);
    if (t) t.summary = r.summary;
  },
};
