// vmv schedules list: GET /v1/video-schedules
import type { Command } from 'commander';
import { action, choiceArg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';
import { daysText, hourText, type Schedule } from './view.js';

interface Options extends ListOptions {
  status?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(parent.command('list').description('Video schedules of the workspace, newest first (free)'))
      .option(
        '--status <state>',
        'only schedules in this state: active, paused',
        choiceArg('--status', ['active', 'paused']),
      )
      .action(action(shell, run)),
    'vmv schedules list',
    "vmv schedules list --status active --all --json | jq -r '.data[] | [.name, .next_run_at] | @tsv'",
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/video-schedules', {
    query: { limit: o.limit, cursor: o.cursor, order: o.asc ? 'asc' : undefined, status: o.status },
  });
  ctx.emit(res, (b: { data: Schedule[]; meta?: { cursor?: string } }) => {
    table(
      ctx.io,
      [
        idCol(),
        textCol('name', 6),
        col('status', 7),
        col('days', 4),
        col('hour', 5),
        col('next run', 8),
        textCol('last error', 3),
      ],
      b.data.map((s) => [s.id, s.name, s.status, daysText(s.days_of_week), hourText(s), s.next_run_at, s.last_error]),
    );
    moreHint(ctx.io, b.meta);
  });
}
