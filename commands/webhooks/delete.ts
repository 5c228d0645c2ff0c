// vmv webhooks delete ID [--sms]: DELETE /v1/voice/calls/webhooks/{id} or /v1/sms/webhooks/{id}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { KINDS, kindOf, withKind } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withKind(
      parent
        .command('delete')
        .argument('<id>', 'webhook id', idArg('webhook'))
        .description('Remove a webhook: no more deliveries, pending retries dropped'),
      'delete',
    )
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
      .action(action(shell, run)),
    'vmv webhooks delete "$WEBHOOK_ID"',
    'vmv webhooks delete --sms "$WEBHOOK_ID"',
  );
}

export async function run(ctx: Context, o: { sms?: boolean; yes?: boolean }, [id]: string[]): Promise<void> {
  const kind = kindOf(o);
  await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
    verb: 'delete',
    done: 'deleted',
    subject: `${KINDS[kind].noun} ${id}`,
    consequence: 'Its deliveries stop and pending retries are dropped.',
  });
  const res = await ctx.call('DELETE', `${KINDS[kind].path}/${encodeURIComponent(id)}`, { body: {} });
  ctx.emit(res, () => ctx.io.err(`Deleted ${KINDS[kind].noun} ${id}\n`));
}
