// vmv sim repair: mends a data file whose journal the simulator refuses to open (a damaged line, a
// header of another snapshot, a journal whose snapshot is gone). Every entry that can still be
// applied is; what cannot is named by line; a copy of the journal as it was is kept beside it.
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { dataFileOf } from './data-file.js';

interface Options { data?: string; dryRun?: boolean }

export function define(parent: Command, shell: Shell): void {
  parent.command('repair').description('Mend a data file whose journal is damaged, keeping a copy of what it sets aside')
    .option('--data <file>', 'the data file to mend (default: the embedded simulator\'s, or VMV_SIM_DATA)')
    .option('--dry-run', 'say what it would keep and set aside, and change nothing')
    .addHelpText('after', `
The simulator refuses to open a store whose journal it cannot read whole, rather than drop what it
cannot read (only a half-written last line, from a writer stopped mid-append, is dropped by itself).
repair applies every entry it can: all of them before a damaged line, and after it each entry whose
changes can still be placed for certain (a record replaced where a record of the same id is). The
journal as it was is copied to <journal>.damaged-<time> first; the result becomes a new snapshot.`)
    .addHelpText('after', examples('vmv sim repair --dry-run', 'vmv sim repair --data ./ci-sim.json', 'vmv sim repair --json | jq .dropped'))
    .action(action(shell, run));
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const data = dataFileOf(ctx, o.data, 'repair');
  const { Store } = await import('../../simulator/index.js');
  const r = await new Store(data).repair({ dryRun: o.dryRun });
  if (ctx.json) return void ctx.io.out(JSON.stringify({ ...r, dry_run: !!o.dryRun }) + '\n');
  const { io } = ctx;
  if (!r.needed) return void io.err(`Nothing to repair: ${data} opens as it is.\n`);
  const would = o.dryRun ? 'Would ' : '';
  if (r.fresh) io.err(`${would || ''}${would ? 'start' : 'Started'} a fresh world: the data file ${r.file} was missing or empty beside a journal (${r.wholeJournal}).\n`);
  else if (r.wholeJournal) io.err(`${would ? 'Would set' : 'Set'} the whole journal aside: ${r.wholeJournal}. The data file stands as it was.\n`);
  else io.err(`${would ? 'Would keep' : 'Kept'} ${r.kept} journal entr${r.kept === 1 ? 'y' : 'ies'}; ${would ? 'would set' : 'set'} aside ${r.dropped.length}:\n`);
  for (const d of r.dropped) io.err(`  line ${d.line}: ${d.reason}\n`);
  if (r.copy) io.err(`The journal as it was: ${r.copy}\n`);
  if (o.dryRun) io.err('Nothing was changed (--dry-run).\n');
}
