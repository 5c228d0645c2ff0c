// Number configuration: every setting of the AI agent that answers a number, its schema, and how
// the API shows it (voice and sms inherit the workspace defaults until first changed). The update
// rules of PATCH /v1/phone-numbers/{id}/config: config-patch.ts; what a new number and workspace
// start with: config-defaults.ts; the voices of each stack: voices.ts.
//
// Each setting is declared once (the *Fields shapes below): PATCH bodies take them with every key
// optional (obj), the configuration the API shows takes them all present (record), and the types
// the store keeps are inferred from those records.
import * as z from 'zod/mini';
import {
  absent,
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
  withoutNulls,
  type Infer,
} from '../core/schema.js';

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
/**
 * A transfer rule as the configuration shows it: custom_condition and target_number are strings in
 * the spec, so a rule without one reads without the key, never null (sent, null still clears them).
 */
const transferRuleShownFields = () => ({
  ...transferRuleFields(),
  custom_condition: doc(
    absent(str({ min: 1, max: 500, example: 'caller mentions billing' })),
    'with condition custom only: left out otherwise',
  ),
  target_number: doc(absent(e164()), 'left out when the rule has none: primary_transfer_number takes its transfers'),
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
      transfers: record({ ...transfersFields(), rules: z.array(record(transferRuleShownFields())) }),
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
    transfers: {
      ...rest.transfers,
      rules: rest.transfers.rules.map((r) => withoutNulls(r, ['custom_condition', 'target_number'] as const)),
    },
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
