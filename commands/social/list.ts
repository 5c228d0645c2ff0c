// vmv social list [--platform P]: GET /v1/social-connections
import type { Command } from 'commander';
import { action, choiceArg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';
import { PLATFORMS } from '../../simulator/vocabulary.js';

interface Connection {
  id: string;
  platform: string;
  name: string;
  handle: string;
  created_at: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(
      parent
        .command('list')
        .description('The social accounts videos can be posted to (free); `vmv videos post --to` takes their ids'),
    )
      .option(
        '--platform <name>',
        `only this platform's accounts: ${PLATFORMS.join(', ')}`,
        choiceArg('--platform', PLATFORMS),
      )
      .action(action(shell, run)),
    'vmv social list',
    "vmv social list --platform tiktok --json | jq -r '.data[0].id'",
  );
}

export async function run(ctx: Context, o: ListOptions & { platform?: string }): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/social-connections', {
    query: { limit: o.limit, cursor: o.cursor, order: o.asc ? 'asc' : undefined, platform: o.platform },
  });
  ctx.emit(res, (b: { data: Connection[]; meta?: { cursor?: string } }) => {
    table(
      ctx.io,
      [idCol(), col('platform', 7), col('handle', 6), textCol('name', 3), col('created', 4)],
      b.data.map((c) => [c.id, c.platform, c.handle, c.name, c.created_at]),
    );
    moreHint(ctx.io, b.meta);
  });
}
