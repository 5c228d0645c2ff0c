// vmv webhooks test ID [--sms]: POST /v1/voice/calls/webhooks/{id}/test or /v1/sms/webhooks/{id}/test.
// On the simulator it also reports how the first attempt went (from the delivery log).
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { CliError, EXIT } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { green } from '../../src/output.js';
import { KINDS, kindOf, withKind } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withKind(
      parent
        .command('test')
        .argument('<id>', 'webhook id', idArg('webhook'))
        .description(
          'Send a signed sample event with test true (call.ended, or call.started if that is all it takes; sms.received)',
        ),
      'test',
    ).action(action(shell, run)),
    'vmv webhooks test "$WEBHOOK_ID"',
    'vmv webhooks test --sms "$WEBHOOK_ID"',
  );
}

export async function run(ctx: Context, o: { sms?: boolean }, [id]: string[]): Promise<void> {
  const res = await ctx.call('POST', `${KINDS[kindOf(o)].path}/${encodeURIComponent(id)}/test`, { body: {} });
  const sent = res.json<{ data: { event_id?: string; type?: string; url?: string } }>().data;
  ctx.emit(res, () => {
    ctx.io.out(`${sent.event_id}\n`);
    ctx.io.err(`Sent a signed test ${sent.type} to ${sent.url}\n`);
  });
  if (sent.event_id) await reportAttempt(ctx, sent.event_id);
}

/**
 * The simulator's delivery log says how the attempt went: a failed one exits 1. A real service has
 * no such route, and says nothing (its attempts are seen at the receiver).
 */
async function reportAttempt(ctx: Context, eventId: string): Promise<void> {
  const res = await (await ctx.client())
    .request('GET', '/_sim/webhook-deliveries', { query: { event_id: eventId } })
    .catch(() => null);
  if (res?.status !== 200) return;
  const first = res.json<{ data: { status_code: number | null; error: string | null }[] }>().data[0];
  if (!first) return;
  const io = forStderr(ctx.io);
  if (first.error === null) {
    if (!ctx.json) ctx.io.err(`${green(io, 'Delivered')}: HTTP ${first.status_code}\n`);
  } else
    throw new CliError(
      `Not delivered: ${first.error}; retried 1, 5 and 30 minutes after the first attempt (vmv sim deliveries)`,
      EXIT.api,
    );
}
