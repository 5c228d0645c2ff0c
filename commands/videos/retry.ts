// vmv videos retry ID: POST /v1/videos/{id}/retry (free: resumes a failed video where it failed)
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { forStderr } from '../../src/io.js';
import { dim } from '../../src/output.js';
import { checkWritable, followVideo, videoPath, withWait, type Video } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withWait(
      parent
        .command('retry')
        .argument('<id>', 'video id', idArg('video'))
        .description('Resume a failed video from the stage it failed in (free: it is not charged again)'),
    ).action(action(shell, run)),
    'ID=$(vmv videos create --template slideshow --text "Our espresso bar opens Monday. #fail-render")',
    'vmv videos get "$ID" --wait --advance',
    'vmv videos retry "$ID" --wait --advance',
  );
}

export async function run(ctx: Context, o: { wait?: boolean; output?: string }, [id]: string[]): Promise<void> {
  await checkWritable('--output', o.output);
  const res = await ctx.call('POST', `${videoPath(id)}/retry`);
  if (o.wait) {
    await followVideo(ctx, id, { output: o.output });
    return;
  }
  ctx.emit(res, ({ data: v }: { data: Video }) =>
    ctx.io.err(
      dim(forStderr(ctx.io), `Video ${v.id} resumes: ${v.status}. Follow it: vmv videos get ${v.id} --wait`) + '\n',
    ),
  );
}
