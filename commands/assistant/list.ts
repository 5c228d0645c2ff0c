// vmv assistant list: GET /v1/assistant/conversations
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';
import type { Conversation } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(
      parent.command('list').description('Assistant conversations, newest first (--asc: oldest first; free)'),
    ).action(action(shell, run)),
    'vmv assistant list',
    'vmv assistant list --all --json | jq -r \'.data[] | select(.status == "awaiting_approval") | .conversation_id\'',
  );
}

export async function run(ctx: Context, o: ListOptions): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/assistant/conversations', {
    query: { limit: o.limit, cursor: o.cursor, order: o.asc ? 'asc' : undefined },
  });
  ctx.emit(res, (b: { data: Conversation[]; meta?: { cursor?: string } }) => {
    table(
      ctx.io,
      [idCol(), col('status', 6), col('pending', 3), col('updated', 5), textCol('title', 4)],
      b.data.map((c) => [c.conversation_id, c.status, c.pending_approvals.length || null, c.updated_at, c.title]),
    );
    moreHint(ctx.io, b.meta);
  });
}
