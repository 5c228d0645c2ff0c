// vmv assistant send MESSAGE: POST /v1/assistant/messages, then follows the run until it stops working
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { checkFlags, DEFAULT_WAIT_S, policyOf, waitOption, withPolicy } from './flags.js';
import { finish, settle } from './follow.js';
import { contextApi } from './session.js';

interface Options {
  conversation?: string;
  wait?: number;
  approveAll?: boolean;
  declineAll?: boolean;
  reason?: string;
  advance?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withPolicy(
      parent
        .command('send')
        .argument('<message>', 'what to ask, in plain English')
        .description(
          'Send the assistant a message and print its reply once the run stops working (actions that cost money or cannot be undone wait for approval)',
        )
        .option(
          '--conversation <id>',
          'continue this conversation (default: start a new one; its id is said on stderr)',
        )
        .addOption(waitOption()),
      { reason: true },
    )
      .option(
        '--advance',
        "on a simulator: advance its manual clock to each next due transition until the run stops working (the embedded simulator's real clock is set manual first)",
      )
      .hook('preAction', (cmd) => checkFlags(cmd.opts()))
      .addHelpText(
        'after',
        `
The reply goes to stdout, each action on stderr as it completes. Approvals: --approve-all or
--decline-all answer them; otherwise a terminal asks for each (y approves), and without one the
command stops with exit 7, the conversation id alone on stdout (answer with vmv assistant approve).
A failed run exits 5.`,
      )
      .action(action(shell, run)),
    'vmv assistant send "how many calls did we get yesterday?"',
    'vmv assistant send "text +14155550100 and ask whether Tuesday works" --approve-all --advance',
    'ID=$(vmv assistant send "who texted us today?" --json | jq -r .data.conversation_id)',
    'vmv assistant send "and yesterday?" --conversation "$ID"',
    'vmv assistant send "call +14155550100 to confirm the appointment" --decline-all --reason "not today"',
  );
}

export async function run(ctx: Context, o: Options, [message]: string[]): Promise<void> {
  const api = contextApi(ctx, { own: 'message' });
  const wait = o.wait ?? DEFAULT_WAIT_S;
  // answered at once: the run is followed here, so Ctrl-C and --wait can always name the conversation
  const first = await api.post({ message, conversation_id: o.conversation, wait_seconds: 0 });
  if (wait === 0) return finish(ctx, first);
  const last = await settle(ctx, api, first, {
    waitSeconds: wait,
    advance: !!o.advance,
    policy: policyOf(o),
    reason: o.reason,
    ask: true,
    noteClock: true,
    answerHint: (cid) =>
      `Answer: vmv assistant approve ${cid} [--decline APPROVAL_ID ...] (or send with --approve-all or --decline-all)`,
  });
  await finish(ctx, last);
}
