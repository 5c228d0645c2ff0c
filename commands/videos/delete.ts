// vmv videos delete ID: DELETE /v1/videos/{id}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { videoPath } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('delete')
      .argument('<id>', 'video id', idArg('video'))
      .description('Delete a video in any state: its pipeline stops, scheduled posts are canceled (no refund)')
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
      .action(action(shell, run)),
    'vmv videos delete "$VIDEO_ID"',
    'vmv videos delete "$VIDEO_ID" --yes',
  );
}

export async function run(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<void> {
  await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
    verb: 'delete',
    done: 'deleted',
    subject: `video ${id}`,
    consequence:
      'Its scheduled posts are canceled (published ones stay on their platforms); what it cost is not refunded.',
  });
  await ctx.call('DELETE', videoPath(id));
  // 204: no body to print with --json either
  if (!ctx.json) ctx.io.err(`Deleted video ${id}\n`);
}
