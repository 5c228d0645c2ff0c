// The terminal chat of `vmv assistant chat` (Ink and React: this module and what it imports are the
// only ones that load them, through the chat verb's dynamic import). The screen, top to bottom: a
// header, the transcript (PgUp/PgDn scroll it), what is going on (a spinner while a run works, or the
// approval being answered), a notice line, the input line, and the keys. Its state is ui/state.ts.
import { Box, render, Text, useApp, useInput, useStdout } from 'ink';
import { useEffect, useReducer, useRef, useState } from 'react';
import { ApiCallError } from '../../../src/errors.js';
import { localTime } from '../../../src/output.js';
import { followRun, type AssistantApi } from '../session.js';
import { helpLines, listLine, messageOf, parseSlash, resolveConversation } from '../slash.js';
import { inputText, type ApprovalAnswer, type Conversation, type ConversationWithTranscript } from '../view.js';
import { allAnswered, answerText, initialState, reduce, WELCOME, wrap, type ChatAction, type ChatState, type Entry } from './state.js';

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

/** One line of the screen, already cut to the width. */
interface Line { text: string; color?: string; bold?: boolean; dim?: boolean; cursorAt?: number }

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** An error as one line: the API's message and code (a 409 conflict reads as such), or the error's own message. */
function errorText(e: unknown): string {
  if (e instanceof ApiCallError) return `${e.code} (HTTP ${e.status}): ${e.envelope.error.message}`;
  return (e as Error)?.message ?? String(e);
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
  const [state, dispatch] = useReducer(reduce, WELCOME, initialState);
  const stateRef = useRef<ChatState>(state);
  stateRef.current = state;
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
        onRead: (read) => mine === generation.current && dispatch({ type: 'read', conversation: read }),
      });
      if (mine !== generation.current) return;
      dispatch({ type: 'settled', conversation: last });
      if (last.status === 'awaiting_approval' && props.policy) await answerByPolicy(last);
    } catch (e) {
      const id = c.conversation_id.slice(0, 8);
      if (mine === generation.current) dispatch({ type: 'lost', text: `${errorText(e)} — the run may go on; /open ${id} reads it again.` });
    }
  }

  async function answerByPolicy(c: Conversation): Promise<void> {
    const approve = props.policy === 'approve';
    const flag = approve ? '--approve-all' : '--decline-all';
    dispatch({ type: 'entries', entries: c.pending_approvals.map((p) => ({ kind: 'note', text: `${approve ? 'approved' : 'declined'} (${flag}): ${answerText(p)}` })) });
    await sendAnswers(c.conversation_id, c.pending_approvals.map((p) => ({ approval_id: p.approval_id, approved: approve, ...(!approve && props.reason ? { reason: props.reason } : {}) })));
  }

  async function sendAnswers(id: string, answers: ApprovalAnswer[]): Promise<void> {
    try {
      const c = await api.post({ conversation_id: id, approvals: answers, wait_seconds: 0 });
      dispatch({ type: 'answered', conversation: c, now: Date.now() });
      if (c.status === 'working') await follow(c);
      else if (c.status === 'awaiting_approval' && props.policy) await answerByPolicy(c);
    } catch (e) {
      // not taken: the approvals are asked again (or the service says why they cannot be answered)
      dispatch({ type: 'refused', text: errorText(e) });
    }
  }

  async function send(text: string): Promise<void> {
    if (posting.current) return;
    posting.current = true;
    try {
      const c = await api.post({ message: text, conversation_id: stateRef.current.conversation?.conversation_id, wait_seconds: 0 });
      dispatch({ type: 'sent', text, conversation: c, now: Date.now() });
      posting.current = false;
      if (c.status === 'working') await follow(c);
      else if (c.status === 'awaiting_approval' && props.policy) await answerByPolicy(c);
    } catch (e) {
      // the line stays in the input, to send again once the conversation takes it
      dispatch({ type: 'notice', kind: 'error', text: errorText(e) });
    } finally {
      posting.current = false;
    }
  }

  async function open(c: ConversationWithTranscript): Promise<void> {
    generation.current++;
    dispatch({ type: 'opened', conversation: c, now: Date.now() });
    if (c.status === 'working') await follow(c);
    else if (c.status === 'awaiting_approval' && props.policy) await answerByPolicy(c);
  }

  async function slash(line: string): Promise<boolean> {
    const parsed = parseSlash(line);
    if (!parsed) return false;
    if ('error' in parsed) {
      dispatch({ type: 'notice', kind: 'error', text: parsed.error });
      return true;
    }
    const { slash: cmd, arg } = parsed;
    switch (cmd.name) {
      case 'quit':
        exit({ conversationId: stateRef.current.conversation?.conversation_id ?? null });
        break;
      case 'help':
        dispatch({ type: 'entries', entries: helpLines({ keys: true }).map((text) => ({ kind: 'note', text })), clearInput: true });
        break;
      case 'new':
        generation.current++;
        dispatch({ type: 'new' });
        break;
      case 'list':
        try {
          const recent = await api.list(10);
          const lines = recent.length ? recent.map((c) => listLine(c, localTime)) : ['No conversations yet.'];
          dispatch({ type: 'entries', entries: [...lines, recent.length ? 'Open one: /open ID (its first characters are enough)' : ''].filter(Boolean).map((text) => ({ kind: 'note', text })), clearInput: true });
        } catch (e) {
          dispatch({ type: 'notice', kind: 'error', text: errorText(e) });
        }
        break;
      case 'open':
        try {
          await open(await api.get(await resolveConversation(api, arg)));
        } catch (e) {
          dispatch({ type: 'notice', kind: 'error', text: errorText(e) });
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

  function leave(): void {
    const s = stateRef.current;
    const conversationId = s.conversation?.conversation_id ?? null;
    const interrupted = s.phase.step === 'working' ? 'was working' : s.phase.step === 'approving' ? 'waited for your approval' : undefined;
    exit({ conversationId, ...(interrupted ? { interrupted } : {}) });
  }

  useInput((input, key) => {
    const s = stateRef.current;
    if (key.ctrl && input === 'c') return leave();
    if (key.ctrl && input === 'd') {
      if (!s.input) exit({ conversationId: s.conversation?.conversation_id ?? null });
      return;
    }
    if (key.pageUp || key.pageDown) return dispatch({ type: 'scroll', by: key.pageUp ? page.current : -page.current, max: maxScroll.current });
    const phase = s.phase;
    if (phase.step === 'approving' && !phase.reason) {
      if (input === 'y' || input === 'Y') {
        dispatch({ type: 'approve' });
        const answers = [...phase.answers, { approval_id: phase.pending[phase.index].approval_id, approved: true }];
        if (answers.length === phase.pending.length) void sendAnswers(s.conversation!.conversation_id, answers);
      } else if (input === 'n' || input === 'N') dispatch({ type: 'decline' });
      else if (input || key.return) dispatch({ type: 'notice', kind: 'note', text: 'y approves this action, n declines it (then an optional reason).' });
      return;
    }
    if (key.return) {
      if (phase.step === 'approving' && phase.reason) {
        const reason = s.input.trim();
        dispatch({ type: 'reason' });
        const p = phase.pending[phase.index];
        const answers = [...phase.answers, { approval_id: p.approval_id, approved: false, ...(reason ? { reason } : {}) }];
        if (answers.length === phase.pending.length) void sendAnswers(s.conversation!.conversation_id, answers);
        return;
      }
      return submit(s.input);
    }
    if (key.backspace || key.delete) return dispatch({ type: 'backspace' });
    if (key.leftArrow) return dispatch({ type: 'move', to: 'left' });
    if (key.rightArrow) return dispatch({ type: 'move', to: 'right' });
    if (key.home || (key.ctrl && input === 'a')) return dispatch({ type: 'move', to: 'home' });
    if (key.end || (key.ctrl && input === 'e')) return dispatch({ type: 'move', to: 'end' });
    if (key.ctrl && input === 'u') return dispatch({ type: 'clearLine' });
    if (phase.step !== 'approving' && (key.upArrow || key.downArrow)) return dispatch({ type: 'history', dir: key.upArrow ? 'older' : 'newer' });
    if (key.ctrl || key.meta || key.tab || key.escape || key.upArrow || key.downArrow) return;
    // typed or pasted text, which may hold editing keys of its own (several keys sent at once, by
    // tmux or a paste): Enter sends (a reason answers), Ctrl-U clears, Backspace deletes
    let line = s;
    for (const part of input.split(/([\r\n\u0015\u007f\b])/)) {
      if (part === '\r' || part === '\n') {
        if (phase.step !== 'approving') submit(line.input);
        return;
      }
      const edit: ChatAction | null = part === '\u0015' ? { type: 'clearLine' } : part === '\u007f' || part === '\b' ? { type: 'backspace' } : part ? { type: 'insert', text: part } : null;
      if (!edit) continue;
      line = reduce(line, edit);
      dispatch(edit);
    }
  });

  // ---- the screen, as lines ----
  const { columns, rows } = size;
  const width = Math.max(20, columns);
  const c = state.conversation;
  const clockNote = props.manualClock ? (props.advance ? 'manual clock: moved while the assistant works' : 'manual clock: not moved (--no-auto-advance)') : '';
  const title = c ? `${c.title} · ${c.conversation_id.slice(0, 8)}` : 'new conversation';
  const header: Line = { text: clip(`vmv assistant · ${title}${clockNote ? ` · ${clockNote}` : ''}`, width), bold: true };

  const below: Line[] = [];
  const phase = state.phase;
  if (phase.step === 'working') {
    const secs = Math.floor((Date.now() - phase.since) / 1000);
    const done = c ? c.actions.filter((a) => state.seen.includes(a.tool_call_id)).length : 0;
    const extra = [done ? `${done} action${done > 1 ? 's' : ''} done` : '', props.advance ? 'moving the clock' : props.manualClock ? 'waiting for the clock (vmv sim advance)' : ''].filter(Boolean);
    below.push({ text: clip(`${SPINNER[tick % SPINNER.length]} working · ${secs}s${extra.length ? ` · ${extra.join(' · ')}` : ''}`, width), color: 'yellow' });
    if (c?.reply) for (const l of wrap(c.reply, width - 2).slice(-2)) below.push({ text: `  ${l}`, dim: true });
  } else if (phase.step === 'approving' && !allAnswered(phase)) {
    const p = phase.pending[phase.index];
    const of = phase.pending.length > 1 ? ` ${phase.index + 1} of ${phase.pending.length}` : '';
    below.push({ text: clip(`Approval${of}: ${p.tool}`, width), color: 'yellow', bold: true });
    for (const l of wrap(p.reason, width - 2)) below.push({ text: `  ${l}`, color: 'yellow' });
    const input = inputText(p.input, width * 2);
    if (input) for (const l of wrap(input, width - 2).slice(0, 2)) below.push({ text: `  ${l}`, dim: true });
    below.push({ text: phase.reason ? 'Why not? (told to the assistant; Enter to skip)' : 'y approve · n decline', bold: true });
  } else if (phase.step === 'approving') {
    below.push({ text: 'sending your answers…', color: 'yellow' });
  }
  if (state.notice) {
    const lines = wrap(state.notice.text, width);
    for (const [i, l] of lines.slice(0, 3).entries()) below.push({ text: i === 2 && lines.length > 3 ? clip(`${l} …`, width) : l, color: state.notice.kind === 'error' ? 'red' : undefined, dim: state.notice.kind === 'note' });
  }
  const typing = !(phase.step === 'approving' && !phase.reason);
  if (typing) {
    const prompt = phase.step === 'approving' ? 'reason › ' : '› ';
    const [shown, at] = visibleInput(state.input, state.cursor, width - prompt.length - 1);
    below.push({ text: prompt + shown, cursorAt: prompt.length + at, bold: true });
  }
  const keys = phase.step === 'approving' && !phase.reason
    ? 'y approve · n decline · Ctrl-C leave'
    : 'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C leave';
  below.push({ text: clip(keys, width), dim: true });

  const all = state.entries.flatMap((e, i) => entryLines(e, width, i === 0));
  const height = Math.max(3, rows - 1 - below.length - 1);
  maxScroll.current = Math.max(0, all.length - height);
  page.current = Math.max(1, height - 2);
  const scroll = Math.min(state.scroll, maxScroll.current);
  const end = all.length - scroll;
  const view = all.slice(Math.max(0, end - height), end);
  if (end - height > 0) view[0] = { text: `↑ ${end - height + 1} earlier lines (PgUp)`, dim: true };
  if (scroll > 0) view[view.length - 1] = { text: `↓ ${scroll + 1} more lines (PgDn)`, dim: true };

  const screen = [header, ...view, ...Array<Line>(Math.max(0, height - view.length)).fill({ text: '' }), ...below];
  return (
    <Box flexDirection="column">
      {screen.map((l, i) => <ScreenLine key={i} line={l} color={props.color} />)}
    </Box>
  );
}

function ScreenLine({ line, color }: { line: Line; color: boolean }) {
  const style = { color: color ? line.color : undefined, bold: line.bold, dimColor: line.dim };
  if (line.cursorAt === undefined) return <Text wrap="truncate" {...style}>{line.text || ' '}</Text>;
  const c = [...line.text];
  return (
    <Text wrap="truncate" {...style}>
      {c.slice(0, line.cursorAt).join('')}
      <Text inverse>{c[line.cursorAt] ?? ' '}</Text>
      {c.slice(line.cursorAt + 1).join('')}
    </Text>
  );
}

const clip = (s: string, width: number) => ([...s].length <= width ? s : [...s].slice(0, width - 1).join('') + '…');

/** The part of the input line that fits, keeping the cursor in view: the text and the cursor's place in it. */
function visibleInput(input: string, cursor: number, width: number): [string, number] {
  const c = [...input];
  const w = Math.max(5, width);
  const start = Math.max(0, cursor - w + 1);
  return [c.slice(start, start + w).join(''), cursor - start];
}

/** Runs the chat on the terminal until it is left: how it ended. */
export async function runChat(o: Omit<ChatProps, 'size'> & { streams: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } }): Promise<ChatEnd> {
  const { streams, ...props } = o;
  const app = render(<Chat {...props} />, { stdin: streams.stdin, stdout: streams.stdout, stderr: streams.stderr, exitOnCtrlC: false, patchConsole: false });
  const end = (await app.waitUntilExit()) as ChatEnd | undefined;
  return end ?? { conversationId: null };
}
