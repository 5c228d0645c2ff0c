// vmv sim caller-id NUMBER: POST /_sim/caller-ids (verify a caller ID for voice calls)
import type { Command } from 'commander';
import { action, e164Arg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('caller-id')
      .argument('<number>', 'E.164 number', e164Arg('<number>'))
      .description('Verify a caller ID for `vmv calls place`')
      .action(action(shell, run)),
    'vmv sim caller-id +14155550123',
  );
}

export async function run(ctx: Context, _o: unknown, [phone]: string[]): Promise<void> {
  const res = await ctx.call('POST', '/_sim/caller-ids', { body: { phone_number: phone } });
  ctx.emit(res, ({ data }: any) => ctx.io.err(`Verified ${data.phone_number}\n`));
}
