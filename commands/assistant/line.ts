// The chat without a terminal (stdin or stdout is not one, or --json): each input line is one
// message, each reply is printed as plain text on stdout (with --json, the conversation as one line
// of JSON); actions, approvals answered and notes go to stderr. Lines starting with / are the chat's
// commands (slash.ts).
import type { Context } from '../../src/context.js';
import { ApiCallError, CliError } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { dim, red, table, yellow } from '../../src/output.js';
import { failedRun, say, settle, type Policy } from './follow.js';
import { conversationPath, type AssistantApi } from './session.js';
import { helpLines, messageOf, parseSlash, resolveConversation } from './slash.js';
import type { Conversation, ConversationWithTranscript } from './view.js';

export interface LineOptions {
  resumed: ConversationWithTranscript | null;
  /** the clock is manual and the chat moves it while a run works */
  advance: boolean;
  manualClock: boolean;
  policy?: Policy;
  reason?: string;
}

export async function runLines(ctx: Context, api: AssistantApi, o: LineOptions): Promise<void> {
  const err = forStderr(ctx.io);
  let id: string | null = null;
  let seen = new Set<string>();
  if (o.manualClock)
    say(ctx, yellow(err, o.advance
      ? 'note: the simulator clock is manual: the chat advances it while the assistant works (--no-auto-advance leaves it alone).'
      : 'note: the simulator clock is manual and --no-auto-advance leaves it alone: a run moves on when it is advanced (vmv sim advance 1m from another shell).'));

  /** Follows a run to its end and prints it: the reply (or with --json the conversation); a failed run ends the chat. */
  const conclude = async (c: Conversation): Promise<void> => {
    const last = await settle(ctx, api, c, {
      waitSeconds: null, advance: o.advance, policy: o.policy, reason: o.reason, ask: false,
      answerHint: (cid) => `Answer: vmv assistant approve ${cid} [--decline APPROVAL_ID ...], or run the chat with --approve-all or --decline-all.`,
    }, seen);
    if (ctx.json) ctx.io.out(JSON.stringify((await ctx.call('GET', conversationPath(last.conversation_id))).json()) + '\n');
    else if (last.status === 'idle') ctx.io.out(last.reply.endsWith('\n') ? last.reply : `${last.reply}\n`);
    if (last.status === 'failed') throw failedRun(last);
  };
  const open = async (c: ConversationWithTranscript) => {
    id = c.conversation_id;
    seen = new Set(c.status === 'working' || c.status === 'awaiting_approval' ? [] : c.actions.map((a) => a.tool_call_id));
    say(ctx, dim(err, `conversation ${id}: ${c.title} (${c.status.replace('_', ' ')})`));
    if (c.status === 'working' || c.status === 'awaiting_approval') await conclude(c);
  };

  /** A chat command that could not be done: said on stderr (with --json, as an error's JSON document), and the chat goes on. */
  const refuse = (e: unknown) => {
    if (ctx.json) ctx.io.err(JSON.stringify(e instanceof ApiCallError ? e.envelope : { error: { code: 'usage_error', message: (e as Error).message } }) + '\n');
    else ctx.io.err(red(err, e instanceof ApiCallError ? `${e.message} (${e.code}, HTTP ${e.status})` : (e as Error).message) + '\n');
  };

  if (o.resumed) await open(o.resumed);
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: ctx.io.stdin, terminal: false });
  // however the chat ends (/quit, an error, Ctrl-C), standard input is let go: a terminal or a pipe
  // left open must not keep the process alive once the chat is over
  try {
    for await (const line of lines) {
      if (!line.trim()) continue;
      const slash = parseSlash(line);
      if (slash && 'error' in slash) {
        refuse(new Error(slash.error));
        continue;
      }
      if (slash) {
        switch (slash.slash.name) {
          case 'quit':
            return;
          case 'help':
            // with --json, one document like every other output: the lines under "help"
            if (ctx.json) ctx.io.out(JSON.stringify({ help: helpLines({ keys: false }) }) + '\n');
            else for (const l of helpLines({ keys: false })) ctx.io.err(l + '\n');
            break;
          case 'new':
            id = null;
            seen = new Set();
            say(ctx, dim(err, 'new conversation: the next message starts it'));
            break;
          case 'list': {
            const res = await ctx.call('GET', '/v1/assistant/conversations', { query: { limit: 20 } });
            if (ctx.json) ctx.io.out(JSON.stringify(res.json()) + '\n');
            else table(ctx.io, ['id', 'status', 'updated', 'title'], res.json<{ data: Conversation[] }>().data.map((c) => [c.conversation_id, c.status, c.updated_at, c.title]));
            break;
          }
          case 'open': {
            let c: ConversationWithTranscript;
            try {
              c = await api.get(await resolveConversation(api, slash.arg));
            } catch (e) {
              // a mistyped id is said, as an unknown command is; the service gone is the chat's end
              if (e instanceof ApiCallError && e.status === 404) refuse(e);
              else if (e instanceof ApiCallError || e instanceof CliError) throw e;
              else refuse(e);
              break;
            }
            await open(c);
            break;
          }
        }
        continue;
      }
      const c = await api.post({ message: messageOf(line), conversation_id: id ?? undefined, wait_seconds: 0 });
      if (c.conversation_id !== id) {
        id = c.conversation_id;
        seen = new Set();
        say(ctx, dim(err, `conversation ${id}`));
      }
      await conclude(c);
    }
  } finally {
    lines.close();
  }
}
