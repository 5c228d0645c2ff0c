// The simulated assistant: it reads a message as one or more requests ("…, then …"), plans the tool
// calls each needs, and words the reply from what the tools returned. Deterministic: the same
// message on the same data gives the same plan and reply. What it understands (README):
//   text +1… and <goal> · call +1… to <goal> · email <name or address> about <topic>
//   how many calls did we get today|yesterday? · who texted us today|yesterday? · what did +1… say on the last call?
//   make a 30-second video about <topic> · what is on the video schedule? · change the greeting on number 1003 to <text>
//   who called us today|yesterday? · and about what it started in the conversation: did they agree? ·
//   what did they say on that call? · how much did that cost?
// Anything else gets a reply listing these; `#fail-run` fails the run (a scenario).
import { bestMatches } from '../core/fuzzy.js';
import { E164, EMAIL_ANY_CASE } from '../core/schema.js';
import type { Contact } from '../history/index.js';
import type { World } from '../core/world.js';

export type Intent =
  | { kind: 'text' | 'call'; to: string; goal: string }
  | { kind: 'email'; who: string; topic: string }
  | { kind: 'calls_count' | 'texters' | 'callers'; day: 'today' | 'yesterday' }
  /** follow-up questions about what the conversation started last (a quick call or text, an email, a video) */
  | { kind: 'agreed' | 'said_then' | 'cost' }
  | { kind: 'last_call_said'; phone: string }
  | { kind: 'video'; seconds: number; topic: string }
  | { kind: 'schedules' }
  | { kind: 'greeting'; number: number; text: string }
  | { kind: 'help'; said: string }
  /** a request read, but not one that can be done as asked: the reply says why */
  | { kind: 'say'; text: string };

const PHONE = '(\\+\\d{8,15})';
const unquote = (s: string) =>
  s
    .trim()
    .replace(/^["“']|["”']$/g, '')
    .trim();
/** A goal or topic: unquoted, without the sentence's closing punctuation. */
const clean = (s: string) =>
  unquote(s)
    .replace(/[.!?\s]+$/, '')
    .trim();

/** A text or call request, if its number is one (E.164). */
const dial = (kind: 'text' | 'call', to: string, goal: string): Intent =>
  E164.test(to)
    ? { kind, to, goal: clean(goal) }
    : { kind: 'say', text: `${to} is not a phone number I can ${kind}: give it in E.164 form, such as +14155550100.` };

const READERS: [RegExp, (m: RegExpExecArray) => Intent][] = [
  [new RegExp(`^(?:text|sms|message)\\s+${PHONE}(?:\\s+(?:and|to))?\\s+(.+)$`, 'i'), (m) => dial('text', m[1], m[2])],
  [
    new RegExp(`^(?:call|phone|ring)\\s+${PHONE}(?:\\s+(?:and|to|about))?\\s+(.+)$`, 'i'),
    (m) => dial('call', m[1], m[2]),
  ],
  [
    /^(?:please\s+)?(?:e-?mail|send an email to)\s+(.+?)\s+(?:about|regarding|re:?)\s+(.+)$/i,
    (m) => ({ kind: 'email', who: clean(m[1]), topic: clean(m[2]) }),
  ],
  [
    /how many (?:inbound |incoming )?calls did we (?:get|receive|have)\s+(today|yesterday)/i,
    (m) => ({ kind: 'calls_count', day: m[1].toLowerCase() as 'today' | 'yesterday' }),
  ],
  [
    /who (?:texted|messaged|sent us a text|sms'?d)(?: us)?\s+(today|yesterday)/i,
    (m) => ({ kind: 'texters', day: m[1].toLowerCase() as 'today' | 'yesterday' }),
  ],
  [
    /who (?:called|phoned|rang)(?: us)?\s+(today|yesterday)/i,
    (m) => ({ kind: 'callers', day: m[1].toLowerCase() as 'today' | 'yesterday' }),
  ],
  [/^did (?:they|he|she|it|that person)\s+(?:agree|say yes|accept|confirm)/i, () => ({ kind: 'agreed' })],
  [
    /^what did (?:they|he|she) (?:say|reply|answer)(?: (?:on|in|during) (?:that|the|this) (?:call|conversation|thread))?/i,
    () => ({ kind: 'said_then' }),
  ],
  [/^how much did (?:that|it|this|the (?:call|text|email|video))\s+cost/i, () => ({ kind: 'cost' })],
  [
    new RegExp(`what did ${PHONE} say on (?:the|their) last call`, 'i'),
    (m) => ({ kind: 'last_call_said', phone: m[1] }),
  ],
  [
    /(?:make|create)\s+(?:me\s+)?an?\s+(?:(\d{1,3})[-\s]?(?:second|sec|s)\s+)?video\s+(?:about|on)\s+(.+)$/i,
    (m) => ({ kind: 'video', seconds: m[1] ? Number(m[1]) : 30, topic: clean(m[2]) }),
  ],
  [
    /what(?:'s| is) on the video schedules?|video schedules?\s*\?|what are (?:my|our|the) (?:video )?schedules/i,
    () => ({ kind: 'schedules' }),
  ],
  [
    /change the greeting (?:on|of|for) (?:phone )?number\s+(\d+)\s+to\s+(.+)$/i,
    (m) => ({ kind: 'greeting', number: Number(m[1]), text: unquote(m[2]) }),
  ],
];

/** How a request begins: where a message may be split into several (the text after "to" in a greeting is never cut). */
const COMMAND_START =
  /^(?:(?:please|can you|could you|would you|will you)\s+)*(?:text|sms|message|call|phone|ring|e-?mail|send|how many|how much|who|did|what did|what(?:'s| is| are)|make|create|change)\b/i;
/** Polite openings and a closing question mark are not part of the request. */
const POLITE = /^(?:(?:please|can you|could you|would you|will you|kindly)\s+)+/i;

/**
 * The requests of a message: its clauses, split at "then", ";" or a new sentence only where what
 * follows begins a request ("… Press 1 for sales, then 2 for support" stays whole), never inside
 * quotes; each read on its own.
 */
export function readMessage(message: string): Intent[] {
  const text = message.replace(/#fail-run/gi, ' ').trim();
  // quoted stretches are set aside so that nothing inside them splits
  const quoted: string[] = [];
  const masked = text.replace(/"[^"]*"|“[^”]*”/g, (q) => `\u0000${quoted.push(q) - 1}\u0000`);
  const parts: string[] = [];
  const boundary = /\s*;\s*|,?\s+(?:and\s+)?then\s+|(?<=[.!?])\s+/gi;
  let from = 0;
  for (const m of masked.matchAll(boundary)) {
    const after = masked.slice(m.index! + m[0].length);
    if (!COMMAND_START.test(after)) continue;
    parts.push(masked.slice(from, m.index));
    from = m.index! + m[0].length;
  }
  parts.push(masked.slice(from));
  const unmask = (c: string) => c.replace(/\u0000(\d+)\u0000/g, (_, i) => quoted[Number(i)]);
  const clauses = parts.map((c) => unmask(c).trim().replace(POLITE, '').trim()).filter((c) => /[\p{L}\p{N}]/u.test(c));
  if (clauses.length === 0) return [{ kind: 'help', said: text || message }];
  return clauses.map((c) => {
    for (const [re, make] of READERS) {
      const m = re.exec(c);
      if (m) return make(m);
    }
    return { kind: 'help', said: c.replace(/[?\s]+$/, '') } as Intent;
  });
}

export const failsRun = (message: string) => /#fail-run/i.test(message);

const CAPABILITIES = [
  '"text +14155550100 and ask whether Tuesday works" (an AI text; asks your approval: it costs)',
  '"call +14155550100 to confirm the appointment" (an AI call; asks your approval)',
  '"email Maria Gonzalez about the invoice" (a quick email; asks your approval)',
  '"how many calls did we get yesterday?", "who called us yesterday?", "who texted us today?", "what did +14155550100 say on the last call?"',
  'about the call, text, email or video it started last: "did they agree?", "what did they say on that call?", "how much did that cost?"',
  '"make a 30-second video about our new menu" (asks your approval) and "what is on the video schedule?"',
  '"change the greeting on number 1003 to Thanks for calling Acme!"',
  'several at once: "…, then …"',
];

export const helpReply = (said: string) =>
  `I can't do "${said}" yet. I can:\n${CAPABILITIES.map((c) => `- ${c}`).join('\n')}`;

/** The contact an email request names: one, several (to ask which), none, or one without an address. */
export function emailRecipient(
  data: World,
  workspaceId: string,
  who: string,
): { ok: true; email: string; name: string | null } | { ok: false; reply: string } {
  if (who.includes('@')) {
    return EMAIL_ANY_CASE.test(who)
      ? { ok: true, email: who, name: null }
      : {
          ok: false,
          reply: `"${who}" is not one email address I can write to: name one person (or address) per request, such as "email ada@example.com about the invoice".`,
        };
  }
  const contacts = data.contacts.filter((c) => c.workspace_id === workspaceId);
  const found = bestMatches(
    who,
    contacts.map((x: Contact) => ({ id: x.id, names: [x.name, x.first_name, x.last_name], contact: x })),
  );
  if (found.length === 0)
    return {
      ok: false,
      reply: `I couldn't find a contact named "${who}". Give me their email address, or the name as it is on the contact.`,
    };
  if (found.length > 1)
    return {
      ok: false,
      reply: `"${who}" could be ${found.length} contacts: ${found.map((f) => `${f.contact.name} (${f.contact.email ?? 'no email'})`).join(', ')}. Which one? Say their full name or email address.`,
    };
  const c = found[0].contact;
  if (!c.email) return { ok: false, reply: `${c.name} has no email address on file, so I can't email them.` };
  return { ok: true, email: c.email, name: c.name };
}

/** A short plain-text email about `topic` to `name`, signed by the workspace. */
export function emailDraft(topic: string, name: string | null, from: string) {
  const first = name?.split(/\s+/)[0];
  return {
    subject: topic.charAt(0).toUpperCase() + topic.slice(1),
    body: `Hi${first ? ` ${first}` : ''},\n\nI'm writing about ${topic}. Could you reply with a good time to go over it?\n\nThanks,\n${from}`,
  };
}
