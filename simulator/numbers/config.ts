// Number configuration: every setting of the AI agent that answers a number, its schema, the
// workspace defaults that voice and sms inherit until first changed, and the update rules of
// PATCH /v1/phone-numbers/{id}/config (only sent fields change, lists replaced whole with item ids
// kept, unknown fields 400 at any depth, the phone menu's first enabling, the stack differences).
//
// Each setting is declared once (the *Fields shapes below): PATCH bodies take them with every key
// optional (obj), the configuration the API shows takes them all present (record), and the types
// the store keeps are inferred from those records.
import { validationError, type Fields } from '../core/errors.js';
import type { Rng } from '../core/rng.js';
import * as z from 'zod/mini';
import {
  arr,
  bool,
  doc,
  e164,
  int,
  lazy,
  describedAs,
  named,
  nullable,
  num,
  obj,
  oneOf,
  record,
  str,
  uuid,
  type Infer,
} from '../core/schema.js';
import { check, newFields, passedParts, type Loose } from '../core/check.js';
import { clone } from '../store/tracker.js';

export const STACKS = ['t1', 't2'] as const;
export type Stack = (typeof STACKS)[number];
export const stackSchema = () =>
  oneOf(STACKS, {
    description: 'the voice stack the number runs on; it decides which settings and voices apply',
    example: 't2',
  });

export const LLM_MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet', 'llama-3.1-70b'] as const;
export const BACKGROUND_SOUNDS = ['none', 'office', 'cafe', 'call_center'] as const;
export const VOICE_MODEL_TIERS = ['standard', 'premium'] as const;
export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const COLLECTABLE = ['name', 'email', 'phone_number', 'company', 'job_title', 'address'] as const;
export const IVR_ACTIONS = ['transfer', 'ai_agent', 'voicemail', 'hangup'] as const;

/** A voice a number can speak with (GET /v1/phone-numbers/{id}/voices). */
export const VoiceSchema = named(
  'Voice',
  () =>
    record({
      id: doc(z.string(), { description: 'what voice.voice_id takes', example: 'ava' }),
      name: doc(z.string(), { example: 'Ava' }),
      language: doc(z.string(), { example: 'en-US' }),
      gender: oneOf(['female', 'male']),
      stack: stackSchema(),
      preview_url: doc(z.string(), {
        description: 'path of a short audio sample (audio/wav)',
        example: '/_sim/voices/ava.wav',
      }),
    }),
  "A voice of a number's stack.",
);

/** Voices each stack can speak with. */
export const VOICES: Record<Stack, Omit<Infer<typeof VoiceSchema>, 'stack' | 'preview_url'>[]> = {
  t1: [
    { id: 'ava', name: 'Ava', language: 'en-US', gender: 'female' },
    { id: 'noah', name: 'Noah', language: 'en-US', gender: 'male' },
    { id: 'isla', name: 'Isla', language: 'en-GB', gender: 'female' },
    { id: 'mateo', name: 'Mateo', language: 'es-ES', gender: 'male' },
  ],
  t2: [
    { id: 'ava', name: 'Ava', language: 'en-US', gender: 'female' },
    { id: 'noah', name: 'Noah', language: 'en-US', gender: 'male' },
    { id: 'aria-hd', name: 'Aria HD', language: 'en-US', gender: 'female' },
    { id: 'leo-hd', name: 'Leo HD', language: 'en-US', gender: 'male' },
    { id: 'lucia-hd', name: 'Lucía HD', language: 'es-MX', gender: 'female' },
    { id: 'amelie-hd', name: 'Amélie HD', language: 'fr-FR', gender: 'female' },
  ],
};

export function workspaceDefaults(): WorkspaceDefaults {
  return {
    voice: {
      voice_id: 'ava',
      language: 'en-US',
      speed: 1,
      greeting_message: 'Thanks for calling! How can I help you today?',
      farewell_message: 'Thanks for calling. Goodbye!',
      prompt: 'You are a helpful, concise receptionist.',
      llm_model: 'gpt-4o-mini',
      background_sound: 'none',
      outbound_greeting: 'Hi, this is an AI assistant calling.',
      outbound_prompt: 'Be brief and polite.',
      voice_model_tier: 'standard',
    },
    sms: {
      auto_reply_enabled: false,
      reply_delay_seconds: 20,
      prompt: 'Answer texts briefly and helpfully.',
      language: 'en-US',
      llm_model: 'gpt-4o-mini',
      stop_words: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'],
      stop_after_replies: false,
      max_replies_per_contact: 50,
    },
  };
}

export function newConfig(
  name: string,
  o: { business_name?: string | null; business_description?: string | null } = {},
): StoredConfig {
  return {
    name,
    is_active: true,
    business_name: o.business_name ?? null,
    business_description: o.business_description ?? null,
    timezone: 'America/New_York',
    call_settings: {
      max_call_length_seconds: 1800,
      recording_enabled: true,
      transcription_enabled: true,
      summaries_enabled: true,
      recording_retention_days: 90,
      hd_voice_enabled: false,
    },
    voice: null,
    sms: null,
    knowledge: { knowledge_base_ids: [], faq_ids: [], knowledge_base_enabled: false, web_search_enabled: false },
    qualification: { enabled: false, collect_fields: ['name', 'phone_number'], questions: [] },
    booking: {
      enabled: false,
      event_type_ids: [],
      bookable_days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      bookable_hours_start: '09:00',
      bookable_hours_end: '17:00',
      minimum_notice_minutes: 60,
      confirmation_message: 'You are booked. See you then!',
    },
    transfers: {
      primary_transfer_number: null,
      office_hours_only: false,
      office_hours_start: '09:00',
      office_hours_end: '17:00',
      rules: [],
    },
    sms_referrals: [],
    forwarding: {
      mode: 'ai_answers_all',
      ring_strategy: 'single',
      forward_to_number: null,
      ring_timeout_seconds: 20,
      sequential_targets: [],
    },
    ivr: {
      enabled: false,
      greeting: '',
      menus: [],
      timeout_seconds: 8,
      max_attempts: 3,
      fallback: { type: 'ai_agent', phone_number: null },
    },
    ivr_ever_enabled: false,
  };
}

// ---- the settings, declared once ----

const HHMM = () =>
  str({
    max: 5,
    pattern: /^([01]\d|2[0-3]):[0-5]\d$/,
    patternMessage: 'must be a time HH:MM (24-hour)',
    example: '09:00',
  });
function isTimeZone(s: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: s });
    return true;
  } catch {
    return false;
  }
}
const timezone = () =>
  str({
    min: 1,
    max: 64,
    description: 'IANA time zone: office hours and bookable hours are read in it',
    example: 'America/New_York',
  }).check(z.refine(isTimeZone, { error: 'must be an IANA time zone such as America/New_York' }));
/** The id of a list item: sent back, the item is kept (and changed); left out, an item is added. */
const itemId = () =>
  str({
    min: 1,
    max: 100,
    description: 'keep it to change an existing item; leave it out to add one',
    example: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
  });
/** The id of something the workspace has (knowledge base, FAQ, event type): assigned here, never created. */
const refId = (example: string) => uuid({ example });
const inheritsFlag = () =>
  bool(
    'true while the number uses the workspace default; send true alone to go back to it, false alone to take an own copy',
  );

const configFields = () => ({
  name: str({ min: 1, max: 100, example: 'Front desk' }),
  is_active: bool('false: the number does not answer calls'),
  business_name: nullable(str({ min: 1, max: 200, example: 'Acme Dental' })),
  business_description: nullable(str({ max: 5000, example: 'A family dental practice.' })),
  timezone: timezone(),
});
const callSettingsFields = () => ({
  max_call_length_seconds: int({ min: 30, max: 7200, example: 1800 }),
  recording_enabled: bool(),
  transcription_enabled: bool(),
  summaries_enabled: bool(),
  recording_retention_days: int({ min: 1, max: 3650, example: 90 }),
  hd_voice_enabled: bool('t2 numbers only'),
});
const voiceFields = () => ({
  voice_id: str({
    min: 1,
    max: 100,
    description: "one of the number's voices (GET /v1/phone-numbers/{id}/voices)",
    example: 'ava',
  }),
  language: str({ min: 2, max: 35, example: 'en-US' }),
  speed: num({ min: 0.5, max: 2, description: 't1 numbers only', example: 1 }),
  greeting_message: str({ max: 1000, example: 'Thanks for calling! How can I help you today?' }),
  farewell_message: str({ max: 1000, example: 'Thanks for calling. Goodbye!' }),
  prompt: str({
    max: 20_000,
    description: 'how the agent behaves on calls',
    example: 'You are a helpful, concise receptionist.',
  }),
  llm_model: oneOf(LLM_MODELS),
  background_sound: oneOf(BACKGROUND_SOUNDS),
  outbound_greeting: str({ max: 1000, example: 'Hi, this is an AI assistant calling.' }),
  outbound_prompt: str({ max: 20_000, example: 'Be brief and polite.' }),
  voice_model_tier: oneOf(VOICE_MODEL_TIERS, 't2 numbers only'),
});
const smsFields = () => ({
  auto_reply_enabled: bool('the agent answers texts'),
  reply_delay_seconds: int({ min: 0, max: 3600, example: 20 }),
  prompt: str({
    max: 20_000,
    description: 'how the agent answers texts',
    example: 'Answer texts briefly and helpfully.',
  }),
  language: str({ min: 2, max: 35, example: 'en-US' }),
  llm_model: oneOf(LLM_MODELS),
  stop_words: arr(str({ min: 1, max: 50 }), {
    max: 50,
    description: 'a text that is one of these (any letter case) opts the texter out',
    example: ['STOP', 'UNSUBSCRIBE'],
  }),
  stop_after_replies: bool('the agent stays quiet once someone on the team has replied'),
  max_replies_per_contact: int({ min: 1, max: 10_000, example: 50 }),
});
const knowledgeFields = () => ({
  knowledge_base_ids: arr(refId('0b7c5a3e-2f4d-4a6b-9c8e-1d2f3a4b5c6d'), {
    max: 50,
    description: 'knowledge bases of the workspace the agent answers from',
  }),
  faq_ids: arr(refId('6e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b'), {
    max: 500,
    description: 'FAQs of the workspace the agent answers from',
  }),
  knowledge_base_enabled: bool(),
  web_search_enabled: bool(),
});
const questionFields = () => ({
  id: itemId(),
  question: str({ min: 1, max: 500, example: 'What is your budget?' }),
  required: bool(),
});
const qualificationFields = () => ({
  enabled: bool(),
  collect_fields: arr(oneOf(COLLECTABLE), {
    max: COLLECTABLE.length,
    unique: true,
    description: 'what the agent asks every caller for',
  }),
});
const bookingFields = () => ({
  enabled: bool(),
  event_type_ids: arr(refId('9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'), {
    max: 50,
    description: 'event types of the workspace the agent books',
  }),
  bookable_days: arr(oneOf(DAYS), { max: 7, unique: true }),
  bookable_hours_start: HHMM(),
  bookable_hours_end: HHMM(),
  minimum_notice_minutes: int({ min: 0, max: 43_200, example: 60 }),
  confirmation_message: str({ max: 1000, example: 'You are booked. See you then!' }),
});
const transfersFields = () => ({
  primary_transfer_number: doc(
    nullable(e164()),
    'takes a request for a person when no rule matches, and transfers of rules without target_number',
  ),
  office_hours_only: bool("transfers only within office hours (in the number's timezone)"),
  office_hours_start: HHMM(),
  office_hours_end: HHMM(),
});
const transferRuleFields = () => ({
  id: itemId(),
  condition: oneOf(['human_requested', 'after_hours', 'custom'] as const),
  custom_condition: doc(
    nullable(str({ min: 1, max: 500, example: 'caller mentions billing' })),
    'with condition custom only (and required with it)',
  ),
  action: oneOf(['transfer', 'voicemail'] as const),
  target_number: doc(nullable(e164()), 'default primary_transfer_number'),
  priority: int({
    min: 0,
    max: 1000,
    description: 'the lowest value among the rules that hold wins (default 100)',
    example: 100,
  }),
});
const smsReferralFields = () => ({
  id: itemId(),
  refer_to_number: e164(),
  when: oneOf(['always', 'after_hours', 'keyword'] as const),
  keyword: doc(nullable(str({ min: 1, max: 50, example: 'price' })), 'required when "when" is keyword'),
  message: str({
    max: 500,
    description: 'default "Please text <refer_to_number> for help with that."',
    example: 'For prices, text +14155550100.',
  }),
});
const forwardingFields = () => ({
  mode: oneOf(
    ['ai_answers_all', 'call_me_first'] as const,
    "call_me_first: the owner's phone rings first, the AI answers after the ring timeout",
  ),
  ring_strategy: oneOf(['single', 'sequential'] as const),
  forward_to_number: doc(nullable(e164()), 'call_me_first with a single number'),
  ring_timeout_seconds: int({ min: 5, max: 120, example: 20 }),
});
const sequentialTargetFields = () => ({
  id: itemId(),
  phone_number: e164(),
  ring_timeout_seconds: int({ min: 5, max: 120, description: 'default 20', example: 20 }),
});
const ivrFields = () => ({
  enabled: bool('the first enabling needs the whole menu: greeting, menus, timeout_seconds, max_attempts, fallback'),
  greeting: str({ max: 2000, example: 'Welcome to Acme.' }),
  timeout_seconds: int({ min: 1, max: 60, example: 8 }),
  max_attempts: int({ min: 1, max: 10, example: 3 }),
});
const ivrMenuFields = () => ({ id: itemId(), name: str({ min: 1, max: 100, example: 'Main' }) });
const ivrOptionFields = () => ({
  key: str({ max: 1, pattern: /^[0-9*#]$/, patternMessage: 'must be one key: 0-9, * or #', example: '1' }),
  label: str({ min: 1, max: 200, description: 'read out as "press <key> for <label>"', example: 'sales' }),
});
const ivrActionFields = () => ({
  type: oneOf(IVR_ACTIONS),
  phone_number: doc(nullable(e164()), 'required for a transfer'),
  fallback_phone_number: doc(nullable(e164()), 'a transfer nobody answers goes here'),
});
const ivrFallbackFields = () => ({
  type: oneOf(
    ['hangup', 'ai_agent', 'voicemail', 'transfer'] as const,
    'what happens after max_attempts without a valid key',
  ),
  phone_number: doc(nullable(e164()), 'required for a transfer'),
});

// ---- PATCH bodies: every field optional (a PATCH sends only what changes) ----

export const voiceSchema = lazy(() => obj({ inherits_workspace_default: inheritsFlag(), ...voiceFields() }));
export const smsSchema = lazy(() => obj({ inherits_workspace_default: inheritsFlag(), ...smsFields() }));

export const patchSchema = lazy(() =>
  doc(
    obj({
      ...configFields(),
      // (refused in code: checkStack's errs.stack)
      stack: doc(
        describedAs(stackSchema(), { readOnly: true }),
        'read-only: shown in the configuration, refused in a change',
      ),
      call_settings: obj(callSettingsFields()),
      voice: voiceSchema,
      sms: smsSchema,
      knowledge: obj(knowledgeFields()),
      qualification: obj({
        ...qualificationFields(),
        questions: arr(obj(questionFields(), { required: ['question'] }), { max: 50 }),
      }),
      booking: obj(bookingFields()),
      transfers: obj({
        ...transfersFields(),
        rules: arr(obj(transferRuleFields(), { required: ['condition', 'action'] }), { max: 50 }),
      }),
      sms_referrals: arr(obj(smsReferralFields(), { required: ['refer_to_number', 'when'] }), { max: 20 }),
      forwarding: obj({
        ...forwardingFields(),
        sequential_targets: arr(obj(sequentialTargetFields(), { required: ['phone_number'] }), { max: 10 }),
      }),
      ivr: obj({
        enabled: ivrFields().enabled,
        greeting: ivrFields().greeting,
        menus: arr(
          obj(
            {
              ...ivrMenuFields(),
              options: arr(
                obj(
                  { ...ivrOptionFields(), action: obj(ivrActionFields(), { required: ['type'] }) },
                  { required: ['key', 'label', 'action'] },
                ),
                { min: 1, max: 12 },
              ),
            },
            { required: ['name', 'options'] },
          ),
          { max: 10 },
        ),
        timeout_seconds: ivrFields().timeout_seconds,
        max_attempts: ivrFields().max_attempts,
        fallback: obj(ivrFallbackFields(), { required: ['type'] }),
      }),
    }),
    {
      description: 'Only the fields sent change; a list is replaced whole (items sent with their id are kept).',
      example: {
        name: 'Front desk',
        call_settings: { recording_enabled: false },
        voice: { greeting_message: 'Acme, how can I help?' },
        transfers: { primary_transfer_number: '+14155550100' },
      },
    },
  ),
);
export type ConfigPatch = Infer<typeof patchSchema>;

/** PATCH /_sim/workspace/defaults: the voice and sms fields numbers inherit. */
export const DefaultsPatch = lazy(() =>
  doc(obj({ voice: voiceSchema, sms: smsSchema }), {
    example: { voice: { farewell_message: 'See you!' }, sms: { reply_delay_seconds: 5 } },
  }),
);

// ---- the configuration as the API shows it, and what the store keeps ----

const CallSettingsSchema = lazy(() => record(callSettingsFields()));
const VoiceSettingsSchema = lazy(() => record(voiceFields()));
const SmsSettingsSchema = lazy(() => record(smsFields()));

export const WorkspaceDefaultsSchema = named(
  'WorkspaceDefaults',
  () => record({ voice: VoiceSettingsSchema, sms: SmsSettingsSchema }),
  "The voice and sms settings a number uses until its first change of them (both stacks' fields).",
);

export const NumberConfiguration = named(
  'NumberConfiguration',
  () =>
    record({
      id: int({ description: "the number's id", example: 12 }),
      phone_number: doc(nullable(e164()), 'null until an AI number is provisioned'),
      stack: doc(stackSchema(), 'read-only'),
      ...configFields(),
      call_settings: record({
        ...callSettingsFields(),
        hd_voice_enabled: doc(nullable(bool()), { description: 't2 numbers only: null on t1', example: true }),
      }),
      voice: record({
        inherits_workspace_default: inheritsFlag(),
        ...voiceFields(),
        speed: doc(nullable(voiceFields().speed), { description: 't1 numbers only: null on t2', example: null }),
        voice_model_tier: doc(nullable(voiceFields().voice_model_tier), 't2 numbers only: null on t1'),
      }),
      sms: record({ inherits_workspace_default: inheritsFlag(), ...smsFields() }),
      knowledge: record(knowledgeFields()),
      qualification: record({ ...qualificationFields(), questions: z.array(record(questionFields())) }),
      booking: record(bookingFields()),
      transfers: record({ ...transfersFields(), rules: z.array(record(transferRuleFields())) }),
      sms_referrals: z.array(record(smsReferralFields())),
      forwarding: record({ ...forwardingFields(), sequential_targets: z.array(record(sequentialTargetFields())) }),
      ivr: record({
        ...ivrFields(),
        menus: z.array(
          record({
            ...ivrMenuFields(),
            options: z.array(record({ ...ivrOptionFields(), action: record(ivrActionFields()) })),
          }),
        ),
        fallback: record(ivrFallbackFields()),
      }),
    }),
  "A number's full configuration: every setting of the AI agent that answers it. Fields of the other stack read null.",
);

export type VoiceSettings = Infer<typeof VoiceSettingsSchema>;
export type SmsSettings = Infer<typeof SmsSettingsSchema>;
export type WorkspaceDefaults = Infer<typeof WorkspaceDefaultsSchema>;
type ConfigView = Infer<typeof NumberConfiguration>;

/**
 * What a number stores: the configuration as shown less what belongs to the number itself, with
 * the fields of both stacks, and voice and sms null while they inherit the workspace defaults.
 */
export type StoredConfig = Omit<ConfigView, 'id' | 'phone_number' | 'stack' | 'call_settings' | 'voice' | 'sms'> & {
  call_settings: Infer<typeof CallSettingsSchema>;
  voice: VoiceSettings | null;
  sms: SmsSettings | null;
  /** the phone menu has been enabled once (rule 4: the first enabling needs the whole menu) */
  ivr_ever_enabled: boolean;
};
export type TransferRule = StoredConfig['transfers']['rules'][number];

// ---- reading ----

export function effectiveVoice(c: StoredConfig, d: WorkspaceDefaults): VoiceSettings {
  return c.voice ?? d.voice;
}
export function effectiveSms(c: StoredConfig, d: WorkspaceDefaults): SmsSettings {
  return c.sms ?? d.sms;
}

/** The full configuration as the API shows it. Fields of the other stack read null. */
export function configView(
  numberId: number,
  phone: string | null,
  stack: Stack,
  c: StoredConfig,
  d: WorkspaceDefaults,
): ConfigView {
  const voice = effectiveVoice(c, d);
  const { ivr_ever_enabled: _e, voice: _v, sms: _s, call_settings, ...rest } = c;
  return {
    id: numberId,
    phone_number: phone,
    stack,
    ...rest,
    call_settings: { ...call_settings, hd_voice_enabled: stack === 't2' ? call_settings.hd_voice_enabled : null },
    voice: {
      inherits_workspace_default: c.voice === null,
      ...voice,
      speed: stack === 't1' ? voice.speed : null,
      voice_model_tier: stack === 't2' ? voice.voice_model_tier : null,
    },
    sms: { inherits_workspace_default: c.sms === null, ...effectiveSms(c, d) },
  };
}

// ---- updating ----

/** Records a problem unless the field already has one (the first, structural explanation wins). */
const add = (errs: Fields, field: string, why: string) => void (errs[field] ??= why);

/** A PATCH body as the checks across fields read it: the parts that passed their own checks. */
type SentPatch = Loose<ConfigPatch>;
/** A field as the configuration would have it (see wouldBe). */
type Would = <T>(path: string, sent: T | undefined, now: T) => T | undefined;

export interface ApplyContext {
  stack: Stack;
  defaults: WorkspaceDefaults;
  rng: Rng;
  knowledgeBaseIds: string[];
  faqIds: string[];
  eventTypeIds: string[];
}

/**
 * Validates a PATCH body and returns the new stored configuration (the old one is not modified).
 * Every problem comes in one 400: the checks across fields run on the parts of the body that
 * passed their own checks, and the change is made only from a body without problems.
 */
export function applyPatch(current: StoredConfig, body: unknown, ctx: ApplyContext): StoredConfig {
  const errs = newFields();
  const p = check(patchSchema, body, errs);
  checkAcrossFields(current, p ?? passedParts<ConfigPatch>(body, errs), ctx, errs);
  if (!p || Object.keys(errs).length > 0) throw validationError(errs);
  return merge(current, p, ctx);
}

/**
 * The rules that span fields, the stack and the workspace's library. A rule reads the
 * configuration as it would be, what was sent over what is, and does not run when a field it
 * reads was sent with a problem of its own (that problem is the one reported).
 */
function checkAcrossFields(current: StoredConfig, p: SentPatch, ctx: ApplyContext, errs: Fields): void {
  const would = wouldBe(new Set(Object.keys(errs)));
  checkSentAlone(p, errs);
  checkStack(p, ctx.stack, errs);
  checkAssigned(p, ctx, errs);
  checkKeptIds(current, p, errs);
  if (p.transfers) checkTransfers(current, p.transfers, would, errs);
  p.sms_referrals?.forEach((r, i) => {
    if (r?.when === 'keyword' && !r.keyword)
      add(errs, `sms_referrals[${i}].keyword`, 'is required when "when" is keyword');
  });
  if (p.forwarding) checkForwarding(current, p.forwarding, would, errs);
  if (p.ivr) checkIvr(current, p.ivr, would, errs);
}

/**
 * A field as the configuration would have it: what was sent, else what is; undefined (its rules
 * do not run) when it was sent with a problem of its own, one of the `structural` paths.
 */
function wouldBe(structural: ReadonlySet<string>): Would {
  return (path, sent, now) => {
    if (sent !== undefined) return sent;
    return structural.has(path) ? undefined : now;
  };
}

/** The stack cannot be sent; inherits_workspace_default only alone (the whole of voice or sms follows it). */
function checkSentAlone(p: SentPatch, errs: Fields): void {
  if (p.stack !== undefined) errs.stack = "is read-only: a number's stack cannot be changed";
  for (const part of ['voice', 'sms'] as const) {
    const sent = p[part];
    if (sent?.inherits_workspace_default !== undefined && Object.keys(sent).length > 1)
      add(
        errs,
        `${part}.inherits_workspace_default`,
        'must be sent alone (true goes back to the workspace default, false takes an own copy)',
      );
  }
}

/** The stack differences: hd_voice_enabled and voice_model_tier are t2 only, speed t1 only, and each has its voices. */
function checkStack(p: SentPatch, stack: Stack, errs: Fields): void {
  if (stack === 't1' && p.call_settings?.hd_voice_enabled !== undefined)
    add(errs, 'call_settings.hd_voice_enabled', 'applies to t2 numbers only; this number is t1');
  if (stack === 't1' && p.voice?.voice_model_tier !== undefined)
    add(errs, 'voice.voice_model_tier', 'applies to t2 numbers only; this number is t1');
  if (stack === 't2' && p.voice?.speed !== undefined)
    add(errs, 'voice.speed', 'applies to t1 numbers only; this number is t2');
  const voiceId = p.voice?.voice_id;
  if (voiceId !== undefined && !VOICES[stack].some((v) => v.id === voiceId))
    add(
      errs,
      'voice.voice_id',
      `is not a voice of this number (${stack}): one of ${VOICES[stack].map((v) => v.id).join(', ')}`,
    );
}

/** Rule 6: knowledge documents, FAQs and event types are assigned, not created, here: each is the workspace's. */
function checkAssigned(p: SentPatch, ctx: ApplyContext, errs: Fields): void {
  const existing = (path: string, ids: (string | undefined)[] | undefined, valid: string[], what: string) =>
    ids?.forEach((x, i) => {
      if (x !== undefined && !valid.includes(x)) add(errs, `${path}[${i}]`, `is not ${what} of this workspace`);
    });
  existing('knowledge.knowledge_base_ids', p.knowledge?.knowledge_base_ids, ctx.knowledgeBaseIds, 'a knowledge base');
  existing('knowledge.faq_ids', p.knowledge?.faq_ids, ctx.faqIds, 'an FAQ');
  existing('booking.event_type_ids', p.booking?.event_type_ids, ctx.eventTypeIds, 'an event type');
}

/** Rule 2: an item sent with an id is that existing item, once. */
function checkKeptIds(current: StoredConfig, p: SentPatch, errs: Fields): void {
  const keptIds = (path: string, now: { id: string }[], sent: ({ id?: string } | undefined)[] | undefined) => {
    const seen = new Set<string>();
    sent?.forEach((item, i) => {
      if (item?.id === undefined) return;
      if (!now.some((x) => x.id === item.id))
        add(errs, `${path}[${i}].id`, 'is not the id of an existing item (leave id out to add an item)');
      else if (seen.has(item.id)) add(errs, `${path}[${i}].id`, 'appears twice');
      seen.add(item.id);
    });
  };
  keptIds('qualification.questions', current.qualification.questions, p.qualification?.questions);
  keptIds('transfers.rules', current.transfers.rules, p.transfers?.rules);
  keptIds('sms_referrals', current.sms_referrals, p.sms_referrals);
  keptIds('forwarding.sequential_targets', current.forwarding.sequential_targets, p.forwarding?.sequential_targets);
  keptIds('ivr.menus', current.ivr.menus, p.ivr?.menus);
}

/** A custom condition goes with condition custom (only), and a transfer needs a number: its own or the primary. */
function checkTransfers(
  current: StoredConfig,
  t: NonNullable<SentPatch['transfers']>,
  would: Would,
  errs: Fields,
): void {
  t.rules?.forEach((r, i) => {
    if (r?.condition === 'custom' && !r.custom_condition)
      add(errs, `transfers.rules[${i}].custom_condition`, 'is required with condition custom');
    if (r?.condition !== undefined && r.condition !== 'custom' && r.custom_condition)
      add(errs, `transfers.rules[${i}].custom_condition`, 'goes only with condition custom');
  });
  const primary = would(
    'transfers.primary_transfer_number',
    t.primary_transfer_number,
    current.transfers.primary_transfer_number,
  );
  const rules = would<({ action?: string; target_number?: string | null } | undefined)[]>(
    'transfers.rules',
    t.rules,
    current.transfers.rules,
  );
  if (primary !== undefined)
    rules?.forEach((r, i) => {
      if (r?.action === 'transfer' && !r.target_number && !primary)
        add(
          errs,
          `transfers.rules[${i}].target_number`,
          'is required for a transfer when there is no primary_transfer_number',
        );
    });
}

/** Call-me-first needs a phone to ring: the single number, or a ring chain of at least one. */
function checkForwarding(
  current: StoredConfig,
  f: NonNullable<SentPatch['forwarding']>,
  would: Would,
  errs: Fields,
): void {
  const now = current.forwarding;
  const mode = would('forwarding.mode', f.mode, now.mode);
  const strategy = would('forwarding.ring_strategy', f.ring_strategy, now.ring_strategy);
  const single = would('forwarding.forward_to_number', f.forward_to_number, now.forward_to_number);
  const chain = would<unknown[]>('forwarding.sequential_targets', f.sequential_targets, now.sequential_targets);
  if (mode === 'call_me_first' && strategy === 'single' && single === null)
    add(errs, 'forwarding.forward_to_number', 'is required for call-me-first with a single number');
  if (mode === 'call_me_first' && strategy === 'sequential' && chain?.length === 0)
    add(errs, 'forwarding.sequential_targets', 'needs at least one number for a ring chain');
}

/** Rule 4 (the first time the phone menu is enabled, the whole menu must be sent), and a menu that can be followed. */
function checkIvr(current: StoredConfig, p: NonNullable<SentPatch['ivr']>, would: Would, errs: Fields): void {
  if (p.enabled === true && !current.ivr_ever_enabled) {
    for (const k of ['greeting', 'menus', 'timeout_seconds', 'max_attempts', 'fallback'] as const)
      if (p[k] === undefined)
        add(errs, `ivr.${k}`, 'is required the first time the phone menu is enabled (send the whole menu)');
    if (p.menus && p.menus.length === 0)
      add(errs, 'ivr.menus', 'needs at least one menu the first time the phone menu is enabled');
  }
  p.menus?.forEach((m, mi) => {
    const keys = new Set<string>();
    m?.options?.forEach((o, oi) => {
      const at = `ivr.menus[${mi}].options[${oi}]`;
      if (o?.key !== undefined && keys.has(o.key)) add(errs, `${at}.key`, 'is used twice in this menu');
      if (o?.key !== undefined) keys.add(o.key);
      if (o?.action?.type === 'transfer' && !o.action.phone_number)
        add(errs, `${at}.action.phone_number`, 'is required for a transfer');
    });
  });
  const fallback = would<{ type?: string; phone_number?: string | null }>(
    'ivr.fallback',
    p.fallback,
    current.ivr.fallback,
  );
  if (fallback?.type === 'transfer' && !fallback.phone_number)
    add(errs, 'ivr.fallback.phone_number', 'is required for a transfer fallback');
  const enabled = would('ivr.enabled', p.enabled, current.ivr.enabled);
  const menus = would<unknown[]>('ivr.menus', p.menus, current.ivr.menus);
  if (enabled === true && menus?.length === 0) add(errs, 'ivr.menus', 'an enabled phone menu needs a menu');
}

/** Rule 2: a list is replaced whole; items keep their id, an item without one gets a new id. */
const withIds = <T extends { id?: string }>(sent: T[], rng: Rng): (T & { id: string })[] =>
  sent.map((item) => ({ ...item, id: item.id ?? rng.uuid() }));

/** Copies the fields sent (never a key outside the schema: the validator already refused those). */
function assign<T extends object>(target: T, patch: Partial<T>): T {
  const out = { ...target };
  for (const k of Object.keys(patch) as (keyof T)[]) if (patch[k] !== undefined) out[k] = patch[k] as T[keyof T];
  return out;
}

/** Rule 1: only the fields sent change (`p` has passed every check). */
function merge(current: StoredConfig, p: ConfigPatch, ctx: ApplyContext): StoredConfig {
  const next: StoredConfig = clone(current);
  for (const k of ['name', 'is_active', 'business_name', 'business_description', 'timezone'] as const)
    if (p[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = p[k];
  if (p.call_settings) next.call_settings = assign(next.call_settings, p.call_settings);
  if (p.knowledge) next.knowledge = assign(next.knowledge, p.knowledge);
  if (p.booking) next.booking = assign(next.booking, p.booking);

  // voice and sms: copy-on-write from the workspace defaults on the first change
  if (p.voice && Object.keys(p.voice).length > 0) {
    const { inherits_workspace_default: inherit, ...fields } = p.voice;
    if (inherit === true) next.voice = null;
    else next.voice = assign(next.voice ?? clone(ctx.defaults.voice), fields as Partial<VoiceSettings>);
  }
  if (p.sms && Object.keys(p.sms).length > 0) {
    const { inherits_workspace_default: inherit, ...fields } = p.sms;
    if (inherit === true) next.sms = null;
    else next.sms = assign(next.sms ?? clone(ctx.defaults.sms), fields as Partial<SmsSettings>);
  }

  if (p.qualification) {
    const { questions, ...rest } = p.qualification;
    next.qualification = assign(next.qualification, rest);
    if (questions)
      next.qualification.questions = withIds(questions, ctx.rng).map((q) => ({
        id: q.id,
        question: q.question,
        required: q.required ?? false,
      }));
  }
  if (p.transfers) {
    const { rules, ...rest } = p.transfers;
    next.transfers = assign(next.transfers, rest);
    if (rules)
      next.transfers.rules = withIds(rules, ctx.rng).map((r) => ({
        id: r.id,
        condition: r.condition,
        custom_condition: r.custom_condition ?? null,
        action: r.action,
        target_number: r.target_number ?? null,
        priority: r.priority ?? 100,
      }));
  }
  if (p.sms_referrals)
    next.sms_referrals = withIds(p.sms_referrals, ctx.rng).map((r) => ({
      id: r.id,
      refer_to_number: r.refer_to_number,
      when: r.when,
      keyword: r.keyword ?? null,
      message: r.message ?? `Please text ${r.refer_to_number} for help with that.`,
    }));
  if (p.forwarding) {
    const { sequential_targets, ...rest } = p.forwarding;
    next.forwarding = assign(next.forwarding, rest);
    if (sequential_targets)
      next.forwarding.sequential_targets = withIds(sequential_targets, ctx.rng).map((t) => ({
        id: t.id,
        phone_number: t.phone_number,
        ring_timeout_seconds: t.ring_timeout_seconds ?? 20,
      }));
  }
  if (p.ivr) {
    const { menus, fallback, ...rest } = p.ivr;
    next.ivr = assign(next.ivr, rest);
    if (fallback) next.ivr.fallback = { type: fallback.type, phone_number: fallback.phone_number ?? null };
    if (menus)
      next.ivr.menus = withIds(menus, ctx.rng).map((m) => ({
        id: m.id,
        name: m.name,
        options: m.options.map((o) => ({
          key: o.key,
          label: o.label,
          action: {
            type: o.action.type,
            phone_number: o.action.phone_number ?? null,
            fallback_phone_number: o.action.fallback_phone_number ?? null,
          },
        })),
      }));
    if (next.ivr.enabled) next.ivr_ever_enabled = true;
  }
  return next;
}

/** PATCH /_sim/workspace/defaults: the same voice and sms fields, no stack rules (each number reads the fields of its stack); every problem in one 400. */
export function applyDefaultsPatch(d: WorkspaceDefaults, body: unknown): WorkspaceDefaults {
  const errs = newFields();
  const parsed = check(DefaultsPatch, body, errs);
  const p = parsed ?? passedParts<Infer<typeof DefaultsPatch>>(body, errs);
  if (p.voice?.inherits_workspace_default !== undefined)
    errs['voice.inherits_workspace_default'] = 'is a number setting, not a default';
  if (p.sms?.inherits_workspace_default !== undefined)
    errs['sms.inherits_workspace_default'] = 'is a number setting, not a default';
  // a default reaches numbers of both stacks, so it must be a voice both can speak with
  const common = VOICES.t1.filter((v) => VOICES.t2.some((w) => w.id === v.id)).map((v) => v.id);
  if (p.voice?.voice_id !== undefined && !common.includes(p.voice.voice_id))
    errs['voice.voice_id'] = `must be a voice of both stacks: one of ${common.join(', ')}`;
  if (!parsed || Object.keys(errs).length) throw validationError(errs);
  const { inherits_workspace_default: _a, ...voice } = parsed.voice ?? {};
  const { inherits_workspace_default: _b, ...sms } = parsed.sms ?? {};
  return { voice: assign(d.voice, voice as Partial<VoiceSettings>), sms: assign(d.sms, sms as Partial<SmsSettings>) };
}

/** Local time in a zone as minutes after midnight and a day name. */
export function localTime(ms: number, timeZone: string): { minutes: number; day: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    weekday: 'short',
  }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((x) => x.type === t)!.value;
  return { minutes: Number(get('hour')) * 60 + Number(get('minute')), day: get('weekday').toLowerCase().slice(0, 3) };
}

/** Whether `ms` falls within HH:MM start-end in the zone (an end before the start spans midnight). */
export function withinHours(ms: number, timeZone: string, start: string, end: string): boolean {
  const { minutes } = localTime(ms, timeZone);
  const toMin = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
  const a = toMin(start);
  const b = toMin(end);
  return a <= b ? minutes >= a && minutes < b : minutes >= a || minutes < b;
}
