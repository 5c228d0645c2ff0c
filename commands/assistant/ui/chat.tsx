// The terminal chat of `vmv assistant chat` (Ink and React: this module and what it imports are the
// only ones that load them, through the chat verb's dynamic import). This is the wiring: its parts
// are the state (ui/state.ts, a reducer), the run follower (ui/follower.ts: sends, follows runs,
// moves the clock), the key bindings (ui/keys.ts), the chat commands (ui/chat-commands.ts), the
// small hooks (ui/hooks.ts), and the layout (ui/layout.ts: the screen as lines, drawn here).
import { Box, render, Text, useApp, useCursor, useInput } from 'ink';
import { useMemo, useRef } from 'react';
import type { AssistantApi } from '../session.js';
import { messageOf } from '../slash.js';
import type { ConversationWithTranscript } from '../view.js';
import { runChatCommand } from './chat-commands.js';
import { useRunFollower } from './follower.js';
import { useChatState, useScreenSize, useTicker } from './hooks.js';
import { approvalKey, enterIntents, keyIntents, type Intent, type Scrolling } from './keys.js';
import { layout, transcriptLines, type Line } from './layout.js';
import type { ChatState } from './state.js';

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

/** What was under way when the chat was left with Ctrl-C, by the phase it was in (exit 130). */
const UNDER_WAY: Partial<Record<ChatState['phase']['step'], ChatEnd['interrupted']>> = {
  working: 'was working',
  approving: 'waited for your approval',
};

export function Chat(props: ChatProps) {
  const app = useApp();
  const { setCursorPosition } = useCursor();
  const { state, current, act } = useChatState();
  const { api, advance, pollMs, paceMs, policy, reason } = props;
  const follower = useRunFollower({ api, advance, pollMs, paceMs, policy, reason, act, state: current }, props.resumed);
  const size = useScreenSize(props.size);
  const tick = useTicker(state.phase.step === 'working');
  // what the screen last drew, for the keys that scroll it
  const scrolling = useRef<Scrolling>({ page: 10, maxScroll: 0 }).current;

  const exit = (end: ChatEnd) => {
    follower.close();
    props.onExit?.(end);
    app.exit(end);
  };
  const conversationId = () => current().conversation?.conversation_id ?? null;
  /** Ctrl-C: what was under way is said. */
  const leave = () => {
    const interrupted = UNDER_WAY[current().phase.step];
    exit({ conversationId: conversationId(), ...(interrupted ? { interrupted } : {}) });
  };
  const submit = (line: string) => {
    if (!line.trim()) return;
    void runChatCommand(line, { api, act, follower, quit: () => exit({ conversationId: conversationId() }) }).then(
      (handled) => {
        if (!handled) void follower.send(messageOf(line));
      },
    );
  };
  const perform = (i: Intent): void => {
    switch (i.type) {
      case 'leave':
        return leave();
      case 'end':
        return exit({ conversationId: conversationId() });
      case 'enter':
        return enterIntents(current()).forEach(perform);
      case 'approvalKey':
        return approvalKey(i.input, i.enter, current().phase).forEach(perform);
      case 'submit':
        return submit(i.line);
      case 'answer':
        return follower.answer(i.action);
      default:
        return act(i);
    }
  };
  useInput((input, key) => keyIntents(input, key, current(), scrolling).forEach(perform));

  const transcript = useMemo(() => transcriptLines(state.entries, size.columns), [state.entries, size.columns]);
  const screen = layout(state, { size, now: Date.now(), tick, manualClock: props.manualClock, advance }, transcript);
  Object.assign(scrolling, { page: screen.page, maxScroll: screen.maxScroll });
  // without colour (NO_COLOR) the cursor is the terminal's own, not an inverse cell
  setCursorPosition(!props.color ? screen.cursor : undefined);
  return (
    <Box flexDirection="column">
      {screen.lines.map((l, i) => (
        <ScreenLine key={i} line={l} color={props.color} />
      ))}
    </Box>
  );
}

/** A line of the screen: colour, bold and dim only with colour on (NO_COLOR: plain text), the cursor an inverse cell. */
function ScreenLine({ line, color }: { line: Line; color: boolean }) {
  const style = color ? { color: line.color, bold: line.bold, dimColor: line.dim } : {};
  if (!line.cursor || !color)
    return (
      <Text wrap="truncate" {...style}>
        {line.text || ' '}
      </Text>
    );
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
export async function runChat(
  o: Omit<ChatProps, 'size'> & {
    streams: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream };
  },
): Promise<ChatEnd> {
  const { streams, ...props } = o;
  const app = render(<Chat {...props} />, {
    stdin: streams.stdin,
    stdout: streams.stdout,
    stderr: streams.stderr,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const end = (await app.waitUntilExit()) as ChatEnd | undefined;
  return end ?? { conversationId: null };
}
