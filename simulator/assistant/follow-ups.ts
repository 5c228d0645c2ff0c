// The assistant's follow-up questions about what its conversation started (docs/spec-silent.md,
// "The assistant agent", How it reads a message): "did they agree?",
// "what did they say on that call?", "how much did that cost?". Each reads what was started last
// through the API's own operations (the quick action job, its call, its replies, the video) and
// puts the answer in words; nothing here costs or changes anything.
import { humanTime } from '../../src/formats.js';
import { cents, price } from '../billing/index.js';
import { cap } from './questions.js';
import type { ConversationRecord, Started } from './records.js';
import type { About } from './understand.js';

type Out = Record<string, any>;
/** A tool call to make next for the clause, or the sentence that answers it. */
export type FollowUp = { tool: string; input: Record<string, unknown> } | { sentence: string };

const QUICK = ['create_quick_ai_call', 'create_quick_ai_text'] as const;
const isQuick = (x: Started) => (QUICK as readonly string[]).includes(x.tool);
const thing = (x: Started) =>
  ({
    create_quick_ai_call: `the call to ${x.to}`,
    create_quick_ai_text: `the text thread with ${x.to}`,
    send_quick_email: `the email to ${x.to}`,
    create_video: `the video about "${x.to}"`,
  })[x.tool];

/** Records what a completed action started (a job, an email, a video), for the questions that follow. */
export function noteStarted(c: ConversationRecord, tool: string, input: Record<string, any>, out: Out): void {
  const data = out.data;
  if (!data?.id) return;
  let x: Started | null = null;
  if (tool === 'create_quick_ai_call' || tool === 'create_quick_ai_text')
    x = { tool, id: data.id, to: input.to_numbers.join(', ') };
  else if (tool === 'send_quick_email')
    x = { tool, id: data.id, to: data.sent_to.join(', ') || input.to.join(', '), cost_usd: data.cost_usd };
  else if (tool === 'create_video') x = { tool, id: data.id, to: String(input.source_text) };
  if (x) {
    (c.started ??= []).push(x);
    // "they", "that call" now mean what was just started
    c.context = { ...c.context, focus: 'started' };
  }
}

const NOTHING_QUICK =
  'I haven\'t called or texted anyone in this conversation yet: ask me to ("call +14155550100 to confirm the appointment"), then ask.';

/** The tools that start what "that call", "the text", "the email" or "the video" means. */
const THING_TOOLS = {
  call: ['create_quick_ai_call'],
  text: ['create_quick_ai_text'],
  email: ['send_quick_email'],
  video: ['create_video'],
} as const;

/**
 * The first call of a follow-up question: what to read, or why there is nothing to read. It asks
 * about what the conversation started last (of the kind it names: "that call"; to the number it
 * names); whether they agreed and what they said, of a call or text only.
 */
export function planFollowUp(c: ConversationRecord, a: About): FollowUp {
  const kind = a.kind;
  // whether they agreed or what they said: of a call or text; what it cost: of anything started
  let tools: readonly string[] | undefined = kind === 'cost' ? undefined : QUICK;
  if (a.thing) tools = THING_TOOLS[a.thing];
  const x = [...(c.started ?? [])]
    .reverse()
    .find(
      (y) =>
        (!tools || (tools as readonly string[]).includes(y.tool)) && (!a.phone || y.to.split(', ').includes(a.phone)),
    );
  if (x && kind !== 'cost' && !isQuick(x))
    return {
      sentence: `I can tell what was said, or whether they agreed, only of a call or text I placed; ${thing(x)} is neither.`,
    };
  if (!x)
    return {
      sentence:
        kind === 'cost'
          ? "I haven't started anything that costs money in this conversation yet, so nothing has cost anything."
          : NOTHING_QUICK,
    };
  if (isQuick(x)) return { tool: 'get_quick_action', input: { job_id: x.id } };
  if (x.tool === 'create_video') return { tool: 'get_video', input: { video_id: x.id } };
  return { sentence: `${cap(thing(x))} cost ${price(cents(x.cost_usd ?? 0))} (0.01 USD per recipient sent to).` };
}

/** Whether a target said yes, in words. */
function agreedLine(kind: string, goal: string, t: Out): string {
  const what = kind === 'ai_call' ? 'call' : 'text thread';
  if (t.goal_achieved) return `Yes: ${t.to_number} agreed ("${goal}").`;
  switch (t.status) {
    case 'pending':
    case 'in_progress':
      return kind === 'ai_call'
        ? `Not yet: the call to ${t.to_number} is ${t.live_call_status === 'in_progress' ? 'still going on' : (t.live_call_status ?? 'waiting for its next attempt')}.`
        : `Not yet: the text thread with ${t.to_number} is still going (${t.messages_sent} sent, ${t.messages_received} replies).`;
    case 'completed':
      return `No: ${t.to_number} ${kind === 'ai_call' ? 'answered' : 'replied'} but did not agree (${t.end_reason}).`;
    case 'no_answer':
      return `I can't tell: ${t.to_number} never ${kind === 'ai_call' ? 'answered' : 'replied'} (${t.end_reason}).`;
    case 'opted_out':
      return `No: ${t.to_number} opted out (texted STOP).`;
    case 'canceled':
      return `I can't tell: the ${what} to ${t.to_number} was canceled before they agreed.`;
    default:
      return `I couldn't reach ${t.to_number}: ${t.end_reason}.`;
  }
}

/** The other party's lines of a call, in words. */
function callLines(to: string, call: Out): string {
  const said = (call.transcript_turns as { speaker: string; text: string }[])
    .filter((t) => t.speaker === 'person')
    .map((t) => `"${t.text}"`);
  if (said.length === 0)
    return `On the call to ${to} (${humanTime(call.created_at)}, ${String(call.status).toLowerCase()}) they said nothing I have a transcript of.`;
  return `On the call to ${to} (${humanTime(call.created_at)}) they said: ${said.join(' ')}`;
}

/** Puts a follow-up's result in words, or names the next call it needs. */
export function followUpSaid(kind: 'agreed' | 'said_then' | 'cost', tool: string, out: Out): FollowUp {
  const data = out.data;
  if (tool === 'get_video') {
    if (data.billed_cents > 0) return { sentence: `The video about "${data.source_text}" cost ${data.price_usd} USD.` };
    return {
      sentence: `The video about "${data.source_text}" costs ${data.price_usd} USD${data.estimated ? ' (an estimate)' : ''}; nothing is charged until its script is approved (it is ${data.status}).`,
    };
  }
  if (tool === 'get_call') return { sentence: callLines(data.to_number, data) };
  if (tool === 'list_messages') {
    const replies = (data as { body: string }[]).map((t) => `"${t.body}"`).reverse();
    return {
      sentence: replies.length === 0 ? 'They have not replied yet.' : `They replied: ${replies.join(' ')}`,
    };
  }
  // get_quick_action: the job, read again
  const job = data;
  const targets = job.targets as Out[];
  if (kind === 'agreed') return { sentence: targets.map((t) => agreedLine(job.kind, job.goal, t)).join('\n') };
  if (kind === 'cost') {
    const what =
      job.kind === 'ai_call'
        ? `The call to ${targets.map((t) => t.to_number).join(', ')}`
        : `The text thread with ${targets.map((t) => t.to_number).join(', ')}`;
    return {
      sentence: `${what} cost ${price(cents(job.cost_usd))}${job.status === 'running' ? ' so far: it is still going' : ''}.`,
    };
  }
  const t = targets[0];
  if (job.kind === 'ai_text')
    return {
      tool: 'list_messages',
      input: { phone_number: t.to_number, direction: 'inbound', created_after: job.created_at, limit: 100 },
    };
  if (!t.last_call_id) return { sentence: `No call to ${t.to_number} has been placed yet.` };
  return { tool: 'get_call', input: { call_id: t.last_call_id } };
}
