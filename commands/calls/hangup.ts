// vmv calls hangup ID: POST /v1/voice/calls/{id}/hangup
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('hangup')
      .argument('<id>', 'call id', idArg('call'))
      .description('End a ringing or in-progress call')
      .action(action(shell, run)),
    'CALL=$(vmv calls place --caller-id +14155550123 --to +14155550100)',
    'vmv calls hangup "$CALL"',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('POST', `/v1/voice/calls/${encodeURIComponent(id)}/hangup`);
  ctx.emit(res, ({ data }: any) =>
    ctx.io.err(
      `Call ${data.id} ended: ${data.status}${data.duration_seconds !== null ? ` after ${data.duration_seconds} s` : ''}\n`,
    ),
  );
}
