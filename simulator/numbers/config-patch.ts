// The update rules of PATCH /v1/phone-numbers/{id}/config (only sent fields change, lists replaced
// whole with item ids kept, unknown fields 400 at any depth, the phone menu's first enabling, the
// stack differences) and of PATCH /_sim/workspace/defaults, every problem of a body in one 400.
// The settings they change are declared in config.ts.
import { validationError, type Fields } from '../core/errors.js';
import type { Rng } from '../core/rng.js';
import { isPlainObject, type Infer } from '../core/schema.js';
import { check, newFields, passedParts, type Loose } from '../core/check.js';
import { clone } from '../store/tracker.js';
import {
  DefaultsPatch,
  patchSchema,
  type ConfigPatch,
  type SmsSettings,
  type Stack,
  type StoredConfig,
  type VoiceSettings,
  type WorkspaceDefaults,
} from './config.js';
import { VOICES } from './voices.js';

/** Records a problem unless the field already has one (the first, structural explanation wins). */
const add = (errs: Fields, field: string, why: string) => void (errs[field] ??= why);

/** A PATCH body as the checks across fields read it: the parts that passed their own checks. */
type SentPatch = Loose<ConfigPatch>;
/** A field as the configuration would have it (see wouldBe). */
type Would = <T>(path: string, sent: T | undefined, now: T) => T | undefined;

export interface ApplyContext {
  /** the number's id and phone number: what the read shows of the number itself */
  id: number;
  phoneNumber: string | null;
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
  const sent = withoutEchoes(body, current, ctx, errs);
  const p = check(patchSchema, sent, errs);
  checkAcrossFields(current, p ?? passedParts<ConfigPatch>(sent, errs), ctx, errs);
  if (!p || Object.keys(errs).length > 0) throw validationError(errs);
  return merge(current, p, ctx);
}

/**
 * The body less what only the read shows, sent back as the read shows it ("The full configuration
 * is one object": what GET returns may be sent back whole, or with a change made in it): the
 * number's id and phone_number (another value is 400, read-only), its stack (another value is
 * refused by the checks below), a section's inherits_workspace_default as it stands (a change of it
 * still goes alone), a field of the other stack reading null, and while voice or sms inherits the
 * workspace defaults, a field of it as the defaults have it (so no own copy is taken for nothing).
 * A field holding anything else is kept, for the schema and the rules to judge. `body` is not modified.
 */
function withoutEchoes(body: unknown, current: StoredConfig, ctx: ApplyContext, errs: Fields): unknown {
  if (!isPlainObject(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [k, own] of [
    ['id', ctx.id],
    ['phone_number', ctx.phoneNumber],
  ] as const) {
    if (!(k in out)) continue;
    if (out[k] !== own) errs[k] = `is read-only: this number's ${k} is ${JSON.stringify(own)}`;
    delete out[k];
  }
  if (out.stack === ctx.stack) delete out.stack;
  const otherStack: Record<string, readonly string[]> = {
    call_settings: ctx.stack === 't1' ? ['hd_voice_enabled'] : [],
    voice: ctx.stack === 't1' ? ['voice_model_tier'] : ['speed'],
    sms: [],
  };
  for (const part of ['call_settings', 'voice', 'sms'] as const) {
    const sent = out[part];
    if (!isPlainObject(sent)) continue;
    const section: Record<string, unknown> = { ...sent };
    for (const k of otherStack[part]) if (section[k] === null) delete section[k];
    if (part !== 'call_settings') {
      const inherits = current[part] === null;
      if (section.inherits_workspace_default === inherits && Object.keys(section).length > 1)
        delete section.inherits_workspace_default;
      // while it inherits, a field sent as the defaults have it is no change (no copy is taken for it)
      const inherited: Record<string, unknown> = ctx.defaults[part];
      if (inherits)
        for (const k of Object.keys(section))
          if (
            k in inherited &&
            !otherStack[part].includes(k) &&
            JSON.stringify(section[k]) === JSON.stringify(inherited[k])
          )
            delete section[k];
    }
    out[part] = section;
  }
  return out;
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
        ...(r.custom_condition ? { custom_condition: r.custom_condition } : {}),
        action: r.action,
        ...(r.target_number ? { target_number: r.target_number } : {}),
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
  if (p.ivr) mergeIvr(next, p.ivr, ctx.rng);
  return next;
}

/** The phone menu's part of rule 1: its menus replaced whole (ids kept), and its first enabling noted (rule 4). */
function mergeIvr(next: StoredConfig, ivr: NonNullable<ConfigPatch['ivr']>, rng: Rng): void {
  const { menus, fallback, ...rest } = ivr;
  next.ivr = assign(next.ivr, rest);
  if (fallback) next.ivr.fallback = { type: fallback.type, phone_number: fallback.phone_number ?? null };
  if (menus)
    next.ivr.menus = withIds(menus, rng).map((m) => ({
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
