// How a workspace number handles an inbound call, decided from its configuration when the call
// starts (rule 5: changes apply from the next call). A pure function: configuration, time and what
// the caller does (keys pressed, words said) in; the call's whole course out.
//
// Order: a suspended line or a paused account does not connect the call; an inactive number does
// not answer; call-me-first rings the owner's phone(s) first; an enabled phone menu answers instead
// of the AI; otherwise the AI agent answers, and its transfer rules (office hours in the number's
// timezone) may hand the call to a person.
import type { TranscriptTurn, CallStatus, CallTag } from '../history/index.js';
import { effectiveVoice, withinHours, type StoredConfig, type TransferRule, type WorkspaceDefaults } from './config.js';
import type { CallPlan } from '../calls/index.js';

export interface InboundInput {
  config: StoredConfig;
  defaults: WorkspaceDefaults;
  handles_calls: boolean;
  /** the line is suspended, or the account paused for calls (billing.ts): the call is not connected */
  refused: 'line_suspended' | 'account_paused' | null;
  now: number;
  /** keys the caller presses, in order (e.g. "1" or "91") */
  digits: string;
  /** what the caller says to the AI agent */
  says: string | null;
  /** whether a person's phone picks up when the call is forwarded or transferred to it (its persona's first attempt) */
  picksUp: (phone: string) => boolean;
}

export const RING_OUT_SECONDS = 30;
/** A call that is not connected fails this soon, as the carrier's refusal does. */
export const REFUSED_SECONDS = 3;
const AI_TALK_SECONDS = 40;
const TRANSFER_TALK_SECONDS = 90;

const HUMAN = /\b(human|person|someone|somebody|representative|agent|operator|manager|real person|staff)\b/i;
const STOP = new Set([
  'caller',
  'mentions',
  'mention',
  'asks',
  'about',
  'wants',
  'with',
  'their',
  'they',
  'that',
  'this',
  'when',
  'from',
  'into',
  'have',
  'talk',
  'speak',
]);

/** A custom condition holds when the caller says one of its significant words. */
export function customConditionHolds(condition: string, says: string | null): boolean {
  if (!says) return false;
  const words =
    condition
      .toLowerCase()
      .match(/[a-z]{4,}/g)
      ?.filter((w) => !STOP.has(w)) ?? [];
  const said = says.toLowerCase();
  return words.some((w) => new RegExp(`\\b${w}`).test(said));
}

class Script {
  turns: TranscriptTurn[] = [];
  t = 0;
  say(speaker: 'agent' | 'person', text: string, seconds = 4): this {
    this.turns.push({ speaker, text, seconds_from_start: this.t });
    this.t += seconds;
    return this;
  }
}

export function planInbound(i: InboundInput): CallPlan & { handled_by: HandledBy; transferred_to: string | null } {
  const c = i.config;
  const cs = c.call_settings;
  const voice = effectiveVoice(c, i.defaults);
  const cap = (seconds: number) => Math.min(seconds, cs.max_call_length_seconds);
  const finish: Finish = (ring, handled_by, o) => {
    const answered = handled_by !== 'nobody';
    const turns = cs.transcription_enabled && o.script ? o.script.turns : [];
    return {
      ring_seconds: ring,
      answered,
      talk_seconds: answered ? cap(o.talk ?? Math.max(o.script?.t ?? 0, 5)) : 0,
      status: o.status,
      end_reason: o.end_reason,
      turns,
      has_recording: answered && handled_by !== 'owner' && cs.recording_enabled,
      review: answered && cs.summaries_enabled && o.summary ? { summary: o.summary, tags: o.tags ?? [] } : null,
      handled_by,
      transferred_to: o.transferred_to ?? null,
    };
  };

  if (i.refused) return finish(REFUSED_SECONDS, 'nobody', { status: 'FAILED', end_reason: i.refused });
  if (!c.is_active) return finish(RING_OUT_SECONDS, 'nobody', { status: 'NO_ANSWER', end_reason: 'not_answered' });

  // call-me-first: the owner's phone, or each phone of the ring chain in turn
  let ring = 2;
  if (c.forwarding.mode === 'call_me_first') {
    const chain = ringChain(c.forwarding);
    for (const target of chain) {
      if (i.picksUp(target.phone))
        return finish(ring + 4, 'owner', {
          status: 'COMPLETED',
          end_reason: 'forwarded',
          talk: 60,
          transferred_to: target.phone,
          summary: `Forwarded to ${target.phone}, who answered.`,
          tags: [],
        });
      ring += target.ring;
    }
  }

  const script = new Script();
  if (c.ivr.enabled) return ivr(i, ring, script, finish);
  return ai(i, ring, script, voice.greeting_message, voice.farewell_message, finish);
}

/** Who answered an inbound call. */
type HandledBy = 'nobody' | 'owner' | 'ivr' | 'ai';

/** How a call ends, for finish(): the one place a plan's fields are worked out from it. */
interface Ending {
  status: CallStatus;
  end_reason: string;
  talk?: number;
  script?: Script;
  transferred_to?: string | null;
  summary?: string;
  tags?: CallTag[];
}

type Finish = (ring: number, by: HandledBy, o: Ending) => ReturnType<typeof planInbound>;

function transferTo(
  picksUp: InboundInput['picksUp'],
  ring: number,
  by: 'ivr' | 'ai',
  script: Script,
  phone: string,
  finish: Finish,
  fallback: string | null = null,
) {
  for (const p of [phone, fallback]) {
    if (!p) continue;
    if (picksUp(p)) {
      script.say('agent', `Transferring you to ${p} now.`);
      return finish(ring, by, {
        status: 'COMPLETED',
        end_reason: 'transferred',
        talk: script.t + TRANSFER_TALK_SECONDS,
        script,
        transferred_to: p,
        summary: `The caller was transferred to ${p}.`,
        tags: ['transferred'],
      });
    }
  }
  return null;
}

function ivr(i: InboundInput, ring: number, script: Script, finish: Finish) {
  const ivrc = i.config.ivr;
  const menu = ivrc.menus[0];
  const options = menu.options.map((o) => `press ${o.key} for ${o.label}`).join(', ');
  const keys = [...i.digits];
  for (let attempt = 1; attempt <= ivrc.max_attempts; attempt++) {
    script.say('agent', `${ivrc.greeting} ${options[0].toUpperCase()}${options.slice(1)}.`.trim(), 6);
    const key = keys.shift();
    if (key === undefined) {
      script.t += ivrc.timeout_seconds; // nothing pressed: the menu times out
      continue;
    }
    script.say('person', `(pressed ${key})`, 1);
    const option = menu.options.find((o) => o.key === key);
    if (!option) {
      script.say('agent', 'Sorry, that is not an option.', 2);
      continue;
    }
    const a = option.action;
    if (a.type === 'transfer') {
      const done = transferTo(i.picksUp, ring, 'ivr', script, a.phone_number!, finish, a.fallback_phone_number);
      if (done) return done;
      script.say('agent', 'Nobody could take the call.', 2);
      return fallback(i, ring, script, finish);
    }
    if (a.type === 'ai_agent') return ai(i, ring, script, null, null, finish);
    if (a.type === 'voicemail') return voicemail(ring, 'ivr', script, i.says, finish);
    script.say('agent', 'Goodbye!', 2);
    return finish(ring, 'ivr', {
      status: 'COMPLETED',
      end_reason: 'ivr_hangup',
      script,
      summary: `The caller chose "${option.label}" and the menu hung up.`,
      tags: [],
    });
  }
  return fallback(i, ring, script, finish);
}

/** After the menu's attempts are spent (or a transfer found nobody): its fallback. */
function fallback(i: InboundInput, ring: number, script: Script, finish: Finish) {
  const f = i.config.ivr.fallback;
  if (f.type === 'transfer' && f.phone_number) {
    const done = transferTo(i.picksUp, ring, 'ivr', script, f.phone_number, finish);
    if (done) return done;
  }
  if (f.type === 'ai_agent') return ai(i, ring, script, null, null, finish);
  if (f.type === 'voicemail') return voicemail(ring, 'ivr', script, i.says, finish);
  script.say('agent', 'Goodbye!', 2);
  return finish(ring, 'ivr', {
    status: 'COMPLETED',
    end_reason: 'ivr_fallback',
    script,
    summary: 'The caller made no valid choice in the phone menu.',
    tags: [],
  });
}

function voicemail(ring: number, by: 'ivr' | 'ai', script: Script, says: string | null, finish: Finish) {
  script.say('agent', 'Please leave a message after the tone.', 3);
  script.say('person', says ?? 'Hi, please call me back.', 8);
  return finish(ring, by, {
    status: 'VOICEMAIL',
    end_reason: 'voicemail',
    script,
    summary: 'The caller left a voicemail.',
    tags: ['callback_requested'],
  });
}

/** The phones call-me-first rings in turn: the ring chain, or the one number forwarded to (none set: no phone). */
function ringChain(f: StoredConfig['forwarding']): { phone: string; ring: number }[] {
  if (f.ring_strategy === 'sequential')
    return f.sequential_targets.map((t) => ({ phone: t.phone_number, ring: t.ring_timeout_seconds }));
  return f.forward_to_number ? [{ phone: f.forward_to_number, ring: f.ring_timeout_seconds }] : [];
}

/** Whom the AI agent hands the call to: the rule's number (else the primary), or the primary when a person is asked. */
function transferTarget(rule: TransferRule | undefined, wantsHuman: boolean, primary: string | null): string | null {
  if (rule) return rule.target_number ?? primary;
  return wantsHuman ? primary : null;
}

function ai(
  i: InboundInput,
  ring: number,
  script: Script,
  greeting: string | null,
  farewell: string | null,
  finish: Finish,
) {
  if (!i.handles_calls) return finish(RING_OUT_SECONDS, 'nobody', { status: 'NO_ANSWER', end_reason: 'not_answered' });
  const c = i.config;
  const voice = effectiveVoice(c, i.defaults);
  const t = c.transfers;
  const inHours = withinHours(i.now, c.timezone, t.office_hours_start, t.office_hours_end);
  script.say('agent', greeting ?? voice.greeting_message);
  if (i.says) script.say('person', i.says, 5);

  // transfer rules, lowest priority value first; office_hours_only keeps every transfer to office hours
  const rules = [...t.rules].sort((a, b) => a.priority - b.priority);
  const holds = (r: TransferRule) =>
    (r.condition === 'after_hours' && !inHours) ||
    (r.condition === 'human_requested' && !!i.says && HUMAN.test(i.says)) ||
    (r.condition === 'custom' && customConditionHolds(r.custom_condition ?? '', i.says));
  const rule = rules.find(holds);
  const wantsHuman = !!i.says && HUMAN.test(i.says);
  const mayTransfer = !t.office_hours_only || inHours;
  if (rule?.action === 'voicemail') return voicemail(ring, 'ai', script, null, finish);
  const target = transferTarget(rule, wantsHuman, t.primary_transfer_number);
  if (target && mayTransfer) {
    script.say('agent', 'Of course, let me connect you.', 2);
    const done = transferTo(i.picksUp, ring, 'ai', script, target, finish);
    if (done) return done;
    script.say('agent', 'Sorry, nobody is available right now. I will take a message.');
  } else if (target || wantsHuman) {
    script.say('agent', 'Our team is not available right now, but I can take a message or help you myself.');
  }
  const business = c.business_name ?? c.name;
  script.say('agent', `I can help with that. ${business} will follow up with the details.`, 6);
  script.say('person', 'Great, thanks.', 3);
  script.say('agent', farewell ?? voice.farewell_message, 3);
  return finish(ring, 'ai', {
    status: 'COMPLETED',
    end_reason: 'hangup',
    talk: Math.max(script.t, AI_TALK_SECONDS),
    script,
    summary: i.says
      ? `The caller said: "${i.says}". The AI agent answered and took the details.`
      : 'The AI agent answered the call.',
    tags: wantsHuman ? ['callback_requested'] : ['interested'],
  });
}
