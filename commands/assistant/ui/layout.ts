// The chat's screen as lines, from its state and the terminal's size: a pure function (no React, no
// Ink; ui/chat.tsx draws what it returns, test/chat-layout.test.ts checks it with a table). Top to
// bottom: a header, the transcript (scrolled by PgUp/PgDn), what is going on (a spinner while a run
// works, or the approval being answered), a notice, the input line, and the keys. Every line fits
// the width; all of them fit the height, what is below the transcript cut first where it may be.
import { inputText } from '../view.js';
import {
  allAnswered,
  clip,
  columns,
  printable,
  visibleInput,
  wrap,
  type ChatState,
  type Entry,
  type Phase,
} from './state.js';

/** One line of the screen, already cut to the width; the input line comes as graphemes, with the cursor's index among them. */
export interface Line {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  cursor?: { before: string; chars: string[]; at: number };
}

/** What the screen shows besides the state. */
export interface View {
  /** the terminal's size (at least 20 columns and 8 rows are drawn) */
  size: { columns: number; rows: number };
  /** the time drawn (a working run shows for how long), and the spinner's frame */
  now: number;
  tick: number;
  /** the simulator's clock is manual, and the chat moves it while a run works */
  manualClock: boolean;
  advance: boolean;
}

/** The screen: its lines, how far the transcript scrolls and by how much a page, and where the input's cursor is. */
export interface Screen {
  lines: Line[];
  maxScroll: number;
  page: number;
  /** the cursor's column and row (the input line shows) */
  cursor?: { x: number; y: number };
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The keys line, by what the chat is doing. */
const KEYS = {
  typing: 'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C leave',
  // the ask line above says y and n: the keys line does not say them again
  approving: 'Ctrl-C leave',
  reason: 'Enter answer (empty: no reason) · Ctrl-U clear · Ctrl-C leave',
  sending: 'Ctrl-C leave',
} as const;

/** A value shown on one line (a title may hold line breaks). */
const oneLine = (s: string) => printable(s.replace(/\s+/g, ' '));

/** Lines drawn at `width`, indented by two columns. */
const indented = (text: string, width: number, style: Omit<Line, 'text'>): Line[] =>
  wrap(text, width - 2).map((l) => ({ text: `  ${l}`, ...style }));

/**
 * The screen for a state. `transcript` is the transcript's lines at this width (transcriptLines):
 * given, the caller may keep them while the entries and the width stay the same.
 */
export function layout(
  state: ChatState,
  view: View,
  transcript = transcriptLines(state.entries, view.size.columns),
): Screen {
  const width = Math.max(20, view.size.columns);
  // rows: the header, the transcript, what is below it, and one spare at the bottom
  const room = Math.max(8, view.size.rows) - 2;
  const below = belowTranscript(state, view, width, room);
  const height = Math.max(1, room - below.length);
  const maxScroll = Math.max(0, transcript.length - height);
  const shown = transcriptView(transcript, height, Math.min(state.scroll, maxScroll));
  const lines = [
    headerLine(state, view, width),
    ...shown,
    ...Array<Line>(Math.max(0, height - shown.length)).fill({ text: '' }),
    ...below,
  ];
  const at = lines.findIndex((l) => l.cursor);
  const cur = at >= 0 ? lines[at].cursor! : null;
  return {
    lines,
    maxScroll,
    page: Math.max(1, height - 2),
    ...(cur ? { cursor: { x: columns(cur.before + cur.chars.slice(0, cur.at).join('')), y: at } } : {}),
  };
}

/** The transcript's lines at a terminal's width: each entry wrapped, a blank line before each message after the first. */
export function transcriptLines(entries: Entry[], columnsWide: number): Line[] {
  const width = Math.max(20, columnsWide);
  return entries.flatMap((e, i) => entryLines(e, width, i === 0));
}

function entryLines(e: Entry, width: number, first: boolean): Line[] {
  const pad = (prefix: string, text: string, style: Omit<Line, 'text'>) =>
    wrap(text, width - 2).map((l, i) => ({ text: (i === 0 ? prefix : '  ') + l, ...style }));
  switch (e.kind) {
    case 'user':
      return [...(first ? [] : [{ text: '' }]), ...pad('› ', e.text, { color: 'cyan', bold: true })];
    case 'assistant':
      return pad('  ', e.text, {});
    case 'action':
      return pad('  ', e.text, { color: 'green', dim: true });
    case 'declined':
      return pad('  ', e.text, { color: 'yellow' });
    case 'failed':
    case 'error':
      return pad('! ', e.text, { color: 'red' });
    case 'note':
      return pad('· ', e.text, { dim: true });
    case 'unread':
      return pad('? ', e.text, { color: 'yellow' });
    case 'outcome':
      return pad('→ ', e.text, { color: 'magenta' });
  }
}

/** The part of the transcript in view: `height` lines ending `scroll` lines before its end, with what is left out above and below said. */
function transcriptView(all: Line[], height: number, scroll: number): Line[] {
  const end = all.length - scroll;
  const view = all.slice(Math.max(0, end - height), end);
  if (end - height > 0) view[0] = { text: `↑ ${end - height + 1} earlier lines (PgUp)`, dim: true };
  if (scroll > 0) view[view.length - 1] = { text: `↓ ${scroll + 1} more lines (PgDn)`, dim: true };
  return view;
}

/** The header's note on the simulator's clock, said only when it is manual: whether the chat moves it. */
function clockNote(view: View): string {
  if (!view.manualClock) return '';
  return view.advance ? 'manual clock: moved while the assistant works' : 'manual clock: not moved (--no-auto-advance)';
}

function headerLine(state: ChatState, view: View, width: number): Line {
  const c = state.conversation;
  return {
    text: headerText(
      oneLine(c ? c.title : 'new conversation'),
      c ? c.conversation_id.slice(0, 8) : '',
      clockNote(view),
      width,
    ),
    bold: true,
  };
}

/**
 * The header within `width` columns: the title gives way first, so the conversation's id and the
 * clock note stay (the note in a short form when the title would be left with too little).
 */
function headerText(title: string, id: string, note: string, width: number): string {
  const lead = 'vmv assistant · ';
  for (const n of [note, note ? 'manual clock' : '']) {
    const tailText = `${id ? ` · ${id}` : ''}${n ? ` · ${n}` : ''}`;
    const room = width - columns(lead) - columns(tailText);
    if (room >= Math.min(12, columns(title))) return lead + clip(title, room) + tailText;
  }
  return clip(`${lead}${title}${id ? ` · ${id}` : ''}`, width);
}

/** What is going on, in parts: the status and the question always show; the reason and the detail as room allows. */
interface Activity {
  status: Line[];
  reason: Line[];
  detail: Line[];
  ask: Line[];
}

/** What the clock does while a run works, beside the spinner: moved by the chat, or waited for (vmv sim advance). */
function clockWhileWorking(view: View): string {
  if (view.advance) return 'moving the clock';
  if (view.manualClock) return 'waiting for the clock (vmv sim advance)';
  return '';
}

function activity(state: ChatState, view: View, width: number): Activity {
  const none: Activity = { status: [], reason: [], detail: [], ask: [] };
  const { phase, conversation: c } = state;
  if (phase.step === 'working') {
    const secs = Math.floor((view.now - phase.since) / 1000);
    const done = c ? c.actions.filter((a) => state.seen.includes(a.tool_call_id)).length : 0;
    const extra = [done ? `${done} action${done > 1 ? 's' : ''} done` : '', clockWhileWorking(view)].filter(Boolean);
    const status = {
      text: clip(
        `${SPINNER[view.tick % SPINNER.length]} working · ${secs}s${extra.length ? ` · ${extra.join(' · ')}` : ''}`,
        width,
      ),
      color: 'yellow',
    };
    return { ...none, status: [status], detail: c?.reply ? indented(c.reply, width, { dim: true }).slice(-2) : [] };
  }
  if (phase.step === 'approving' && !allAnswered(phase)) {
    const p = phase.pending[phase.index];
    const of = phase.pending.length > 1 ? ` ${phase.index + 1} of ${phase.pending.length}` : '';
    const input = inputText(p.input, width * 2);
    return {
      status: [{ text: clip(`Approval${of}: ${p.tool}`, width), color: 'yellow', bold: true }],
      reason: indented(p.reason, width, { color: 'yellow' }),
      detail: input ? indented(input, width, { dim: true }).slice(0, 2) : [],
      ask: [
        {
          text: phase.reason ? 'Why not? (told to the assistant; Enter to skip)' : 'y approve · n decline',
          bold: true,
        },
      ],
    };
  }
  if (phase.step === 'approving') return { ...none, status: [{ text: 'sending your answers…', color: 'yellow' }] };
  return none;
}

/** The input line, while the chat takes text (a message, or a decline's reason). */
function inputLines(state: ChatState, width: number): Line[] {
  const { phase } = state;
  if (phase.step === 'approving' && !phase.reason) return [];
  const prompt = phase.step === 'approving' ? 'reason › ' : '› ';
  const { shown, at } = visibleInput(state.input, state.cursor, width - columns(prompt) - 1);
  return [{ text: prompt + shown.join(''), cursor: { before: prompt, chars: shown, at }, bold: true }];
}

function keysOf(phase: Phase): string {
  if (phase.step !== 'approving') return KEYS.typing;
  if (allAnswered(phase)) return KEYS.sending;
  return phase.reason ? KEYS.reason : KEYS.approving;
}

/**
 * Under the transcript: what is going on, then the notice, the input line and the keys, within
 * `room` rows less one for the transcript. Some of it may be cut to fit (the approval's reason last
 * of all); the rest must show.
 */
function belowTranscript(state: ChatState, view: View, width: number, room: number): Line[] {
  const { status, reason, detail, ask } = activity(state, view, width);
  const notice: Line[] = state.notice
    ? wrap(state.notice.text, width).map((text) => ({
        text,
        color: state.notice!.kind === 'error' ? 'red' : undefined,
        dim: state.notice!.kind === 'note',
      }))
    : [];
  const input = inputLines(state, width);
  const keys: Line = { text: clip(keysOf(state.phase), width), dim: true };
  let left = room - status.length - ask.length - input.length - 1 /* keys */ - 1 /* a transcript line at least */;
  const give = (want: number) => {
    const n = Math.max(0, Math.min(want, left));
    left -= n;
    return n;
  };
  const reasonN = give(reason.length);
  const noticeN = give(Math.min(3, notice.length));
  give(2); // the transcript: three lines before anything else gets more room
  const detailN = give(detail.length);
  return [
    ...status,
    ...upTo(reason, reasonN, width, 2),
    ...detail.slice(0, detailN),
    ...ask,
    ...upTo(notice, noticeN, width),
    ...input,
    keys,
  ];
}

/**
 * `n` of `lines`: the first ones, and the last `end` of them (where an approval's reason says what it
 * costs); when some are left out, the line before the gap says so (…).
 */
function upTo(lines: Line[], n: number, width: number, end = 0): Line[] {
  if (lines.length <= n) return lines;
  const tailN = Math.min(end, Math.floor(n / 2));
  const shown = lines.slice(0, n - tailN);
  const last = shown.at(-1);
  if (last) shown[shown.length - 1] = { ...last, text: clip(`${last.text} …`, width) };
  return [...shown, ...lines.slice(lines.length - tailN)];
}
