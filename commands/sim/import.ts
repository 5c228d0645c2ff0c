// vmv sim import FILE: makes a world from an export (or another data file, its journal included) the
// world of the data file, under its lock; servers and commands on that file see it at their next
// request. Replacing a world asks first (--yes without a terminal).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { action, withExamples, readStdinBytes, type Shell } from '../../src/command.js';
import { usage } from '../../src/errors.js';
import type { Context } from '../../src/context.js';
import { dataFileOf, size } from './data-file.js';

interface Options {
  data?: string;
  yes?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('import')
      .argument('<file>', 'an export, or a data file (- for standard input)')
      .description('Replace the simulated world with the one in a file (an export, or another data file)')
      .option('--data <file>', "the data file to import into (default: the embedded simulator's, or VMV_SIM_DATA)")
      .option('-y, --yes', 'replace an existing world without asking (needed without a terminal)')
      .addHelpText(
        'after',
        `
Into a new data file it simply writes one; over an existing world it asks first (type "replace"), or
takes --yes. The world's records, keys and clock all come from the file: its full-access key is
printed masked (\`vmv sim key\` mints another).`,
      )
      .action(action(shell, run)),
    'vmv sim import fixtures/world.json --data ./ci-sim.json',
    'gunzip -c world.json.gz | vmv sim import - --yes',
    'vmv sim export before.json && ... && vmv sim import before.json --yes',
  );
}

export async function run(ctx: Context, o: Options, [file]: string[]): Promise<void> {
  const data = dataFileOf(ctx, o.data, 'import');
  const { Store } = await import('../../simulator/index.js');
  const store = new Store(data);
  if (await store.holdsWorld())
    await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
      verb: 'replace',
      done: 'replaced',
      subject: `the world in ${data}`,
      consequence: `Its records, keys and clock are replaced by those in ${file === '-' ? 'standard input' : file} (export it first to keep a copy).`,
    });
  let from = file;
  let tmp: string | null = null;
  if (file === '-') {
    tmp = await mkdtemp(join(tmpdir(), 'vmv-import-'));
    from = join(tmp, 'world.json');
    const { MAX_IMPORT_BYTES } = await import('../../simulator/index.js');
    const bytes = await readStdinBytes(ctx.io, MAX_IMPORT_BYTES);
    if (bytes === null)
      throw usage(`Standard input holds more than ${MAX_IMPORT_BYTES} bytes: vmv sim import reads at most that.`);
    await writeFile(from, bytes, { mode: 0o600 });
  }
  try {
    const { bytes, data: world } = await store.import(from);
    const apiKey = world.meta.default_api_key;
    const { maskKey } = await import('../../src/settings.js');
    if (ctx.json) ctx.io.out(JSON.stringify({ data_file: data, from: file, bytes, api_key: maskKey(apiKey) }) + '\n');
    else
      ctx.io.err(
        `Imported ${file === '-' ? 'standard input' : file} into ${data} (${size(bytes)}). Its full-access key: ${maskKey(apiKey)}\n`,
      );
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}
