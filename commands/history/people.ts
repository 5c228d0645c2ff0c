// vmv history people: GET /v1/history/people
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(parent.command('people').description('Everyone reached, folded by contact, most recent first'), {
      order: false,
    }).action(action(shell, run)),
    'vmv history people',
    'vmv history people --limit 50',
  );
}

export async function run(ctx: Context, o: ListOptions): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/history/people', { query: { limit: o.limit, cursor: o.cursor } });
  ctx.emit(res, renderPeople(ctx));
}

/**
 * The name a terminal's table shows: none ('-') for someone the API names by their number or
 * address (no name of their own: someone reached who has no contact record, a texter's contact
 * named after their number), so the value shows once, under PHONE or EMAIL. Piped rows and --json
 * keep the API's name.
 */
const shownName = (ctx: Context, p: { name: string | null; phone_number: string | null; email: string | null }) =>
  ctx.io.stdoutTTY && p.name && (p.name === p.phone_number || p.name === p.email) ? null : p.name;

export const renderPeople = (ctx: Context) => (body: any) => {
  table(
    ctx.io,
    [
      idCol('contact'),
      textCol('name', 6),
      col('phone', 7),
      col('email', 4),
      col('calls', 3),
      col('texts', 3),
      col('emails', 3),
      col('last contacted', 5),
    ],
    body.data.map((p: any) => [
      p.contact_id,
      shownName(ctx, p),
      p.phone_number,
      p.email,
      p.call_count,
      p.text_count,
      p.email_count,
      p.last_contacted_at,
    ]),
  );
  moreHint(ctx.io, body.meta);
};
