// The terminal chat of `vmv assistant chat` (Ink and React: this module and what it imports are the
// only ones that load them, through the chat verb's dynamic import). The screen, top to bottom: a
// header, the transcript (PgUp/PgDn scroll it), what is going on (a spinner while a run works, or the
// approval being answered), a notice line, the input line, and the keys. Its state is ui/state.ts.
import { Box, render, Text, useApp, useCursor, useInput, useStdout } from 'ink';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { ApiCallError } from '../../../src/errors.js';
import { localTime } from '../../../src/output.js';
import { followRun, type AssistantApi } from '../session.js';
import { helpLines, listLine, messageOf, parseSlash, resolveConversation } from '../slash.js';
import { inputText, type ApprovalAnswer, type Conversation, type ConversationWithTranscript } from '../view.js';
import { allAnswered, answerText, clip, columns, initialState, printable, reduce, visibleInput, WELCOME, wrap, type ChatAction, type ChatState, type Entry } from './state.js';

export interface ChatProps {
  api: AssistantApi;
  /** the conversation to resume (already read) */
  resumed?: ConversationWithTranscript | null;
  /** move a manual simulator clock while a run works */
  advance: boolean;
  manualClock: boolean;
  policy?: 'approve' | 'decline';
  reason?: string;
  color: boolean;
  pollMs: number;
  paceMs: number;
  /** the screen's size; default: the terminal's */
  size?: { columns: number; rows: number };
  /** told how the chat ended, as it unmounts (runChat also has it from Ink) */
  onExit?: (end: ChatEnd) => void;
}

export interface ChatEnd {
  conversationId: string | null;
  /** left with Ctrl-C while something was under way: what (exit 130) */
  interrupted?: 'was working' | 'waited for your approval';
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** One line of the screen, already cut to the width; the input line comes as graphemes, with the cursor's index among them. */
interface Line { text: string; color?: string; bold?: boolean; dim?: boolean; cursor?: { before: string; chars: string[]; at: number } }

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** An error as one line: the API's message and code (a 409 conflict reads as such), or the error's own message. */
function errorText(e: unknown): string {
  if (e instanceof ApiCallError) return `${e.code} (HTTP ${e.status}): ${e.envelope.error.message}`;
  return (e as Error)?.message ?? String(e);
}

/** The service refused a request as out of date: the conversation moved on without this chat. */
const isConflict = (e: unknown) => e instanceof ApiCallError && e.status === 409;

/** Where a conversation read again stands, in words. */
const standing: Record<string, string> = {
  working: 'the assistant is working on it',
  idle: 'it is idle',
  awaiting_approval: 'approvals wait',
  failed: 'its run failed',
};

/** A value shown on one line (a title may hold line breaks). */
const oneLine = (s: string) => printable(s.replace(/\s+/g, ' '));

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
  }
}

export function Chat(props: ChatProps) {
  const { api } = props;
  const app = useApp();
  const { stdout } = useStdout();
  const { setCursorPosition } = useCursor();
  const [state, dispatch] = useReducer(reduce, WELCOME, initialState);
  // the state as of the last change, not the last render: keys that arrive before the screen is
  // drawn again (a double tap, keys sent together) are read against what the keys before them did
  const stateRef = useRef<ChatState>(state);
  const act = (a: ChatAction) => {
    stateRef.current = reduce(stateRef.current, a);
    dispatch(a);
  };
  // a follow of a run stops when the chat moves to another conversation (or another run starts)
  const generation = useRef(0);
  const exit = (end: ChatEnd) => {
    generation.current++;
    props.onExit?.(end);
    app.exit(end);
  };
  const posting = useRef(false);
  const [tick, setTick] = useState(0);
  const [size, setSize] = useState(() => props.size ?? { columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const maxScroll = useRef(0);
  const page = useRef(10);

  useEffect(() => {
    if (props.size) return;
    const resized = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on('resize', resized);
    return () => void stdout.off('resize', resized);
  }, [stdout, props.size]);

  const working = state.phase.step === 'working';
  useEffect(() => {
    if (!working) return;
    const t = setInterval(() => setTick((n) => n + 1), 100);
    return () => clearInterval(t);
  }, [working]);

  // a resumed conversation: its transcript, and whatever it is in the middle of
  useEffect(() => {
    if (props.resumed) void open(props.resumed);
    return () => void generation.current++;
  }, []);

  /** Follows a run until it stops working, then adds what it did and asks for its approvals. */
  async function follow(c: Conversation): Promise<void> {
    const mine = ++generation.current;
    try {
      const last = await followRun(api, c, {
        advance: props.advance, pollMs: props.pollMs, paceMs: props.paceMs, pause: sleep,
        stopped: () => mine !== generation.current,
        onRead: (read) => mine === generation.current && act({ type: 'read', conversation: read }),
      });
      if (mine !== generation.current) return;
      act({ type: 'settled', conversation: last });
      if (last.status === 'awaiting_approval' && props.policy) await answerByPolicy(last);
    } catch (e) {
      const id = c.conversation_id.slice(0, 8);
      if (mine === generation.current) act({ type: 'lost', text: `${errorText(e)} — the run may go on; /open ${id} reads it again.` });
    }
  }

  /** After the service took a message or answers: follow the run, or answer the approvals it asks for by policy. */
  async function carryOn(c: Conversation): Promise<void> {
    if (c.status === 'working') await follow(c);
    else if (c.status === 'awaiting_approval' && props.policy) await answerByPolicy(c);
  }

  async function answerByPolicy(c: Conversation): Promise<void> {
    const approve = props.policy === 'approve';
    const flag = approve ? '--approve-all' : '--decline-all';
    act({ type: 'entries', entries: c.pending_approvals.map((p) => ({ kind: 'note', text: `${approve ? 'approved' : 'declined'} (${flag}): ${answerText(p)}` })) });
    await sendAnswers(c.conversation_id, c.pending_approvals.map((p) => ({ approval_id: p.approval_id, approved: approve, ...(!approve && props.reason ? { reason: props.reason } : {}) })));
  }

  /**
   * The service refused what this chat sent as out of date (409 conflict: the approvals were
   * answered elsewhere, or another client started a run): the conversation is read again, and the
   * chat goes on from where it really stands.
   */
  async function reread(id: string, e: unknown): Promise<void> {
    const mine = generation.current;
    try {
      const c = await api.get(id);
      if (mine !== generation.current) return;
      act({ type: 'reread', conversation: c, text: `${errorText(e)} — read again: ${standing[c.status] ?? c.status}.`, now: Date.now() });
      await carryOn(c);
    } catch (e2) {
      if (mine === generation.current) act({ type: 'lost', text: `${errorText(e2)} — /open ${id.slice(0, 8)} reads it again.` });
    }
  }

  async function sendAnswers(id: string, answers: ApprovalAnswer[]): Promise<void> {
    let c: Conversation;
    try {
      c = await api.post({ conversation_id: id, approvals: answers, wait_seconds: 0 });
    } catch (e) {
      if (isConflict(e)) return reread(id, e);
      // not taken: the approvals are asked again (the service says why)
      act({ type: 'refused', text: errorText(e) });
      return;
    }
    act({ type: 'answered', conversation: c, now: Date.now() });
    await carryOn(c);
  }

  async function send(text: string): Promise<void> {
    if (posting.current) return;
    posting.current = true;
    const before = stateRef.current;
    const id = before.conversation?.conversation_id;
    let c: Conversation;
    try {
      c = await api.post({ message: text, conversation_id: id, wait_seconds: 0 });
    } catch (e) {
      posting.current = false;
      // the line stays in the input, to send again once the conversation takes it; a conflict where
      // this chat saw nothing going on means another client moved the conversation on: read it again
      if (isConflict(e) && id && before.phase.step === 'idle') return reread(id, e);
      act({ type: 'notice', kind: 'error', text: errorText(e) });
      return;
    }
    posting.current = false;
    act({ type: 'sent', text, conversation: c, now: Date.now() });
    await carryOn(c);
  }

  async function open(c: ConversationWithTranscript): Promise<void> {
    generation.current++;
    act({ type: 'opened', conversation: c, now: Date.now() });
    await carryOn(c);
  }

  async function slash(line: string): Promise<boolean> {
    const parsed = parseSlash(line);
    if (!parsed) return false;
    if ('error' in parsed) {
      act({ type: 'notice', kind: 'error', text: parsed.error });
      return true;
    }
    const { slash: cmd, arg } = parsed;
    switch (cmd.name) {
      case 'quit':
        exit({ conversationId: stateRef.current.conversation?.conversation_id ?? null });
        break;
      case 'help':
        act({ type: 'entries', entries: helpLines({ keys: true }).map((text) => ({ kind: 'note', text })), clearInput: true });
        break;
      case 'new':
        generation.current++;
        act({ type: 'new' });
        break;
      case 'list':
        try {
          const recent = await api.list(10);
          const lines = recent.length ? recent.map((c) => listLine(c, localTime)) : ['No conversations yet.'];
          act({ type: 'entries', entries: [...lines, recent.length ? 'Open one: /open ID (its first characters are enough)' : ''].filter(Boolean).map((text) => ({ kind: 'note', text })), clearInput: true });
        } catch (e) {
          act({ type: 'notice', kind: 'error', text: errorText(e) });
        }
        break;
      case 'open':
        try {
          await open(await api.get(await resolveConversation(api, arg)));
        } catch (e) {
          act({ type: 'notice', kind: 'error', text: errorText(e) });
        }
        break;
    }
    return true;
  }

  function submit(line: string): void {
    if (!line.trim()) return;
    void slash(line).then((handled) => {
      if (!handled) void send(messageOf(line));
    });
  }

  /** An approval's answer (y, or the reason of an n); once every one has its answer, they are sent together, once. */
  function answer(a: ChatAction): void {
    const before = stateRef.current;
    act(a);
    const after = stateRef.current.phase;
    if (after !== before.phase && after.step === 'approving' && allAnswered(after) && before.conversation)
      void sendAnswers(before.conversation.conversation_id, after.answers);
  }

  /** Enter: sends the input line, or answers the reason being typed. */
  function enter(): void {
    const s = stateRef.current;
    if (s.phase.step === 'approving') {
      if (s.phase.reason) answer({ type: 'reason' });
      return;
    }
    submit(s.input);
  }

  function leave(): void {
    const s = stateRef.current;
    const conversationId = s.conversation?.conversation_id ?? null;
    const interrupted = s.phase.step === 'working' ? 'was working' : s.phase.step === 'approving' ? 'waited for your approval' : undefined;
    exit({ conversationId, ...(interrupted ? { interrupted } : {}) });
  }

  /** A key while an approval is asked (not its reason): y, n, or a reminder of what they do. */
  function approvalKey(input: string, enterKey: boolean): void {
    const phase = stateRef.current.phase;
    // an n just asked for a reason: what follows it in the same piece is the reason's text
    if (phase.step !== 'approving' || phase.reason) return void act({ type: 'insert', text: input });
    // every approval has its answer and they are on their way: nothing more to answer
    if (allAnswered(phase)) return;
    if (input === 'y' || input === 'Y') answer({ type: 'approve' });
    else if (input === 'n' || input === 'N') act({ type: 'decline' });
    else if (input || enterKey) act({ type: 'notice', kind: 'note', text: 'y approves this action, n declines it (then an optional reason).' });
  }

  useInput((input, key) => {
    const s = stateRef.current;
    if (key.ctrl && input === 'c') return leave();
    if (key.ctrl && input === 'd') {
      if (!s.input) exit({ conversationId: s.conversation?.conversation_id ?? null });
      return;
    }
    if (key.pageUp || key.pageDown) return act({ type: 'scroll', by: key.pageUp ? page.current : -page.current, max: maxScroll.current });
    if (s.phase.step === 'approving' && !s.phase.reason) {
      // presses typed faster than the terminal is read arrive as one piece ("yy"): each is a press
      if (/^[yn]{2,}$/i.test(input)) return void [...input].forEach((ch) => approvalKey(ch, false));
      return approvalKey(input, key.return);
    }
    if (key.return) return enter();
    if (key.backspace || key.delete) return act({ type: 'backspace' });
    if (key.leftArrow) return act({ type: 'move', to: 'left' });
    if (key.rightArrow) return act({ type: 'move', to: 'right' });
    if (key.home || (key.ctrl && input === 'a')) return act({ type: 'move', to: 'home' });
    if (key.end || (key.ctrl && input === 'e')) return act({ type: 'move', to: 'end' });
    if (key.ctrl && input === 'u') return act({ type: 'clearLine' });
    if (s.phase.step !== 'approving' && (key.upArrow || key.downArrow)) return act({ type: 'history', dir: key.upArrow ? 'older' : 'newer' });
    if (key.ctrl || key.meta || key.tab || key.escape || key.upArrow || key.downArrow) return;
    // typed or pasted text, several keys at once (a paste, tmux): line breaks inside it are the
    // message's own (a paste of several lines is one message); one at its end is Enter, which sends
    // (or answers a reason); Ctrl-U clears and Backspace deletes as they come
    const enterAtEnd = /[\r\n]$/.test(input);
    for (const part of input.replace(/[\r\n]+$/, '').split(/([\u0015\u007f\b])/)) {
      if (part === '\u0015') act({ type: 'clearLine' });
      else if (part === '\u007f' || part === '\b') act({ type: 'backspace' });
      else if (part) act({ type: 'insert', text: part });
    }
    if (enterAtEnd) enter();
  });

  // ---- the screen, as lines: each within the terminal's width, all of them within its height ----
  const width = Math.max(20, size.columns);
  const rows = Math.max(8, size.rows);
  const c = state.conversation;
  const clockNote = props.manualClock ? (props.advance ? 'manual clock: moved while the assistant works' : 'manual clock: not moved (--no-auto-advance)') : '';
  const header: Line = { text: headerText(oneLine(c ? c.title : 'new conversation'), c ? c.conversation_id.slice(0, 8) : '', clockNote, width), bold: true };

  // under the transcript: what is going on, then the notice, the input line and the keys. Some of
  // it may be cut to fit the height (the approval's reason last of all); the rest must show
  const phase = state.phase;
  const status: Line[] = [];
  let reason: Line[] = [];
  let detail: Line[] = [];
  const ask: Line[] = [];
  if (phase.step === 'working') {
    const secs = Math.floor((Date.now() - phase.since) / 1000);
    const done = c ? c.actions.filter((a) => state.seen.includes(a.tool_call_id)).length : 0;
    const extra = [done ? `${done} action${done > 1 ? 's' : ''} done` : '', props.advance ? 'moving the clock' : props.manualClock ? 'waiting for the clock (vmv sim advance)' : ''].filter(Boolean);
    status.push({ text: clip(`${SPINNER[tick % SPINNER.length]} working · ${secs}s${extra.length ? ` · ${extra.join(' · ')}` : ''}`, width), color: 'yellow' });
    if (c?.reply) detail = wrap(c.reply, width - 2).slice(-2).map((l) => ({ text: `  ${l}`, dim: true }));
  } else if (phase.step === 'approving' && !allAnswered(phase)) {
    const p = phase.pending[phase.index];
    const of = phase.pending.length > 1 ? ` ${phase.index + 1} of ${phase.pending.length}` : '';
    status.push({ text: clip(`Approval${of}: ${p.tool}`, width), color: 'yellow', bold: true });
    reason = wrap(p.reason, width - 2).map((l) => ({ text: `  ${l}`, color: 'yellow' }));
    const input = inputText(p.input, width * 2);
    if (input) detail = wrap(input, width - 2).slice(0, 2).map((l) => ({ text: `  ${l}`, dim: true }));
    ask.push({ text: phase.reason ? 'Why not? (told to the assistant; Enter to skip)' : 'y approve · n decline', bold: true });
  } else if (phase.step === 'approving') {
    status.push({ text: 'sending your answers…', color: 'yellow' });
  }
  const notice: Line[] = state.notice
    ? wrap(state.notice.text, width).map((text) => ({ text, color: state.notice!.kind === 'error' ? 'red' : undefined, dim: state.notice!.kind === 'note' }))
    : [];
  const typing = !(phase.step === 'approving' && !phase.reason);
  const inputLine: Line[] = [];
  if (typing) {
    const prompt = phase.step === 'approving' ? 'reason › ' : '› ';
    const { shown, at } = visibleInput(state.input, state.cursor, width - columns(prompt) - 1);
    inputLine.push({ text: prompt + shown.join(''), cursor: { before: prompt, chars: shown, at }, bold: true });
  }
  const keys = phase.step === 'approving' && allAnswered(phase)
    ? 'Ctrl-C leave'
    : phase.step === 'approving' && phase.reason
      ? 'Enter answer (empty: no reason) · Ctrl-U clear · Ctrl-C leave'
      : phase.step === 'approving'
        ? 'y approve · n decline · Ctrl-C leave'
        : 'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C leave';
  const keysLine: Line = { text: clip(keys, width), dim: true };

  // rows: the header, the transcript, what is below it, and one spare at the bottom
  const room = rows - 2;
  let left = room - status.length - ask.length - inputLine.length - 1 /* keys */ - 1 /* a transcript line at least */;
  const give = (want: number) => {
    const n = Math.max(0, Math.min(want, left));
    left -= n;
    return n;
  };
  const reasonN = give(reason.length);
  const noticeN = give(Math.min(3, notice.length));
  give(2); // the transcript: three lines before anything else gets more room
  const detailN = give(detail.length);
  const below = [...status, ...upTo(reason, reasonN, width, 2), ...detail.slice(0, detailN), ...ask, ...upTo(notice, noticeN, width), ...inputLine, keysLine];

  const all = useMemo(() => state.entries.flatMap((e, i) => entryLines(e, width, i === 0)), [state.entries, width]);
  const height = Math.max(1, room - below.length);
  maxScroll.current = Math.max(0, all.length - height);
  page.current = Math.max(1, height - 2);
  const scroll = Math.min(state.scroll, maxScroll.current);
  const end = all.length - scroll;
  const view = all.slice(Math.max(0, end - height), end);
  if (end - height > 0) view[0] = { text: `↑ ${end - height + 1} earlier lines (PgUp)`, dim: true };
  if (scroll > 0) view[view.length - 1] = { text: `↓ ${scroll + 1} more lines (PgDn)`, dim: true };

  const screen = [header, ...view, ...Array<Line>(Math.max(0, height - view.length)).fill({ text: '' }), ...below];
  // without colour (NO_COLOR) the cursor is the terminal's own, not an inverse cell
  const at = screen.findIndex((l) => l.cursor);
  const cur = at >= 0 ? screen[at].cursor! : null;
  setCursorPosition(!props.color && cur ? { x: columns(cur.before + cur.chars.slice(0, cur.at).join('')), y: at } : undefined);
  return (
    <Box flexDirection="column">
      {screen.map((l, i) => <ScreenLine key={i} line={l} color={props.color} />)}
    </Box>
  );
}

/** A line of the screen: colour, bold and dim only with colour on (NO_COLOR: plain text), the cursor an inverse cell. */
function ScreenLine({ line, color }: { line: Line; color: boolean }) {
  const style = color ? { color: line.color, bold: line.bold, dimColor: line.dim } : {};
  if (!line.cursor || !color) return <Text wrap="truncate" {...style}>{line.text || ' '}</Text>;
  const { before, chars, at } = line.cursor;
  return (
    <Text wrap="truncate" {...style}>
      {before + chars.slice(0, at).join('')}
      <Text inverse>{chars[at] ?? ' '}</Text>
      {chars.slice(at + 1).join('')}
    </Text>
  );
}

/** Runs the chat on the terminal until it is left: how it ended. */
export async function runChat(o: Omit<ChatProps, 'size'> & { streams: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } }): Promise<ChatEnd> {
  const { streams, ...props } = o;
  const app = render(<Chat {...props} />, { stdin: streams.stdin, stdout: streams.stdout, stderr: streams.stderr, exitOnCtrlC: false, patchConsole: false });
  const end = (await app.waitUntilExit()) as ChatEnd | undefined;
  return end ?? { conversationId: null };
}
