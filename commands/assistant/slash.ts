// The chat's own commands (a line starting with /), as data: the terminal UI and the line mode read
// them alike, and /help lists them from here.
import type { AssistantApi } from './session.js';
import type { Conversation } from './view.js';

export interface Slash {
  name: 'new' | 'list' | 'open' | 'help' | 'quit';
  args?: string;
  help: string;
}

export const SLASH: readonly Slash[] = [
  { name: 'new', help: 'start a new conversation (one that is working goes on)' },
  { name: 'list', help: 'your recent conversations, newest first' },
  { name: 'open', args: 'ID', help: 'continue a conversation: its id, or the first characters of one /list shows' },
  { name: 'help', help: 'these commands and the keys' },
  { name: 'quit', help: 'leave the chat (exit 0; Ctrl-D on an empty line too)' },
];

/** The keys of the terminal chat, for /help. */
export const KEYS: readonly [string, string][] = [
  ['Enter', 'send the line (a paste of several lines is one message)'],
  ['↑ ↓', 'earlier lines you sent (history)'],
  ['PgUp PgDn', 'scroll the transcript'],
  ['y / n', 'approve / decline the action shown (n then asks for an optional reason; Enter skips it)'],
  ['Ctrl-D', 'on an empty line: leave (exit 0); how to resume the conversation is printed'],
  [
    'Ctrl-C',
    'leave: exit 0, or 130 while the assistant works or waits for approvals (it goes on; its id is printed; resume with --conversation)',
  ],
];

export const helpLines = (o: { keys: boolean }): string[] => [
  ...SLASH.map((s) => `/${s.name}${s.args ? ` ${s.args}` : ''} — ${s.help}`),
  ...(o.keys ? KEYS.map(([k, what]) => `${k} — ${what}`) : []),
  'Anything else is a message to the assistant: "text +14155550100 and ask whether Tuesday works", "how many calls did we get yesterday?"',
];

/** A line's chat command: null when the line is a message (`//text` sends "/text"). */
export function parseSlash(line: string): { slash: Slash; arg: string } | { error: string } | null {
  const t = line.trim();
  if (!t.startsWith('/') || t.startsWith('//')) return null;
  const [word, ...rest] = t.slice(1).split(/\s+/);
  const slash = SLASH.find((s) => s.name === word.toLowerCase());
  if (!slash)
    return { error: `Unknown command /${word}. /help lists them (to send a message starting with /, type //).` };
  const arg = rest.join(' ');
  if (slash.args && !arg) return { error: `/${slash.name} takes ${slash.args}: /${slash.name} ${slash.args}` };
  if (!slash.args && arg) return { error: `/${slash.name} takes nothing after it.` };
  return { slash, arg };
}

/** The message a line sends: `//text` is "/text". */
export const messageOf = (line: string) => (line.trim().startsWith('//') ? line.trim().slice(1) : line.trim());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /open's argument: a whole id, or the start of one among the recent conversations (exactly one). */
export async function resolveConversation(api: AssistantApi, arg: string): Promise<string> {
  if (UUID.test(arg)) return arg.toLowerCase();
  const recent: Conversation[] = await api.list(100);
  const hits = recent.filter((c) => c.conversation_id.startsWith(arg.toLowerCase()));
  if (hits.length === 1) return hits[0].conversation_id;
  throw new Error(
    hits.length === 0
      ? `No recent conversation starts with "${arg}" (/list shows them).`
      : `"${arg}" starts ${hits.length} conversations: type more of the id.`,
  );
}

/** A conversation as one line of /list: short id, status, when, title. */
export const listLine = (c: Conversation, when: (t: string) => string) =>
  `${c.conversation_id.slice(0, 8)}  ${c.status.padEnd(17)}  ${when(c.updated_at)}  ${c.title}`;
