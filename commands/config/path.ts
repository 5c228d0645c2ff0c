// vmv config path: where settings and the embedded simulator's data live
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fields } from '../../src/output.js';
import { configFile, simDataFile } from '../../src/paths.js';

export function define(parent: Command, shell: Shell): void {
  parent
    .command('path')
    .description('Show the settings file and the simulator data file')
    .addHelpText('after', examples('vmv config path'))
    .action(action(shell, run));
}

export async function run(ctx: Context): Promise<void> {
  const view = { config: configFile(ctx.env), sim_data: simDataFile(ctx.env) };
  if (ctx.json) ctx.io.out(JSON.stringify(view) + '\n');
  else
    fields(ctx.io, [
      ['config', view.config],
      ['sim data', view.sim_data],
    ]);
}
