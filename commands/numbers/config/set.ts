// vmv numbers config set ID section.field=value ... [--file patch.json]: PATCH /v1/phone-numbers/{id}/config
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { assignmentsToPatch, leafPaths, merge } from '../../../src/assign.js';
import { action, withExamples, readStdin, type Shell } from '../../../src/command.js';
import type { Context } from '../../../src/context.js';
import { usage } from '../../../src/errors.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('set')
      .argument('<id>', 'number id')
      .argument('[assignments...]', 'section.field=value (value is JSON when it parses, else text)')
      .description('Change settings: only the fields given change; lists are replaced whole')
      .option('--file <file>', 'a JSON patch of sections (- for standard input), applied before the assignments')
      .action(action(shell, run)),
    'vmv numbers config set 1001 is_active=false call_settings.recording_enabled=false',
    "vmv numbers config set 1001 'voice.greeting_message=Thanks for calling Acme!'",
    'vmv numbers config set 1001 \'transfers.rules=[{"condition":"human_requested","action":"transfer","target_number":"+12025550100"}]\'',
    'vmv numbers config set 1001 --file patch.json',
  );
}

export async function run(ctx: Context, o: { file?: string }, [id, ...assignments]: string[]): Promise<void> {
  let patch = {};
  if (o.file !== undefined) {
    const text =
      o.file === '-'
        ? await readStdin(ctx.io)
        : await readFile(o.file, 'utf8').catch((e: Error) => {
            throw usage(`Cannot read --file: ${e.message}`);
          });
    try {
      patch = JSON.parse(text);
    } catch (e) {
      throw usage(`--file is not valid JSON: ${(e as Error).message}`);
    }
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
      throw usage('--file must hold a JSON object of sections.');
  }
  patch = merge(patch, assignmentsToPatch(assignments));
  if (Object.keys(patch).length === 0)
    throw usage('Nothing to change: give section.field=value assignments or --file.');
  const res = await ctx.call('PATCH', `/v1/phone-numbers/${encodeURIComponent(id)}/config`, { body: patch });
  ctx.emit(res, () => ctx.io.err(`Updated number ${id}: ${leafPaths(patch).join(', ')}\n`));
}
