// vmv assistant approve ID: answers every pending approval of a conversation in one request
// (POST /v1/assistant/messages with approvals), then follows the run as send does
import type { Command } from 'commander';
import { action, collect, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { checkFlags, policyOf, waitOption, withPolicy } from './flags.js';
import { finish, settle } from './follow.js';
import { contextApi } from './session.js';

interface Options {
  decline?: string[];
  declineAll?: boolean;
  approveAll?: boolean;
  reason?: string;
  wait?: number;
  advance?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withPolicy(
      parent
        .command('approve')
        .argument('<id>', 'conversation id', idArg('conversation'))
        .description(
          "Answer a conversation's pending approvals, all at once: each is approved unless named by --decline; then print the reply as send does",
        )
        .option('--decline <approval_id>', 'decline this approval (repeat for more); the others are approved', collect)
        .addOption(waitOption()),
      { reason: true, decline: true },
    )
      .option(
        '--advance',
        'on a simulator with a manual clock: advance the clock to each next due transition until the run stops working',
      )
      .hook('preAction', (cmd) => {
        const o = cmd.opts<Options>();
        if (o.approveAll && o.decline?.length)
          throw usage(
            '--approve-all approves every one: drop --decline, or drop --approve-all (the approvals not named by --decline are approved).',
          );
        if (o.declineAll && o.decline?.length) throw usage('--decline-all declines every one already: drop --decline.');
        checkFlags(o);
      })
      .addHelpText(
        'after',
        `
--approve-all and --decline-all also answer the approvals the run asks for next; without them a
terminal asks, and without one the command stops there with exit 7.`,
      )
      .action(action(shell, run)),
    'ID=$(vmv assistant send "call +14155550100 to confirm the appointment" </dev/null) || [ $? -eq 7 ]   # 7: approvals wait',
    'vmv assistant get "$ID"',
    'vmv assistant approve "$ID"',
    'vmv assistant approve "$ID" --decline 8c1e4f2a-6b3d-4e5f-9a7b-1c2d3e4f5a6b --reason "not this week"',
    'vmv assistant approve "$ID" --decline-all',
  );
}

export async function run(ctx: Context, o: Options, [id]: string[]): Promise<void> {
  const api = contextApi(ctx, { own: 'approvals' });
  const pending = (await api.get(id)).pending_approvals;
  const declined = new Set(o.declineAll ? pending.map((p) => p.approval_id) : (o.decline ?? []));
  const decline = (approval_id: string) => ({
    approval_id,
    approved: false,
    ...(o.reason ? { reason: o.reason } : {}),
  });
  // the service is the judge of what can be answered: ids --decline names that are not pending go
  // with the answers, for its 400 to name them (as --decline); with nothing pending at all (idle,
  // working, failed, or answered meanwhile) it answers 409 conflict. `approvals` takes one answer at
  // least: when there is none to give, a placeholder no approval can have asks it that.
  const unknown = [...declined].filter((a) => !pending.some((p) => p.approval_id === a));
  const answers = [
    ...pending.map((p) =>
      declined.has(p.approval_id) ? decline(p.approval_id) : { approval_id: p.approval_id, approved: true },
    ),
    ...unknown.map(decline),
  ];
  if (unknown.length > 0) ctx.fieldFlags = { ...ctx.fieldFlags, approvals: '--decline' };
  if (answers.length === 0) answers.push({ approval_id: '-', approved: false });
  const first = await api.post({ conversation_id: id, approvals: answers, wait_seconds: 0 });
  if (o.wait === 0) return finish(ctx, first);
  const last = await settle(ctx, api, first, {
    waitSeconds: o.wait ?? null,
    advance: !!o.advance,
    policy: policyOf(o),
    reason: o.reason,
    ask: true,
    noteClock: true,
    answerHint: (cid) => `Answer: vmv assistant approve ${cid} [--decline APPROVAL_ID ...]`,
  });
  await finish(ctx, last);
}
