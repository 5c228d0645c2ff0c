// Quick agent actions: POST /v1/quick/ai-calls and /ai-texts, the job read and cancel.
import { iso } from '../clock.js';
import { ensureContact } from '../conversations.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import type { QuickJob } from '../model.js';
import { cancelCalls, dial, quickCallTimers } from '../machines/quick-call.js';
import { cancelTexts, quickTextTimers, startThread } from '../machines/quick-text.js';
import { CALL_START_CENTS, creationView, jobView, newTarget, TEXT_MESSAGE_CENTS } from '../machines/jobs.js';
import { usd } from '../money.js';
import { poolRoom, type PoolKind } from '../shared-pool.js';
import { arr, bool, e164, int, obj, parse, parseQuery, str } from '../validate.js';

const MAX_TARGETS = 100;
const toNumbers = arr(e164(), { min: 1, max: MAX_TARGETS });

const callBody = obj({
  to_numbers: toNumbers,
  goal: str({ min: 1, max: 2000 }),
  instructions: str({ max: 10_000 }),
  opening_message: str({ min: 1, max: 1000 }),
  voice: str({ min: 1, max: 100 }),
  voice_model_tier: str({ min: 1, max: 50 }),
  language: str({ min: 2, max: 35 }),
  retry_attempts: int({ min: 0, max: 10 }),
  retry_delay_minutes: int({ min: 1, max: 10_080 }),
  max_call_duration_seconds: int({ min: 10, max: 7200 }),
  voicemail_enabled: bool(),
  voicemail_message: str({ min: 1, max: 1000 }),
  contact_name: str({ min: 1, max: 200 }),
}, { required: ['to_numbers', 'goal'] });

const textBody = obj({
  to_numbers: toNumbers,
  goal: str({ min: 1, max: 2000 }),
  first_message: str({ min: 1, max: 1600 }),
  max_messages: int({ min: 1, max: 100 }),
  conversation_timeout_hours: int({ min: 1, max: 720 }),
}, { required: ['to_numbers', 'goal'] });

/** Defaults where the spec names none (README). */
export const CALL_DEFAULTS = { retry_attempts: 2, retry_delay_minutes: 10, max_call_duration_seconds: 600, voicemail_enabled: false };
export const TEXT_DEFAULTS = { max_messages: 5, conversation_timeout_hours: 24 };

function checkDistinct(numbers: string[]): void {
  const seen = new Map<string, number>();
  numbers.forEach((n, i) => {
    if (seen.has(n)) throw validationError({ [`to_numbers[${i}]`]: `repeats to_numbers[${seen.get(n)}]` });
    seen.set(n, i);
  });
}

function requireRoom(c: Ctx, kind: PoolKind): void {
  if (poolRoom(c.data.shared_numbers, kind, c.s.now) === 0)
    throw new ApiError(409, 'shared_pool_exhausted', `Every shared ${kind === 'calls' ? 'calling' : 'texting'} number has reached its daily volume limit`);
}

/** A job is refused up front when the wallet cannot pay for even its first leg. */
function requireFunds(c: Ctx, cents: number): void {
  const org = c.auth.org;
  if (org.wallet_cents < cents && !org.auto_recharge.enabled)
    throw new ApiError(403, 'insufficient_funds', `The wallet holds ${usd(org.wallet_cents).toFixed(2)} USD, less than the first charge of ${usd(cents).toFixed(2)} USD; add funds or enable auto-recharge.`);
}

/** The checks every quick job passes before anything is created, then the job itself (no targets yet). */
function newJob(c: Ctx, kind: QuickJob['kind'], b: { goal: string; to_numbers: string[] }): QuickJob {
  checkDistinct(b.to_numbers);
  requireRoom(c, kind === 'ai_call' ? 'calls' : 'texts');
  requireFunds(c, kind === 'ai_call' ? CALL_START_CENTS : TEXT_MESSAGE_CENTS);
  return {
    id: c.s.rng.uuid(), seq: c.s.nextSeq(), workspace_id: c.auth.workspace.id, kind, status: 'running', goal: b.goal, call: null, text: null,
    from_number: null, target_count: b.to_numbers.length, cost_cents: 0, canceled: false, targets: [], created_at: iso(c.s.now), completed_at: null,
  };
}

/** Adds the job with its targets (each folded into a contact) and starts every one. */
function launch(c: Ctx, job: QuickJob, to: string[], contactName: string | null, start: (i: number) => void) {
  job.targets = to.map((n) => newTarget(n, ensureContact(c.s, job.workspace_id, n, contactName).id));
  c.data.quick_jobs.push(job);
  job.targets.forEach((_, i) => start(i));
  return { status: 201, body: { data: creationView(job) } };
}

function createCalls(c: Ctx) {
  const b = parse(callBody, c.body);
  const job = newJob(c, 'ai_call', b);
  job.call = {
    instructions: b.instructions ?? null, opening_message: b.opening_message ?? null, voice: b.voice ?? null,
    voice_model_tier: b.voice_model_tier ?? null, language: b.language ?? null,
    retry_attempts: b.retry_attempts ?? CALL_DEFAULTS.retry_attempts,
    retry_delay_minutes: b.retry_delay_minutes ?? CALL_DEFAULTS.retry_delay_minutes,
    max_call_duration_seconds: b.max_call_duration_seconds ?? CALL_DEFAULTS.max_call_duration_seconds,
    voicemail_enabled: b.voicemail_enabled ?? CALL_DEFAULTS.voicemail_enabled,
    voicemail_message: b.voicemail_message ?? null, contact_name: b.contact_name ?? null,
  };
  // contact_name names a new contact only when there is one destination
  return launch(c, job, b.to_numbers, b.to_numbers.length === 1 ? b.contact_name ?? null : null, (i) => dial(c.s, job, i));
}

function createTexts(c: Ctx) {
  const b = parse(textBody, c.body);
  const job = newJob(c, 'ai_text', b);
  job.text = {
    first_message: b.first_message ?? null,
    max_messages: b.max_messages ?? TEXT_DEFAULTS.max_messages,
    conversation_timeout_hours: b.conversation_timeout_hours ?? TEXT_DEFAULTS.conversation_timeout_hours,
  };
  return launch(c, job, b.to_numbers, null, (i) => startThread(c.s, job, i));
}

function findJob(c: Ctx): QuickJob {
  const job = c.data.quick_jobs.find((j) => j.id === c.params.id && j.workspace_id === c.auth.workspace.id);
  if (!job) throw notFound(`No quick action ${c.params.id} in this workspace.`);
  return job;
}

function cancel(c: Ctx) {
  parse(obj({}), c.body);
  const job = findJob(c);
  if (job.status === 'completed') throw new ApiError(409, 'conflict', 'This job has already ended; there is nothing to cancel.');
  if (!job.canceled) {
    job.canceled = true;
    if (job.kind === 'ai_call') cancelCalls(c.s, job);
    else cancelTexts(c.s, job);
  }
  return { body: { data: jobView(job) } };
}

export const quickActions: Resource = {
  routes: [
    { method: 'POST', path: '/v1/quick/ai-calls', scope: 'full', handler: createCalls },
    { method: 'POST', path: '/v1/quick/ai-texts', scope: 'full', handler: createTexts },
    { method: 'GET', path: '/v1/quick/actions/{id}', scope: 'full', handler: (c) => (parseQuery(c.query, {}), { body: { data: jobView(findJob(c)) } }) },
    { method: 'POST', path: '/v1/quick/actions/{id}/cancel', scope: 'full', handler: cancel },
  ],
  timers: { ...quickCallTimers, ...quickTextTimers },
};
