// The chat without a terminal (stdin or stdout is not one, or --json): each input line is one
// message, each reply is printed as plain text on stdout (with --json, the conversation as one line
// of JSON); actions, approvals answered and notes go to stderr. Lines starting with / are the chat's
// commands (slash.ts).
import type { Context } from '../../src/context.js';
import { ApiCallError, CliError } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { col, dim, idCol, red, table, textCol, yellow } from '../../src/output.js';
import { visible } from '../../src/visible.js';
import { failedRun, say, settle, type Policy } from './follow.js';
import { conversationPath, type AssistantApi } from './session.js';
import { startedBy, type Started } from './outcome.js';
import { helpLines, messageOf, parseSlash, resolveConversation, type Slash } from './slash.js';
import type { Conversation, ConversationWithTranscript } from './view.js';

export interface LineOptions {
  resumed: ConversationWithTranscript | null;
  /** the clock is manual and the chat moves it while a run works */
  advance: boolean;
  manualClock: boolean;
  policy?: Policy;
  reason?: string;
}

/** What the line chat keeps between lines: the conversation (null: the next message starts one) and its actions already printed. */
interface LineChat {
  ctx: Context;
  api: AssistantApi;
  o: LineOptions;
  id: string | null;
  seen: Set<string>;
  /** what runs started that goes on: its end is said (stderr) once it has ended, after a reply */
  watching: Map<string, Started>;
}

export async function runLines(ctx: Context, api: AssistantApi, o: LineOptions): Promise<void> {
  const chat: LineChat = { ctx, api, o, id: null, seen: new Set(), watching: new Map() };
  const err = forStderr(ctx.io);
  if (o.manualClock)
    say(
      ctx,
      yellow(
        err,
        o.advance
          ? 'note: the simulator clock is manual: the chat advances it while the assistant works (--no-auto-advance leaves it alone).'
          : 'note: the simulator clock is manual and --no-auto-advance leaves it alone: a run moves on when it is advanced (vmv sim advance 1m from another shell).',
      ),
    );
  if (o.resumed) await open(chat, o.resumed);
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: ctx.io.stdin, terminal: false });
  // however the chat ends (/quit, an error, Ctrl-C), standard input is let go: a terminal or a pipe
  // left open must not keep the process alive once the chat is over
  try {
    for await (const line of lines) {
      if (!line.trim()) continue;
      const slash = parseSlash(line);
      if (slash && 'error' in slash) refuse(ctx, new Error(slash.error));
      else if (slash && (await LINE_COMMANDS[slash.slash.name](chat, slash.arg)) === 'quit') return;
      else if (!slash) await message(chat, line);
    }
  } finally {
    lines.close();
  }
}

/** A message: sent, and its run followed to its end (a new conversation is named as it starts). */
async function message(chat: LineChat, line: string): Promise<void> {
  const c = await chat.api.post({ message: messageOf(line), conversation_id: chat.id ?? undefined, wait_seconds: 0 });
  if (c.conversation_id !== chat.id) {
    chat.id = c.conversation_id;
    chat.seen = new Set();
    say(chat.ctx, dim(forStderr(chat.ctx.io), `conversation ${chat.id}`));
  }
  await conclude(chat, c);
}

/** Follows a run to its end and prints it: the reply (or with --json the conversation); a failed run ends the chat. */
async function conclude(chat: LineChat, c: Conversation): Promise<void> {
  const { ctx, api, o } = chat;
  const last = await settle(
    ctx,
    api,
    c,
    {
      waitSeconds: null,
      advance: o.advance,
      untilActionsEnd: true,
      policy: o.policy,
      reason: o.reason,
      ask: false,
      answerHint: (cid) =>
        `Answer: vmv assistant approve ${cid} [--decline APPROVAL_ID ...], or run the chat with --approve-all or --decline-all.`,
    },
    chat.seen,
  );
  if (ctx.json)
    ctx.io.out(JSON.stringify((await ctx.call('GET', conversationPath(last.conversation_id))).json()) + '\n');
  else if (last.status === 'idle') ctx.io.out(visible(last.reply.endsWith('\n') ? last.reply : `${last.reply}\n`));
  // said apart, so that a reader of the chat (or a script reading stderr) tells it from an answer
  const missed = last.status === 'idle' ? (last.not_understood ?? []) : [];
  if (missed.length > 0)
    say(ctx, yellow(forStderr(ctx.io), `not understood: ${missed.map((m) => `"${visible(m)}"`).join(', ')}`));
  if (last.status === 'failed') throw failedRun(last);
  if (last.status === 'idle') for (const x of startedBy(last)) chat.watching.set(x.id, x);
  await sayEnded(chat);
}

/** Says (on stderr) the end of each thing a run started that has ended since: answered? goal achieved? the cost. */
async function sayEnded(chat: LineChat): Promise<void> {
  if (!chat.api.ended) return;
  for (const x of [...chat.watching.values()]) {
    const said = await chat.api.ended(x).catch(() => undefined);
    if (said === null) continue;
    chat.watching.delete(x.id);
    if (said) say(chat.ctx, said);
  }
}

async function open(chat: LineChat, c: ConversationWithTranscript): Promise<void> {
  chat.id = c.conversation_id;
  chat.seen = new Set(
    c.status === 'working' || c.status === 'awaiting_approval' ? [] : c.actions.map((a) => a.tool_call_id),
  );
  say(
    chat.ctx,
    dim(forStderr(chat.ctx.io), `conversation ${chat.id}: ${visible(c.title)} (${c.status.replace('_', ' ')})`),
  );
  if (c.status === 'working' || c.status === 'awaiting_approval') await conclude(chat, c);
}

/** A chat command that could not be done: said on stderr (with --json, as an error's JSON document), and the chat goes on. */
function refuse(ctx: Context, e: unknown): void {
  if (ctx.json)
    ctx.io.err(
      JSON.stringify(
        e instanceof ApiCallError ? e.envelope : { error: { code: 'usage_error', message: (e as Error).message } },
      ) + '\n',
    );
  else
    ctx.io.err(
      red(
        forStderr(ctx.io),
        visible(e instanceof ApiCallError ? `${e.message} (${e.code}, HTTP ${e.status})` : (e as Error).message),
      ) + '\n',
    );
}

/** What each chat command does in the line chat; /quit ends it. */
const LINE_COMMANDS: Record<Slash['name'], (chat: LineChat, arg: string) => Promise<'quit' | void>> = {
  quit: async () => 'quit',
  help: async ({ ctx }) => {
    // with --json, one document like every other output: the lines under "help"
    if (ctx.json) ctx.io.out(JSON.stringify({ help: helpLines({ keys: false }) }) + '\n');
    else for (const l of helpLines({ keys: false })) ctx.io.err(l + '\n');
  },
  new: async (chat) => {
    chat.id = null;
    chat.seen = new Set();
    say(chat.ctx, dim(forStderr(chat.ctx.io), 'new conversation: the next message starts it'));
  },
  list: async ({ ctx }) => {
    const res = await ctx.call('GET', '/v1/assistant/conversations', { query: { limit: 20 } });
    if (ctx.json) ctx.io.out(JSON.stringify(res.json()) + '\n');
    else
      table(
        ctx.io,
        [idCol(), col('status', 6), col('updated', 5), textCol('title', 4)],
        res.json<{ data: Conversation[] }>().data.map((c) => [c.conversation_id, c.status, c.updated_at, c.title]),
      );
  },
  open: async (chat, arg) => {
    let c: ConversationWithTranscript;
    try {
      c = await chat.api.get(await resolveConversation(chat.api, arg));
    } catch (e) {
      // a mistyped id is said, as an unknown command is; the service gone is the chat's end
      if (e instanceof ApiCallError && e.status === 404) refuse(chat.ctx, e);
      else if (e instanceof ApiCallError || e instanceof CliError) throw e;
      else refuse(chat.ctx, e);
      return;
    }
    await open(chat, c);
  },
};
