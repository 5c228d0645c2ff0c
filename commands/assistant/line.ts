// The chat without a terminal (stdin or stdout is not one, or --json): each input line is one
// message, each reply is printed as plain text on stdout (with --json, the conversation as one line
// of JSON); actions, approvals answered and notes go to stderr. Lines starting with / are the chat's
// commands (slash.ts).
import type { Context } from '../../src/context.js';
import { CliError, EXIT } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { dim, red, table, yellow } from '../../src/output.js';
import { say, settle, type Policy } from './follow.js';
import { conversationPath, type AssistantApi } from './session.js';
import { helpLines, messageOf, parseSlash, resolveConversation } from './slash.js';
import { continueHint, type Conversation, type ConversationWithTranscript } from './view.js';

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
    if (last.status === 'failed')
      throw new CliError(last.error ?? 'The assistant\'s run failed.', EXIT.failed, continueHint(last.conversation_id), { id: last.conversation_id });
  };
  const open = async (c: ConversationWithTranscript) => {
    id = c.conversation_id;
    seen = new Set(c.status === 'working' || c.status === 'awaiting_approval' ? [] : c.actions.map((a) => a.tool_call_id));
    say(ctx, dim(err, `conversation ${id}: ${c.title} (${c.status.replace('_', ' ')})`));
    if (c.status === 'working' || c.status === 'awaiting_approval') await conclude(c);
  };

  if (o.resumed) await open(o.resumed);
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: ctx.io.stdin, terminal: false });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const slash = parseSlash(line);
    if (slash && 'error' in slash) {
      say(ctx, red(err, slash.error));
      continue;
    }
    if (slash) {
      switch (slash.slash.name) {
        case 'quit':
          lines.close();
          return;
        case 'help':
          for (const l of helpLines({ keys: false })) say(ctx, l);
          break;
        case 'new':
          id = null;
          seen = new Set();
          say(ctx, dim(err, 'new conversation: the next message starts it'));
          break;
        case 'list': {
          const recent = await api.list(20);
          table(ctx.io, ['id', 'status', 'updated', 'title'], recent.map((c) => [c.conversation_id, c.status, c.updated_at, c.title]));
          break;
        }
        case 'open': {
          let target: string;
          try {
            target = await resolveConversation(api, slash.arg);
          } catch (e) {
            say(ctx, red(err, (e as Error).message));
            break;
          }
          await open(await api.get(target));
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
}
