// What quick call and quick text jobs share: finding a job and target, ending a target, ending the
// job once every target is final, and the job as the API shows it (its schema: Quick action job).
import { iso } from '../core/clock.js';
import { usd } from '../billing/index.js';
import * as z from 'zod/mini';
import {
  absent,
  doc,
  e164,
  int,
  named,
  nullable,
  num,
  oneOf,
  record,
  timestamp,
  uuid,
  withoutNulls,
  type Infer,
} from '../core/schema.js';
import type { Session } from '../core/session.js';
import { schedule, type TimerHandlers } from '../core/scheduler.js';

export const CALL_START_CENTS = 20;
export const CALL_MINUTE_CENTS = 20;
export const TEXT_MESSAGE_CENTS = 5;
/** end_reason when a charge cannot be covered (the provider's words: the account is paused). */
export const WALLET_EMPTY =
  'Account paused: the wallet balance cannot cover this charge and auto-recharge is off or was declined';
export const POOL_LIMIT = 'shared_pool_daily_limit';

// ---- the job as the API shows it (spec Part 2, Quick action job) ----

export const TARGET_STATUSES = [
  'pending',
  'in_progress',
  'completed',
  'no_answer',
  'failed',
  'opted_out',
  'canceled',
] as const;
const TargetStatusSchema = oneOf(TARGET_STATUSES);
export type TargetStatus = Infer<typeof TargetStatusSchema>;

/** One target as the examples show it: the target's own, and inside the job's. */
const TARGET_EXAMPLE = {
  to_number: '+14155550100',
  from_number: '+14155550123',
  status: 'completed',
  attempts: 1,
  last_call_id: '9b2f6c1e-4d7a-4e0b-8f3c-5a1d2e6b7c80',
  messages_sent: 0,
  messages_received: 0,
  goal_achieved: true,
  end_reason: 'goal_achieved',
  summary: 'The recipient agreed: confirm the appointment on Tuesday at 10:00.',
};

export const QuickTargetSchema = named(
  'QuickActionTarget',
  () =>
    record({
      to_number: e164(),
      from_number: doc(
        absent(e164()),
        'the shared number this destination was reached from (each may use a different one); absent until the first attempt',
      ),
      status: TargetStatusSchema,
      live_call_status: doc(
        absent(oneOf(['ringing', 'in_progress', 'voicemail'])),
        'while a call is live (calls only); absent otherwise',
      ),
      attempts: doc(int({ min: 0 }), 'calls placed, or 1 once a text thread has started'),
      last_call_id: doc(absent(uuid()), 'the Call record of the latest attempt (calls only; absent before one)'),
      messages_sent: doc(int({ min: 0 }), 'outbound messages (texts only)'),
      messages_received: doc(int({ min: 0 }), 'replies received (texts only)'),
      goal_achieved: z.boolean(),
      end_reason: doc(nullable(z.string()), {
        description: `why the target ended: answered, goal_achieved, voicemail, max_attempts, max_messages, opted_out, canceled, ${POOL_LIMIT}, or the provider's error text; null while it has not`,
        example: 'goal_achieved',
      }),
      summary: doc(nullable(z.string()), 'AI summary of the conversation, shortly after it ends'),
    }),
  {
    description: 'One destination of a quick action job.',
    example: TARGET_EXAMPLE,
  },
);

const count = () => int({ min: 0 });
const CountsSchema = record(
  {
    total: count(),
    pending: count(),
    in_progress: count(),
    completed: count(),
    no_answer: count(),
    failed: count(),
    opted_out: count(),
    canceled: count(),
  },
  'targets by status',
);

const PricingSchema = named(
  'QuickActionPricing',
  () =>
    record({
      start_fee_usd: doc(num({ min: 0 }), { description: 'per call placed (0 for texts)', example: 0.2 }),
      per_minute_usd: doc(num({ min: 0 }), { description: 'per minute of conversation (0 for texts)', example: 0.2 }),
      per_message_usd: z.optional(
        doc(num({ min: 0 }), { description: 'per outbound message; text jobs only', example: 0.05 }),
      ),
      note: z.string(),
    }),
  {
    description: 'What the job costs; paid from the organization wallet.',
    example: {
      start_fee_usd: 0.2,
      per_minute_usd: 0.2,
      note: '0.20 USD per call placed (each retry is a new call) plus 0.20 USD per minute of conversation, billed by the second.',
    },
  },
);

const created = {
  id: uuid(),
  kind: doc(oneOf(['ai_call', 'ai_text']), 'ai_call: POST /v1/quick/ai-calls; ai_text: POST /v1/quick/ai-texts'),
  status: doc(
    oneOf(['running', 'completed', 'canceled']),
    'running at creation; completed once every target has ended; canceled when it ended after a cancel',
  ),
  from_number: doc(
    e164(),
    'the shared number of the first attempt; when every destination failed before one was placed, the number it would have used',
  ),
  target_count: doc(int({ min: 1 }), 'how many destinations'),
  status_url: doc(z.string(), {
    description: 'path of the job read',
    example: '/v1/quick/actions/3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
  }),
  pricing: PricingSchema,
};

/** The reply to a creation (a subset of the job). */
const JOB_EXAMPLE = {
  id: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
  kind: 'ai_call',
  status: 'running',
  from_number: '+14155550123',
  target_count: 1,
  status_url: '/v1/quick/actions/3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
  pricing: {
    start_fee_usd: 0.2,
    per_minute_usd: 0.2,
    note: '0.20 USD per call placed (each retry is a new call) plus 0.20 USD per minute of conversation, billed by the second.',
  },
};

export const QuickActionJobCreated = named('QuickActionJobCreated', () => record(created), {
  description:
    'A quick action job as returned at creation: id, kind, status, from_number, target_count, status_url and pricing.',
  example: JOB_EXAMPLE,
});

/** What the job read shows of the creation's fields: the spec gives target_count and pricing "at creation" only. */
const { target_count: _count, pricing: _pricing, ...read } = created;

export const QuickActionJob = named(
  'QuickActionJob',
  () =>
    record({
      ...read,
      goal: z.string(),
      targets: doc(z.array(QuickTargetSchema), 'one per destination, in the order of to_numbers'),
      counts: CountsSchema,
      cost_usd: doc(num({ min: 0 }), { description: 'charged to the wallet so far', example: 0.37 }),
      created_at: timestamp(),
      completed_at: doc(nullable(timestamp()), 'when the last target ended; null while running'),
    }),
  {
    description:
      'Quick action job (spec Part 2): a quick AI call or text job and its targets. target_count and pricing are part of the creation reply only, as the spec says.',
    example: {
      id: JOB_EXAMPLE.id,
      kind: JOB_EXAMPLE.kind,
      from_number: JOB_EXAMPLE.from_number,
      status_url: JOB_EXAMPLE.status_url,
      status: 'completed',
      goal: 'confirm the appointment on Tuesday at 10:00',
      targets: [TARGET_EXAMPLE],
      counts: {
        total: 1,
        pending: 0,
        in_progress: 0,
        completed: 1,
        no_answer: 0,
        failed: 0,
        opted_out: 0,
        canceled: 0,
      },
      cost_usd: 0.37,
      created_at: '2026-01-05T09:00:00.000Z',
      completed_at: '2026-01-05T09:01:10.000Z',
    },
  },
);

export type QuickTargetOut = Infer<typeof QuickTargetSchema>;
export type QuickJobOut = Infer<typeof QuickActionJob>;

export const FINAL: ReadonlySet<TargetStatus> = new Set(['completed', 'no_answer', 'failed', 'opted_out', 'canceled']);
export const isFinal = (t: QuickTarget) => FINAL.has(t.status);

export function newTarget(to: string, contactId: string | null): QuickTarget {
  return {
    to_number: to,
    from_number: null,
    status: 'pending',
    live_call_status: null,
    attempts: 0,
    last_call_id: null,
    messages_sent: 0,
    messages_received: 0,
    goal_achieved: false,
    end_reason: null,
    summary: null,
    contact_id: contactId,
    stop_after_call: false,
    replied: false,
  };
}

export function jobOf(s: Session, id: unknown): QuickJob | undefined {
  return s.data.quick_jobs.find((j) => j.id === id);
}

/** Ends a target; the job ends when its last target does. */
export function finish(
  s: Session,
  job: QuickJob,
  t: QuickTarget,
  status: TargetStatus,
  endReason: string,
  goalAchieved = false,
): void {
  t.status = status;
  t.end_reason = endReason;
  t.live_call_status = null;
  t.goal_achieved = goalAchieved;
  if (job.status === 'running' && job.targets.every(isFinal)) {
    job.status = job.canceled ? 'canceled' : 'completed';
    job.completed_at = iso(s.now);
  }
}

/** How long after creation a job whose every target failed at once ends: a moment on the clock (1 s). */
export const SETTLE_MS = 1000;

/**
 * The job's reply at creation is always `running` ("`running` is the value at creation") with a
 * from_number: a job whose every target ended while it was made (the pool full, the wallet empty,
 * numbers the carrier refuses) ends a moment later, by the quick.settle transition; one that placed
 * nothing names the pool's first number, the one it would have used.
 */
export function settleAtCreation(s: Session, job: QuickJob): void {
  job.from_number ??= s.data.shared_numbers[0]?.phone_number ?? null;
  if (job.status === 'running') return;
  job.status = 'running';
  job.completed_at = null;
  schedule(s, s.now + SETTLE_MS, 'quick.settle', { job: job.id });
}

export const settleTimers: TimerHandlers = {
  'quick.settle': (s, p) => {
    const job = s.data.quick_jobs.find((j) => j.id === p.job);
    if (!job || job.status !== 'running' || !job.targets.every(isFinal)) return;
    job.status = job.canceled ? 'canceled' : 'completed';
    job.completed_at = iso(s.now);
  },
};

export function counts(job: QuickJob): Infer<typeof CountsSchema> {
  const c = {
    total: job.targets.length,
    pending: 0,
    in_progress: 0,
    completed: 0,
    no_answer: 0,
    failed: 0,
    opted_out: 0,
    canceled: 0,
  };
  for (const t of job.targets) c[t.status]++;
  return c;
}

export function pricing(job: QuickJob): Infer<typeof PricingSchema> {
  return job.kind === 'ai_call'
    ? {
        start_fee_usd: usd(CALL_START_CENTS),
        per_minute_usd: usd(CALL_MINUTE_CENTS),
        note: '0.20 USD per call placed (each retry is a new placed call, charged when placed) plus 0.20 USD per minute of conversation, billed by the second and rounded to the cent; paid from the wallet.',
      }
    : {
        start_fee_usd: 0,
        per_minute_usd: 0,
        per_message_usd: usd(TEXT_MESSAGE_CENTS),
        note: '0.05 USD per outbound message; replies are free; paid from the wallet.',
      };
}

export const statusUrl = (job: QuickJob) => `/v1/quick/actions/${job.id}`;

/**
 * The reply to a creation: returned as soon as the first attempts are under way. (from_number is
 * always set since settleAtCreation; only a job kept from an older vmv may lack it.)
 */
export function creationView(job: QuickJob): Infer<typeof QuickActionJobCreated> {
  return withoutNulls(
    {
      id: job.id,
      kind: job.kind,
      status: job.status,
      from_number: job.from_number,
      target_count: job.target_count,
      status_url: statusUrl(job),
      pricing: pricing(job),
    },
    ['from_number'],
  ) as Infer<typeof QuickActionJobCreated>;
}

export function jobView(job: QuickJob): QuickJobOut {
  return withoutNulls(jobFields(job), ['from_number']) as QuickJobOut;
}

function jobFields(job: QuickJob) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    goal: job.goal,
    from_number: job.from_number,
    status_url: statusUrl(job),
    targets: job.targets.map((t) =>
      withoutNulls(
        {
          to_number: t.to_number,
          from_number: t.from_number,
          status: t.status,
          live_call_status: t.live_call_status,
          attempts: t.attempts,
          last_call_id: t.last_call_id,
          messages_sent: t.messages_sent,
          messages_received: t.messages_received,
          goal_achieved: t.goal_achieved,
          end_reason: t.end_reason,
          summary: t.summary,
        },
        ['from_number', 'live_call_status', 'last_call_id'],
      ),
    ),
    counts: counts(job),
    cost_usd: usd(job.cost_cents),
    created_at: job.created_at,
    completed_at: job.completed_at,
  };
}

// ---- as stored ----

/** A quick job's destination: what the job read shows of it, and what the machines keep beside. */
export type QuickTarget = Omit<QuickTargetOut, 'from_number' | 'live_call_status' | 'last_call_id'> & {
  from_number: string | null;
  live_call_status: Exclude<QuickTargetOut['live_call_status'], undefined> | null;
  last_call_id: string | null;
  contact_id: string | null;
  /** cancel asked while a call was connected: finish it, then stop */
  stop_after_call: boolean;
  /** the person has replied at least once (texts) */
  replied: boolean;
};

export interface QuickCallParams {
  instructions: string | null;
  opening_message: string | null;
  voice: string | null;
  voice_model_tier: string | null;
  language: string | null;
  retry_attempts: number;
  retry_delay_minutes: number;
  max_call_duration_seconds: number;
  voicemail_enabled: boolean;
  voicemail_message: string | null;
  contact_name: string | null;
}

export interface QuickTextParams {
  first_message: string | null;
  max_messages: number;
  conversation_timeout_hours: number;
}

/** A quick job: the fields the job read shows as stored, and what the machines keep beside. */
export type QuickJob = Pick<QuickJobOut, 'id' | 'kind' | 'status' | 'goal' | 'created_at' | 'completed_at'> & {
  target_count: number;
  from_number: string | null;
  seq: number;
  workspace_id: string;
  call: QuickCallParams | null;
  text: QuickTextParams | null;
  cost_cents: number;
  canceled: boolean;
  targets: QuickTarget[];
};

declare module '../core/world.js' {
  interface World {
    quick_jobs: QuickJob[];
  }
  interface Workspace {
    /** simulated rate limits (the real thresholds are not published) */
    rate_limits: { quick_emails_per_minute: number };
    /** times of recent quick-email requests, for the rate limit window */
    recent_quick_emails: number[];
  }
}
