// vmv history calls: GET /v1/calls (account-wide, or one person with --contact / --phone)
import type { Command } from 'commander';
import { action, choiceArg, e164Arg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { fetchList, listQuery, withFilters, type FilterOptions } from '../../src/list.js';
import { col, idCol, moreHint, table, textCol } from '../../src/output.js';

const STATUSES = ['completed', 'voicemail', 'failed', 'busy', 'canceled', 'in_progress', 'ringing', 'queued'];
interface Options extends FilterOptions {
  contact?: string;
  phone?: string;
  status?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withFilters(parent.command('calls').description('Call records, newest first'), { max: 50 })
      .option('--contact <id>', "only this contact's calls")
      .option('--phone <number>', 'only calls with this E.164 number', e164Arg('--phone'))
      .option('--status <status>', STATUSES.join(', '), choiceArg('--status', STATUSES))
      .action(action(shell, run)),
    'vmv history calls --direction inbound --after 2026-01-05T00:00:00Z',
    'vmv history calls --phone +14155550100 --status completed',
  );
}

/** The calls list's columns and their priorities (the lower, the sooner one drops at a narrow width). */
export const callColumns = () => [
  idCol(),
  col('when', 8),
  col('direction', 3),
  col('status', 7),
  col('from', 5),
  col('to', 6),
  col('seconds', 2),
  textCol('summary', 4),
];

export async function run(ctx: Context, o: Options): Promise<void> {
  if (o.contact && o.phone) throw usage('Give --contact or --phone, not both.');
  const res = await fetchList(ctx, o, '/v1/calls', {
    query: { ...listQuery(o), contact_id: o.contact, phone_number: o.phone, status: o.status },
  });
  ctx.emit(res, (body: any) => {
    table(
      ctx.io,
      callColumns(),
      body.data.map((c: any) => [
        c.id,
        c.created_at,
        c.direction,
        c.status,
        c.from_number,
        c.to_number,
        c.duration_seconds,
        c.summary,
      ]),
    );
    moreHint(ctx.io, body.meta);
  });
}
