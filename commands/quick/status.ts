// vmv quick status ID [--watch]: GET /v1/quick/actions/{id}
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { followNumber, renderNumber } from './number.js';
import { followJob, printJob } from './view.js';

export function define(parent: Command, shell: Shell): void {
  parent
    .command('status')
    .argument('<id>', 'job id, or the integer id of an AI number')
    .description('A quick call or text job with its targets, or an AI number')
    .option('--watch', 'follow until the job ends: a live table on a terminal, one line per change when piped')
    .addHelpText(
      'after',
      examples(
        'JOB=$(vmv quick call +14155550100 --goal "Confirm the appointment")',
        'vmv quick status "$JOB" --watch',
        'vmv quick status 1001',
      ),
    )
    .action(action(shell, run));
}

export async function run(ctx: Context, o: { watch?: boolean }, [id]: string[]): Promise<void> {
  if (/^\d+$/.test(id)) {
    if (o.watch) return followNumber(ctx, id, false);
    const res = await ctx.call('GET', `/v1/quick/ai-numbers/${id}`);
    return ctx.emit(res, (b: any) => renderNumber(ctx)(b.data));
  }
  if (o.watch) return followJob(ctx, id, { failOnFailed: false, streamChanges: true });
  const res = await ctx.call('GET', `/v1/quick/actions/${encodeURIComponent(id)}`);
  ctx.emit(res, (b: any) => printJob(ctx, b.data));
}
