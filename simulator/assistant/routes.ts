// The assistant agent (spec capability 7, Part 4 Assistant agent): send a message or answer
// approvals, read a conversation with its transcript, list conversations. Needs a plan that
// includes the assistant (403 plan_not_included otherwise).
import { iso } from '../core/clock.js';
import { ApiError, notFound, validationError } from '../core/errors.js';
import { route, type Ctx, type Resource, type Reply, type Transactor } from '../core/http.js';
import type { ConversationRecord } from './records.js';
import type { World } from '../core/world.js';
import { listParams, paginate } from '../core/pagination.js';
import { arr, bool, dataOf, int, listOf, obj, str, uuid, type Infer } from '../core/schema.js';
import { newFields, requiredOf } from '../core/check.js';
import {
  ConversationSchema,
  ConversationWithTranscriptSchema,
  type ConversationOut,
  type ConversationWithTranscriptOut,
} from './records.js';
import { answer, startRun } from './machine.js';

const WAIT = { default: 120, max: 240 };

/** A message or the answers to approvals, never both or neither. */
const MESSAGE_OR_APPROVALS = requiredOf('oneOf', ['message', 'approvals']);
// the example sends a message
const SendBody = MESSAGE_OR_APPROVALS.on(
  obj(
    {
      message: str({
        min: 1,
        max: 10_000,
        pattern: /\S/,
        patternMessage: 'must not be blank',
        description: 'what to ask or tell the assistant (or send approvals instead)',
        example: 'Text +14155550100 and ask whether Tuesday works',
      }),
      approvals: arr(
        obj(
          {
            approval_id: str({
              min: 1,
              max: 100,
              description: 'from pending_approvals',
              example: '8c1e4f2a-6b3d-4e5f-9a7b-1c2d3e4f5a6b',
            }),
            approved: bool('go ahead (true) or not (false)'),
            reason: str({ min: 1, max: 1000, description: 'why not, told to the assistant', example: 'Not this week' }),
          },
          { required: ['approval_id', 'approved'] },
        ),
        { min: 1, max: 50, description: 'an answer to every pending approval, in one request' },
      ),
      conversation_id: uuid('the conversation to continue; omit to start one'),
      wait_seconds: int({
        min: 0,
        max: WAIT.max,
        description: `how long the request waits for the run to stop working (default ${WAIT.default}, at most ${WAIT.max}; 0 answers at once; a simulator on a manual clock always answers at once)`,
        example: 30,
      }),
    },
    { example: { message: 'Text +14155550100 and ask whether Tuesday works', wait_seconds: 30 } },
  ),
);
type SendInput = Infer<typeof SendBody>;

const Id = obj({ id: uuid('the conversation id') }, { required: ['id'] });

function present(c: ConversationRecord): ConversationOut {
  return {
    conversation_id: c.conversation_id,
    title: c.title,
    status: c.status,
    run_id: c.run_id,
    reply: c.reply,
    // output is an object in the spec (no |null): left out of a failed or declined action (older data kept null)
    actions: c.actions.map(({ output, ...a }) => (output == null ? a : { ...a, output })),
    pending_approvals: c.pending_approvals,
    error: c.error,
    // older data has none
    not_understood: c.not_understood ?? [],
    updated_at: c.updated_at,
    created_at: c.created_at,
  };
}
const withTranscript = (c: ConversationRecord): ConversationWithTranscriptOut => ({
  ...present(c),
  transcript: c.transcript,
});

function find(data: World, workspaceId: string, id: string): ConversationRecord {
  const c = data.assistant_conversations.find((x) => x.conversation_id === id && x.workspace_id === workspaceId);
  if (!c) throw notFound(`No assistant conversation ${id} in this workspace.`);
  return c;
}

const busy = (c: ConversationRecord) =>
  c.status === 'working'
    ? new ApiError(
        409,
        'conflict',
        'The assistant is still working on this conversation; read it (GET /v1/assistant/conversations/{id}) until it is idle, then send again.',
      )
    : new ApiError(
        409,
        'conflict',
        `Approvals are pending: answer every one of them (${c.pending_approvals.map((p) => p.approval_id).join(', ')}) with "approvals" before sending a message.`,
      );

/** Checks the approvals answer every pending one, and only those; every problem in one 400. */
function checkAnswers(c: ConversationRecord, approvals: NonNullable<SendInput['approvals']>) {
  const errs = newFields();
  const pending = new Set(c.pending_approvals.map((p) => p.approval_id));
  const answers = new Map<string, { approved: boolean; reason: string | null }>();
  approvals.forEach((a, i) => {
    if (!pending.has(a.approval_id))
      errs[`approvals[${i}].approval_id`] = 'is not a pending approval of this conversation';
    else if (answers.has(a.approval_id)) errs[`approvals[${i}].approval_id`] = 'is answered twice';
    else answers.set(a.approval_id, { approved: a.approved, reason: a.reason ?? null });
  });
  const missing = [...pending].filter((id) => !answers.has(id));
  if (missing.length > 0)
    errs.approvals = `must answer every pending approval in one request; not answered: ${missing.join(', ')}`;
  if (Object.keys(errs).length > 0)
    throw validationError(errs, 'Every pending approval must be answered, in one request.');
  return answers;
}

function send(c: Ctx<{}, {}, SendInput>): Reply {
  const b = c.body;
  const errs = newFields();
  MESSAGE_OR_APPROVALS.check(b, errs);
  if (Object.keys(errs).length === 0 && b.approvals !== undefined && b.conversation_id === undefined)
    errs.conversation_id = 'is required with approvals';
  if (Object.keys(errs).length > 0) throw validationError(errs);
  const ws = c.auth.workspace.id;
  let conv: ConversationRecord;
  if (b.conversation_id !== undefined) {
    conv = find(c.data, ws, b.conversation_id);
  } else {
    const now = iso(c.s.now);
    // cut by characters, so an emoji is never split
    const title = b
      .message!.replace(/\s+/g, ' ')
      .replace(/#fail-run/gi, '')
      .trim();
    conv = {
      conversation_id: c.s.rng.uuid(),
      seq: c.s.nextSeq(),
      workspace_id: ws,
      api_key_id: c.auth.key?.id ?? null,
      title: [...title].length > 60 ? `${[...title].slice(0, 59).join('')}…` : title || 'Conversation',
      status: 'idle',
      run_id: '',
      reply: '',
      actions: [],
      pending_approvals: [],
      error: null,
      not_understood: [],
      updated_at: now,
      created_at: now,
      transcript: [],
      run: null,
    };
    c.data.assistant_conversations.push(conv);
  }
  if (b.message !== undefined) {
    if (conv.status === 'working' || conv.status === 'awaiting_approval') throw busy(conv);
    conv.api_key_id = c.auth.key?.id ?? conv.api_key_id;
    startRun(c.s, conv, b.message);
  } else {
    if (conv.status !== 'awaiting_approval')
      throw new ApiError(
        409,
        'conflict',
        conv.status === 'working'
          ? 'The assistant is still working; no approval is pending.'
          : 'No approval is pending in this conversation.',
      );
    answer(c.s, conv, checkAnswers(conv, b.approvals!));
  }
  const body = { data: present(conv) };
  const wait = b.wait_seconds ?? WAIT.default;
  // a manual clock never waits: the run moves on as the clock is advanced
  if (wait === 0 || body.data.status !== 'working' || c.data.meta.clock.mode !== 'real') return { body };
  const id = conv.conversation_id;
  const deadline = Date.now() + wait * 1000;
  return { body, after: (t) => waitForRun(t, ws, id, deadline) };
}

/** Reads the conversation until its run stops working or the deadline passes (transitions run as each read begins). */
async function waitForRun(t: Transactor, ws: string, id: string, deadline: number): Promise<Reply> {
  for (;;) {
    const { conv, manual } = await t.transaction((s) => ({
      conv: present(find(s.data, ws, id)),
      manual: s.data.meta.clock.mode !== 'real',
    }));
    const left = deadline - Date.now();
    // the clock made manual meanwhile: as on a manual clock, the request does not wait
    if (conv.status !== 'working' || left <= 0 || manual) return { body: { data: conv } };
    await new Promise((r) => setTimeout(r, Math.min(100, left)));
  }
}

export const assistant: Resource = {
  tag: {
    name: 'Assistant agent',
    description:
      "Natural-language tasks for the workspace's assistant; actions that spend money or cannot be undone wait for approval. Needs a plan that includes the assistant.",
  },
  routes: [
    route({
      method: 'POST',
      path: '/v1/assistant/messages',
      scope: 'assistant:write',
      plan: 'assistant',
      summary: 'Send a message, or answer approvals',
      description:
        'A `message` starts a run (a new conversation without `conversation_id`): the assistant thinks (2 s of simulated time), then takes its actions (3 s each) ' +
        "through the API's own operations, or waits in `awaiting_approval` for those that cost money or cannot be undone, listed in `pending_approvals` with what they cost. " +
        '`approvals` answers every pending approval in one request (400 naming any left unanswered); declined actions are not done and the reply says so. ' +
        'A message while the run is working, or while approvals are pending, is 409 `conflict`. The request waits up to `wait_seconds` for the run to stop working ' +
        `(default ${WAIT.default}, at most ${WAIT.max}; 0 answers at once); on a simulator whose clock is manual it answers at once. Free; actions bill as they do through the API.`,
      body: SendBody,
      responses: { 200: { description: 'The conversation', schema: dataOf(ConversationSchema) } },
      errors: { 404: ['not_found'], 409: ['conflict'] },
      handler: send,
    }),
    route({
      method: 'GET',
      path: '/v1/assistant/conversations',
      scope: 'assistant:read',
      plan: 'assistant',
      summary: 'List assistant conversations',
      description:
        'Every conversation of the workspace, newest first (by creation, as every list is: a new message does not move a conversation up).',
      query: obj({ ...listParams() }),
      responses: { 200: { description: 'Conversations', schema: listOf(ConversationSchema) } },
      handler: (c) => {
        const items = c.data.assistant_conversations.filter((x) => x.workspace_id === c.auth.workspace.id);
        return {
          body: paginate(c.s, items, c.query, {
            key: (x) => Date.parse(x.created_at),
            tie: (x) => x.seq,
            scope: 'assistant',
            present,
          }),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/v1/assistant/conversations/{id}',
      scope: 'assistant:read',
      plan: 'assistant',
      summary: 'Read an assistant conversation',
      description:
        "Its status, latest reply, the current run's actions and pending approvals, and the transcript (oldest message first).",
      params: Id,
      responses: { 200: { description: 'The conversation', schema: dataOf(ConversationWithTranscriptSchema) } },
      handler: (c) => ({ body: { data: withTranscript(find(c.data, c.auth.workspace.id, c.params.id)) } }),
    }),
  ],
};
