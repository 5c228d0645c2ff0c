// vmv sim pool [--fill calls|texts] [--leave N]: GET /_sim/shared-pool, POST /_sim/shared-pool/fill
import type { Command } from 'commander';
import { action, choiceArg, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { ALWAYS, col, table } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('pool')
      .description("The shared sender pool: numbers, ages, ceilings and today's use")
      .option(
        '--fill <kind>',
        'fill every number to its daily ceiling for calls or texts',
        choiceArg('--fill', ['calls', 'texts']),
      )
      .option('--leave <n>', 'with --fill: leave this many slots free across the pool', intArg('--leave', 0, 100000))
      .action(action(shell, run)),
    'vmv sim pool',
    'vmv sim pool --fill calls --leave 2',
  );
}

export async function run(ctx: Context, o: { fill?: string; leave?: number }): Promise<void> {
  if (o.leave !== undefined && o.fill === undefined) throw usage('--leave goes with --fill.');
  const res = o.fill
    ? await ctx.call('POST', '/_sim/shared-pool/fill', { body: { kind: o.fill, leave: o.leave } })
    : await ctx.call('GET', '/_sim/shared-pool');
  ctx.emit(res, (b: any) =>
    table(
      ctx.io,
      [col('number', ALWAYS), col('stage', 5), col('age (days)', 3), col('calls today', 4), col('texts today', 4)],
      b.data.map((n: any) => [
        n.phone_number,
        n.stage,
        n.age_days,
        `${n.today.calls}/${n.limits.calls}`,
        `${n.today.texts}/${n.limits.texts}`,
      ]),
    ),
  );
}
