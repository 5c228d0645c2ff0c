// Number configuration: every setting of the AI agent that answers a number, its schema, the
// workspace defaults that voice and sms inherit until first changed, and the update rules of
// PATCH /v1/phone-numbers/{id}/config (only sent fields change, lists replaced whole with item ids
// kept, unknown fields 400 at any depth, the phone menu's first enabling, the stack differences).
import { validationError, type Fields } from './errors.js';
import type { Rng } from './rng.js';
import {
  arr, bool, e164, int, newFields, nullable, num, obj, oneOf, parse, str, type Schema,
} from './validate.js';

export type Stack = 't1' | 't2';

export const LLM_MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet', 'llama-3.1-70b'] as const;
export const BACKGROUND_SOUNDS = ['none', 'office', 'cafe', 'call_center'] as const;
export const VOICE_MODEL_TIERS = ['standard', 'premium'] as const;
export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const COLLECTABLE = ['name', 'email', 'phone_number', 'company', 'job_title', 'address'] as const;
export const IVR_ACTIONS = ['transfer', 'ai_agent', 'voicemail', 'hangup'] as const;

/** Voices each stack can speak with (GET /v1/phone-numbers/{id}/voices). */
export const VOICES: Record<Stack, { id: string; name: string; language: string; gender: string }[]> = {
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

export interface VoiceSettings {
  voice_id: string; language: string; speed: number; greeting_message: string; farewell_message: string; prompt: string;
  llm_model: string; background_sound: string; outbound_greeting: string; outbound_prompt: string; voice_model_tier: string;
}
export interface SmsSettings {
  auto_reply_enabled: boolean; reply_delay_seconds: number; prompt: string; language: string; llm_model: string;
  stop_words: string[]; stop_after_replies: boolean; max_replies_per_contact: number;
}
export interface TransferRule { id: string; condition: 'human_requested' | 'after_hours' | 'custom'; custom_condition: string | null; action: 'transfer' | 'voicemail'; target_number: string | null; priority: number }
export interface IvrOption { key: string; label: string; action: { type: (typeof IVR_ACTIONS)[number]; phone_number: string | null; fallback_phone_number: string | null } }
export interface IvrMenu { id: string; name: string; options: IvrOption[] }

/** What a number stores; voice and sms are null while they inherit the workspace defaults. */
export interface StoredConfig {
  name: string;
  is_active: boolean;
  business_name: string | null;
  business_description: string | null;
  timezone: string;
  call_settings: { max_call_length_seconds: number; recording_enabled: boolean; transcription_enabled: boolean; summaries_enabled: boolean; recording_retention_days: number; hd_voice_enabled: boolean };
  voice: VoiceSettings | null;
  sms: SmsSettings | null;
  knowledge: { knowledge_base_ids: string[]; faq_ids: string[]; knowledge_base_enabled: boolean; web_search_enabled: boolean };
  qualification: { enabled: boolean; collect_fields: string[]; questions: { id: string; question: string; required: boolean }[] };
  booking: { enabled: boolean; event_type_ids: string[]; bookable_days: string[]; bookable_hours_start: string; bookable_hours_end: string; minimum_notice_minutes: number; confirmation_message: string };
  transfers: { primary_transfer_number: string | null; office_hours_only: boolean; office_hours_start: string; office_hours_end: string; rules: TransferRule[] };
  sms_referrals: { id: string; refer_to_number: string; when: 'always' | 'after_hours' | 'keyword'; keyword: string | null; message: string }[];
  forwarding: { mode: 'ai_answers_all' | 'call_me_first'; ring_strategy: 'single' | 'sequential'; forward_to_number: string | null; ring_timeout_seconds: number; sequential_targets: { id: string; phone_number: string; ring_timeout_seconds: number }[] };
  ivr: { enabled: boolean; greeting: string; menus: IvrMenu[]; timeout_seconds: number; max_attempts: number; fallback: { type: 'hangup' | 'ai_agent' | 'voicemail' | 'transfer'; phone_number: string | null } };
  /** the phone menu has been enabled once (rule 4: the first enabling needs the whole menu) */
  ivr_ever_enabled: boolean;
}

export interface WorkspaceDefaults { voice: VoiceSettings; sms: SmsSettings }

export function workspaceDefaults(): WorkspaceDefaults {
  return {
    voice: {
      voice_id: 'ava', language: 'en-US', speed: 1, greeting_message: 'Thanks for calling! How can I help you today?',
      farewell_message: 'Thanks for calling. Goodbye!', prompt: 'You are a helpful, concise receptionist.', llm_model: 'gpt-4o-mini',
      background_sound: 'none', outbound_greeting: 'Hi, this is an AI assistant calling.', outbound_prompt: 'Be brief and polite.', voice_model_tier: 'standard',
    },
    sms: {
      auto_reply_enabled: false, reply_delay_seconds: 20, prompt: 'Answer texts briefly and helpfully.', language: 'en-US', llm_model: 'gpt-4o-mini',
      stop_words: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'], stop_after_replies: false, max_replies_per_contact: 50,
    },
  };
}

export function newConfig(name: string, o: { business_name?: string | null; business_description?: string | null } = {}): StoredConfig {
  return {
    name, is_active: true, business_name: o.business_name ?? null, business_description: o.business_description ?? null, timezone: 'America/New_York',
    call_settings: { max_call_length_seconds: 1800, recording_enabled: true, transcription_enabled: true, summaries_enabled: true, recording_retention_days: 90, hd_voice_enabled: false },
    voice: null,
    sms: null,
    knowledge: { knowledge_base_ids: [], faq_ids: [], knowledge_base_enabled: false, web_search_enabled: false },
    qualification: { enabled: false, collect_fields: ['name', 'phone_number'], questions: [] },
    booking: { enabled: false, event_type_ids: [], bookable_days: ['mon', 'tue', 'wed', 'thu', 'fri'], bookable_hours_start: '09:00', bookable_hours_end: '17:00', minimum_notice_minutes: 60, confirmation_message: 'You are booked. See you then!' },
    transfers: { primary_transfer_number: null, office_hours_only: false, office_hours_start: '09:00', office_hours_end: '17:00', rules: [] },
    sms_referrals: [],
    forwarding: { mode: 'ai_answers_all', ring_strategy: 'single', forward_to_number: null, ring_timeout_seconds: 20, sequential_targets: [] },
    ivr: { enabled: false, greeting: '', menus: [], timeout_seconds: 8, max_attempts: 3, fallback: { type: 'ai_agent', phone_number: null } },
    ivr_ever_enabled: false,
  };
}

// ---- schemas (every field optional: a PATCH sends only what changes) ----

const HHMM = str({ pattern: /^([01]\d|2[0-3]):[0-5]\d$/, patternMessage: 'must be a time HH:MM (24-hour)' });
const timezone = (): Schema<string> => ({
  check(v, path, errs) {
    const s = str({ min: 1, max: 64 }).check(v, path, errs);
    if (s === undefined) return undefined;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: s });
      return s;
    } catch {
      errs[path] = 'must be an IANA time zone such as America/New_York';
      return undefined;
    }
  },
});
const id = str({ min: 1, max: 100 });
const readOnlyFlag = bool();

export const voiceSchema = obj({
  inherits_workspace_default: readOnlyFlag,
  voice_id: str({ min: 1, max: 100 }), language: str({ min: 2, max: 35 }), speed: num({ min: 0.5, max: 2 }),
  greeting_message: str({ max: 1000 }), farewell_message: str({ max: 1000 }), prompt: str({ max: 20_000 }),
  llm_model: oneOf(LLM_MODELS), background_sound: oneOf(BACKGROUND_SOUNDS), outbound_greeting: str({ max: 1000 }),
  outbound_prompt: str({ max: 20_000 }), voice_model_tier: oneOf(VOICE_MODEL_TIERS),
});
export const smsSchema = obj({
  inherits_workspace_default: readOnlyFlag,
  auto_reply_enabled: bool(), reply_delay_seconds: int({ min: 0, max: 3600 }), prompt: str({ max: 20_000 }), language: str({ min: 2, max: 35 }),
  llm_model: oneOf(LLM_MODELS), stop_words: arr(str({ min: 1, max: 50 }), { max: 50 }), stop_after_replies: bool(),
  max_replies_per_contact: int({ min: 1, max: 10_000 }),
});
const ivrOption = obj({
  key: str({ pattern: /^[0-9*#]$/, patternMessage: 'must be one key: 0-9, * or #' }),
  label: str({ min: 1, max: 200 }),
  action: obj({ type: oneOf(IVR_ACTIONS), phone_number: nullable(e164()), fallback_phone_number: nullable(e164()) }, { required: ['type'] }),
}, { required: ['key', 'label', 'action'] });

export const patchSchema = obj({
  name: str({ min: 1, max: 100 }),
  is_active: bool(),
  business_name: nullable(str({ min: 1, max: 200 })),
  business_description: nullable(str({ max: 5000 })),
  timezone: timezone(),
  stack: oneOf(['t1', 't2'] as const),
  call_settings: obj({
    max_call_length_seconds: int({ min: 30, max: 7200 }), recording_enabled: bool(), transcription_enabled: bool(), summaries_enabled: bool(),
    recording_retention_days: int({ min: 1, max: 3650 }), hd_voice_enabled: bool(),
  }),
  voice: voiceSchema,
  sms: smsSchema,
  knowledge: obj({ knowledge_base_ids: arr(id, { max: 50 }), faq_ids: arr(id, { max: 500 }), knowledge_base_enabled: bool(), web_search_enabled: bool() }),
  qualification: obj({
    enabled: bool(), collect_fields: arr(oneOf(COLLECTABLE)),
    questions: arr(obj({ id, question: str({ min: 1, max: 500 }), required: bool() }, { required: ['question'] }), { max: 50 }),
  }),
  booking: obj({
    enabled: bool(), event_type_ids: arr(id, { max: 50 }), bookable_days: arr(oneOf(DAYS), { max: 7 }), bookable_hours_start: HHMM,
    bookable_hours_end: HHMM, minimum_notice_minutes: int({ min: 0, max: 43_200 }), confirmation_message: str({ max: 1000 }),
  }),
  transfers: obj({
    primary_transfer_number: nullable(e164()), office_hours_only: bool(), office_hours_start: HHMM, office_hours_end: HHMM,
    rules: arr(obj({
      id, condition: oneOf(['human_requested', 'after_hours', 'custom'] as const), custom_condition: nullable(str({ min: 1, max: 500 })),
      action: oneOf(['transfer', 'voicemail'] as const), target_number: nullable(e164()), priority: int({ min: 0, max: 1000 }),
    }, { required: ['condition', 'action'] }), { max: 50 }),
  }),
  sms_referrals: arr(obj({
    id, refer_to_number: e164(), when: oneOf(['always', 'after_hours', 'keyword'] as const), keyword: nullable(str({ min: 1, max: 50 })), message: str({ max: 500 }),
  }, { required: ['refer_to_number', 'when'] }), { max: 20 }),
  forwarding: obj({
    mode: oneOf(['ai_answers_all', 'call_me_first'] as const), ring_strategy: oneOf(['single', 'sequential'] as const),
    forward_to_number: nullable(e164()), ring_timeout_seconds: int({ min: 5, max: 120 }),
    sequential_targets: arr(obj({ id, phone_number: e164(), ring_timeout_seconds: int({ min: 5, max: 120 }) }, { required: ['phone_number'] }), { max: 10 }),
  }),
  ivr: obj({
    enabled: bool(), greeting: str({ max: 2000 }),
    menus: arr(obj({ id, name: str({ min: 1, max: 100 }), options: arr(ivrOption, { min: 1, max: 12 }) }, { required: ['name', 'options'] }), { max: 10 }),
    timeout_seconds: int({ min: 1, max: 60 }), max_attempts: int({ min: 1, max: 10 }),
    fallback: obj({ type: oneOf(['hangup', 'ai_agent', 'voicemail', 'transfer'] as const), phone_number: nullable(e164()) }, { required: ['type'] }),
  }),
});
export type ConfigPatch = NonNullable<ReturnType<typeof patchSchema.check>>;

// ---- reading ----

export function effectiveVoice(c: StoredConfig, d: WorkspaceDefaults): VoiceSettings {
  return c.voice ?? d.voice;
}
export function effectiveSms(c: StoredConfig, d: WorkspaceDefaults): SmsSettings {
  return c.sms ?? d.sms;
}

/** The full configuration as the API shows it. Fields of the other stack read null. */
export function configView(numberId: number, phone: string | null, stack: Stack, c: StoredConfig, d: WorkspaceDefaults) {
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

type ListItem = { id?: string };

/** Rule 2: a list is replaced whole; items keep their id, an item without one gets a new id, an unknown id is refused. */
function replaceList<T extends ListItem>(path: string, current: { id: string }[], sent: T[], rng: Rng, errs: Fields): (T & { id: string })[] {
  const known = new Set(current.map((x) => x.id));
  const seen = new Set<string>();
  return sent.map((item, i) => {
    if (item.id !== undefined) {
      if (!known.has(item.id)) add(errs, `${path}[${i}].id`, 'is not the id of an existing item (leave id out to add an item)');
      else if (seen.has(item.id)) add(errs, `${path}[${i}].id`, 'appears twice');
      seen.add(item.id);
      return item as T & { id: string };
    }
    return { ...item, id: rng.uuid() };
  });
}

/** Copies the fields sent (never a key outside the schema: the validator already refused those). */
function assign<T extends object>(target: T, patch: Partial<T>): T {
  const out = { ...target };
  for (const k of Object.keys(patch) as (keyof T)[]) if (patch[k] !== undefined) out[k] = patch[k] as T[keyof T];
  return out;
}

export interface ApplyContext {
  stack: Stack;
  defaults: WorkspaceDefaults;
  rng: Rng;
  knowledgeBaseIds: string[];
  faqIds: string[];
  eventTypeIds: string[];
}

/** Validates a PATCH body and returns the new stored configuration (the old one is not modified). */
export function applyPatch(current: StoredConfig, body: unknown, ctx: ApplyContext): StoredConfig {
  // structural and reference problems are all reported in one 400: the checks below run on what parsed
  const errs = newFields();
  const p: ConfigPatch = patchSchema.check(body, '', errs) ?? {};
  if (p.stack !== undefined) errs.stack = 'is read-only: a number\'s stack cannot be changed';
  if (p.voice?.inherits_workspace_default !== undefined && Object.keys(p.voice).length > 1)
    add(errs, 'voice.inherits_workspace_default', 'must be sent alone (true goes back to the workspace default, false takes an own copy)');
  if (p.sms?.inherits_workspace_default !== undefined && Object.keys(p.sms).length > 1)
    add(errs, 'sms.inherits_workspace_default', 'must be sent alone (true goes back to the workspace default, false takes an own copy)');

  // stack differences: hd_voice_enabled and voice_model_tier are t2 only; speed is t1 only
  if (ctx.stack === 't1' && p.call_settings?.hd_voice_enabled !== undefined) add(errs, 'call_settings.hd_voice_enabled', 'applies to t2 numbers only; this number is t1');
  if (ctx.stack === 't1' && p.voice?.voice_model_tier !== undefined) add(errs, 'voice.voice_model_tier', 'applies to t2 numbers only; this number is t1');
  if (ctx.stack === 't2' && p.voice?.speed !== undefined) add(errs, 'voice.speed', 'applies to t1 numbers only; this number is t2');
  if (p.voice?.voice_id !== undefined && !VOICES[ctx.stack].some((v) => v.id === p.voice!.voice_id))
    add(errs, 'voice.voice_id', `is not a voice of this number (${ctx.stack}): one of ${VOICES[ctx.stack].map((v) => v.id).join(', ')}`);

  // rule 6: knowledge documents, FAQs and event types are assigned, not created, here
  const existing = (path: string, ids: string[] | undefined, valid: string[], what: string) =>
    ids?.forEach((x, i) => { if (!valid.includes(x)) add(errs, `${path}[${i}]`, `is not ${what} of this workspace`); });
  existing('knowledge.knowledge_base_ids', p.knowledge?.knowledge_base_ids, ctx.knowledgeBaseIds, 'a knowledge base');
  existing('knowledge.faq_ids', p.knowledge?.faq_ids, ctx.faqIds, 'an FAQ');
  existing('booking.event_type_ids', p.booking?.event_type_ids, ctx.eventTypeIds, 'an event type');

  // list items and nested objects that failed their checks are missing below: stop here if any did
  if (Object.keys(errs).length > 0) throw validationError(errs);

  const next: StoredConfig = structuredClone(current);
  for (const k of ['name', 'is_active', 'business_name', 'business_description', 'timezone'] as const)
    if (p[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = p[k];
  if (p.call_settings) next.call_settings = assign(next.call_settings, p.call_settings);
  if (p.knowledge) next.knowledge = assign(next.knowledge, p.knowledge);
  if (p.booking) next.booking = assign(next.booking, p.booking);

  // voice and sms: copy-on-write from the workspace defaults on the first change
  if (p.voice && Object.keys(p.voice).length > 0) {
    const { inherits_workspace_default: inherit, ...fields } = p.voice;
    if (inherit === true) next.voice = null;
    else next.voice = assign(next.voice ?? structuredClone(ctx.defaults.voice), fields as Partial<VoiceSettings>);
  }
  if (p.sms && Object.keys(p.sms).length > 0) {
    const { inherits_workspace_default: inherit, ...fields } = p.sms;
    if (inherit === true) next.sms = null;
    else next.sms = assign(next.sms ?? structuredClone(ctx.defaults.sms), fields as Partial<SmsSettings>);
  }

  if (p.qualification) {
    const { questions, ...rest } = p.qualification;
    next.qualification = assign(next.qualification, rest);
    if (questions) next.qualification.questions = replaceList('qualification.questions', current.qualification.questions, questions, ctx.rng, errs)
      .map((q) => ({ id: q.id, question: q.question, required: q.required ?? false }));
  }
  if (p.transfers) {
    const { rules, ...rest } = p.transfers;
    next.transfers = assign(next.transfers, rest);
    if (rules) {
      next.transfers.rules = replaceList('transfers.rules', current.transfers.rules, rules, ctx.rng, errs).map((r, i) => {
        if (r.condition === 'custom' && !r.custom_condition) add(errs, `transfers.rules[${i}].custom_condition`, 'is required with condition custom');
        if (r.condition !== 'custom' && r.custom_condition) add(errs, `transfers.rules[${i}].custom_condition`, 'goes only with condition custom');
        return { id: r.id, condition: r.condition, custom_condition: r.custom_condition ?? null, action: r.action, target_number: r.target_number ?? null, priority: r.priority ?? 100 };
      });
    }
    next.transfers.rules.forEach((r, i) => {
      if (r.action === 'transfer' && !r.target_number && !next.transfers.primary_transfer_number)
        add(errs, `transfers.rules[${i}].target_number`, 'is required for a transfer when there is no primary_transfer_number');
    });
  }
  if (p.sms_referrals) {
    next.sms_referrals = replaceList('sms_referrals', current.sms_referrals, p.sms_referrals, ctx.rng, errs).map((r, i) => {
      if (r.when === 'keyword' && !r.keyword) add(errs, `sms_referrals[${i}].keyword`, 'is required when "when" is keyword');
      return { id: r.id, refer_to_number: r.refer_to_number, when: r.when, keyword: r.keyword ?? null, message: r.message ?? `Please text ${r.refer_to_number} for help with that.` };
    });
  }
  if (p.forwarding) {
    const { sequential_targets, ...rest } = p.forwarding;
    next.forwarding = assign(next.forwarding, rest);
    if (sequential_targets) next.forwarding.sequential_targets = replaceList('forwarding.sequential_targets', current.forwarding.sequential_targets, sequential_targets, ctx.rng, errs)
      .map((t) => ({ id: t.id, phone_number: t.phone_number, ring_timeout_seconds: t.ring_timeout_seconds ?? 20 }));
    const f = next.forwarding;
    if (f.mode === 'call_me_first' && f.ring_strategy === 'single' && !f.forward_to_number) add(errs, 'forwarding.forward_to_number', 'is required for call-me-first with a single number');
    if (f.mode === 'call_me_first' && f.ring_strategy === 'sequential' && f.sequential_targets.length === 0) add(errs, 'forwarding.sequential_targets', 'needs at least one number for a ring chain');
  }
  if (p.ivr) applyIvr(current, next, p.ivr, ctx.rng, errs);

  if (Object.keys(errs).length > 0) throw validationError(errs);
  return next;
}

type IvrPatch = NonNullable<ConfigPatch['ivr']>;

/** Rule 4: the first time the phone menu is enabled, the whole menu must be sent. */
function applyIvr(current: StoredConfig, next: StoredConfig, p: IvrPatch, rng: Rng, errs: Fields): void {
  if (p.enabled === true && !current.ivr_ever_enabled) {
    for (const k of ['greeting', 'menus', 'timeout_seconds', 'max_attempts', 'fallback'] as const)
      if (p[k] === undefined) add(errs, `ivr.${k}`, 'is required the first time the phone menu is enabled (send the whole menu)');
    if (p.menus && p.menus.length === 0) add(errs, 'ivr.menus', 'needs at least one menu the first time the phone menu is enabled');
  }
  const { menus, fallback, ...rest } = p;
  next.ivr = assign(next.ivr, rest);
  if (fallback) next.ivr.fallback = { type: fallback.type, phone_number: fallback.phone_number ?? null };
  if (menus) {
    next.ivr.menus = replaceList('ivr.menus', current.ivr.menus, menus, rng, errs).map((m, mi) => {
      const keys = new Set<string>();
      return {
        id: m.id,
        name: m.name,
        options: m.options.map((o, oi) => {
          const at = `ivr.menus[${mi}].options[${oi}]`;
          if (keys.has(o.key)) add(errs, `${at}.key`, 'is used twice in this menu');
          keys.add(o.key);
          if (o.action.type === 'transfer' && !o.action.phone_number) add(errs, `${at}.action.phone_number`, 'is required for a transfer');
          return { key: o.key, label: o.label, action: { type: o.action.type, phone_number: o.action.phone_number ?? null, fallback_phone_number: o.action.fallback_phone_number ?? null } };
        }),
      };
    });
  }
  if (next.ivr.fallback.type === 'transfer' && !next.ivr.fallback.phone_number) add(errs, 'ivr.fallback.phone_number', 'is required for a transfer fallback');
  if (next.ivr.enabled) next.ivr_ever_enabled = true;
  if (next.ivr.enabled && next.ivr.menus.length === 0) add(errs, 'ivr.menus', 'an enabled phone menu needs a menu');
}

/** PATCH /_sim/workspace/defaults: the same voice and sms fields, no stack rules (each number reads the fields of its stack). */
export function applyDefaultsPatch(d: WorkspaceDefaults, body: unknown): WorkspaceDefaults {
  const p = parse(obj({ voice: voiceSchema, sms: smsSchema }), body);
  const errs = newFields();
  if (p.voice?.inherits_workspace_default !== undefined) errs['voice.inherits_workspace_default'] = 'is a number setting, not a default';
  if (p.sms?.inherits_workspace_default !== undefined) errs['sms.inherits_workspace_default'] = 'is a number setting, not a default';
  // a default reaches numbers of both stacks, so it must be a voice both can speak with
  const common = VOICES.t1.filter((v) => VOICES.t2.some((w) => w.id === v.id)).map((v) => v.id);
  if (p.voice?.voice_id !== undefined && !common.includes(p.voice.voice_id)) errs['voice.voice_id'] = `must be a voice of both stacks: one of ${common.join(', ')}`;
  if (Object.keys(errs).length) throw validationError(errs);
  const { inherits_workspace_default: _a, ...voice } = p.voice ?? {};
  const { inherits_workspace_default: _b, ...sms } = p.sms ?? {};
  return { voice: assign(d.voice, voice as Partial<VoiceSettings>), sms: assign(d.sms, sms as Partial<SmsSettings>) };
}

/** Local time in a zone as minutes after midnight and a day name. */
export function localTime(ms: number, timeZone: string): { minutes: number; day: string } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', weekday: 'short' }).formatToParts(new Date(ms));
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
