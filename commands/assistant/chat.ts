// vmv assistant chat: a conversation with the assistant. On a terminal, a full-screen chat (Ink,
// loaded only here: ui/chat.tsx); otherwise line by line (line.ts): each input line is a message and
// each reply a block of plain text on stdout.
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { CliError, EXIT, usage } from '../../src/errors.js';
import { pollInterval } from '../../src/poll.js';
import { policyOf, withPolicy } from './flags.js';
import { contextApi } from './session.js';

export interface ChatFlags {
  conversation?: string;
  approveAll?: boolean;
  declineAll?: boolean;
  reason?: string;
  autoAdvance: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withPolicy(
      parent
        .command('chat')
        .description(
          'Chat with the assistant: a full-screen chat on a terminal, line by line otherwise (each input line a message, each reply on stdout)',
        )
        .option('--conversation <id>', 'resume this conversation (default: a new one)'),
      { reason: true },
    )
      .option(
        '--no-auto-advance',
        'on a simulator with a manual clock, leave the clock alone (by default the chat moves it while the assistant works, or nothing would move)',
      )
      .hook('preAction', (cmd) => {
        const o = cmd.opts<ChatFlags>();
        if (o.reason !== undefined && !o.declineAll)
          throw usage(
            '--reason is told to the assistant with each decline: add --decline-all (on a terminal, n asks for a reason).',
          );
      })
      .addHelpText(
        'after',
        `
On a terminal: Enter sends (a paste of several lines is one message), ↑/↓ recall what you sent,
PgUp/PgDn scroll. While the assistant works you see each action as it completes; an action that
costs money or cannot be undone is shown with its cost for approval: y approves, n declines (then
an optional reason). Once a call, text thread or video the assistant started has ended, the chat
says how (answered? goal achieved? what it cost) without being asked. /new, /list, /open ID, /help;
/quit or Ctrl-D leave (exit 0) and say how to resume (--conversation ID). Ctrl-C leaves: exit 0, or
130 while a run works or waits for approvals (it goes on: its conversation id is printed alone on
stdout; resume it with --conversation). Colours follow NO_COLOR.
Without a terminal (or with --json: one JSON conversation per reply; /list prints the list's JSON,
/help {"help": [...]}, and a chat command that fails its JSON error on stderr): approvals follow
--approve-all / --decline-all, or end the chat with exit 7 and the conversation id on stdout; a
failed run ends it with exit 5.`,
      )
      .action(action(shell, run)),
    'printf "how many calls did we get yesterday?\\nwho texted us today?\\n" | vmv assistant chat',
    'echo "text +14155550100 and ask whether Tuesday works" | vmv assistant chat --approve-all > reply.txt',
    'vmv assistant chat',
    'vmv assistant chat --conversation "$ID"',
  );
}

/** How to come back to a conversation left. */
const resumeHint = (id: string) => `Resume it: vmv assistant chat --conversation ${id}`;

export async function run(ctx: Context, o: ChatFlags): Promise<void> {
  const api = contextApi(ctx);
  // a conversation to resume must exist before anything starts (404: exit 1)
  const resumed = o.conversation ? await api.get(o.conversation) : null;
  const clock = await api.clock();
  const advance = o.autoAdvance && clock?.mode === 'manual';
  const streams = ctx.io.tty;
  if (ctx.io.stdinTTY && ctx.io.stdoutTTY && streams && !ctx.json) {
    // Ink draws only the final frame where it thinks it runs in CI (CI set): a person at this terminal is not CI
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    const { runChat } = await import('./ui/chat.js');
    const end = await runChat({
      api,
      streams,
      resumed,
      advance,
      manualClock: clock?.mode === 'manual',
      policy: policyOf(o),
      reason: o.reason,
      color: ctx.io.color,
      pollMs: Math.min(pollInterval(ctx), 500),
      paceMs: Math.min(pollInterval(ctx), 300),
    });
    if (end.interrupted && end.conversationId) {
      // as every wait Ctrl-C stops: what goes on is named alone on stdout (the screen is already left)
      ctx.io.out(`${end.conversationId}\n`);
      throw new CliError(
        `Left the chat while the assistant ${end.interrupted}; it goes on in conversation ${end.conversationId}.`,
        EXIT.interrupted,
        resumeHint(end.conversationId),
        { id: end.conversationId },
      );
    }
    // left with Ctrl-D or /quit: how to come back to it (the screen is already left)
    if (end.conversationId) ctx.io.err(`${resumeHint(end.conversationId)}\n`);
    return;
  }
  const { runLines } = await import('./line.js');
  await runLines(ctx, api, {
    resumed,
    advance,
    manualClock: clock?.mode === 'manual',
    policy: policyOf(o),
    reason: o.reason,
  });
}
