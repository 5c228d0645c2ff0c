// vmv sim reset: POST /_sim/reset
import type { Command } from 'commander';
import { action, choiceArg, withExamples, intArg, timeArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { maskKey } from '../../src/settings.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('reset')
      .description('Put the simulator back to its freshly seeded state')
      .option(
        '--clock <mode>',
        'also set the clock: real or manual (default: as it is)',
        choiceArg('--clock', ['real', 'manual']),
      )
      .option(
        '--now <time>',
        'also set the clock to this ISO 8601 time (any time: the data starts afresh)',
        timeArg('--now', { relative: false }),
      )
      .option('--seed <n>', 'seed of the fresh state (default: the current one)', intArg('--seed', 0, 2 ** 32 - 1))
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
      .action(action(shell, run)),
    'vmv sim reset',
    'vmv sim reset --clock manual --now 2026-01-05T09:00:00Z',
  );
}

export async function run(
  ctx: Context,
  o: { clock?: string; now?: string; seed?: number; yes?: boolean },
): Promise<void> {
  await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
    verb: 'reset',
    done: 'reset',
    subject: 'the simulator',
    consequence: 'Every record is replaced by the freshly seeded state.',
    simulatorOnly: true,
  });
  const res = await ctx.call('POST', '/_sim/reset', { body: { clock: o.clock, now: o.now, seed: o.seed } });
  ctx.emit(res, (b: any) =>
    ctx.io.err(`Simulator reset. New full-access key: ${maskKey(b.api_key)} (use --json to see it whole)\n`),
  );
}
