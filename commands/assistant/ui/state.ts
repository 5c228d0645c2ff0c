// The terminal chat's state and its transitions, as a pure reducer (no React, no Ink: tested and
// reasoned about on their own): the transcript, the phase of the conversation (idle, a run working,
// approvals being answered one by one), the input line with its history, and the scroll position.
// Text is measured in terminal columns (string-width: a CJK character or an emoji takes two) and the
// input line's cursor moves by graphemes (what the eye sees as one character).
import stringWidth from 'string-width';
import { visible } from '../../../src/visible.js';
import {
  actionText,
  inputText,
  type ApprovalAnswer,
  type Conversation,
  type ConversationWithTranscript,
  type PendingApproval,
} from '../view.js';

/**
 * `unread`: what the assistant did not understand of a message, set apart from its answers;
 * `outcome`: what the chat says, unasked, once something a run started has ended (outcome.ts)
 */
export type EntryKind =
  | 'user'
  | 'assistant'
  | 'action'
  | 'declined'
  | 'failed'
  | 'note'
  | 'error'
  | 'unread'
  | 'outcome';
export interface Entry {
  kind: EntryKind;
  text: string;
}

export type Phase =
  | { step: 'idle' }
  | { step: 'working'; since: number }
  /** approvals shown one at a time; `reason`: the one at `index` was declined and its reason is being typed */
  | { step: 'approving'; pending: PendingApproval[]; index: number; answers: ApprovalAnswer[]; reason: boolean };

export interface ChatState {
  /** the last read of the conversation; null before the first message of a new one */
  conversation: Conversation | null;
  entries: Entry[];
  phase: Phase;
  /** actions already in the transcript (tool_call_id) */
  seen: string[];
  /** one line under the transcript: what just went wrong (a conflict) or a hint; cleared by the next key */
  notice: { kind: 'note' | 'error'; text: string } | null;
  input: string;
  cursor: number;
  /** lines sent, oldest first; `recall` is the one shown (null: the line being written, kept in `draft`) */
  history: string[];
  recall: number | null;
  draft: string;
  /** transcript lines hidden below the view (0: the view shows the end) */
  scroll: number;
}

export const initialState = (entries: Entry[] = []): ChatState => ({
  conversation: null,
  entries,
  phase: { step: 'idle' },
  seen: [],
  notice: null,
  input: '',
  cursor: 0,
  history: [],
  recall: null,
  draft: '',
  scroll: 0,
});

export type ChatAction =
  | { type: 'insert'; text: string }
  | { type: 'backspace' }
  | { type: 'move'; to: 'left' | 'right' | 'home' | 'end' }
  | { type: 'clearLine' }
  | { type: 'history'; dir: 'older' | 'newer' }
  | { type: 'scroll'; by: number; max: number }
  | { type: 'notice'; kind: 'note' | 'error'; text: string }
  | { type: 'entries'; entries: Entry[]; clearInput?: boolean }
  /** a message the service accepted: the run it started is followed */
  | { type: 'sent'; text: string; conversation: Conversation; now: number }
  | { type: 'read'; conversation: Conversation }
  /** the run stopped working (idle, failed, awaiting approval) */
  | { type: 'settled'; conversation: Conversation }
  | { type: 'approve' }
  | { type: 'decline' }
  /** the reason of the decline being typed (the input line), which answers it */
  | { type: 'reason' }
  /** the answers were sent: the run they started is followed */
  | { type: 'answered'; conversation: Conversation; now: number }
  | { type: 'opened'; conversation: ConversationWithTranscript; now: number }
  /** the answers were not taken: the approvals are asked again from the first */
  | { type: 'refused'; text: string }
  /**
   * the service refused what the chat sent as out of date (409: the approvals were answered, or a run
   * started, elsewhere): the conversation read again, and the chat goes on from its real state
   */
  | { type: 'reread'; conversation: Conversation; text: string; now: number }
  /** following a run failed (the service went away): the chat takes input again; the run may go on */
  | { type: 'lost'; text: string }
  | { type: 'new' };

const segmenter = new Intl.Segmenter();
/** A string's graphemes: what the cursor steps over, and where a line may be cut. */
export const graphemes = (s: string): string[] => Array.from(segmenter.segment(s), (g) => g.segment);
/** Columns a string takes on a terminal. */
export const columns = (s: string): number => stringWidth(s);
const chars = graphemes;

/** An approval answered, in the transcript: the tool and what it was given (its cost was on screen). */
export const answerText = (p: PendingApproval) =>
  `${p.tool}${inputText(p.input, 80) ? ` ${inputText(p.input, 80)}` : ''}`;

/** The first screen of a new conversation. */
export const WELCOME: Entry[] = [
  {
    kind: 'note',
    text: 'Ask in plain English: "how many calls did we get yesterday?", "text +14155550100 and ask whether Tuesday works". Actions that cost money or cannot be undone wait for your approval. /help lists the commands and keys.',
  },
];

/** The answers so far of an approving phase, complete when every pending approval has one. */
export const allAnswered = (p: Phase): boolean => p.step === 'approving' && p.answers.length === p.pending.length;

/** How an action shows in the transcript, by how it ended; any other (failed) as 'failed'. */
const ACTION_KINDS: Record<string, EntryKind> = { completed: 'action' };

/**
 * The actions of a read not in the transcript yet. A declined one is not listed: the decline shows
 * once, as the line its answer added (what was declined, and why) and in the reply.
 */
function actionEntries(c: Conversation, seen: string[]): { entries: Entry[]; seen: string[] } {
  const fresh = c.actions.filter((a) => !seen.includes(a.tool_call_id));
  return {
    entries: fresh
      .filter((a) => a.status !== 'declined')
      .map((a) => ({ kind: ACTION_KINDS[a.status] ?? 'failed', text: actionText(a) })),
    seen: [...seen, ...fresh.map((a) => a.tool_call_id)],
  };
}

/** What a run that stopped working adds: its new actions, then its reply (or its error), then the approvals it asks for. */
function settle(s: ChatState, c: Conversation): ChatState {
  const { entries, seen } = actionEntries(c, s.seen);
  const added: Entry[] = [...entries];
  if (c.reply) added.push({ kind: 'assistant', text: c.reply });
  const missed = c.status === 'idle' ? (c.not_understood ?? []) : [];
  if (missed.length > 0)
    added.push({ kind: 'unread', text: `not understood: ${missed.map((m) => `"${m}"`).join(', ')}` });
  if (c.status === 'failed')
    added.push({ kind: 'error', text: c.error ?? 'The run failed. Send another message to go on.' });
  return { ...s, conversation: c, seen, entries: [...s.entries, ...added], phase: phaseOf(c) };
}

/** The chat's phase after a read that ended the wait: approvals to answer (from the first), a run still working, or idle. */
function phaseOf(c: Conversation): Phase {
  if (c.status === 'awaiting_approval' && c.pending_approvals.length > 0)
    return { step: 'approving', pending: c.pending_approvals, index: 0, answers: [], reason: false };
  if (c.status === 'working') return { step: 'working', since: Date.now() };
  return { step: 'idle' };
}

/** The change of the state one action makes: the handler of its type (REDUCERS). */
export function reduce(s: ChatState, a: ChatAction): ChatState {
  return (REDUCERS[a.type] as (s: ChatState, a: ChatAction) => ChatState)(s, a);
}

/** An action of one type: what its handler receives. */
type Of<T extends ChatAction['type']> = Extract<ChatAction, { type: T }>;

/** Each action's handler, by its type: the input line's editing, the run's steps, the approvals' answers. */
const REDUCERS: { [T in ChatAction['type']]: (s: ChatState, a: Of<T>) => ChatState } = {
  insert,
  backspace,
  move,
  history,
  clearLine: (s) => ({ ...s, input: '', cursor: 0, recall: null }),
  scroll: (s, a) => ({ ...s, scroll: Math.max(0, Math.min(a.max, s.scroll + a.by)) }),
  notice: (s, a) => ({ ...s, notice: { kind: a.kind, text: a.text } }),
  entries: (s, a) => ({
    ...s,
    entries: [...s.entries, ...a.entries],
    ...(a.clearInput ? { input: '', cursor: 0, recall: null } : {}),
  }),
  sent,
  read,
  settled: (s, a) => settle(s, a.conversation),
  approve: answerApproval,
  decline: answerApproval,
  reason: answerReason,
  answered: (s, a) =>
    a.conversation.status === 'working'
      ? { ...s, conversation: a.conversation, phase: { step: 'working', since: a.now } }
      : settle({ ...s }, a.conversation),
  opened,
  refused: (s, a) =>
    s.phase.step === 'approving'
      ? {
          ...s,
          phase: { ...s.phase, index: 0, answers: [], reason: false },
          notice: { kind: 'error', text: `${a.text} — answer again.` },
        }
      : { ...s, notice: { kind: 'error', text: a.text } },
  reread,
  lost: (s, a) => ({ ...s, phase: { step: 'idle' }, notice: { kind: 'error', text: a.text } }),
  new: (s) => ({
    ...initialState(),
    history: s.history,
    entries: [{ kind: 'note', text: 'New conversation: your next message starts it.' }],
  }),
};

function insert(s: ChatState, a: Of<'insert'>): ChatState {
  const c = chars(s.input);
  // a pasted text's line breaks stay (a message of several lines); a tab is a space; other control characters go
  const text = chars(
    a.text
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ''),
  );
  if (text.length === 0) return s;
  // the cursor after what was inserted (a combining mark joins the grapheme before it)
  const before = [...c.slice(0, s.cursor), ...text].join('');
  return { ...s, input: before + c.slice(s.cursor).join(''), cursor: chars(before).length, notice: null };
}

function backspace(s: ChatState): ChatState {
  if (s.cursor === 0) return s;
  const c = chars(s.input);
  return {
    ...s,
    input: [...c.slice(0, s.cursor - 1), ...c.slice(s.cursor)].join(''),
    cursor: s.cursor - 1,
    notice: null,
  };
}

function move(s: ChatState, a: Of<'move'>): ChatState {
  const n = chars(s.input).length;
  if (a.to === 'home') return { ...s, cursor: 0 };
  if (a.to === 'end') return { ...s, cursor: n };
  return { ...s, cursor: Math.max(0, Math.min(n, s.cursor + (a.to === 'left' ? -1 : 1))) };
}

function history(s: ChatState, a: Of<'history'>): ChatState {
  if (s.history.length === 0) return s;
  if (a.dir === 'older') {
    const recall = s.recall === null ? s.history.length - 1 : Math.max(0, s.recall - 1);
    const input = s.history[recall];
    return { ...s, recall, draft: s.recall === null ? s.input : s.draft, input, cursor: chars(input).length };
  }
  if (s.recall === null) return s;
  const recall = s.recall + 1 < s.history.length ? s.recall + 1 : null;
  const input = recall === null ? s.draft : s.history[recall];
  return { ...s, recall, input, cursor: chars(input).length };
}

function sent(s: ChatState, a: Of<'sent'>): ChatState {
  // a line sent again is not repeated in the history
  const history = s.history[s.history.length - 1] === a.text ? s.history : [...s.history, a.text];
  const started = a.conversation.conversation_id !== s.conversation?.conversation_id;
  const base: ChatState = {
    ...s,
    history,
    recall: null,
    draft: '',
    input: '',
    cursor: 0,
    scroll: 0,
    notice: null,
    entries: [...s.entries, { kind: 'user', text: a.text }],
    seen: started ? [] : s.seen,
  };
  return a.conversation.status === 'working'
    ? { ...base, conversation: a.conversation, phase: { step: 'working', since: a.now } }
    : settle(base, a.conversation);
}

function read(s: ChatState, a: Of<'read'>): ChatState {
  if (s.phase.step !== 'working') return s;
  const { entries, seen } = actionEntries(a.conversation, s.seen);
  return { ...s, conversation: a.conversation, seen, entries: [...s.entries, ...entries] };
}

/** y approves the approval shown; n asks for the reason of its decline (which answers it: answerReason). */
function answerApproval(s: ChatState, a: Of<'approve' | 'decline'>): ChatState {
  if (s.phase.step !== 'approving' || s.phase.reason || allAnswered(s.phase)) return s;
  const p = s.phase.pending[s.phase.index];
  if (a.type === 'decline') return { ...s, phase: { ...s.phase, reason: true }, input: '', cursor: 0, notice: null };
  return {
    ...s,
    notice: null,
    entries: [...s.entries, { kind: 'note', text: `approved: ${answerText(p)}` }],
    phase: {
      ...s.phase,
      index: s.phase.index + 1,
      answers: [...s.phase.answers, { approval_id: p.approval_id, approved: true }],
    },
  };
}

function answerReason(s: ChatState): ChatState {
  if (s.phase.step !== 'approving' || !s.phase.reason) return s;
  const p = s.phase.pending[s.phase.index];
  const reason = s.input.replace(/\s+/g, ' ').trim();
  return {
    ...s,
    input: '',
    cursor: 0,
    notice: null,
    entries: [...s.entries, { kind: 'note', text: `declined: ${answerText(p)}${reason ? ` (${reason})` : ''}` }],
    phase: {
      ...s.phase,
      reason: false,
      index: s.phase.index + 1,
      answers: [...s.phase.answers, { approval_id: p.approval_id, approved: false, ...(reason ? { reason } : {}) }],
    },
  };
}

function opened(s: ChatState, a: Of<'opened'>): ChatState {
  const c = a.conversation;
  const past: Entry[] = c.transcript.map((m) => ({ kind: m.role === 'user' ? 'user' : 'assistant', text: m.content }));
  const working = c.status === 'working';
  const waiting = c.status === 'awaiting_approval';
  // the transcript holds the replies; what is still going on is the current run's
  const base: ChatState = {
    ...initialState(),
    history: s.history,
    conversation: c,
    entries: [{ kind: 'note', text: `conversation ${c.conversation_id}: ${c.title}` }, ...past],
    seen: working || waiting ? [] : c.actions.map((x) => x.tool_call_id),
  };
  if (working) {
    const { entries, seen } = actionEntries(c, []);
    return { ...base, entries: [...base.entries, ...entries], seen, phase: { step: 'working', since: a.now } };
  }
  if (waiting) {
    const { entries, seen } = actionEntries(c, []);
    return {
      ...base,
      entries: [...base.entries, ...entries],
      seen,
      phase: { step: 'approving', pending: c.pending_approvals, index: 0, answers: [], reason: false },
    };
  }
  if (c.status === 'failed')
    return {
      ...base,
      entries: [
        ...base.entries,
        { kind: 'error', text: c.error ?? 'The last run failed. Send another message to go on.' },
      ],
    };
  return base;
}

function reread(s: ChatState, a: Of<'reread'>): ChatState {
  const c = a.conversation;
  const notice = { kind: 'error' as const, text: a.text };
  if (c.status !== 'working') return { ...settle(s, c), notice };
  const { entries, seen } = actionEntries(c, s.seen);
  return {
    ...s,
    conversation: c,
    seen,
    entries: [...s.entries, ...entries],
    phase: { step: 'working', since: a.now },
    notice,
  };
}

/**
 * Text as the screen may show it: a tab is a space, other control characters (escapes, C1, bidi
 * overrides) shown as their escapes (src/visible.ts), as every command shows text from outside.
 */
export const printable = (s: string) => visible(s.replace(/\t/g, ' '));

/** The first graphemes of `s` that fit in `width` columns (at least one), and the rest. */
function cut(s: string, width: number): [string, string] {
  const g = graphemes(s);
  let w = 0;
  let i = 0;
  for (; i < g.length; i++) {
    const gw = columns(g[i]);
    if (i > 0 && w + gw > width) break;
    w += gw;
  }
  return [g.slice(0, i).join(''), g.slice(i).join('')];
}

/** A line cut to `width` columns with an ellipsis when it is wider. */
export function clip(text: string, width: number): string {
  const s = printable(text);
  if (columns(s) <= width) return s;
  return cut(s, Math.max(1, width - 1))[0] + '…';
}

/** Words wrapped to `width` columns (a word wider than the width is cut); each line of `text` on its own. */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(2, width);
  const out: string[] = [];
  for (const para of printable(text).split('\n')) {
    let line = '';
    let lineW = 0;
    for (const word of para.split(' ')) {
      let rest = word;
      let restW = columns(rest);
      if (line && lineW + 1 + restW > w) {
        out.push(line);
        line = '';
        lineW = 0;
      }
      while (restW > w) {
        if (line) {
          out.push(line);
          line = '';
          lineW = 0;
        }
        const [head, tail] = cut(rest, w);
        out.push(head);
        rest = tail;
        restW = columns(rest);
      }
      line = line ? `${line} ${rest}` : rest;
      lineW = columns(line);
    }
    out.push(line);
  }
  return out;
}

/**
 * The part of the input line that fits in `width` columns, keeping the cursor in view: its
 * graphemes (a line break shown as ↵) and the cursor's index among them (the cell after the
 * last when the cursor is at the end).
 */
export function visibleInput(input: string, cursor: number, width: number): { shown: string[]; at: number } {
  const g = graphemes(input).map((x) => (x === '\n' ? '↵' : printable(x) || ' '));
  const w = g.map(columns);
  const room = Math.max(2, width);
  const cursorW = cursor < g.length ? w[cursor] : 1;
  // from the cursor back, as much as fits; then on past it
  let start = cursor;
  let used = cursorW;
  while (start > 0 && used + w[start - 1] <= room) used += w[--start];
  let end = Math.min(g.length, cursor + 1);
  while (end < g.length && used + w[end] <= room) used += w[end++];
  return { shown: g.slice(start, end), at: cursor - start };
}
