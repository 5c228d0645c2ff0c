// vmv sim outbox [ID]: GET /_sim/outbox (every email, text and call the workspace sent, newest
// first) or GET /_sim/outbox/{id} (one of them whole; a send's id, such as `vmv email send` prints:
// its messages, GET /_sim/outbox?sent_by=ID): "what did my app just send?"
import type { Command } from 'commander';
import { action, choiceArg, withExamples, timeArg, type Shell } from '../../src/command.js';
import type { ApiResponse } from '../../src/client.js';
import type { Context } from '../../src/context.js';
import { ApiCallError } from '../../src/errors.js';
import { declareFieldAliases } from '../../src/field-flags.js';
import { resolveId } from '../../src/ids.js';
import { fetchList, listQuery, withList, type ListOptions } from '../../src/list.js';
import { col, fields, idCol, moreHint, table, textCol } from '../../src/output.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Options extends ListOptions {
  kind?: string;
  since?: string;
  before?: string;
}

export function define(parent: Command, shell: Shell): void {
  const cmd = withExamples(
    withList(
      parent
        .command('outbox')
        .argument('[id]', 'one message, shown whole (its id, or the start of it)')
        .description('What the workspace sent: every email, text and call, newest first (one of them whole with ID)'),
    )
      .option('--kind <kind>', 'only emails, texts or calls', choiceArg('--kind', ['email', 'text', 'call']))
      .option(
        '--since <time>',
        "sent after this time: a time ago on the simulator's clock (10m, 2h, today) or ISO 8601",
        timeArg('--since'),
      )
      .option('--before <time>', 'sent before this time: ISO 8601, a date, or a time ago', timeArg('--before'))
      .action(action(shell, run)),
    'vmv sim outbox',
    'vmv sim outbox --kind email --since 10m',
    'vmv sim outbox "$MESSAGE_ID"',
    "vmv sim outbox --kind text --json | jq -r '.data[].body'",
  );
  declareFieldAliases(cmd, { '--since': ['created_after'], '--before': ['created_before'] });
}

/** What a message is about in one line: an email's subject, a text's words, a call's status and length. */
function what(m: any): string {
  if (m.kind === 'email') return m.subject;
  if (m.kind === 'text') return m.body;
  const d = m.record.duration_seconds;
  const about = m.record.summary || m.record.end_reason || '';
  return d === null || d === undefined ? about : `${d} s${about ? `: ${about}` : ''}`;
}

export async function run(ctx: Context, o: Options, [id]: string[]): Promise<void> {
  if (id !== undefined) return show(ctx, id);
  const res = await fetchList(ctx, o, '/_sim/outbox', {
    query: { ...listQuery({ ...o, after: o.since }), kind: o.kind },
  });
  outboxTable(ctx, res);
}

/**
 * The messages of one send (the id `vmv email send` or `vmv quick text` printed), newest first, or
 * null when no message has it: the commands that print a send's id lead here (issue 33, point 3).
 */
export async function messagesOfSend(ctx: Context, id: string): Promise<ApiResponse | null> {
  if (!UUID.test(id)) return null;
  try {
    const res = await ctx.call('GET', '/_sim/outbox', { query: { sent_by: id, limit: 100 } });
    return res.json<{ data: unknown[] }>().data.length ? res : null;
  } catch (e) {
    if (e instanceof ApiCallError && e.status === 404) return null; // a service: no outbox
    throw e;
  }
}

/** Outbox messages as a table (a list, or a send's messages). */
export function outboxTable(ctx: Context, res: ApiResponse): void {
  ctx.emit(res, (body: any) => {
    table(
      ctx.io,
      [col('kind', 6), idCol(), col('when', 8), col('to', 7), col('status', 5), textCol('what', 4)],
      body.data.map((m: any) => [m.kind, m.id, m.created_at, m.to, m.status, what(m)]),
    );
    moreHint(ctx.io, body.meta);
  });
}

async function show(ctx: Context, typed: string): Promise<void> {
  const id = await resolveId(ctx, typed, { noun: 'outbox', path: '/_sim/outbox' });
  const res = await ctx.call('GET', `/_sim/outbox/${encodeURIComponent(id)}`).catch(async (e) => {
    // a send's id (one email to several people): its messages, one per recipient
    const send = e instanceof ApiCallError && e.status === 404 ? await messagesOfSend(ctx, id) : null;
    if (!send) throw e;
    return send;
  });
  if (res.json<{ data: unknown }>().data instanceof Array) return outboxTable(ctx, res);
  ctx.emit(res, ({ data: m }: any) => {
    fields(ctx.io, [
      ['kind', m.kind],
      ['id', m.id],
      ['sent', m.created_at],
      ['status', m.status],
      ['from', m.from],
      ['to', m.to],
      ...(m.kind === 'email' ? ([['subject', m.subject]] as [string, string][]) : []),
      ...(m.kind === 'call'
        ? ([
            ['duration', m.record.duration_seconds === null ? null : `${m.record.duration_seconds} s`],
            ['summary', m.record.summary],
          ] as [string, string | null][])
        : []),
    ]);
    // the body whole: as written on a terminal (below a blank line), one tab-separated line when piped
    if (ctx.io.stdoutTTY) ctx.io.out(`\n${m.body || '(empty)'}\n`);
    else ctx.io.out(`body\t${m.body.replace(/\r?\n/g, '\\n')}\n`);
  });
}
