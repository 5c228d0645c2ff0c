// vmv sim reset: POST /_sim/reset
import type { Command } from 'commander';
import { action, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { maskKey } from '../../src/settings.js';

export function define(parent: Command, shell: Shell): void {
  parent.command('reset').description('Put the simulator back to its freshly seeded state (keeps the clock)').action(action(shell, run));
}

export async function run(ctx: Context): Promise<void> {
  const res = await ctx.call('POST', '/_sim/reset', { body: {} });
  ctx.emit(res, (b: any) => ctx.io.out(`Simulator reset. New full-access key: ${maskKey(b.api_key)} (use --json to see it whole)\n`));
}
