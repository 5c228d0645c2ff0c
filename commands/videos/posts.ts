// vmv videos posts ID: GET /v1/videos/{id}/posts
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { moreHint, table } from '../../src/output.js';
import { POST_HEADERS, postRow, videoPath, type Post } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(
      parent
        .command('posts')
        .argument('<id>', 'video id', idArg('video'))
        .description("A video's posts: state, schedule, permalinks once published, errors (free)"),
    ).action(action(shell, run)),
    'vmv videos posts "$VIDEO_ID"',
    'vmv videos posts "$VIDEO_ID" --json | jq -r \'.data[] | select(.status == "published") | .permalink\'',
  );
}

export async function run(ctx: Context, o: ListOptions, [id]: string[]): Promise<void> {
  const res = await fetchList(ctx, o, `${videoPath(id)}/posts`, {
    query: { limit: o.limit, cursor: o.cursor, order: o.asc ? 'asc' : undefined },
  });
  ctx.emit(res, (b: { data: Post[]; meta?: { cursor?: string } }) => {
    table(ctx.io, POST_HEADERS, b.data.map(postRow));
    moreHint(ctx.io, b.meta);
  });
}
