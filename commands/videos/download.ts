// vmv videos download ID -o FILE: a ready video's MP4 (or --thumbnail PNG) at its signed link
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { checkWritable, saveMedia, videoPath, type Video } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('download')
      .argument('<id>', 'video id', idArg('video'))
      .description("Save a ready video's MP4, or its PNG thumbnail (free)")
      .option(
        '-o, --output <file>',
        'file to write; - for standard output (default: standard output when it is not a terminal)',
      )
      .option('--thumbnail', 'the PNG thumbnail instead of the MP4')
      .action(action(shell, run)),
    'vmv videos download "$VIDEO_ID" -o video.mp4',
    'vmv videos download "$VIDEO_ID" --thumbnail -o thumbnail.png',
    'vmv videos download "$VIDEO_ID" -o - | ffprobe -',
  );
}

export async function run(ctx: Context, o: { output?: string; thumbnail?: boolean }, [id]: string[]): Promise<void> {
  const what = o.thumbnail ? 'an image' : 'a video';
  if (o.output === undefined && ctx.io.stdoutTTY)
    throw usage(`Refusing to write ${what} to a terminal: give --output FILE (or -o - to insist), or pipe the output.`);
  await checkWritable('--output', o.output);
  const v = (await ctx.call('GET', videoPath(id))).json<{ data: Video }>().data;
  await saveMedia(ctx, v, o.thumbnail ? 'thumbnail' : 'video', o.output ?? '-');
}
