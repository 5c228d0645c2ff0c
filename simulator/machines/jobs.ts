// What quick call and quick text jobs share: finding a job and target, ending a target, ending the
// job once every target is final, and the job as the API shows it.
import { iso } from '../clock.js';
import type { Organization, QuickJob, QuickTarget, TargetStatus } from '../model.js';
import { usd } from '../money.js';
import { orgOfWorkspace } from '../people.js';
import type { Session } from '../store.js';

export const FINAL: ReadonlySet<TargetStatus> = new Set(['completed', 'no_answer', 'failed', 'opted_out', 'canceled']);
export const isFinal = (t: QuickTarget) => FINAL.has(t.status);

export const CALL_START_CENTS = 20;
export const CALL_MINUTE_CENTS = 20;
export const TEXT_MESSAGE_CENTS = 5;
/** end_reason when a charge cannot be covered (the provider's words: the account is paused). */
export const WALLET_EMPTY = 'Account paused: the wallet balance cannot cover this charge and auto-recharge is off';
export const POOL_LIMIT = 'shared_pool_daily_limit';

export function newTarget(to: string, contactId: string | null): QuickTarget {
  return {
    to_number: to, from_number: null, status: 'pending', live_call_status: null, attempts: 0, last_call_id: null,
    messages_sent: 0, messages_received: 0, goal_achieved: false, end_reason: null, summary: null,
    contact_id: contactId, stop_after_call: false, replied: false,
  };
}

export function jobOf(s: Session, id: unknown): QuickJob | undefined {
  return s.data.quick_jobs.find((j) => j.id === id);
}

export const orgOf = (s: Session, job: QuickJob): Organization => orgOfWorkspace(s.data, job.workspace_id);

/** Ends a target; the job ends when its last target does. */
export function finish(s: Session, job: QuickJob, t: QuickTarget, status: TargetStatus, endReason: string, goalAchieved = false): void {
  t.status = status;
  t.end_reason = endReason;
  t.live_call_status = null;
  t.goal_achieved = goalAchieved;
  if (job.status === 'running' && job.targets.every(isFinal)) {
    job.status = job.canceled ? 'canceled' : 'completed';
    job.completed_at = iso(s.now);
  }
}

export function counts(job: QuickJob) {
  const c = { total: job.targets.length, pending: 0, in_progress: 0, completed: 0, no_answer: 0, failed: 0, opted_out: 0, canceled: 0 };
  for (const t of job.targets) c[t.status]++;
  return c;
}

export function pricing(job: QuickJob) {
  return job.kind === 'ai_call'
    ? {
        start_fee_usd: usd(CALL_START_CENTS), per_minute_usd: usd(CALL_MINUTE_CENTS),
        note: '0.20 USD per call placed (each retry is a new placed call, charged when placed) plus 0.20 USD per minute of conversation, billed by the second and rounded to the cent; paid from the wallet.',
      }
    : {
        start_fee_usd: 0, per_minute_usd: 0, per_message_usd: usd(TEXT_MESSAGE_CENTS),
        note: '0.05 USD per outbound message; replies are free; paid from the wallet.',
      };
}

export const statusUrl = (job: QuickJob) => `/v1/quick/actions/${job.id}`;

/** The reply to a creation: returned as soon as the first attempts are under way. */
export function creationView(job: QuickJob) {
  return { id: job.id, kind: job.kind, status: job.status, from_number: job.from_number, target_count: job.target_count, status_url: statusUrl(job), pricing: pricing(job) };
}

export function jobView(job: QuickJob) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    goal: job.goal,
    from_number: job.from_number,
    target_count: job.target_count,
    status_url: statusUrl(job),
    pricing: pricing(job),
    targets: job.targets.map((t) => ({
      to_number: t.to_number, from_number: t.from_number, status: t.status, live_call_status: t.live_call_status,
      attempts: t.attempts, last_call_id: t.last_call_id, messages_sent: t.messages_sent, messages_received: t.messages_received,
      goal_achieved: t.goal_achieved, end_reason: t.end_reason, summary: t.summary,
    })),
    counts: counts(job),
    cost_usd: usd(job.cost_cents),
    created_at: job.created_at,
    completed_at: job.completed_at,
  };
}
