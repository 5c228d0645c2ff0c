// vmv sim deliveries [--event ID]: GET /_sim/webhook-deliveries (the delivery log, oldest first)
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { table } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  parent
    .command('deliveries')
    .description('The webhook delivery log: every attempt, oldest first')
    .option('--event <id>', 'only the attempts for this event id')
    .addHelpText('after', examples('vmv sim deliveries', 'vmv sim deliveries --event "$EVENT_ID" --json'))
    .action(action(shell, run));
}

export async function run(ctx: Context, o: { event?: string }): Promise<void> {
  const res = await ctx.call('GET', '/_sim/webhook-deliveries', { query: { event_id: o.event } });
  ctx.emit(res, (b: any) =>
    table(
      ctx.io,
      ['at', 'attempt', 'type', 'event', 'status', 'error', 'url'],
      b.data.map((d: any) => [d.at, d.attempt, d.type, d.event_id, d.status_code, d.error, d.url]),
    ),
  );
}
