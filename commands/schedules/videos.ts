// vmv schedules videos ID: GET /v1/video-schedules/{id}/videos, as `vmv videos list` shows videos
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { moreHint, table } from '../../src/output.js';
import { priceText, VIDEO_COLUMNS, type Video } from '../videos/view.js';
import { schedulePath } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(
      parent
        .command('videos')
        .argument('<id>', 'schedule id', idArg('schedule'))
        .description('The videos a schedule made, newest first (free)'),
    ).action(action(shell, run)),
    'vmv schedules videos "$SCHEDULE"',
    'vmv schedules videos "$SCHEDULE" --all --json | jq -r \'.data[] | select(.status == "ready") | .video_url\'',
  );
}

export async function run(ctx: Context, o: ListOptions, [id]: string[]): Promise<void> {
  const res = await fetchList(ctx, o, `${schedulePath(id)}/videos`, {
    query: { limit: o.limit, cursor: o.cursor, order: o.asc ? 'asc' : undefined },
  });
  ctx.emit(res, (b: { data: Video[]; meta?: { cursor?: string } }) => {
    table(
      ctx.io,
      VIDEO_COLUMNS,
      b.data.map((v) => [v.id, v.status, v.template, v.seconds, priceText(v), v.created_at]),
    );
    moreHint(ctx.io, b.meta);
  });
}
