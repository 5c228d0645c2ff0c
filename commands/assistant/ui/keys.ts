// The chat's key bindings, all in one place: what a key (or a piece of typed or pasted text) does,
// as a list of intents ui/chat.tsx carries out in order. Pure (no React, no Ink at run time), so the
// bindings read as tables and functions of the key and the state. An intent is a change of the state
// (one of the reducer's actions) or one of the few things only the chat can do: leave, send, answer.
import type { Key } from 'ink';
import { allAnswered, type ChatAction, type ChatState, type Phase } from './state.js';

export type Intent =
  | ChatAction
  /** Ctrl-C: leave, saying what was under way (exit 130 while a run works or approvals wait) */
  | { type: 'leave' }
  /** Ctrl-D on an empty line: leave (exit 0) */
  | { type: 'end' }
  /** Enter: what it does is read against the state when its turn comes (enterIntents), after the text before it */
  | { type: 'enter' }
  /** the input line: a chat command (/help) or a message */
  | { type: 'submit'; line: string }
  /** an approval's answer; once every one has its answer, they are sent together */
  | { type: 'answer'; action: Extract<ChatAction, { type: 'approve' | 'reason' }> }
  /** a key while an approval is asked: what it does is read against the state when its turn comes (approvalKey) */
  | { type: 'approvalKey'; input: string; enter: boolean };

/** What the screen last drew, for the keys that scroll it. */
export interface Scrolling {
  page: number;
  maxScroll: number;
}

/** Keys that edit the input line, while it takes text: the first that matches. */
const EDITING: [(input: string, key: Key) => boolean, ChatAction][] = [
  [(_, k) => k.backspace || k.delete, { type: 'backspace' }],
  [(_, k) => k.leftArrow, { type: 'move', to: 'left' }],
  [(_, k) => k.rightArrow, { type: 'move', to: 'right' }],
  [(i, k) => k.home || (k.ctrl && i === 'a'), { type: 'move', to: 'home' }],
  [(i, k) => k.end || (k.ctrl && i === 'e'), { type: 'move', to: 'end' }],
  [(i, k) => k.ctrl && i === 'u', { type: 'clearLine' }],
];

/** What a key does, read against the state as it was when the key came. */
export function keyIntents(input: string, key: Key, s: ChatState, scrolling: Scrolling): Intent[] {
  if (key.ctrl && input === 'c') return [{ type: 'leave' }];
  if (key.ctrl && input === 'd') return s.input ? [] : [{ type: 'end' }];
  if (key.pageUp || key.pageDown)
    return [{ type: 'scroll', by: key.pageUp ? scrolling.page : -scrolling.page, max: scrolling.maxScroll }];
  if (s.phase.step === 'approving' && !s.phase.reason) {
    // presses typed faster than the terminal is read arrive as one piece ("yy"): each is a press
    if (/^[yn]{2,}$/i.test(input)) return [...input].map((ch) => ({ type: 'approvalKey', input: ch, enter: false }));
    return [{ type: 'approvalKey', input, enter: key.return }];
  }
  if (key.return) return [{ type: 'enter' }];
  const edit = EDITING.find(([matches]) => matches(input, key));
  if (edit) return [edit[1]];
  if (s.phase.step !== 'approving' && (key.upArrow || key.downArrow))
    return [{ type: 'history', dir: key.upArrow ? 'older' : 'newer' }];
  if (key.ctrl || key.meta || key.tab || key.escape || key.upArrow || key.downArrow) return [];
  return typed(input);
}

/**
 * Typed or pasted text, several keys at once (a paste, tmux): line breaks inside it are the
 * message's own (a paste of several lines is one message); one at its end is Enter, which sends (or
 * answers a reason); Ctrl-U clears and Backspace deletes as they come.
 */
function typed(input: string): Intent[] {
  const intents: Intent[] = [];
  for (const part of input.replace(/[\r\n]+$/, '').split(/([\u0015\u007f\b])/)) {
    if (part === '\u0015') intents.push({ type: 'clearLine' });
    else if (part === '\u007f' || part === '\b') intents.push({ type: 'backspace' });
    else if (part) intents.push({ type: 'insert', text: part });
  }
  if (/[\r\n]$/.test(input)) intents.push({ type: 'enter' });
  return intents;
}

/** Enter: sends the input line, or answers the reason being typed. */
export function enterIntents(s: ChatState): Intent[] {
  if (s.phase.step === 'approving') return s.phase.reason ? [{ type: 'answer', action: { type: 'reason' } }] : [];
  return [{ type: 'submit', line: s.input }];
}

/** A key while an approval is asked (not its reason): y, n, or a reminder of what they do. */
export function approvalKey(input: string, enter: boolean, phase: Phase): Intent[] {
  // an n just asked for a reason: what follows it in the same piece is the reason's text
  if (phase.step !== 'approving' || phase.reason) return [{ type: 'insert', text: input }];
  // every approval has its answer and they are on their way: nothing more to answer
  if (allAnswered(phase)) return [];
  if (input === 'y' || input === 'Y') return [{ type: 'answer', action: { type: 'approve' } }];
  if (input === 'n' || input === 'N') return [{ type: 'decline' }];
  if (input || enter)
    return [{ type: 'notice', kind: 'note', text: 'y approves this action, n declines it (then an optional reason).' }];
  return [];
}
