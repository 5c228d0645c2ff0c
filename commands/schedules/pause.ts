// vmv schedules pause ID: PATCH /v1/video-schedules/{id} {status: paused}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { schedulePath, type Schedule } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('pause')
      .argument('<id>', 'schedule id', idArg('schedule'))
      .description('Pause a schedule: nothing is planned, made, charged or posted until it is resumed')
      .action(action(shell, run)),
    'vmv schedules pause "$SCHEDULE"',
    'vmv schedules pause "$SCHEDULE" --json | jq .data.next_run_at',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('PATCH', schedulePath(id), { body: { status: 'paused' } });
  ctx.emit(res, ({ data: s }: { data: Schedule }) =>
    ctx.io.err(`Paused schedule ${s.id}: nothing is made until you resume it (vmv schedules resume ${s.id}).\n`),
  );
}
