// The assistant's questions about the history, planned and put in words: who called, texted or
// emailed (and whom we did), how many, which ones, whether any, in a span of local time; and what a
// number said on its last call, whether it agreed, what an exchange cost. Each reads the workspace's
// history through the API's own list operations (free), every page where it names people.
import { humanTime } from '../../src/formats.js';
import type { Session } from '../core/session.js';
import { contactById } from '../history/index.js';
import { instantOf, localDay } from '../schedules/index.js';
import type { LocalSpan } from './dates.js';
import type { About, Question, Subject } from './understand.js';
import { plural } from '../../src/words.js';

type Out = Record<string, any>;
export type Step = { tool: string; input: Record<string, unknown> };

const TOOL: Record<Subject, string> = { calls: 'list_calls', texts: 'list_messages', emails: 'list_emails' };
const PAGE: Record<Subject, number> = { calls: 50, texts: 100, emails: 100 };
/** the most lines a list answer shows */
const SHOWN = 20;

/** A span of local time as the list filters take it: created_after is exclusive, so a millisecond before its start. */
export function windowOf(span: LocalSpan | null | undefined, zone: string): Record<string, string> {
  if (!span) return {};
  const w: Record<string, string> = {
    created_after: new Date(instantOf(span.from.day, span.from.hour, zone) - 1).toISOString(),
  };
  if (span.to) w.created_before = new Date(instantOf(span.to.day, span.to.hour, zone)).toISOString();
  return w;
}

/**
 * Why a question cannot be answered as asked: the service's email lists are read one person at a
 * time (contact_id or email is required), so "who emailed us" has no list to read.
 */
export const EMAILS_PER_PERSON =
  "I can't go through everyone's emails: the service's email history is read one person at a time (by contact or address), and I can't list all of them yet.";

/** The first read a question needs. */
export function planQuestion(q: Question, zone: string): Step {
  const limit = { count: 1, list: SHOWN, who: PAGE[q.subject], any: PAGE[q.subject] }[q.ask];
  return { tool: TOOL[q.subject], input: { direction: q.direction, ...windowOf(q.span, zone), limit } };
}

/** `1 call`, `2 calls`: a count with its noun, for every answer of the assistant's (written once with the CLI's). */
export { plural };
/** A sentence's first letter upper-cased. */
export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** " yesterday", " on Thursday", "" for all time. */
const whenOf = (span: LocalSpan | null) => (span ? ` ${span.label}` : '');
/** " yesterday (2026-03-13, America/Los_Angeles)", " in all". */
export const whenExactly = (span: LocalSpan | null, zone: string) =>
  span ? ` ${span.label} (${span.detail}, ${zone})` : ' in all';

/** The other party of a record, named as its contact when it has one: "Ada Lovelace (+14155550111)". */
function partyOf(s: Session, q: Question, r: Out): { key: string; shown: string } {
  const inbound = q.direction === 'inbound';
  const phone = inbound ? r.from_number : r.to_number;
  const email = inbound ? r.from_address : r.to;
  const address: string = q.subject === 'emails' ? email : phone;
  const name = r.contact_id ? contactById(s.data, r.contact_id)?.name : undefined;
  return { key: address, shown: name && name !== address ? `${name} (${address})` : address };
}

/** "called you", "texted you", "emailed you"; outbound: "you called". */
const VERB: Record<Subject, string> = { calls: 'called', texts: 'texted', emails: 'emailed' };

/** A local date and time of an instant: "2026-03-13 10:00". */
function localAt(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  const day = localDay(ms, zone);
  const minutes = Math.floor((ms - instantOf(day, 0, zone)) / 60_000);
  return `${day} ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** One record of a list answer. */
function lineOf(s: Session, q: Question, r: Out, zone: string): string {
  const who = partyOf(s, q, r).shown;
  const at = localAt(r.created_at, zone);
  if (q.subject === 'calls') return `- ${at} ${who}, ${String(r.status).toLowerCase()}`;
  if (q.subject === 'texts') return `- ${at} ${who}: "${r.body}"`;
  return `- ${at} ${who}: "${r.subject}"`;
}

/** "inbound calls", "texts you sent" … for counts and lists. */
function nounOf(q: Question, n: number): string {
  const noun = { calls: 'call', texts: 'text', emails: 'email' }[q.subject];
  if (q.direction === 'outbound') return `${plural(n, noun)} you ${q.subject === 'calls' ? 'made' : 'sent'}`;
  return q.subject === 'emails' ? plural(n, 'email') : `${n} inbound ${n === 1 ? noun : `${noun}s`}`;
}

/**
 * Puts a question's read in words, or names the next page to read (who and any: every page, the
 * people kept in `seen` between pages). `one` is called with the number when exactly one person is
 * named, so that "what did they say?" may mean them.
 */
export function answerQuestion(
  s: Session,
  q: Question,
  zone: string,
  out: Out,
  input: Record<string, unknown>,
  seen: Record<string, string>,
  one: (phone: string) => void,
): { next: Step } | { sentence: string } {
  const data = out.data as Out[];
  const total = out.meta.total_results as number;
  if (q.ask === 'count') {
    const noun = { calls: 'call', texts: 'text', emails: 'email' }[q.subject];
    const said =
      q.direction === 'outbound'
        ? `You ${q.subject === 'calls' ? 'made' : 'sent'} ${plural(total, noun)}`
        : `You got ${nounOf(q, total)}`;
    return { sentence: `${said}${whenExactly(q.span, zone)}.` };
  }
  if (q.ask === 'list') {
    if (total === 0) return { sentence: `No ${nounOf(q, 0).replace(/^0 /, '')}${whenExactly(q.span, zone)}.` };
    const more = total > data.length ? `\n… and ${total - data.length} more.` : '';
    return {
      sentence: `${nounOf(q, total)}${whenExactly(q.span, zone)}:\n${data.map((r) => lineOf(s, q, r, zone)).join('\n')}${more}`,
    };
  }
  for (const r of data) {
    const p = partyOf(s, q, r);
    seen[p.key] = p.shown;
  }
  if (out.meta.cursor) return { next: { tool: TOOL[q.subject], input: { ...input, cursor: out.meta.cursor } } };
  const people = Object.values(seen);
  const keys = Object.keys(seen);
  if (keys.length === 1 && q.subject !== 'emails') one(keys[0]);
  const when = whenOf(q.span);
  const verb = VERB[q.subject];
  let sentence: string;
  if (q.direction === 'outbound')
    sentence =
      people.length === 0
        ? `You ${verb} nobody${when}.`
        : `You ${verb} ${plural(people.length, 'person', 'people')}${when}: ${people.join(', ')}.`;
  else
    sentence =
      people.length === 0
        ? `Nobody ${verb} you${when}.`
        : `${plural(people.length, 'person', 'people')} ${verb} you${when}: ${people.join(', ')}.`;
  if (q.ask === 'any') sentence = people.length === 0 ? `No: ${lower(sentence)}` : `Yes: ${sentence}`;
  return { sentence };
}

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** Tags the review of a call gives that say the person was for it, or against it. */
const YES_TAGS = ['interested', 'qualified', 'booking_requested', 'purchase_interest'];
const NO_TAGS = ['not_interested'];

/** The first read of a question about a number's last call (not one the conversation started). */
export function planAboutNumber(a: About & { phone: string }, zone: string): Step {
  return { tool: 'list_calls', input: { phone_number: a.phone, ...windowOf(a.span, zone), limit: 1 } };
}

/** Puts what a number's last call says in words, or names the call to read next. */
export function answerAboutNumber(
  a: About & { phone: string },
  tool: string,
  out: Out,
): { next: Step } | { sentence: string } {
  const data = out.data;
  if (tool === 'list_calls') {
    const when = a.span ? ` ${a.span.label}` : '';
    if ((data as Out[]).length === 0) return { sentence: `I found no call with ${a.phone}${when}.` };
    if (a.kind === 'agreed') return { sentence: agreedOnCall(a.phone, data[0]) };
    if (a.kind === 'cost')
      return {
        sentence: `I know the cost only of what I started in this conversation, and I started nothing with ${a.phone}. Its calls are free to read: "what did ${a.phone} say?"`,
      };
    return { next: { tool: 'get_call', input: { call_id: data[0].id } } };
  }
  const turns = (data.transcript_turns as { speaker: string; text: string }[])
    .filter((t) => t.speaker === 'person')
    .map((t) => `"${t.text}"`);
  return {
    sentence:
      turns.length === 0
        ? `On the last call with ${a.phone} (${humanTime(data.created_at)}, ${String(data.status).toLowerCase()}) they said nothing I have a transcript of.`
        : `On the last call with ${a.phone} (${humanTime(data.created_at)}) they said: ${turns.join(' ')}`,
  };
}

/** Whether the person on a call said yes, by its review's tags. */
function agreedOnCall(phone: string, call: Out): string {
  const tags = (call.tags ?? []) as string[];
  const shown = tags.length ? tags.join(', ') : 'none';
  if (tags.some((t) => YES_TAGS.includes(t)))
    return `Yes: on the last call with ${phone} (${humanTime(call.created_at)}) they were for it (tags: ${shown}).`;
  if (tags.some((t) => NO_TAGS.includes(t)))
    return `No: on the last call with ${phone} (${humanTime(call.created_at)}) they were not interested (tags: ${shown}).`;
  return `I can't tell: the last call with ${phone} (${humanTime(call.created_at)}) shows no yes or no (tags: ${shown}).`;
}
