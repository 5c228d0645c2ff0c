// vmv sim deliveries [--event ID]: GET /_sim/webhook-deliveries (the delivery log, oldest first);
// vmv sim deliveries resend ID: POST /_sim/webhook-deliveries/{id}/resend.
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { col, idCol, table, textCol } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  const deliveries = withExamples(
    parent
      .command('deliveries')
      .description('The webhook delivery log: every attempt, oldest first')
      .option('--event <id>', 'only the attempts for this event id')
      .action(action(shell, run))
      // (a command with an action gets no implicit help subcommand; the list shows it, as for every group)
      .helpCommand(true),
    'vmv sim deliveries',
    'vmv sim deliveries --event "$EVENT_ID" --json',
    'vmv sim deliveries resend att_42',
  );
  withExamples(
    deliveries
      .command('resend')
      .description(
        "Send a delivery attempt's exact bytes to its webhook once more (a new attempt, not retried if it fails)",
      )
      .argument('<id>', "the attempt's id (the id column of vmv sim deliveries)")
      .action(action(shell, resend)),
    'vmv sim deliveries resend att_42',
    'vmv sim deliveries resend att_42 --json',
  );
}

export async function run(ctx: Context, o: { event?: string }): Promise<void> {
  const res = await ctx.call('GET', '/_sim/webhook-deliveries', { query: { event_id: o.event } });
  ctx.emit(res, (b: any) =>
    table(
      ctx.io,
      [
        col('at', 8),
        col('attempt', 5),
        col('type', 7),
        col('event', 3),
        col('status', 6),
        textCol('error', 4),
        col('url', 2),
        idCol(),
      ],
      b.data.map((d: any) => [d.at, d.attempt, d.type, d.event_id, d.status_code, d.error, d.url, d.id]),
    ),
  );
}

export async function resend(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('POST', `/_sim/webhook-deliveries/${encodeURIComponent(id)}/resend`, { body: {} });
  const queued = res.json().data;
  // the control plane replies once the attempt was made: the log has it
  const log = await ctx.call('GET', '/_sim/webhook-deliveries', { query: { event_id: queued.event_id } });
  const made = log.json().data.find((d: any) => d.resend_of === id && d.attempt === queued.attempt);
  ctx.emit(res, () => {
    ctx.io.out(`${made?.id ?? ''}\n`);
    if (!made) return ctx.io.err(`Resend queued as attempt ${queued.attempt}.\n`);
    ctx.io.err(`Resent as attempt ${made.attempt}: ${made.error ?? `HTTP ${made.status_code}`}\n`);
  });
}
