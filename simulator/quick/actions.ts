// Quick agent actions: POST /v1/quick/ai-calls and /ai-texts, the job read and cancel.
import { iso } from '../core/clock.js';
import { carrierCheck, ensureContact } from '../calls/index.js';
import { ApiError, notFound } from '../core/errors.js';
import { route, type Ctx, type Resource } from '../core/http.js';
import type { QuickJob } from './jobs.js';
import { cancelCalls, dial } from './call-machine.js';
import { cancelTexts, startThread } from './text-machine.js';
import {
  CALL_MINUTE_CENTS,
  CALL_START_CENTS,
  creationView,
  jobView,
  newTarget,
  QuickActionJob,
  QuickActionJobCreated,
  settleAtCreation,
  TEXT_MESSAGE_CENTS,
} from './jobs.js';
import { canCover, price } from '../billing/index.js';
import { poolRoom, type PoolKind } from './shared-pool.js';
import { arr, bool, dataOf, e164, int, obj, oneOf, str, uuid, type Infer } from '../core/schema.js';
import { VOICE_MODEL_TIERS, VOICES } from '../numbers/index.js';

const MAX_TARGETS = 100;

/**
 * The voices a quick call may ask for: every stack's (a shared number's stack is the service's
 * choice, so any voice a number can have is one the caller may name), as the number configuration
 * defines them; a name outside them would be a silent no-op on a real call, so it is 400.
 */
const QUICK_VOICES = [...new Set([...VOICES.t1, ...VOICES.t2].map((v) => v.id))] as [string, ...string[]];

/** Defaults where the spec names none (docs/spec-silent.md, "Quick actions"). */
export const CALL_DEFAULTS = {
  retry_attempts: 2,
  retry_delay_minutes: 10,
  max_call_duration_seconds: 600,
  voicemail_enabled: false,
};
export const TEXT_DEFAULTS = { max_messages: 5, conversation_timeout_hours: 24 };

const toNumbers = () =>
  arr(e164(), {
    min: 1,
    max: MAX_TARGETS,
    unique: true,
    description: `the numbers to reach, E.164, all distinct (1 to ${MAX_TARGETS})`,
    example: ['+12025550100', '+12025550101'],
  });
const goal = () =>
  str({ min: 1, max: 2000, description: 'the outcome to work toward', example: 'Confirm the Tuesday 3pm appointment' });

const CallBody = obj(
  {
    to_numbers: toNumbers(),
    goal: goal(),
    instructions: str({
      max: 10_000,
      description: 'tone, facts the agent may state, objections to expect',
      example: 'Be brief and friendly. The clinic is at 12 Main St.',
    }),
    opening_message: str({
      min: 1,
      max: 1000,
      description: 'the first thing said once the recipient speaks; {{CONTACT_NAME}} is replaced by contact_name',
      example: 'Hello {{CONTACT_NAME}}, this is Acme calling.',
    }),
    voice: oneOf(QUICK_VOICES, {
      description: "voice name: one of the numbers' voices (GET /v1/phone-numbers/{id}/voices), of either stack",
      example: 'ava',
    }),
    voice_model_tier: oneOf(VOICE_MODEL_TIERS, {
      description: "as a number's voice.voice_model_tier",
      example: 'standard',
    }),
    language: str({ min: 2, max: 35, example: 'en-US' }),
    retry_attempts: int({
      min: 0,
      max: 10,
      example: 2,
      description: `retries for a number that does not answer, is busy or reaches voicemail (default ${CALL_DEFAULTS.retry_attempts})`,
    }),
    retry_delay_minutes: int({
      min: 1,
      max: 10_080,
      example: 10,
      description: `wait between attempts (default ${CALL_DEFAULTS.retry_delay_minutes})`,
    }),
    max_call_duration_seconds: int({
      min: 10,
      max: 7200,
      example: 600,
      description: `hard stop on call length (default ${CALL_DEFAULTS.max_call_duration_seconds}, 10 minutes)`,
    }),
    voicemail_enabled: bool(
      `leave a message on voicemail (default ${CALL_DEFAULTS.voicemail_enabled}); without voicemail_message a generated one is left`,
    ),
    voicemail_message: str({
      min: 1,
      max: 1000,
      description: 'exactly what to say on voicemail; {{CONTACT_NAME}} is replaced',
      example: 'Hi {{CONTACT_NAME}}, please call Acme back.',
    }),
    contact_name: str({
      min: 1,
      max: 200,
      description: 'replaces {{CONTACT_NAME}}; with a single destination it also names a new contact',
      example: 'Ada',
    }),
  },
  { required: ['to_numbers', 'goal'] },
);

const TextBody = obj(
  {
    to_numbers: toNumbers(),
    goal: goal(),
    first_message: str({
      min: 1,
      max: 1600,
      description:
        'the opener as written ({{CONTACT_NAME}} from the contact on file); when omitted the agent writes it from the goal',
      example: 'Hi {{CONTACT_NAME}}, still on for Tuesday at 3pm?',
    }),
    max_messages: int({
      min: 1,
      max: 100,
      example: 5,
      description: `cap on outbound messages per recipient (default ${TEXT_DEFAULTS.max_messages})`,
    }),
    conversation_timeout_hours: int({
      min: 1,
      max: 720,
      example: 24,
      description: `the thread ends when the recipient is quiet this long (default ${TEXT_DEFAULTS.conversation_timeout_hours})`,
    }),
  },
  { required: ['to_numbers', 'goal'] },
);

const JobParams = obj({ id: uuid('the job id') }, { required: ['id'] });

function requireRoom(c: Ctx, kind: PoolKind): void {
  if (poolRoom(c.data.shared_numbers, kind, c.s.now) === 0)
    throw new ApiError(
      409,
      'shared_pool_exhausted',
      `Every shared ${kind === 'calls' ? 'calling' : 'texting'} number has reached its daily volume limit`,
    );
}

/** A job is refused up front when the wallet cannot pay for even its first leg. */
function requireFunds(c: Ctx, cents: number): void {
  const org = c.auth.org;
  if (!canCover(org, cents))
    throw new ApiError(
      403,
      'insufficient_funds',
      `The wallet holds ${price(org.wallet_cents)}, less than the first charge of ${price(cents)}; add funds or enable auto-recharge.`,
    );
}

/** The checks every quick job passes before anything is created, then the job itself (no targets yet). */
function newJob(c: Ctx, kind: QuickJob['kind'], b: { goal: string; to_numbers: string[] }): QuickJob {
  requireRoom(c, kind === 'ai_call' ? 'calls' : 'texts');
  requireFunds(c, kind === 'ai_call' ? CALL_START_CENTS : TEXT_MESSAGE_CENTS);
  return {
    id: c.s.rng.uuid(),
    seq: c.s.nextSeq(),
    workspace_id: c.auth.workspace.id,
    kind,
    status: 'running',
    goal: b.goal,
    call: null,
    text: null,
    from_number: null,
    target_count: b.to_numbers.length,
    cost_cents: 0,
    canceled: false,
    targets: [],
    created_at: iso(c.s.now),
    completed_at: null,
  };
}

/** Adds the job with its targets (each folded into a contact) and starts every one. */
function launch(c: Ctx, job: QuickJob, to: string[], contactName: string | null, start: (i: number) => void) {
  job.targets = to.map((n) => newTarget(n, ensureContact(c.s, job.workspace_id, n, contactName).id));
  c.data.quick_jobs.push(job);
  job.targets.forEach((_, i) => start(i));
  settleAtCreation(c.s, job);
  return { status: 201, body: { data: creationView(job) } };
}

async function createCalls(c: Ctx<{}, {}, Infer<typeof CallBody>>) {
  const b = c.body;
  const refuse = await carrierCheck();
  const job = newJob(c, 'ai_call', b);
  job.call = {
    instructions: b.instructions ?? null,
    opening_message: b.opening_message ?? null,
    voice: b.voice ?? null,
    voice_model_tier: b.voice_model_tier ?? null,
    language: b.language ?? null,
    retry_attempts: b.retry_attempts ?? CALL_DEFAULTS.retry_attempts,
    retry_delay_minutes: b.retry_delay_minutes ?? CALL_DEFAULTS.retry_delay_minutes,
    max_call_duration_seconds: b.max_call_duration_seconds ?? CALL_DEFAULTS.max_call_duration_seconds,
    voicemail_enabled: b.voicemail_enabled ?? CALL_DEFAULTS.voicemail_enabled,
    voicemail_message: b.voicemail_message ?? null,
    contact_name: b.contact_name ?? null,
  };
  // contact_name names a new contact only when there is one destination
  return launch(c, job, b.to_numbers, b.to_numbers.length === 1 ? (b.contact_name ?? null) : null, (i) =>
    dial(c.s, job, i, refuse(b.to_numbers[i], 'call')),
  );
}

async function createTexts(c: Ctx<{}, {}, Infer<typeof TextBody>>) {
  const b = c.body;
  const refuse = await carrierCheck();
  const job = newJob(c, 'ai_text', b);
  job.text = {
    first_message: b.first_message ?? null,
    max_messages: b.max_messages ?? TEXT_DEFAULTS.max_messages,
    conversation_timeout_hours: b.conversation_timeout_hours ?? TEXT_DEFAULTS.conversation_timeout_hours,
  };
  return launch(c, job, b.to_numbers, null, (i) => startThread(c.s, job, i, refuse(b.to_numbers[i], 'text')));
}

function findJob(c: Ctx<{ id: string }>): QuickJob {
  const job = c.data.quick_jobs.find((j) => j.id === c.params.id && j.workspace_id === c.auth.workspace.id);
  if (!job) throw notFound(`No quick action ${c.params.id} in this workspace.`);
  return job;
}

function cancel(c: Ctx<{ id: string }>) {
  const job = findJob(c);
  if (job.status === 'completed')
    throw new ApiError(409, 'conflict', 'This job has already ended; there is nothing to cancel.');
  if (!job.canceled) {
    job.canceled = true;
    if (job.kind === 'ai_call') cancelCalls(c.s, job);
    else cancelTexts(c.s, job);
  }
  return { body: { data: jobView(job) } };
}

const started = (what: string) => ({
  201: { description: `Started: ${what}; follow the job at status_url`, schema: dataOf(QuickActionJobCreated) },
});
const startErrors = { 403: ['insufficient_funds'], 409: ['shared_pool_exhausted'] };

export const quickActions: Resource = {
  tag: {
    name: 'Quick actions',
    description:
      'An AI agent calls or texts up to 100 numbers from shared numbers toward a goal; the job read shows each destination.',
  },
  routes: [
    route({
      method: 'POST',
      path: '/v1/quick/ai-calls',
      scope: 'full',
      summary: 'Start a quick AI call job',
      description:
        'An AI agent calls every number in `to_numbers` from a shared number and works toward `goal`. The reply comes as soon as the first attempts are dialing; ' +
        'follow the job at `status_url`. A number that rings out, is busy or reaches voicemail is retried after `retry_delay_minutes` until `retry_attempts` is spent. ' +
        `Defaults: retry_attempts ${CALL_DEFAULTS.retry_attempts}, retry_delay_minutes ${CALL_DEFAULTS.retry_delay_minutes}, ` +
        `max_call_duration_seconds ${CALL_DEFAULTS.max_call_duration_seconds}, voicemail_enabled ${CALL_DEFAULTS.voicemail_enabled}. ` +
        `Pricing: ${price(CALL_START_CENTS)} per call placed (each retry is a new call) plus ${price(CALL_MINUTE_CENTS)} per minute of conversation, ` +
        'billed by the second, from the organization wallet; ' +
        'refused with 403 when the wallet cannot pay the first call and auto-recharge is off, 409 when every shared calling number has reached its daily limit.',
      body: CallBody,
      responses: started('every destination is being dialed'),
      errors: startErrors,
      handler: createCalls,
    }),
    route({
      method: 'POST',
      path: '/v1/quick/ai-texts',
      scope: 'full',
      summary: 'Start a quick AI text job',
      description:
        'An AI agent texts every number in `to_numbers` from a shared number and answers each reply until the goal is met, `max_messages` outbound messages are sent, ' +
        'the recipient is quiet for `conversation_timeout_hours`, or the recipient texts STOP. Opt-out language is appended to the first message to a new recipient. ' +
        `Defaults: max_messages ${TEXT_DEFAULTS.max_messages}, conversation_timeout_hours ${TEXT_DEFAULTS.conversation_timeout_hours}. ` +
        `Pricing: ${price(TEXT_MESSAGE_CENTS)} per outbound message (replies are free), from the organization wallet; ` +
        'refused with 403 when the wallet cannot pay the first message and auto-recharge is off, 409 when every shared texting number has reached its daily limit.',
      body: TextBody,
      responses: started('every destination has been texted'),
      errors: startErrors,
      handler: createTexts,
    }),
    route({
      method: 'GET',
      path: '/v1/quick/actions/{id}',
      scope: 'full',
      summary: 'Read a quick action job',
      description: "A quick call or text job with every destination's progress, counts by status and the cost so far.",
      params: JobParams,
      responses: { 200: { description: 'The job', schema: dataOf(QuickActionJob) } },
      handler: (c) => ({ body: { data: jobView(findJob(c)) } }),
    }),
    route({
      method: 'POST',
      path: '/v1/quick/actions/{id}/cancel',
      scope: 'full',
      summary: 'Cancel a quick action job',
      description:
        'Stops remaining dials, retries and AI replies: those targets end `canceled`. A call already connected (or a voicemail being left) is allowed to finish, ' +
        'then its target ends `canceled`. Canceling a canceled job returns it unchanged; a job that has already completed is 409 `conflict`.',
      params: JobParams,
      responses: { 200: { description: 'The job as it is now', schema: dataOf(QuickActionJob) } },
      errors: { 409: ['conflict'] },
      handler: cancel,
    }),
  ],
};
