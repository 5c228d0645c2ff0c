// vmv webhooks list [--sms]: GET /v1/voice/calls/webhooks or /v1/sms/webhooks (never with secrets)
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';
import { KINDS, kindOf, withKind, type Webhook } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withKind(
      withList(parent.command('list').description('Registered webhooks of one kind, newest first')),
      'list',
    ).action(action(shell, run)),
    'vmv webhooks list',
    'vmv webhooks list --sms',
  );
}

export async function run(ctx: Context, o: ListOptions & { sms?: boolean }): Promise<void> {
  const kind = kindOf(o);
  const res = await fetchList(ctx, o, KINDS[kind].path, {
    query: { limit: o.limit, cursor: o.cursor, order: o.asc ? 'asc' : undefined },
  });
  ctx.emit(res, (b: { data: Webhook[]; meta: { cursor?: string } }) => {
    if (kind === 'call')
      table(
        ctx.io,
        [
          idCol(),
          col('url', 6),
          col('events', 4),
          col('phone number', 3),
          col('created', 5),
          textCol('description', 2),
        ],
        b.data.map((w) => [w.id, w.url, w.events!.join(','), w.phone_number_id, w.created_at, w.description]),
      );
    else
      table(
        ctx.io,
        [idCol(), col('url', 6), col('phone number', 3), col('created', 5)],
        b.data.map((w) => [w.id, w.url, w.phone_number_id, w.created_at]),
      );
    moreHint(ctx.io, b.meta);
  });
}
