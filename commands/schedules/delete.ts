// vmv schedules delete ID: DELETE /v1/video-schedules/{id} (the videos it made stay)
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { schedulePath } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('delete')
      .argument('<id>', 'schedule id', idArg('schedule'))
      .description('Delete a schedule: nothing more is planned or posted; the videos it made stay')
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
      .action(action(shell, run)),
    'vmv schedules delete "$SCHEDULE"',
    'vmv schedules delete "$SCHEDULE" --yes',
  );
}

export async function run(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<void> {
  await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
    verb: 'delete',
    done: 'deleted',
    subject: `schedule ${id}`,
    consequence: 'Nothing more is planned or posted; the videos it made stay (vmv videos list).',
  });
  await ctx.call('DELETE', schedulePath(id));
  // 204: no body to print with --json either
  if (!ctx.json) ctx.io.err(`Deleted schedule ${id}; the videos it made stay (vmv videos list)\n`);
}
