// vmv history texts: GET /v1/messages (account-wide, or one person with --contact / --phone)
import type { Command } from 'commander';
import { action, e164Arg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { fetchList, listQuery, withFilters, type FilterOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';

interface Options extends FilterOptions {
  contact?: string;
  phone?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withFilters(parent.command('texts').description('Text messages, newest first'))
      .option('--contact <id>', "only this contact's texts")
      .option('--phone <number>', 'only texts with this E.164 number', e164Arg('--phone'))
      .action(action(shell, run)),
    'vmv history texts --phone +14155550100',
    'vmv history texts --direction inbound --after 2026-01-05T00:00:00Z --limit 100',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  if (o.contact && o.phone) throw usage('Give --contact or --phone, not both.');
  const res = await fetchList(ctx, o, '/v1/messages', {
    query: { ...listQuery(o), contact_id: o.contact, phone_number: o.phone },
  });
  ctx.emit(res, (body: any) => {
    table(
      ctx.io,
      [
        idCol(),
        col('when', 8),
        col('direction', 3),
        col('sender', 2),
        col('from', 5),
        col('to', 6),
        textCol('body', 4),
      ],
      body.data.map((t: any) => [t.id, t.created_at, t.direction, t.sender, t.from_number, t.to_number, t.body]),
    );
    moreHint(ctx.io, body.meta);
  });
}
