// vmv history emails: GET /v1/emails (with a person: --contact or --email); without one, what the
// workspace sent, from a simulator's outbox (GET /_sim/outbox?kind=email)
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { ApiCallError, usage } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { fetchList, listQuery, withFilters, type FilterOptions } from '../../src/list.js';
import { col, dim, idCol, moreHint, table, textCol } from '../../src/output.js';

interface Options extends FilterOptions {
  contact?: string;
  email?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withFilters(
      parent
        .command('emails')
        .description(
          "Emails with one person (quick emails included), newest first; without one, the workspace's sent emails",
        ),
    )
      .option('--contact <id>', "this contact's emails")
      .option('--email <address>', 'emails with this address')
      .action(action(shell, run)),
    'vmv history emails',
    'vmv history emails --email ada@example.com',
    'vmv history emails --email ada@example.com --direction outbound --asc',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  if (o.contact && o.email) throw usage('Name one person with one of --contact or --email, not both.');
  if (!o.contact && !o.email) return workspaceEmails(ctx, o);
  const res = await fetchList(ctx, o, '/v1/emails', {
    query: { ...listQuery(o), contact_id: o.contact, email: o.email },
  });
  ctx.emit(res, (body: any) => emailTable(ctx, body.data, body.meta));
}

function emailTable(ctx: Context, records: any[], meta: { cursor?: string } | undefined): void {
  table(
    ctx.io,
    [
      idCol(),
      col('when', 8),
      col('direction', 3),
      col('source', 2),
      col('from', 5),
      col('to', 6),
      textCol('subject', 4),
    ],
    records.map((e: any) => [e.id, e.created_at, e.direction, e.source, e.from, e.to, e.subject]),
  );
  moreHint(ctx.io, meta);
}

/**
 * Without a person: the emails the workspace sent, from a simulator's outbox (the API's email list
 * needs a person, as the spec says); on a service, which has no outbox, the usage error it was.
 */
async function workspaceEmails(ctx: Context, o: Options): Promise<void> {
  const needPerson = () => usage("Name one person with --contact or --email: the service's email list needs one.");
  if (o.direction === 'inbound') throw usage('Received emails are listed by person: add --contact or --email.');
  const res = await fetchList(ctx, o, '/_sim/outbox', {
    query: { ...listQuery({ ...o, direction: undefined }), kind: 'email' },
  }).catch((e) => {
    throw e instanceof ApiCallError && e.status === 404 ? needPerson() : e;
  });
  ctx.emit(res, (body: any) => {
    emailTable(
      ctx,
      body.data.map((m: any) => m.record),
      body.meta,
    );
    if (ctx.io.stdoutTTY && body.data.length)
      ctx.io.err(dim(forStderr(ctx.io), 'Emails the workspace sent; received ones: --contact or --email.') + '\n');
  });
}
