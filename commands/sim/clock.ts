// vmv sim clock: GET or POST /_sim/clock (a move's progress line on a terminal: src/clock-move.ts)
import type { Command } from 'commander';
import { action, withExamples, timeArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { fields } from '../../src/output.js';

interface Options {
  manual?: boolean;
  real?: boolean;
  set?: string;
  atLeast?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('clock')
      .description('Show the simulator clock, or switch it between manual and real')
      .option('--manual', 'stand still until advanced')
      .option('--real', 'follow wall time (plus any advances)')
      .option(
        '--set <time>',
        'move the clock forward to this ISO 8601 time, running what falls due (an earlier time is refused)',
        timeArg('--set', { relative: false }),
      )
      .option(
        '--at-least <time>',
        'the same, unless the clock is already there or past it: then it stays (for scripts sharing one clock)',
        timeArg('--at-least', { relative: false }),
      )
      .action(action(shell, run)),
    'vmv sim clock',
    'vmv sim clock --manual',
    'vmv sim clock --set 2026-01-06T09:00:00Z',
    'vmv sim clock --at-least 2026-01-06T09:00:00Z',
  );
}

/** The clock mode asked for, if any (--manual and --real together are refused before). */
function modeOf(o: Options): 'manual' | 'real' | undefined {
  if (o.manual) return 'manual';
  if (o.real) return 'real';
  return undefined;
}

export async function run(ctx: Context, o: Options): Promise<void> {
  if (o.manual && o.real) throw usage('Give --manual or --real, not both.');
  if (o.set !== undefined && o.atLeast !== undefined) throw usage('Give --set or --at-least, not both.');
  const to = o.set ?? o.atLeast;
  const send = (signal?: AbortSignal) =>
    ctx.call('POST', '/_sim/clock', {
      body: { mode: modeOf(o), now: to, at_least: o.atLeast !== undefined || undefined },
      // (a mode, or a time the clock is moved to, is the same however often it is sent)
      repeatable: true,
      signal,
    });
  let res;
  if (to !== undefined)
    res = await (await import('../../src/clock-move.js')).moveClock(ctx, () => Date.parse(to), send);
  else res = o.manual || o.real ? await send() : await ctx.call('GET', '/_sim/clock');
  ctx.emit(res, (c: any) =>
    fields(ctx.io, [
      ['now', c.now],
      ['mode', c.mode],
      ['next due', c.next_due_at],
      ['next job step', c.next_job_due_at],
    ]),
  );
}
