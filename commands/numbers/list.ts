// vmv numbers list: GET /v1/phone-numbers
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, listQuery, withList, type ListOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(parent.command('list').description("The workspace's phone numbers")).action(action(shell, run)),
    'vmv numbers list',
    "vmv numbers list --limit 100 --json | jq -r '.data[].phone_number'",
  );
}

/** The active column: a suspended number (its month unpaid) says so, before whether it is active. */
function activeText(n: any): string {
  if (n.suspended) return 'suspended';
  return n.is_active ? 'yes' : 'no';
}

export async function run(ctx: Context, o: ListOptions): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/phone-numbers', { query: listQuery(o) });
  ctx.emit(res, (b: any) => {
    table(
      ctx.io,
      [
        idCol(),
        col('number', 8),
        textCol('name', 5),
        col('stack', 3),
        col('active', 6),
        col('calls', 2),
        col('texts', 2),
        col('created', 4),
      ],
      b.data.map((n: any) => [
        n.id,
        n.phone_number,
        n.name,
        n.stack,
        activeText(n),
        n.handles_calls ? 'AI' : 'off',
        n.handles_texts ? 'AI' : 'off',
        n.created_at,
      ]),
    );
    moreHint(ctx.io, b.meta);
  });
}
