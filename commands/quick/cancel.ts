// vmv quick cancel ID: POST /v1/quick/actions/{id}/cancel
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { printJob } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('cancel')
      .argument('<id>', 'job id')
      .description('Stop a job: remaining dials and replies stop; a connected call finishes')
      .action(action(shell, run)),
    'JOB=$(vmv quick call +14155550102 --goal "Confirm the appointment")',
    'vmv quick cancel "$JOB"',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('POST', `/v1/quick/actions/${encodeURIComponent(id)}/cancel`, { body: {} });
  ctx.emit(res, (b: any) => printJob(ctx, b.data));
}
