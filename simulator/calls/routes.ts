// Voice calls: POST /v1/voice/calls from a verified caller ID (masked as the caller), and hangup.
// The destination's persona (its own, or the built-in of its last four digits) decides how the call
// goes (docs/personas.md, "Personas: the person behind any number"), played as on any call (persona-play.ts).
import { findCall, openCall } from './conversations.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Ctx, Resource } from '../core/http.js';
import { schedule } from '../core/scheduler.js';
import { hangUp, isLive, runCall, type CallPlan } from './scripted-call.js';
import { contactByPhone, presentCall, CallRecordSchema, type CallOut } from '../history/index.js';
import { carrierCheck } from './scenarios.js';
import { personaFor, type Resolved } from './persona.js';
import { oneOffCall, planConversation, review } from './persona-play.js';
import { bool, dataOf, e164, freeInput, obj, uuid, type Infer } from '../core/schema.js';
import { notConnected } from '../numbers/index.js';

const Body = obj(
  {
    caller_id: e164({
      description: "a verified caller ID of the account, or one of the workspace's ready numbers; the call shows it",
      example: '+14155550100',
    }),
    destination: e164({ example: '+14155550123' }),
    record: bool("record the call (default true; a workspace number's recording_enabled applies too)"),
    metadata: freeInput({ description: 'kept on the call record', example: { ticket: 42 } }),
  },
  { required: ['caller_id', 'destination'] },
);

const CallParams = obj({ id: uuid("the call's id") }, { required: ['id'] });

/**
 * The agent's side on a voice call: it has no goal (the API takes none), so the review says how the
 * talk went rather than what was agreed (review: a null goal).
 */
const VOICE_SIDE = { goal: 'talk with you', instructions: null, opening: 'Hi, thanks for picking up.', name: null };

/**
 * The course of an outbound voice call to a number with this persona (no retries: that is quick
 * calls' job): a placed call meets the persona's last attempt (oneOffCall); answered, the persona's
 * lines are played and reviewed as on any call, so a built-in and a copy of it (`vmv sim persona
 * show … | vmv sim persona set … --file -`) give the same call.
 */
export function planOutbound(persona: Resolved, record: boolean, refusal: string | null = null): CallPlan {
  const none = { answered: false, talk_seconds: 0, turns: [], has_recording: false, review: null };
  // a number the carrier refuses (`refusal`, its reason): it fails at once, never ringing
  if (refusal) return { ...none, ring_seconds: 0, status: 'FAILED', end_reason: refusal };
  const a = oneOffCall(persona.call);
  if (a.result === 'no_answer')
    return { ...none, ring_seconds: a.ring_seconds, status: 'NO_ANSWER', end_reason: 'no_answer' };
  if (a.result === 'busy') return { ...none, ring_seconds: a.ring_seconds, status: 'BUSY', end_reason: 'busy' };
  if (a.result === 'voicemail')
    return { ...none, ring_seconds: a.ring_seconds, status: 'VOICEMAIL', end_reason: 'voicemail' };
  if (a.result === 'fails') return { ...none, ring_seconds: a.ring_seconds, status: 'FAILED', end_reason: a.error };
  const c = planConversation(persona.call, VOICE_SIDE, Number.POSITIVE_INFINITY);
  return {
    ring_seconds: a.ring_seconds,
    answered: true,
    status: 'COMPLETED',
    end_reason: 'hangup',
    talk_seconds: c.seconds,
    turns: c.turns,
    has_recording: record,
    review: review(c, persona.call, null),
  };
}

async function place(c: Ctx<{}, {}, Infer<typeof Body>>): Promise<CallOut> {
  const b = c.body;
  const ws = c.auth.workspace;
  const own = c.data.phone_numbers.find(
    (n) => n.workspace_id === ws.id && n.phone_number === b.caller_id && n.status === 'ready',
  );
  if (!own && !ws.caller_ids.includes(b.caller_id))
    throw new ApiError(
      422,
      'caller_id_not_verified',
      `The caller ID ${b.caller_id} is not verified for this account.`,
      { caller_id: 'is not a verified caller ID of this account' },
    );
  const refused = own && notConnected(c.s, own, 'call');
  if (refused === 'line_suspended')
    throw new ApiError(
      403,
      'insufficient_funds',
      `Number ${own!.id}'s line is suspended: the wallet could not pay its monthly charge. Top up the wallet to resume it.`,
    );
  if (refused === 'account_paused')
    throw new ApiError(
      403,
      'insufficient_funds',
      "The account is paused for calls: the plan's included minutes are used up this month and the wallet cannot pay a minute. Add funds or enable auto-recharge.",
    );
  const call = openCall(c.s, {
    workspace_id: ws.id,
    direction: 'outbound',
    from_number: b.caller_id,
    to_number: b.destination,
    contact_id: contactByPhone(c.data, ws.id, b.destination)?.id ?? null,
    phone_number_id: own?.id ?? null,
  });
  call.metadata = b.metadata ?? {};
  // placed from one of the workspace's numbers: its call settings apply too
  const settings = own?.config.call_settings;
  const refusal = (await carrierCheck())(b.destination, 'call');
  const plan = planOutbound(
    personaFor(c.data, b.destination),
    (b.record ?? true) && (settings?.recording_enabled ?? true),
    refusal,
  );
  if (settings && !settings.transcription_enabled) plan.turns = [];
  if (settings && !settings.summaries_enabled) plan.review = null;
  runCall(c.s, call, plan);
  return presentCall(call);
}

async function hangup(c: Ctx<Infer<typeof CallParams>>): Promise<CallOut> {
  const found = findCall(c.s, c.params.id);
  const call = found?.workspace_id === c.auth.workspace.id ? found : undefined;
  if (!call) throw notFound(`No call ${c.params.id} in this workspace.`);
  if (!isLive(call))
    throw new ApiError(
      409,
      'conflict',
      `Only a ringing or in-progress call can be hung up; this call is ${call.status}.`,
    );
  const job = c.data.quick_jobs.find((j) => j.targets.some((t) => t.last_call_id === call.id));
  if (job) {
    // a quick job's call: its machine ends it and records it on the target (quick sits above calls,
    // so the hang-up is handed over as a transition due now, run before the reply)
    const i = job.targets.findIndex((t) => t.last_call_id === call.id);
    schedule(c.s, c.s.now, 'qcall.hung_up', { job: job.id, i, call: call.id });
    await c.advance(c.s.now);
  } else hangUp(c.s, call);
  return presentCall(findCall(c.s, call.id)!);
}

export const voiceCalls: Resource = {
  tag: { name: 'Voice calls', description: 'Outbound calls from a verified caller ID, and hanging up a live call.' },
  routes: [
    {
      method: 'POST',
      path: '/v1/voice/calls',
      scope: 'full',
      summary: 'Place a voice call',
      description:
        "Calls the destination from a verified caller ID (or one of the workspace's ready numbers, whose call settings then apply too). " +
        "The call starts RINGING; its record follows the call (GET /v1/calls/{id}). A call from one of the workspace's numbers draws the plan's included minutes, " +
        "then bills at the plan's rate per minute (by the second) when it ends; it is refused with 403 while the number's line is suspended, " +
        'or while the minutes are used up and the wallet cannot pay one.',
      body: Body,
      responses: { 201: { description: 'Placed', schema: dataOf(CallRecordSchema) } },
      errors: { 403: ['insufficient_funds'], 422: ['caller_id_not_verified'] },
      handler: async (c) => ({ status: 201, body: { data: await place(c) } }),
    },
    {
      method: 'POST',
      path: '/v1/voice/calls/{id}/hangup',
      scope: 'full',
      summary: 'Hang up a call',
      description:
        "Ends a ringing call (CANCELED) or an in-progress one (COMPLETED with the time so far), quick action jobs' calls too: " +
        "the job's target records it (a ringing call's target ends canceled, without retries; a connected one's answered, its minutes billed so far). Any other status is 409.",
      params: CallParams,
      responses: { 200: { description: 'The call record after hanging up', schema: dataOf(CallRecordSchema) } },
      errors: { 409: ['conflict'] },
      handler: async (c) => ({ body: { data: await hangup(c) } }),
    },
  ],
};
