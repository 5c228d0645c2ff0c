// vmv history emails: GET /v1/emails (needs a person: --contact or --email)
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { fetchList, listQuery, withFilters, type FilterOptions } from '../../src/list.js';
import { moreHint, table } from '../../src/output.js';

interface Options extends FilterOptions {
  contact?: string;
  email?: string;
}

export function define(parent: Command, shell: Shell): void {
  withFilters(parent.command('emails').description('Emails with one person (quick emails included), newest first'))
    .option('--contact <id>', "this contact's emails (this or --email is required)")
    .option('--email <address>', 'emails with this address (this or --contact is required)')
    .addHelpText(
      'after',
      examples(
        'vmv history emails --email ada@example.com',
        'vmv history emails --email ada@example.com --direction outbound --asc',
      ),
    )
    .action(action(shell, run));
}

export async function run(ctx: Context, o: Options): Promise<void> {
  if (!!o.contact === !!o.email) throw usage('Name one person with exactly one of --contact or --email.');
  const res = await fetchList(ctx, o, '/v1/emails', {
    query: { ...listQuery(o), contact_id: o.contact, email: o.email },
  });
  ctx.emit(res, (body: any) => {
    table(
      ctx.io,
      ['id', 'when', 'direction', 'source', 'from', 'to', 'subject'],
      body.data.map((e: any) => [e.id, e.created_at, e.direction, e.source, e.from, e.to, e.subject]),
    );
    moreHint(ctx.io, body.meta);
  });
}
