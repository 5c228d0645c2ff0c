// vmv numbers release ID: DELETE /v1/phone-numbers/{id}, confirmed on a terminal (--yes skips)
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('release')
      .argument('<id>', 'number id')
      .description('Release a number: it leaves the account and its call data and recordings are deleted')
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
      .action(action(shell, run)),
    'vmv numbers release 1001',
    'vmv numbers release 1001 --yes',
  );
}

export async function run(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<void> {
  await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
    verb: 'release',
    done: 'released',
    subject: `number ${id}`,
    consequence: 'Its call data and recordings are deleted; this cannot be undone.',
  });
  const res = await ctx.call('DELETE', `/v1/phone-numbers/${encodeURIComponent(id)}`);
  ctx.emit(res, ({ data }: any) =>
    ctx.io.err(
      `Released ${data.phone_number ?? `number ${data.id}`}; ${data.deleted_call_count} call record${data.deleted_call_count === 1 ? '' : 's'} deleted.\n`,
    ),
  );
}
