// Control plane for numbers: add a number of a stack, verify caller IDs, the workspace defaults
// numbers inherit, what exists to assign (knowledge bases, FAQs, event types), and inbound calls.
import {
  RECORDING_TYPE,
  voiceSampleWav,
  contactByPhone,
  noteInbound,
  presentCall,
  CALL_STATUSES,
  CallRecordSchema,
} from '../history/index.js';
import { oneOffCall, openCall, personaFor, runCall } from '../calls/index.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Ctx, Resource } from '../core/http.js';
import {
  planInbound,
  applyDefaultsPatch,
  DefaultsPatch,
  newConfig,
  stackSchema,
  VOICES,
  WorkspaceDefaultsSchema,
  createNumber,
  freshNumber,
  numberTaken,
  notConnected,
} from '../numbers/index.js';
import * as z from 'zod/mini';
import { dataOf, doc, e164, int, named, nullable, obj, oneOf, record, str, uuid, type Infer } from '../core/schema.js';

const AddNumberBody = obj(
  {
    stack: stackSchema(),
    phone_number: e164({ description: 'default a fresh 415 number' }),
    name: str({ min: 1, max: 100, description: 'default "T1 line" or "T2 line"', example: 'Front desk' }),
  },
  { required: ['stack'] },
);

const AddedNumber = record({
  id: int({ description: "the number's id in /v1/phone-numbers/{id}", example: 12 }),
  phone_number: e164(),
  stack: stackSchema(),
});

function addNumber(c: Ctx<{}, {}, Infer<typeof AddNumberBody>>): Infer<typeof AddedNumber> {
  const b = c.body;
  if (b.phone_number && numberTaken(c.s, b.phone_number))
    throw new ApiError(409, 'conflict', `${b.phone_number} is already in use in the simulator.`, {
      phone_number: 'is already in use',
    });
  const ws = c.auth.workspace;
  const phone = b.phone_number ?? freshNumber(c.s, '415');
  const n = createNumber(c.s, ws, {
    stack: b.stack,
    phone_number: phone,
    area_code: phone.startsWith('+1') ? phone.slice(2, 5) : null,
    status: 'ready',
    config: newConfig(b.name ?? `${b.stack.toUpperCase()} line`),
  });
  return { id: n.id, phone_number: phone, stack: n.stack };
}

const CallerIdBody = obj({ phone_number: e164() }, { required: ['phone_number'] });
const CallerId = record({ phone_number: e164(), verified: z.literal(true) });

const Library = record(
  {
    knowledge_bases: z.array(record({ id: uuid(), name: z.string() })),
    faqs: z.array(record({ id: uuid(), question: z.string() })),
    event_types: z.array(record({ id: uuid(), name: z.string(), minutes: int({ example: 30 }) })),
  },
  "What a number's configuration can assign by id.",
);

const InboundCallBody = obj(
  {
    from: e164({ description: 'the caller' }),
    to: e164({ description: 'a ready number of a workspace' }),
    digits: str({
      max: 20,
      pattern: /^[0-9*#]{0,20}$/,
      patternMessage: 'must be keys 0-9, * and # (up to 20)',
      description: 'keys the caller presses in the phone menu, in turn',
      example: '1',
    }),
    says: str({ min: 1, max: 2000, description: 'what the caller says', example: 'Can I talk to a real person?' }),
  },
  { required: ['from', 'to'] },
);

const InboundCallReply = named(
  'InboundCall',
  () =>
    record({
      data: CallRecordSchema,
      routing: record(
        {
          handled_by: oneOf(
            ['nobody', 'owner', 'ivr', 'ai'],
            'who took the call: nobody, the owner (call-me-first), the phone menu or the AI agent',
          ),
          transferred_to: doc(nullable(e164()), 'the number the call was transferred or forwarded to'),
          status: doc(oneOf(CALL_STATUSES), { description: 'how the call will end', example: 'COMPLETED' }),
          end_reason: doc(z.string(), { example: 'hangup' }),
        },
        'how the configuration routes the call',
      ),
    }),
  'An inbound call, and how it will go.',
);

function inboundCall(c: Ctx<{}, {}, Infer<typeof InboundCallBody>>): Infer<typeof InboundCallReply> {
  const b = c.body;
  const n = c.data.phone_numbers.find((x) => x.phone_number === b.to && x.status === 'ready');
  if (!n) throw notFound(`No simulated number ${b.to} takes calls: call a ready workspace number.`);
  const ws = c.data.workspaces.find((w) => w.id === n.workspace_id)!;
  const contact = contactByPhone(c.data, ws.id, b.from);
  const call = openCall(c.s, {
    workspace_id: ws.id,
    direction: 'inbound',
    from_number: b.from,
    to_number: b.to,
    contact_id: contact?.id ?? null,
    phone_number_id: n.id,
  });
  // the first inbound call's created_at, as a first text's (a few ms ahead of the clock in a burst)
  if (contact) noteInbound(contact, 'calls', call.created_at, Date.parse(call.created_at));
  const plan = planInbound({
    config: n.config,
    defaults: ws.defaults,
    handles_calls: n.handles_calls,
    refused: notConnected(c.s, n, 'call'),
    now: c.s.now,
    digits: b.digits ?? '',
    says: b.says ?? null,
    // a phone picks up as its persona says (the built-ins that ring out, go to voicemail, are busy or fail do not)
    picksUp: (phone) => oneOffCall(personaFor(c.data, phone).call).result === 'answer',
  });
  runCall(c.s, call, plan);
  return {
    data: presentCall(call),
    routing: {
      handled_by: plan.handled_by,
      transferred_to: plan.transferred_to,
      status: plan.status,
      end_reason: plan.end_reason,
    },
  };
}

const VoiceParams = obj(
  { voice: str({ max: 100, description: 'a voice id', example: 'ava' }) },
  { required: ['voice'] },
);

export const controlNumbers: Resource = {
  tag: {
    name: 'Numbers and calls',
    description:
      'Numbers of either stack, verified caller IDs, the workspace defaults numbers inherit, what configurations can assign, and inbound calls.',
  },
  routes: [
    {
      method: 'POST',
      path: '/_sim/phone-numbers',
      summary: 'Add a number',
      description:
        'A ready number of the stack in the workspace, with the default configuration (voice and sms inherit the workspace defaults).',
      body: AddNumberBody,
      responses: { 201: { description: 'Added', schema: AddedNumber } },
      errors: { 409: ['conflict'] },
      handler: (c) => ({ status: 201, body: addNumber(c) }),
    },
    {
      method: 'POST',
      path: '/_sim/caller-ids',
      summary: 'Verify a caller ID',
      description: 'POST /v1/voice/calls then accepts it as caller_id.',
      body: CallerIdBody,
      responses: { 201: { description: 'Verified', schema: dataOf(CallerId) } },
      handler: (c: Ctx<{}, {}, Infer<typeof CallerIdBody>>) => {
        const ws = c.auth.workspace;
        if (!ws.caller_ids.includes(c.body.phone_number)) ws.caller_ids.push(c.body.phone_number);
        const out: Infer<typeof CallerId> = { phone_number: c.body.phone_number, verified: true };
        return { status: 201, body: { data: out } };
      },
    },
    {
      method: 'GET',
      path: '/_sim/workspace/defaults',
      summary: 'Read the workspace defaults',
      description: 'The voice and sms settings numbers use until their first change of them.',
      responses: { 200: { description: 'The defaults', schema: dataOf(WorkspaceDefaultsSchema) } },
      handler: (c) => ({ body: { data: c.auth.workspace.defaults } }),
    },
    {
      method: 'PATCH',
      path: '/_sim/workspace/defaults',
      summary: 'Change the workspace defaults',
      description:
        'Only the fields sent change; the change reaches every number still inheriting. A default voice must be one both stacks have; ' +
        'speed (t1) and voice_model_tier (t2) are kept for the numbers of their stack.',
      body: DefaultsPatch,
      bodyCheckedByHandler: true,
      responses: { 200: { description: 'The defaults after the change', schema: dataOf(WorkspaceDefaultsSchema) } },
      handler: (c: Ctx<{}, {}, unknown>) => {
        c.auth.workspace.defaults = applyDefaultsPatch(c.auth.workspace.defaults, c.body);
        return { body: { data: c.auth.workspace.defaults } };
      },
    },
    {
      method: 'GET',
      path: '/_sim/library',
      summary: 'List what configurations can assign',
      description:
        'The knowledge bases, FAQs and event types of the workspace: the API assigns them to a number by id and cannot create them.',
      responses: { 200: { description: 'The library', schema: dataOf(Library) } },
      handler: (c) => {
        const { knowledge_bases, faqs, event_types } = c.auth.workspace;
        const out: Infer<typeof Library> = { knowledge_bases, faqs, event_types };
        return { body: { data: out } };
      },
    },
    {
      method: 'POST',
      path: '/_sim/inbound/calls',
      summary: 'Call a workspace number',
      description:
        "The call goes as the number's configuration says (phone menu, forwarding, transfer rules, office hours, the AI agent); " +
        'it starts RINGING and runs on the simulator clock. A number whose line is suspended, or of an account paused for calls ' +
        '(no included minutes left and a wallet that cannot pay one), does not connect it: FAILED after 3 s with end_reason line_suspended or account_paused.',
      body: InboundCallBody,
      responses: { 201: { description: 'The call, ringing', schema: InboundCallReply } },
      errors: { 404: ['not_found'] },
      handler: (c) => ({ status: 201, body: inboundCall(c) }),
    },
    {
      method: 'GET',
      path: '/_sim/voices/{voice}.wav',
      summary: 'Hear a voice',
      description: 'A short audio sample of a voice (the preview_url of GET /v1/phone-numbers/{id}/voices).',
      params: VoiceParams,
      responses: { 200: { description: 'The sample', contentType: 'audio/wav' } },
      handler: (c: Ctx<Infer<typeof VoiceParams>>) => {
        if (!VOICES.t1.concat(VOICES.t2).some((v) => v.id === c.params.voice))
          throw notFound(`No voice ${c.params.voice}.`);
        return { raw: { bytes: voiceSampleWav(c.params.voice), contentType: RECORDING_TYPE } };
      },
    },
  ],
};
