// What the chat's own commands (/new, /list, /open ID, /help, /quit; ../slash.ts declares them for
// both chats) do on the terminal, as a table by name: each adds to the transcript, opens a
// conversation through the run follower, or leaves.
import { humanTime } from '../../../src/output.js';
import type { AssistantApi } from '../session.js';
import { helpLines, listLine, parseSlash, resolveConversation, type Slash } from '../slash.js';
import { errorText, type RunFollower } from './follower.js';
import type { ChatAction } from './state.js';

/** What a chat command may use. */
export interface ChatCommandDeps {
  api: AssistantApi;
  act: (a: ChatAction) => void;
  follower: RunFollower;
  /** leaves the chat (exit 0) */
  quit: () => void;
}

const notes = (lines: string[]) => lines.map((text) => ({ kind: 'note' as const, text }));

const COMMANDS: Record<Slash['name'], (d: ChatCommandDeps, arg: string) => void | Promise<void>> = {
  quit: (d) => d.quit(),
  help: (d) => d.act({ type: 'entries', entries: notes(helpLines({ keys: true })), clearInput: true }),
  new: (d) => {
    d.follower.stop();
    d.act({ type: 'new' });
  },
  list: async (d) => {
    try {
      const recent = await d.api.list(10);
      const lines = recent.length ? recent.map((c) => listLine(c, humanTime)) : ['No conversations yet.'];
      d.act({
        type: 'entries',
        entries: notes(
          [...lines, recent.length ? 'Open one: /open ID (its first characters are enough)' : ''].filter(Boolean),
        ),
        clearInput: true,
      });
    } catch (e) {
      d.act({ type: 'notice', kind: 'error', text: errorText(e) });
    }
  },
  open: async (d, arg) => {
    try {
      await d.follower.open(await d.api.get(await resolveConversation(d.api, arg)));
    } catch (e) {
      d.act({ type: 'notice', kind: 'error', text: errorText(e) });
    }
  },
};

/** Carries out a line that is a chat command (a mistyped one is said in the notice): false when the line is a message. */
export async function runChatCommand(line: string, d: ChatCommandDeps): Promise<boolean> {
  const parsed = parseSlash(line);
  if (!parsed) return false;
  if ('error' in parsed) d.act({ type: 'notice', kind: 'error', text: parsed.error });
  else await COMMANDS[parsed.slash.name](d, parsed.arg);
  return true;
}
