// What the assistant verbs share: the records' types (from the API's own schemas, type-only: nothing
// of them is loaded), an action or an approval in one line, and a conversation as `get` prints it.
import type {
  ActionOut,
  ConversationOut,
  ConversationWithTranscriptOut,
  PendingApprovalOut,
} from '../../simulator/assistant/records.js';
import type { Context } from '../../src/context.js';
import { ALWAYS, bold, type Cell, col, dim, fields, humanTime, nested, textCol } from '../../src/output.js';
import { visible } from '../../src/visible.js';

export type Conversation = ConversationOut;
export type ConversationWithTranscript = ConversationWithTranscriptOut;
export type Action = ActionOut;
export type PendingApproval = PendingApprovalOut;

export interface ApprovalAnswer {
  approval_id: string;
  approved: boolean;
  reason?: string;
}

/** The body of POST /v1/assistant/messages: exactly one of message and approvals. */
export interface MessageBody {
  message?: string;
  approvals?: ApprovalAnswer[];
  conversation_id?: string;
  wait_seconds?: number;
}

/** How an action ended, as one character: done, failed, declined (not done). */
const MARK: Record<string, string> = { completed: '✓', failed: '✗', declined: '–' };

/** A value as typed after key=: a string quoted (as JSON) when it is empty or holds a space or a quote, so the line reads back. */
function word(v: unknown): string {
  if (typeof v !== 'string') return String(v);
  return v === '' || /[\s"]/.test(v) ? JSON.stringify(v) : v;
}

/** An input's fields as key=value, a nested object's by their dotted path (voice.greeting_message=...), nothing left out. */
function pairs(v: unknown, key: string): string[] {
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object'))
      return [`${key}=${v.length ? v.map(word).join(',') : '[]'}`];
    return v.flatMap((x, i) => pairs(x, `${key}[${i}]`));
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length) return entries.flatMap(([k, x]) => pairs(x, key ? `${key}.${k}` : k));
    // an empty object is said as one (voice={}); an empty input as a whole says nothing
    return key ? [`${key}={}`] : [];
  }
  return [`${key}=${word(v)}`];
}

/**
 * A tool's input in a few words: its fields as key=value (a string with spaces quoted, nested
 * fields by their path), cut at `max` characters for a line that must stay short (progress, the
 * chat); without `max`, whole (piped output never cuts a value).
 */
export function inputText(input: Record<string, unknown> | null | undefined, max = Infinity): string {
  const text = pairs(input ?? {}, '').join(' ');
  return [...text].length > max ? [...text].slice(0, max - 1).join('') + '…' : text;
}

/**
 * "✓ create_quick_ai_text to_numbers=+14155550100 goal=…", with the error of a failed one; made
 * visible (src/visible.ts) here, as the values are the service's and the caller colours the line.
 */
export function actionText(a: Action): string {
  const input = inputText(a.input, 80);
  return visible(`${MARK[a.status] ?? '?'} ${a.tool}${input ? ` ${input}` : ''}${whyText(a)}`);
}

/** What follows an action that was not done: a failed one's error, a declined one's reason. */
function whyText(a: Action): string {
  if (a.status === 'failed' && a.error) return `: ${a.error}`;
  // a declined action's error carries the reason given ("declined: not this week")
  if (a.status === 'declined') return ` (${a.error ?? 'declined'}; not done)`;
  return '';
}

/** "create_quick_ai_call: Places an AI call to +14155550100: 0.20 USD per call placed …" */
export const approvalText = (p: PendingApproval) => visible(`${p.tool}: ${p.reason}`);

/** What to type to go on with a conversation, for the messages that end a command. */
export const continueHint = (id: string) =>
  `Continue it: vmv assistant send --conversation ${id} "..." (or vmv assistant chat --conversation ${id})`;

/** One conversation, as `vmv assistant get` shows it: its fields and reply, its actions and pending approvals, then the transcript. */
export function printConversation(ctx: Context, c: ConversationWithTranscript): void {
  const { io } = ctx;
  const pairs: [string, Cell][] = [
    ['id', c.conversation_id],
    ['title', c.title],
    ['status', c.status],
    ['run', c.run_id],
    ['error', c.error],
    ['updated', c.updated_at],
    ['created', c.created_at],
  ];
  // piped, the reply is one value like any other; a terminal shows it as written, below the fields
  if (!io.stdoutTTY) pairs.push(['reply', c.reply]);
  fields(io, pairs);
  if (io.stdoutTTY && c.reply)
    io.out(`\n${bold(io, c.status === 'working' ? 'Reply so far' : 'Reply')}\n${indent(c.reply)}\n`);
  if (c.actions.length > 0)
    nested(
      io,
      'action',
      [col('tool call', 2), col('tool', ALWAYS), col('status', 6), textCol('input', 4), textCol('error', 5)],
      c.actions.map((a) => [a.tool_call_id, a.tool, a.status, inputText(a.input), a.error]),
    );
  if (c.pending_approvals.length > 0)
    nested(
      io,
      'approval',
      [col('approval', ALWAYS), col('tool', 6), textCol('reason', 5)],
      c.pending_approvals.map((p) => [p.approval_id, p.tool, p.reason]),
    );
  if (c.transcript.length === 0) return;
  if (!io.stdoutTTY) {
    nested(
      io,
      'message',
      [],
      c.transcript.map((m) => [m.at, m.role, m.content]),
    );
    return;
  }
  io.out(`\n${bold(io, 'Transcript')}\n`);
  for (const m of c.transcript)
    io.out(`${dim(io, humanTime(m.at))}  ${bold(io, m.role === 'user' ? 'you' : 'assistant')}\n${indent(m.content)}\n`);
}

const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
