// vmv videos get ID [--wait]: GET /v1/videos/{id}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { followVideo, linksNote, printVideo, videoPath, type Video } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('get')
      .argument('<id>', 'video id', idArg('video'))
      .description('A video: state, price, what was billed, links once ready, script and posts (free)')
      .option('--wait', 'follow it until it is ready (exit 0), failed (exit 5) or waiting for script approval (exit 0)')
      .action(action(shell, run)),
    'vmv videos get "$VIDEO_ID"',
    'vmv videos get "$VIDEO_ID" --wait --timeout 10m',
    'vmv videos get "$VIDEO_ID" --json | jq -r .data.video_url',
  );
}

export async function run(ctx: Context, o: { wait?: boolean }, [id]: string[]): Promise<void> {
  if (o.wait) {
    await followVideo(ctx, id);
    return;
  }
  ctx.emit(await ctx.call('GET', videoPath(id)), (b: { data: Video }) => {
    printVideo(ctx, b.data);
    linksNote(ctx, b.data);
  });
}
