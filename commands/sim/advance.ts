// vmv sim advance DURATION: POST /_sim/clock/advance (a progress line on a terminal: src/clock-move.ts)
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { humanTime } from '../../src/formats.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('advance')
      .argument('<duration>', 'seconds, or a duration such as 90s, 15m, 2h, 1d, 1h30m')
      .description('Move the simulator clock forward, running every transition that falls due in time order')
      .action(action(shell, run)),
    'vmv sim advance 15m',
    'vmv sim advance 3600',
  );
}

export async function run(ctx: Context, _o: unknown, [duration]: string[]): Promise<void> {
  const seconds = (await import('../../src/duration.js')).parseDuration(duration);
  const { moveClock } = await import('../../src/clock-move.js');
  const res = await moveClock(
    ctx,
    (from) => from + seconds * 1000,
    (signal) => ctx.call('POST', '/_sim/clock/advance', { body: { seconds }, signal }),
  );
  ctx.emit(res, (c: any) => ctx.io.err(`Clock advanced ${seconds} s; now ${humanTime(c.now)}\n`));
}
