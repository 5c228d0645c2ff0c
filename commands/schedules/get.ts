// vmv schedules get ID: GET /v1/video-schedules/{id}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { printSchedule, schedulePath, type Schedule } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('get')
      .argument('<id>', 'schedule id', idArg('schedule'))
      .description(
        "A schedule: its cadence, next run and planning time, the estimate per video, the next day's plan and last error (free)",
      )
      .addHelpText(
        'after',
        '\nOn a terminal its times are shown in its time zone and in UTC; piped they are ISO 8601 UTC, with next_run_local in its zone.',
      )
      .action(action(shell, run)),
    'vmv schedules get "$SCHEDULE"',
    'vmv schedules get "$SCHEDULE" | grep -P \'^plan\\t\'',
    'vmv schedules get "$SCHEDULE" --json | jq -r .data.next_run_at',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  ctx.emit(await ctx.call('GET', schedulePath(id)), (b: { data: Schedule }) => printSchedule(ctx, b.data));
}
