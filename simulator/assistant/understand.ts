// How the simulated assistant reads a message, by meaning rather than by sentence: the message is
// split into requests ("…? and …", "… and how many …", "…; …", "…, then …"), each read into an
// intent (an action, or a question: who, how many, which, any, what was said, did they agree, what
// did it cost; the wallet, what was spent, how many videos), its subject (calls, texts, emails), its direction, the time it covers (dates as
// people say them: dates.ts) and the person or record it is about. What it leaves out is taken from
// the conversation: "and yesterday?" asks the last question again for another day, "they", "the
// person" and "that call" are what was last talked about. Deterministic and pure: the same message
// and context read the same. What it cannot read is said back with the closest things it can do.
import { ACTION_READERS, type ActionIntent } from './agent.js';
import type { DateHit, LocalSpan } from './dates.js';

export type Subject = 'calls' | 'texts' | 'emails';
export type Direction = 'inbound' | 'outbound';

/** A question about the history: who, how many, which ones, or whether any, of one subject in a span of time. */
export interface Question {
  kind: 'question';
  ask: 'who' | 'count' | 'list' | 'any';
  subject: Subject;
  direction: Direction;
  /** null: all of it, whenever */
  span: LocalSpan | null;
}

/** A question about one exchange: what was said, whether they agreed, what it cost. */
export interface About {
  kind: 'agreed' | 'said_then' | 'cost';
  /** the other party's number, named or meant ("they" after a question about it); none: what the conversation started last */
  phone?: string;
  span?: LocalSpan | null;
  /** "that call", "the email": which of the things started it means */
  thing?: 'call' | 'text' | 'email' | 'video';
}

/** What money went on: the ledger's kinds, as people name them. */
export type Spend = 'calls' | 'texts' | 'emails' | 'videos' | 'numbers';

/** A question about the workspace's money: what the wallet holds, or what was spent (on one thing) in a span of time. */
export interface MoneyQuestion {
  kind: 'money';
  ask: 'balance' | 'spent';
  /** null: everything */
  on: Spend | null;
  span: LocalSpan | null;
}

/** A question about the workspace's videos: how many were made, posted, or are scheduled to post. */
export interface VideoQuestion {
  kind: 'videos';
  what: 'made' | 'posted' | 'scheduled';
  span: LocalSpan | null;
}

export type Intent =
  | ActionIntent
  | Question
  | About
  | MoneyQuestion
  | VideoQuestion
  /** a request it could not read: `said` is the words, `why` what was missing (else the reply offers what it can do) */
  | { kind: 'unknown'; said: string; why?: string };

/** What a conversation has been about, for the requests that leave it out. */
export interface Context {
  /** the last question asked (a question, or one about an exchange, money or videos): what "and yesterday?" repeats */
  last?: Question | About | MoneyQuestion | VideoQuestion;
  /** the number last talked about ("they", "the person") */
  phone?: string;
  /** when it was talked about: "who called us on Thursday?" then "what did they say?" means Thursday's call */
  span?: LocalSpan | null;
  /** what was talked about last: that number, or what the conversation started */
  focus?: 'phone' | 'started';
}

/**
 * Reads the date phrase of a request (dates.ts with the workspace's now), or null where there is
 * none; `ahead`, for a question about what is to come ("on Friday" is the next one).
 */
export type DateReader = (text: string, ahead?: boolean) => DateHit | null;

const PHONE = /\+\d{8,15}/;
const POLITE =
  /^(?:(?:please|can you|could you|would you|will you|kindly|tell me|i want to know|i'd like to know)\s+)+/i;
/** Words that begin a request: where a message may be cut ("make" only as "make a …": "make sure" is not one). */
const REQUEST_START =
  /^(?:(?:please|can you|could you|would you|will you|kindly)\s+)*(?:text|sms|message|call|phone|ring|e-?mail|send|make\s+(?:me\s+)?an?|create|change|how|who|whom|what|which|did|does|do|has|have|is|are|was|were|any|list|show|give|tell me)\b/i;
/** How a request that leans on the one before begins ("and yesterday?", "what about texts?"). */
const FRAGMENT_START = /^(?:and|also|plus|what about|how about|same for)\b/i;
/** An action's request, whose goal or topic may hold "and" or commas of its own. */
const ACTION_START =
  /^(?:(?:please|can you|could you|would you|will you)\s+)*(?:text|sms|message|call|phone|ring|e-?mail|send|change)\b/i;
/** A conjunction a request may begin with once cut from the one before ("…? and buy a number in 415"). */
const JOINED = /^(?:and|also|plus|then)\s+/i;

/**
 * The requests of a message, in order: cut at ";", "then", a new sentence or a question mark, and at
 * "and", "also" or a comma, each only where what follows begins a request ("calls and texts" stays
 * one; an action's goal is cut only at a sentence's end), never inside quotes.
 */
export function splitRequests(message: string): string[] {
  const quoted: string[] = [];
  const masked = message.replace(/"[^"]*"|“[^”]*”/g, (q) => `\u0000${quoted.push(q) - 1}\u0000`);
  const parts: string[] = [];
  // strong: ";", "then", a sentence's end; weak: "and", "also", "plus", a comma
  const boundary = /\s*;\s*|,?\s+(?:and\s+)?then\s+|(?<=[.!?])\s*(?=\S)|(,?\s+(?:(?:and|also|plus)\s+)+|,\s+)/gi;
  let from = 0;
  for (const m of masked.matchAll(boundary)) {
    const at = m.index!;
    if (at === 0) continue;
    const after = masked.slice(at + m[0].length);
    const weak = m[1] !== undefined;
    // an action's goal or topic keeps its "and"s and commas
    if (weak && ACTION_START.test(masked.slice(from, at).trim())) continue;
    // after a question mark, a request may lean on the one before ("…? and yesterday?")
    const leans = !weak && masked[at - 1] === '?' && FRAGMENT_START.test(after);
    if (!REQUEST_START.test(after) && !leans) continue;
    parts.push(masked.slice(from, at));
    from = at + m[0].length;
  }
  parts.push(masked.slice(from));
  const unmask = (c: string) => c.replace(/\u0000(\d+)\u0000/g, (_, i) => quoted[Number(i)]);
  return parts.map((c) => unmask(c).trim()).filter((c) => /[\p{L}\p{N}]/u.test(c));
}

const SUBJECTS: [Subject, RegExp][] = [
  ['calls', /\b(?:calls?|called|callers?|calling|phoned|rang|rung|ring)\b/],
  ['texts', /\b(?:texts?|texted|texters?|texting|sms|messages?|messaged)\b/],
  ['emails', /\be-?(?:mails?|mailed)\b/],
];
/** "who contacted us": every subject */
const ANY_CONTACT = /\b(?:contacted|reached out|got in touch|heard from|wrote to)\b/;
const OUTBOUND =
  /\b(?:we|i)\s+(?:have\s+|had\s+)?(?:made|make|placed|place|sent|send|call(?:ed)?|text(?:ed)?|e-?mail(?:ed)?|phoned|rang|reach(?:ed)?|contact(?:ed)?)\b|\b(?:outgoing|outbound)\b/;

const COST =
  /\b(?:cost|costs|costed|price|priced|charged?|charges|spend|spent|pay|paid)\b|\bhow much (?:was|is|did|does|will|were|has)\b/;
const AGREED =
  /^(?:did|has|have|was|were|is|are|do|does)\b.*\b(?:agree[ds]?|say yes|said yes|accept(?:ed)?|confirm(?:ed)?|(?:ok|okay|fine|interested) with|interested|on board)\b/;
const SAID =
  /^what\b.*\b(?:say|said|reply|replied|answer(?:ed)?|tell|told|respond(?:ed)?|write|wrote)\b|^what was said\b|^what were (?:their|the) (?:words|replies|answers)\b/;
const THING = /\b(?:that|the|this|last|latest)\s+(call|text|email|video)\b/;

/** A request's words with its number and date phrase taken out, lower case, for the lexicon below. */
function wordsOf(clause: string, hit: DateHit | null): string {
  let t = clause;
  if (hit) t = t.slice(0, hit.index) + ' ' + t.slice(hit.index + hit.length);
  return t
    .replace(PHONE, ' ')
    .toLowerCase()
    .replace(/[’']s\b/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What a request asks of the history, or null when it is not such a question. */
function askOf(t: string): Question['ask'] | About['kind'] | null {
  if (COST.test(t)) return 'cost';
  if (AGREED.test(t)) return 'agreed';
  if (SAID.test(t)) return 'said_then';
  if (/\b(?:how many|number of|count)\b/.test(t)) return 'count';
  if (/^any\b/.test(t) || /^(?:did|has|have|were|was|are|is)\b.*\b(?:anyone|anybody|someone|somebody|any)\b/.test(t))
    return 'any';
  if (/^(?:who|whom)\b|\b(?:callers|texters|who)\b|^which (?:people|persons|numbers|contacts)\b/.test(t)) return 'who';
  if (/^(?:which|list|show|what|give|get|read|see)\b/.test(t)) return 'list';
  return null;
}

const SPEND = /\b(?:spend|spent|spending|expenses?|paid|pay|charged|billed)\b/;
const BALANCE = /\b(?:balance|wallet|funds|credits?|money)\b/;
/** what money went on, by the words that name it (plural, or after "on": "what did calls cost", "spent on texts") */
const SPENT_ON: [Spend, RegExp][] = [
  ['calls', /\b(?:calls|calling|on (?:a |the )?calls?)\b/],
  ['texts', /\b(?:texts|sms|messages|texting|on (?:a |the )?texts?)\b/],
  ['emails', /\b(?:e-?mails|on (?:an |the )?e-?mails?)\b/],
  ['videos', /\b(?:videos|on (?:a |the )?videos?)\b/],
  ['numbers', /\b(?:numbers|lines|on (?:a |the )?(?:phone )?(?:numbers?|lines?))\b/],
];
const VIDEO_WORDS = /\b(?:videos?|posts?|reels?|clips?)\b/;
const SCHEDULED = /\b(?:scheduled|schedule|planned|queued|upcoming|lined up|coming up|due|waiting)\b/;
const POSTED = /\b(?:post|posted|published|publish|went out|go out|shared|uploaded|put out)\b/;

/**
 * A question about the workspace's own money or videos, or null: the balance ("what is my
 * balance?"), what was spent ("how much did we spend this week?", "what did calls cost in March?":
 * a cost of a kind of thing, or in a span of time, rather than of one exchange), how many videos
 * were made, posted or are scheduled.
 */
function ownQuestion(t: string, span: LocalSpan | null): MoneyQuestion | VideoQuestion | null {
  const on = SPENT_ON.find(([, re]) => re.test(t))?.[0] ?? null;
  const costly = COST.test(t) && !THING.test(t) && !/\b(?:they|them|it|that|this)\b/.test(t);
  if (BALANCE.test(t) && !SPEND.test(t) && !/\bcost\b/.test(t))
    return { kind: 'money', ask: 'balance', on: null, span: null };
  if ((SPEND.test(t) && /\b(?:we|i|us|our|my)\b/.test(t)) || (costly && (on || span)))
    return { kind: 'money', ask: 'spent', on, span };
  if (!VIDEO_WORDS.test(t) || !/\b(?:how many|number of|count)\b/.test(t)) return null;
  let what: VideoQuestion['what'] = 'made';
  if (SCHEDULED.test(t)) what = 'scheduled';
  else if (POSTED.test(t)) what = 'posted';
  return { kind: 'videos', what, span };
}

/**
 * Reads one request: an action, a question (with what the context fills in), or what it could not
 * read. A question about what has happened that names a span still to come ("who called
 * tomorrow?", "what did we spend next week?") is answered plainly that nothing has yet.
 */
export function readRequest(request: string, date: DateReader | null, context: Context): Intent[] {
  const read = readIntents(request, date, context);
  const notYet = read.filter(pastOnlyAhead);
  return notYet.length === 0 ? read : [{ kind: 'say', text: notYetText(notYet) }];
}

/** A question only the past answers (all but videos scheduled to post), asked of a span that begins after now. */
function pastOnlyAhead(x: Intent): x is Question | About | MoneyQuestion | VideoQuestion {
  if (!('span' in x) || !x.span?.future) return false;
  return x.kind !== 'videos' || x.what !== 'scheduled';
}

/** The plain answer to questions about what has happened asked of a span still to come. */
function notYetText(asked: (Question | About | MoneyQuestion | VideoQuestion)[]): string {
  const span = asked[0].span!;
  const when = `${span.label} (${span.detail})`;
  const subjects = asked.flatMap((x) => (x.kind === 'question' ? [x.subject] : []));
  const first = asked[0];
  let none = `There is nothing to tell ${when}`;
  if (subjects.length > 0) none = `There are no ${subjects.join(' or ')} ${when}`;
  else if (first.kind === 'money') none = `Nothing has been spent ${when}`;
  else if (first.kind === 'videos') none = `No videos were ${first.what} ${when}`;
  return `${none}: that is after now, and I can only tell what has already happened.`;
}

function readIntents(request: string, date: DateReader | null, context: Context): Intent[] {
  // an action keeps its own closing punctuation (a greeting's "!"); a question's is dropped
  const polite = request.replace(POLITE, '').trim();
  const bare = polite.replace(JOINED, '').replace(POLITE, '');
  for (const [re, make] of ACTION_READERS) {
    const m = re.exec(bare);
    if (m) return [make(m)];
  }
  const clause = polite.replace(/[?!.\s]+$/, '').trim();
  const phone = PHONE.exec(clause)?.[0];
  // the number's digits are no date: it is blanked (same length) before the date reader sees the words
  const blanked = clause.replace(PHONE, (p) => ' '.repeat(p.length));
  const hit = date?.(blanked) ?? null;
  // the span as one to come, for videos scheduled to post ("on Friday": the next one)
  const ahead = (q: MoneyQuestion | VideoQuestion) =>
    hit && q.kind === 'videos' && q.what === 'scheduled' ? (date?.(blanked, true)?.span ?? hit.span) : hit?.span;
  const leaning = FRAGMENT_START.test(clause);
  const t = wordsOf(clause, hit).replace(/^(?:and|also|plus|what about|how about|same for)\s*/, '');
  const subjects = ANY_CONTACT.test(t)
    ? SUBJECTS.map(([s]) => s)
    : SUBJECTS.filter(([, re]) => re.test(t)).map(([s]) => s);
  const said = request.replace(/[?\s]+$/, '');
  const own = phone ? null : ownQuestion(t, hit?.span ?? null);
  if (own) return remember(context, null, [own.kind === 'videos' ? { ...own, span: ahead(own) ?? null } : own]);
  const ask = askOf(t);
  if (ask === 'cost' || ask === 'agreed' || ask === 'said_then') {
    const about: About = { kind: ask, thing: THING.exec(t)?.[1] as About['thing'] };
    if (phone) about.phone = phone;
    else if (context.focus === 'phone' && context.phone && !about.thing) {
      about.phone = context.phone;
      if (context.span) about.span = context.span;
    }
    if (hit) about.span = hit.span;
    return remember(context, about, [about]);
  }
  const last = context.last;
  if (ask === null) {
    // "and yesterday?", "what about texts?", "and +14155550111?": the last question again, with what changed
    if (!last || !(hit || subjects.length || phone) || (!leaning && t !== '' && !subjects.length))
      return [unknownOf(said, last || !(leaning || hit) ? undefined : 'leans')];
    if (last.kind === 'money' || last.kind === 'videos') {
      if (!hit && !(last.kind === 'money' && subjects.length)) return [unknownOf(said)];
      const on = last.kind === 'money' && subjects.length ? { on: subjects[0] } : {};
      return remember(context, null, [{ ...last, ...on, span: hit ? ahead(last)! : last.span }]);
    }
    if (last.kind === 'question') {
      const again = subjects.length ? subjects : [last.subject];
      return remember(
        context,
        null,
        again.map((subject) => ({ ...last, subject, span: hit ? hit.span : last.span })),
      );
    }
    const again: About = { ...last, ...(phone ? { phone } : {}), ...(hit ? { span: hit.span } : {}) };
    return remember(context, again, [again]);
  }
  let asked = subjects;
  if (asked.length === 0 && last?.kind === 'question' && (leaning || hit || ask === 'count')) asked = [last.subject];
  if (asked.length === 0) return [unknownOf(said, 'subject')];
  const direction: Direction = OUTBOUND.test(t) ? 'outbound' : 'inbound';
  const questions = asked.map(
    (subject): Question => ({ kind: 'question', ask, subject, direction, span: hit ? hit.span : null }),
  );
  return remember(context, null, questions);
}

/** Notes what a request was about, for the next one; `about` also moves the focus to its number. */
function remember<T extends Intent>(context: Context, about: About | null, read: T[]): T[] {
  const q = read[read.length - 1];
  if (q && ['question', 'agreed', 'said_then', 'cost', 'money', 'videos'].includes(q.kind))
    context.last = q as NonNullable<Context['last']>;
  if (about?.phone) {
    context.phone = about.phone;
    context.span = about.span ?? null;
    context.focus = 'phone';
  }
  return read;
}

/**
 * Reads a whole message into its requests' intents, in order. `context` is what the conversation
 * was about; it is updated as each request is read (so "who called us yesterday? and today?" asks
 * twice), and the caller keeps it for the next message.
 */
export function readMessage(message: string, date: DateReader | null, context: Context): Intent[] {
  const text = message.replace(/#fail-run/gi, ' ').trim();
  const requests = splitRequests(text);
  if (requests.length === 0) return [{ kind: 'unknown', said: text || message }];
  return requests.flatMap((r) => readRequest(r, date, context));
}

export const failsRun = (message: string) => /#fail-run/i.test(message);

/** What it can do, each with words it is known by: the closest are offered when a request is not understood. */
const CAN: [string, string][] = [
  ['"who called us yesterday?", "did anyone call on Thursday?"', 'who called call callers rang phoned anyone people'],
  ['"how many calls came in since Monday?", "how many texts last week?"', 'how many count number calls texts emails'],
  ['"show me texts from today", "which calls came in this morning?"', 'show list which texts calls emails messages'],
  [
    '"what did +14155550100 say?", "did they agree?", "what did it cost?"',
    'say said agree yes cost price much they person',
  ],
  ['"text +14155550100 and ask whether Tuesday works" (asks your approval: it costs)', 'text sms message send ask'],
  ['"call +14155550100 to confirm the appointment" (asks your approval)', 'call phone ring confirm appointment'],
  ['"email Maria Gonzalez about the invoice" (asks your approval)', 'email mail write send invoice'],
  ['"make a 30-second video about our new menu" (asks your approval)', 'make create video film'],
  ['"what is on the video schedule?"', 'video schedule schedules posting'],
  ['"how many videos did we post last week?", "how many videos are scheduled?"', 'videos posted post scheduled posts'],
  [
    '"what is my balance?", "how much did we spend this week?", "what did calls cost in March?"',
    'balance wallet money spend spent credits funds',
  ],
  ['"buy a number in 415" (asks your approval: it costs)', 'buy purchase number phone line area new'],
  // {number}: one of the workspace's own numbers (unknownReply), so that the example works as written
  ['"change the greeting on number {number} to Thanks for calling Acme!"', 'change greeting number hello welcome'],
];

const WHY: Record<string, string> = {
  leans: 'it leans on an earlier question, and this conversation has none to go on from',
  subject: 'I could not tell whether you mean calls, texts or emails',
};

/** A request not understood: what was not, and why when it is known. */
function unknownOf(said: string, why?: string): Intent {
  return why ? { kind: 'unknown', said, why } : { kind: 'unknown', said };
}

/**
 * The reply to a request not understood: it says so, and offers the closest things it can do (those
 * sharing a word with the request, else all of them); `numberId` is one of the workspace's numbers,
 * for the example that names one.
 */
export function unknownReply(said: string, why?: string, numberId: number | null = null): string {
  const words = new Set(said.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const close = CAN.filter(([, known]) => known.split(' ').some((w) => words.has(w)));
  // the greeting's example names a number the workspace has; without one, where its id is found
  const number = numberId === null ? 'N' : String(numberId);
  const where = numberId === null ? ' (N: a number of yours, vmv numbers list)' : '';
  const offers = (close.length > 0 ? close : CAN).map(
    ([example]) => `- ${example.replace('{number}', number)}${example.includes('{number}') ? where : ''}`,
  );
  return `I didn't understand "${said}"${why ? ` (${WHY[why] ?? why})` : ''}. ${close.length > 0 ? 'Closest to it, I can answer or do' : 'I can answer or do'}:\n${offers.join('\n')}`;
}
