// vmv config path: where settings and the embedded simulator's data live
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fields } from '../../src/output.js';
import { configFile, simDataFile } from '../../src/paths.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent.command('path').description('Show the settings file and the simulator data file').action(action(shell, run)),
    'vmv config path',
  );
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
