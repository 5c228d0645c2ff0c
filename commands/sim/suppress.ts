// vmv sim suppress EMAIL: POST /_sim/suppressions
import type { Command } from 'commander';
import { action, choiceArg, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  parent
    .command('suppress')
    .argument('<email>', 'address to put on the suppression list')
    .description('Suppress an address: quick email skips it (as after an unsubscribe or bounce)')
    .option(
      '--reason <reason>',
      'unsubscribe, bounce or complaint',
      choiceArg('--reason', ['unsubscribe', 'bounce', 'complaint']),
      'unsubscribe',
    )
    .addHelpText('after', examples('vmv sim suppress ada@example.com --reason bounce'))
    .action(action(shell, run));
}

export async function run(ctx: Context, o: { reason: string }, [email]: string[]): Promise<void> {
  const res = await ctx.call('POST', '/_sim/suppressions', { body: { email, reason: o.reason } });
  ctx.emit(res, ({ data }: any) => ctx.io.err(`Suppressed ${data.email} (${data.reason})\n`));
}
