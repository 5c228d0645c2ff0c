// vmv sim suppress EMAIL: POST /_sim/suppressions
import type { Command } from 'commander';
import { action, choiceArg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
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
      .action(action(shell, run)),
    'vmv sim suppress ada@example.com --reason bounce',
  );
}

export async function run(ctx: Context, o: { reason: string }, [email]: string[]): Promise<void> {
  const res = await ctx.call('POST', '/_sim/suppressions', { body: { email, reason: o.reason } });
  ctx.emit(res, ({ data }: any) => ctx.io.err(`Suppressed ${data.email} (${data.reason})\n`));
}
