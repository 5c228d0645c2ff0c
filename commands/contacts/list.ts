// vmv contacts list: GET /v1/contacts
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { renderPeople } from '../history/people.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(parent.command('list').description('Contacts and everyone reached, most recent first'), {
      order: false,
    }).action(action(shell, run)),
    'vmv contacts list --limit 50',
    "vmv contacts list --json | jq -r '.data[].name'",
  );
}

export async function run(ctx: Context, o: ListOptions): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/contacts', { query: { limit: o.limit, cursor: o.cursor } });
  ctx.emit(res, renderPeople(ctx));
}
