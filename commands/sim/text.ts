// vmv sim text --from --to --body: POST /_sim/inbound/texts (text as the other party)
import type { Command } from 'commander';
import { action, e164Arg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('text')
      .description('Send a text as the other party: a reply on a quick text thread, or a text to a workspace number')
      .requiredOption('--from <number>', "the person's E.164 number", e164Arg('--from'))
      .requiredOption('--to <number>', 'the shared or workspace number texted', e164Arg('--to'))
      .requiredOption('--body <text>', 'the message')
      .action(action(shell, run)),
    'vmv sim number --stack t2 --phone +14155550142',
    'vmv sim text --from +14155550199 --to +14155550142 --body "Do you have availability on Tuesday?"',
  );
}

export async function run(ctx: Context, o: { from: string; to: string; body: string }): Promise<void> {
  const res = await ctx.call('POST', '/_sim/inbound/texts', { body: { from: o.from, to: o.to, body: o.body } });
  ctx.emit(res, ({ data }: any) => ctx.io.out(`${data.id}\n`));
}
