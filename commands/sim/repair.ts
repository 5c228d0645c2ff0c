// vmv sim repair: mends a data file whose journal the simulator refuses to open (a damaged line, a
// header of another snapshot, a journal whose snapshot is gone). Every entry that can still be
// applied is; what cannot is named by line; a copy of the journal as it was is kept beside it.
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { dataFileOf } from './data-file.js';

interface Options {
  data?: string;
  dryRun?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('repair')
      .description('Mend a data file whose journal is damaged, keeping a copy of what it sets aside')
      .option('--data <file>', "the data file to mend (default: the embedded simulator's, or VMV_SIM_DATA)")
      .option('--dry-run', 'say what it would keep and set aside, and change nothing')
      .addHelpText(
        'after',
        `
The simulator refuses to open a store whose journal it cannot read whole, rather than drop what it
cannot read (only a half-written last line, from a writer stopped mid-append, is dropped by itself).
repair applies every entry before the first line it cannot read, and sets that line and the entries
after it aside: they may rest on what the lost one did (a charge, a timer), and applying them would
make the money and the jobs disagree. The journal as it was is copied to <journal>.damaged-<time>
first (what was set aside is there, by line); the result becomes a new snapshot.`,
      )
      .action(action(shell, run)),
    'vmv sim repair --dry-run',
    'vmv sim repair --data ./ci-sim.json',
    'vmv sim repair --json | jq .dropped',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const data = dataFileOf(ctx, o.data, 'repair');
  const { Store } = await import('../../simulator/index.js');
  const r = await new Store(data).repair({ dryRun: o.dryRun });
  if (ctx.json) return void ctx.io.out(JSON.stringify({ ...r, dry_run: !!o.dryRun }) + '\n');
  const { io } = ctx;
  if (!r.needed) return void io.err(`Nothing to repair: ${data} opens as it is.\n`);
  const would = o.dryRun ? 'Would ' : '';
  if (r.fresh)
    io.err(
      `${would || ''}${would ? 'start' : 'Started'} a fresh world: the data file ${r.file} was missing or empty beside a journal (${r.wholeJournal}).\n`,
    );
  else if (r.wholeJournal)
    io.err(
      `${would ? 'Would set' : 'Set'} the whole journal aside: ${r.wholeJournal}. The data file stands as it was.\n`,
    );
  else if (r.damaged) {
    const entries = (n: number) => `${n} journal entr${n === 1 ? 'y' : 'ies'}`;
    io.err(
      `${would ? 'Would keep' : 'Kept'} ${entries(r.kept)}, those before line ${r.damaged.line} (${r.damaged.reason}); ${would ? 'would set' : 'set'} aside that line` +
        `${r.after > 0 ? ` and the ${entries(r.after)} after it (lines ${r.damaged.line + 1} to ${r.damaged.line + r.after})` : ''}.\n`,
    );
  }
  if (r.copy) io.err(`The journal as it was: ${r.copy}\n`);
  if (o.dryRun) io.err('Nothing was changed (--dry-run).\n');
}
