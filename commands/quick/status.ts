// vmv quick status ID [--watch]: GET /v1/quick/actions/{id}; a quick email's id (vmv email send):
// its messages, one per recipient (GET /_sim/outbox?sent_by=ID on a simulator)
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { ApiCallError } from '../../src/errors.js';
import { messagesOfSend, outboxTable } from '../sim/outbox.js';
import { followNumber, renderNumber } from './number.js';
import { followJob, printJob } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('status')
      .argument('<id>', 'job id, the id vmv email send printed, or the integer id of an AI number')
      .description('A quick call or text job with its targets, or an AI number')
      .option('--watch', 'follow until the job ends: a live table on a terminal, one line per change when piped')
      .action(action(shell, run)),
    'JOB=$(vmv quick call +14155550100 --goal "Confirm the appointment")',
    'vmv quick status "$JOB" --watch',
    'vmv quick status 1001',
  );
}

export async function run(ctx: Context, o: { watch?: boolean }, [id]: string[]): Promise<void> {
  if (/^\d+$/.test(id)) {
    if (o.watch) return followNumber(ctx, id, false);
    const res = await ctx.call('GET', `/v1/quick/ai-numbers/${id}`);
    return ctx.emit(res, (b: any) => renderNumber(ctx)(b.data));
  }
  if (o.watch) return followJob(ctx, id, { failOnFailed: false, streamChanges: true });
  const res = await ctx.call('GET', `/v1/quick/actions/${encodeURIComponent(id)}`).catch(async (e) => {
    // not a job: the id of a send `vmv email send` printed shows its messages, one per recipient
    const send = e instanceof ApiCallError && e.status === 404 ? await messagesOfSend(ctx, id) : null;
    if (send) return send;
    if (e instanceof ApiCallError && e.status === 404)
      e.hint =
        `${e.hint ?? ''} An email's id (vmv email send): its messages are in vmv sim outbox ID on a simulator, vmv history emails --email ADDRESS anywhere.`.trim();
    throw e;
  });
  if (res.json<{ data: unknown }>().data instanceof Array) return outboxTable(ctx, res);
  ctx.emit(res, (b: any) => printJob(ctx, b.data));
}
