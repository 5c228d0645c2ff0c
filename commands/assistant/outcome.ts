// What the chat says, unasked, once something a run started has ended (issue 33: "the chat says
// what happened"): a quick call (answered? the goal achieved? what it cost), a text thread (replied?
// the goal achieved? what it cost), a video (ready, or why not). Pure: a record read through the API
// in, one line out (null while it goes on), so the words are tested as a table and shared by the
// terminal chat and the line chat. Every value from the service is made visible (src/visible.ts)
// before it is put in a line: the chat colours the line, so the stream's filter cannot tell a
// value's own sequences from vmv's.
import { money } from '../../src/output.js';
import { visible, visibleDeep } from '../../src/visible.js';
import type { Conversation } from './view.js';

type Out = Record<string, any>;

/** Something a run started that goes on after it: the tool that started it and its record's id. */
export interface Started {
  tool: 'create_quick_ai_call' | 'create_quick_ai_text' | 'create_video';
  id: string;
  /** how the chat names it: "the call to +14155550100", "the video about "our menu"" */
  what: string;
}

const STARTS: Record<Started['tool'], { path: (id: string) => string }> = {
  create_quick_ai_call: { path: (id) => `/v1/quick/actions/${encodeURIComponent(id)}` },
  create_quick_ai_text: { path: (id) => `/v1/quick/actions/${encodeURIComponent(id)}` },
  create_video: { path: (id) => `/v1/videos/${encodeURIComponent(id)}` },
};

/** Where a started thing is read. */
export const startedPath = (x: Started) => STARTS[x.tool].path(x.id);

/** What a run's completed actions started that goes on after it (quick calls and texts, videos). */
export function startedBy(c: Conversation): Started[] {
  const out: Started[] = [];
  for (const a of c.actions) {
    const id = (a.output as { data?: { id?: unknown } } | null)?.data?.id;
    if (a.status !== 'completed' || typeof id !== 'string' || !(a.tool in STARTS)) continue;
    const input = a.input as Out;
    const tool = a.tool as Started['tool'];
    const to = Array.isArray(input.to_numbers) ? input.to_numbers.join(', ') : '';
    const what = {
      create_quick_ai_call: `the call to ${to}`,
      create_quick_ai_text: `the text thread with ${to}`,
      create_video: `the video about "${input.source_text}"`,
    }[tool];
    out.push({ tool, id, what: visible(what) });
  }
  return out;
}

/** One target of a quick job, ended: answered (or replied) or not, and whether the goal was achieved. */
function targetText(kind: string, t: Out): string {
  const call = kind === 'ai_call';
  const who = t.to_number as string;
  const why = t.end_reason ? ` (${t.end_reason})` : '';
  switch (t.status) {
    case 'completed':
      return `${who} ${call ? 'answered' : 'replied'}, goal ${t.goal_achieved ? 'achieved' : `not achieved${why}`}`;
    case 'no_answer':
      return call
        ? `${who} did not answer${t.attempts ? ` after ${t.attempts} attempt${t.attempts === 1 ? '' : 's'}` : ''}${why}`
        : `${who} did not reply${why}`;
    case 'opted_out':
      return `${who} opted out (texted STOP)`;
    case 'canceled':
      return `${who}: canceled before it ended`;
    default:
      return `${who} could not be reached${why}`;
  }
}

/**
 * The line the chat adds once a started thing has ended, from its record as read; null while it
 * goes on. "The call to +14155550100 has ended: +14155550100 answered, goal achieved; it cost 0.43 USD."
 */
export function endedText(x: Started, read: Out): string | null {
  const data = visibleDeep(read);
  if (x.tool === 'create_video') {
    if (data.status === 'ready')
      return `The video about "${data.source_text}" is ready${data.billed_cents ? ` (it cost ${data.price_usd} USD)` : ''}: vmv videos get ${data.id}`;
    if (data.status === 'failed')
      return `The video about "${data.source_text}" failed: ${data.error ?? 'no reason given'}.`;
    // script_review waits for a person, not for time: said once, as an end of what goes on by itself
    if (data.status === 'script_review')
      return `The video about "${data.source_text}" waits for its script's approval (vmv videos approve ${data.id}).`;
    return null;
  }
  if (data.status === 'running') return null;
  const targets = (data.targets ?? []) as Out[];
  const how = targets.map((t) => targetText(data.kind, t)).join('; ');
  const what = data.kind === 'ai_call' ? 'The call' : 'The text thread';
  const to = targets.map((t) => t.to_number).join(', ');
  return `${what} ${data.kind === 'ai_call' ? 'to' : 'with'} ${to} has ended: ${how}; it cost ${money(Number(data.cost_usd ?? 0))}.`;
}
