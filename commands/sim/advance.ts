// vmv sim advance DURATION: POST /_sim/clock/advance
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';

export function define(parent: Command, shell: Shell): void {
  parent.command('advance').argument('<duration>', 'seconds, or a duration such as 90s, 15m, 2h, 1d, 1h30m')
    .description('Move the simulator clock forward, running every transition that falls due in time order')
    .addHelpText('after', examples('vmv sim advance 15m', 'vmv sim advance 3600'))
    .action(action(shell, run));
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export function parseDuration(raw: string): number {
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== raw)
    throw usage(`"${raw}" is not a duration: use seconds (90) or units like 90s, 15m, 2h, 1d, 1h30m.`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]], 0);
}

export async function run(ctx: Context, _o: unknown, [duration]: string[]): Promise<void> {
  const seconds = parseDuration(duration);
  const res = await ctx.call('POST', '/_sim/clock/advance', { body: { seconds } });
  ctx.emit(res, (c: any) => ctx.io.out(`Clock advanced ${seconds} s; now ${c.now}\n`));
}
