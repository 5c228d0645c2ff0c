// vmv numbers release ID: DELETE /v1/phone-numbers/{id}, confirmed on a terminal (--yes skips)
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { ask } from '../../src/prompt.js';

export function define(parent: Command, shell: Shell): void {
  parent.command('release').argument('<id>', 'number id').description('Release a number: it leaves the account and its call data and recordings are deleted')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('vmv numbers release 1001', 'vmv numbers release 1001 --yes'))
    .action(action(shell, run));
}

export async function run(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<void> {
  if (!o.yes) {
    if (!ctx.io.stdinTTY || !ctx.io.stderrTTY) throw usage(`Releasing number ${id} deletes its call data and recordings and cannot be undone: pass --yes to confirm without a terminal.`);
    const answer = await ask(ctx.io, `Release number ${id}? Its call data and recordings are deleted; this cannot be undone. Type "release" to confirm: `);
    if (answer.trim() !== 'release') throw usage('Not released.');
  }
  const res = await ctx.call('DELETE', `/v1/phone-numbers/${encodeURIComponent(id)}`);
  ctx.emit(res, ({ data }: any) => ctx.io.out(`Released ${data.phone_number ?? `number ${data.id}`}; ${data.deleted_call_count} call record${data.deleted_call_count === 1 ? '' : 's'} deleted.\n`));
}
