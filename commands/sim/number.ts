// vmv sim number --stack t1|t2: POST /_sim/phone-numbers (a ready number of that stack)
import type { Command } from 'commander';
import { action, choiceArg, e164Arg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('number')
      .description('Add a ready phone number of a stack to the workspace; prints its id')
      .requiredOption('--stack <stack>', 't1 or t2', choiceArg('--stack', ['t1', 't2']))
      .option('--phone <number>', 'the E.164 number (default: a free one)', e164Arg('--phone'))
      .option('--name <name>', 'its name')
      .action(action(shell, run)),
    'vmv sim number --stack t2 --name "Front desk"',
  );
}

export async function run(ctx: Context, o: { stack: string; phone?: string; name?: string }): Promise<void> {
  const res = await ctx.call('POST', '/_sim/phone-numbers', {
    body: { stack: o.stack, phone_number: o.phone, name: o.name },
  });
  ctx.emit(res, (n: any) => {
    ctx.io.out(`${n.id}\n`);
    ctx.io.err(`Added ${n.phone_number} (${n.stack}) as number ${n.id}.\n`);
  });
}
