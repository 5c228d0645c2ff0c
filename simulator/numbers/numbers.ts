// A workspace's own phone numbers: creating them, finding them, and how the API shows them.
import { iso } from '../core/clock.js';
import { notFound } from '../core/errors.js';
import type { Auth } from '../core/http.js';
import type { World, Workspace } from '../core/world.js';
import type { PhoneNumber } from './records.js';
import { newConfig } from './config-defaults.js';
import {
  effectiveSms,
  effectiveVoice,
  stackSchema,
  type Stack,
  type StoredConfig,
  type VoiceSettings,
} from './config.js';
import * as z from 'zod/mini';
import {
  bool,
  doc,
  e164,
  int,
  named,
  nullable,
  obj,
  oneOf,
  record,
  timestamp,
  uuid,
  type Infer,
} from '../core/schema.js';
import type { Session } from '../core/session.js';
import { clone } from '../store/tracker.js';
import { nextChargeAt } from './lines.js';

export function workspaceOf(s: Session, n: PhoneNumber): Workspace {
  return s.data.workspaces.find((w) => w.id === n.workspace_id)!;
}

/** A number answers texts with its agent when its (possibly inherited) SMS auto-reply is on. */
export const handlesTexts = (n: PhoneNumber, ws: Workspace) => effectiveSms(n.config, ws.defaults).auto_reply_enabled;

/** The voice settings of an AI number's agent at purchase: the workspace defaults, with its business's greeting and prompt. */
export function agentVoice(
  ws: Workspace,
  business: string,
  o: { greeting?: string; description?: string | null } = {},
): VoiceSettings {
  return {
    ...clone(ws.defaults.voice),
    greeting_message: o.greeting ?? `Thanks for calling ${business}! How can I help you today?`,
    prompt: `You answer calls and texts for ${business}.${o.description ? ` ${o.description}` : ''} Be brief, friendly and accurate.`,
  };
}

export function createNumber(
  s: Session,
  ws: Workspace,
  o: {
    stack: Stack;
    phone_number: string | null;
    area_code: string | null;
    status: PhoneNumber['status'];
    config: StoredConfig;
    handles_calls?: boolean;
  },
): PhoneNumber {
  const n: PhoneNumber = {
    id: s.data.meta.next_phone_number_id++,
    seq: s.nextSeq(),
    workspace_id: ws.id,
    phone_number: o.phone_number,
    area_code: o.area_code,
    status: o.status,
    stack: o.stack,
    handles_calls: o.handles_calls ?? true,
    sms_registered: false,
    agent_id: s.rng.uuid(),
    config: o.config,
    line: null,
    created_at: iso(s.now),
  };
  s.data.phone_numbers.push(n);
  return n;
}

/** A number in the area code (NANP) that nobody in the simulator holds yet. */
export function freshNumber(s: Session, area: string): string {
  for (;;) {
    const candidate = `+1${area}${2 + s.rng.int(8)}${String(s.rng.int(1_000_000)).padStart(6, '0')}`;
    if (!numberTaken(s, candidate)) return candidate;
  }
}

export const numberTaken = (s: Session, phone: string) =>
  s.data.phone_numbers.some((p) => p.phone_number === phone) ||
  s.data.shared_numbers.some((p) => p.phone_number === phone);

/** The path parameters of a number's routes: `id`, an integer. */
export const NumberParams = obj(
  {
    id: int({
      min: 0,
      max: 999_999_999_999_999,
      message: 'must be an integer',
      description: "the number's id (an integer)",
      example: 12,
    }),
  },
  { required: ['id'] },
);

export const PhoneNumberSchema = named(
  'PhoneNumber',
  () =>
    record({
      id: int({ description: 'integer id', example: 12 }),
      phone_number: doc(nullable(e164()), 'null until an AI number is provisioned'),
      name: doc(z.string(), { example: 'Front desk' }),
      status: oneOf(['provisioning', 'ready', 'failed'], { description: 'lists show ready numbers', example: 'ready' }),
      stack: stackSchema(),
      is_active: bool('false: the number does not answer calls'),
      suspended: bool(
        'an AI number whose monthly line charge the wallet could not pay: it answers no calls or texts until paid',
      ),
      handles_calls: bool('the AI agent answers calls'),
      handles_texts: bool("the AI agent answers texts (the number's SMS auto-reply)"),
      sms_registered: bool(),
      created_at: timestamp(),
    }),
  'A phone number of the workspace.',
);

/** What finding a number of the request path needs. */
interface NumberCtx {
  data: World;
  auth: Auth;
  params: Infer<typeof NumberParams>;
}

/** The workspace's number {id} of the request path, in any status. */
export function findNumber(c: NumberCtx): PhoneNumber {
  const id = c.params.id;
  const n = c.data.phone_numbers.find((x) => x.id === id && x.workspace_id === c.auth.workspace.id);
  if (!n) throw notFound(`No phone number ${id} in this workspace.`);
  return n;
}

/** The workspace's ready number {id}: configuration needs a live number. */
export function findReadyNumber(c: NumberCtx): PhoneNumber {
  const n = findNumber(c);
  if (n.status !== 'ready') throw notFound(`Phone number ${n.id} is ${n.status}, not ready.`);
  return n;
}

export const AgentSchema = named(
  'AIAgent',
  () =>
    record({
      id: uuid(),
      name: doc(z.string(), { description: "the number configuration's name", example: 'Acme assistant' }),
      voice: doc(z.string(), { description: "the configuration's voice.voice_id", example: 'ava' }),
      language: doc(z.string(), { description: "the configuration's voice.language", example: 'en-US' }),
      greeting: doc(z.string(), {
        description: "what the agent says when it answers: the configuration's voice.greeting_message",
        example: 'Thanks for calling Acme! How can I help you today?',
      }),
      prompt: doc(z.string(), "how the agent behaves: the configuration's voice.prompt"),
    }),
  "The AI agent that answers an AI number: a view of the number's configuration (GET /v1/phone-numbers/{id}/config), always in step with it.",
);
export type AgentOut = Infer<typeof AgentSchema>;

export const AINumberSchema = named(
  'AINumber',
  () =>
    record({
      id: int({ min: 1, example: 1 }),
      phone_number: doc(nullable(e164()), 'null while provisioning (and when provisioning failed)'),
      status: doc(
        oneOf(['provisioning', 'ready', 'failed']),
        'provisioning at creation; ready once the number is live and answering; failed when it could not be wired up',
      ),
      handles_calls: bool('the agent answers inbound calls'),
      handles_texts: bool('the agent answers inbound texts'),
      sms_registered: bool(),
      agent: AgentSchema,
      next_charge_at: doc(
        nullable(timestamp()),
        'when the line is next charged (5 USD, monthly from the purchase); while suspended, when the month it owes fell due; null when the number has no line (failed, or not an AI number)',
      ),
      suspended: bool(
        "the wallet could not pay the line's month: the number answers no calls or texts until it is paid (a top-up of the wallet pays it)",
      ),
    }),
  {
    description:
      'AI number (spec Part 2): a number bought with POST /v1/quick/ai-numbers and the agent that answers it.',
    example: {
      id: 1001,
      phone_number: '+14155550142',
      status: 'ready',
      handles_calls: true,
      handles_texts: false,
      sms_registered: false,
      agent: {
        id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
        name: 'Acme Dental assistant',
        voice: 'ava',
        language: 'en-US',
        greeting: 'Thanks for calling Acme Dental! How can I help you today?',
        prompt: 'You answer calls and texts for Acme Dental. Be brief, friendly and accurate.',
      },
      next_charge_at: '2026-02-05T09:00:00.000Z',
      suspended: false,
    },
  },
);

/** The agent that answers the number: its configuration's name and voice settings (one source: changes show at once). */
export function agentView(n: PhoneNumber, ws: Workspace): AgentOut {
  const v = effectiveVoice(n.config, ws.defaults);
  return {
    id: n.agent_id,
    name: n.config.name,
    voice: v.voice_id,
    language: v.language,
    greeting: v.greeting_message,
    prompt: v.prompt,
  };
}

export const isSuspended = (n: PhoneNumber) => n.line?.suspended ?? false;

export function aiNumberView(n: PhoneNumber, ws: Workspace): Infer<typeof AINumberSchema> {
  return {
    id: n.id,
    phone_number: n.phone_number,
    status: n.status,
    handles_calls: n.handles_calls,
    handles_texts: handlesTexts(n, ws),
    sms_registered: n.sms_registered,
    agent: agentView(n, ws),
    next_charge_at: nextChargeAt(n),
    suspended: isSuspended(n),
  };
}

export function phoneNumberView(n: PhoneNumber, ws: Workspace): Infer<typeof PhoneNumberSchema> {
  return {
    id: n.id,
    phone_number: n.phone_number,
    name: n.config.name,
    status: n.status,
    stack: n.stack,
    is_active: n.config.is_active,
    suspended: isSuspended(n),
    handles_calls: n.handles_calls,
    handles_texts: handlesTexts(n, ws),
    sms_registered: n.sms_registered,
    created_at: n.created_at,
  };
}

export { newConfig };
