// vmv sim export FILE: the whole simulated world as one self-contained file (the journal folded in),
// taken under the data file's lock while servers and other commands keep running: a fixture to
// commit, a CI cache, a copy before an experiment. The file is a data file itself (--data takes it).
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { dataFileOf, size } from './data-file.js';

interface Options {
  data?: string;
  yes?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('export')
      .argument('<file>', 'where to write the world (- for standard output)')
      .description('Copy the whole simulated world into one file, consistently, even while a server runs')
      .option('--data <file>', "the data file to copy (default: the embedded simulator's, or VMV_SIM_DATA)")
      .option('-y, --yes', 'write over a world already in FILE without asking (needed without a terminal)')
      .addHelpText(
        'after',
        `
The data is two files, the snapshot (sim.json) and its journal (sim.json.journal): copying sim.json
alone misses what the journal holds. The export is one file with everything, written whole or not
at all; give it to --data, VMV_SIM_DATA or \`vmv sim import\` to use it. Over a FILE that holds a
world (say a fixture used since, with a journal of its own), it asks first, or takes --yes; that
world's journal is then spent, as after an import.`,
      )
      .action(action(shell, run)),
    'VMV_SIM_DATA=fixtures/world.json vmv contacts list',
    'vmv sim export - --data ./ci-sim.json | gzip > world.json.gz',
    'vmv sim export fixtures/world.json',
  );
}

export async function run(ctx: Context, o: Options, [file]: string[]): Promise<void> {
  const data = dataFileOf(ctx, o.data, 'export');
  if (file === '-' && ctx.json)
    throw usage('--json describes an export written to a file; with - the world itself goes to standard output.');
  const { Store } = await import('../../simulator/index.js');
  if (file !== '-' && (await new Store(file).holdsWorld()))
    await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
      verb: 'replace',
      done: 'replaced',
      subject: `the world in ${file}`,
      consequence: `It is replaced by the world in ${data}.`,
    });
  const out = await new Store(data).export(file === '-' ? null : file);
  if (out.content) return void ctx.io.out(out.content);
  if (ctx.json) ctx.io.out(JSON.stringify({ file, data_file: data, bytes: out.bytes }) + '\n');
  else ctx.io.err(`Exported the world in ${data} to ${file} (${size(out.bytes)}).\n`);
}
