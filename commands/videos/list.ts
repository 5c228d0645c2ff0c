// vmv videos list: GET /v1/videos
import type { Command } from 'commander';
import { action, choiceArg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { moreHint, table } from '../../src/output.js';
import { TEMPLATES, VIDEO_STATES } from '../../simulator/vocabulary.js';
import { priceText, VIDEO_COLUMNS, type Video } from './view.js';

interface Options extends ListOptions {
  status?: string;
  template?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(parent.command('list').description('Videos of the workspace, newest first (free)'))
      .option(
        '--status <state>',
        `only videos in this state: ${VIDEO_STATES.join(', ')}`,
        choiceArg('--status', VIDEO_STATES),
      )
      .option('--template <name>', 'only videos of this template', choiceArg('--template', TEMPLATES))
      .action(action(shell, run)),
    'vmv videos list',
    'vmv videos list --status script_review',
    "vmv videos list --template slideshow --all --json | jq -r '.data[].id'",
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/videos', {
    query: {
      limit: o.limit,
      cursor: o.cursor,
      order: o.asc ? 'asc' : undefined,
      status: o.status,
      template: o.template,
    },
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
