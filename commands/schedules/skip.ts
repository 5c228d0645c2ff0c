// vmv schedules skip ID [--day DATE]: POST /v1/video-schedules/{id}/skip
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { dateArg, nextRunText, schedulePath, type Schedule } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('skip')
      .argument('<id>', 'schedule id', idArg('schedule'))
      .description('Skip a posting day: nothing is made, charged or posted that day')
      .option(
        '--day <date>',
        "the posting day to skip, YYYY-MM-DD in the schedule's time zone (default: the next one)",
        dateArg('--day'),
      )
      .action(action(shell, run)),
    'vmv schedules skip "$SCHEDULE"',
    'vmv schedules skip "$SCHEDULE" --day 2026-01-12',
  );
}

export async function run(ctx: Context, o: { day?: string }, [id]: string[]): Promise<void> {
  const res = await ctx.call('POST', `${schedulePath(id)}/skip`, { body: o.day === undefined ? {} : { day: o.day } });
  ctx.emit(res, ({ data: s }: { data: Schedule }) =>
    ctx.io.err(
      `Skipped ${o.day ?? 'the next posting day'} of schedule ${s.id} (skipped days: ${s.skipped_days.join(', ')}); ${nextRunText(s)}\n`,
    ),
  );
}
