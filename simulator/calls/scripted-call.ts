// A call whose course is decided when it starts (voice calls and inbound calls): it rings, is
// answered or not, talks, ends, and is reviewed, each step a timer on the simulator clock.
// Hanging up cuts it short. Quick-job calls have their own machine (retries, targets).
import type { CallStatus, CallTag, CallRecord, TranscriptTurn } from '../history/index.js';
import { iso } from '../core/clock.js';
import { answerCall, closeCall, expireRecording, findCall } from './conversations.js';
import { cancelTimers, schedule, type TimerHandlers } from '../core/scheduler.js';
import type { Session } from '../core/session.js';

export interface CallPlan {
  /** seconds of ringing before it is answered, or before it ends unanswered */
  ring_seconds: number;
  answered: boolean;
  talk_seconds: number;
  status: CallStatus;
  end_reason: string;
  turns: TranscriptTurn[];
  has_recording: boolean;
  /** null: summaries are off */
  review: { summary: string; tags: CallTag[] } | null;
}

export const REVIEW_DELAY_SECONDS = 5;

export function runCall(s: Session, call: CallRecord, plan: CallPlan): void {
  const p = { call: call.id, plan: plan as unknown as Record<string, unknown> };
  if (plan.answered) schedule(s, s.now + plan.ring_seconds * 1000, 'call.answer', p);
  schedule(s, s.now + (plan.ring_seconds + (plan.answered ? plan.talk_seconds : 0)) * 1000, 'call.finish', p);
}

export const isLive = (call: CallRecord) => call.status === 'RINGING' || call.status === 'IN_PROGRESS';

/** Ends a live scripted call now: a ringing call is canceled, a connected one completed with what was said so far. */
export function hangUp(s: Session, call: CallRecord): void {
  const pending = s.data.timers.find((t) => t.type === 'call.finish' && t.payload.call === call.id);
  const plan = pending?.payload.plan as CallPlan | undefined;
  cancelTimers(s, (type, p) => (type === 'call.answer' || type === 'call.finish') && p.call === call.id);
  if (call.status === 'RINGING')
    return closeCall(s, call, { status: 'CANCELED', end_reason: 'hangup', duration_seconds: null });
  const seconds = Math.max(0, Math.round((s.now - Date.parse(call.started_at ?? iso(s.now))) / 1000));
  closeCall(s, call, {
    status: 'COMPLETED',
    end_reason: 'hangup',
    duration_seconds: seconds,
    turns: plan?.turns ?? [], // those said by then (closeCall)
    has_recording: plan?.has_recording ?? false,
  });
  if (plan?.review)
    schedule(s, s.now + REVIEW_DELAY_SECONDS * 1000, 'call.review', {
      call: call.id,
      review: { summary: `The call was hung up after ${seconds} s.`, tags: [] },
    });
}

export const scriptedCallTimers: TimerHandlers = {
  'call.answer': (s, p) => {
    const call = findCall(s, String(p.call));
    if (call?.status === 'RINGING') answerCall(s, call);
  },
  'call.finish': (s, p) => {
    const call = findCall(s, String(p.call));
    if (!call || !isLive(call)) return;
    const plan = p.plan as unknown as CallPlan;
    closeCall(s, call, {
      status: plan.status,
      end_reason: plan.end_reason,
      duration_seconds: plan.answered ? plan.talk_seconds : 0,
      turns: plan.turns,
      has_recording: plan.has_recording,
    });
    if (plan.review)
      schedule(s, s.now + REVIEW_DELAY_SECONDS * 1000, 'call.review', { call: call.id, review: plan.review });
  },
  'call.recording_expired': (s, p) => expireRecording(s, String(p.call)),
  'call.review': (s, p) => {
    const call = findCall(s, String(p.call));
    const review = p.review as { summary: string; tags: CallTag[] };
    if (call) Object.assign(call, { summary: review.summary, tags: review.tags });
  },
};
