// vmv schedules resume ID: PATCH /v1/video-schedules/{id} {status: active}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { nextRunText, schedulePath, type Schedule } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('resume')
      .argument('<id>', 'schedule id', idArg('schedule'))
      .description('Resume a paused schedule from its next posting day (days missed while paused are not caught up)')
      .action(action(shell, run)),
    'vmv schedules resume "$SCHEDULE"',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('PATCH', schedulePath(id), { body: { status: 'active' } });
  ctx.emit(res, ({ data: s }: { data: Schedule }) => ctx.io.err(`Resumed schedule ${s.id}: ${nextRunText(s)}\n`));
}
