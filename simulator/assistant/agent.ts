// The assistant's actions as it reads them: "text +1… and <goal>", "call +1… to <goal>", "email
// <name or address> about <topic>", "make a 30-second video about <topic>", "what is on the video
// schedule?", "change the greeting on number N to <text>"; who an email goes to and what it says.
// Questions (who, how many, what was said, did they agree, what did it cost) are read by meaning in
// understand.ts, which tries these first.
import { bestMatches } from '../core/fuzzy.js';
import { E164, EMAIL_ANY_CASE } from '../core/schema.js';
import type { Contact } from '../history/index.js';
import type { World } from '../core/world.js';

/** What an action request asks for (understand.ts adds the questions): or a sentence saying why it can't be done as asked. */
export type ActionIntent =
  | { kind: 'text' | 'call'; to: string; goal: string }
  | { kind: 'email'; who: string; topic: string }
  | { kind: 'video'; seconds: number; topic: string }
  | { kind: 'schedules' }
  | { kind: 'greeting'; number: number; text: string }
  /** a phone number bought with its AI agent (POST /v1/quick/ai-numbers); null: no area code was said (it asks for one) */
  | { kind: 'buy_number'; area_code: string | null }
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
const dial = (kind: 'text' | 'call', to: string, goal: string): ActionIntent =>
  E164.test(to)
    ? { kind, to, goal: clean(goal) }
    : { kind: 'say', text: `${to} is not a phone number I can ${kind}: give it in E.164 form, such as +14155550100.` };

/**
 * "buy a number in 415", "get me a new phone number", "we need a 212 number", "set up an AI number
 * with area code 646": a number of the workspace's own (not "the number of calls").
 */
const BUY_NUMBER =
  /^(?:(?:i|we)\s+(?:need|want|would like|'d like)|buy|get|purchase|order|set up|add|reserve)\s+(?:me\s+|us\s+|myself\s+|ourselves\s+)?(?:an?\s+|one\s+|another\s+|one more\s+)?(?:new\s+|extra\s+|second\s+)?(\d{3}\s+)?(?:local\s+)?(?:ai\s+)?(?:phone\s+|business\s+)?(?:number|line)\b(?!\s+of\b)(.*)$/i;

/** A number to buy: its area code when one is said (3 digits, the first 2-9), else the reply asks for one. */
function buyNumber(words: string): ActionIntent {
  const code = /\b(\d{3})\b/.exec(words)?.[1] ?? null;
  if (code !== null && !/^[2-9]/.test(code))
    return {
      kind: 'say',
      text: `${code} is not an area code: a North American one has 3 digits, the first 2-9 (such as 415).`,
    };
  return { kind: 'buy_number', area_code: code };
}

/** The actions, each read from the start of a request. */
export const ACTION_READERS: [RegExp, (m: RegExpExecArray) => ActionIntent][] = [
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
  [BUY_NUMBER, (m) => buyNumber(`${m[1] ?? ''} ${m[2]}`)],
];

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
