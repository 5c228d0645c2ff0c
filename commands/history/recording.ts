// vmv history recording ID: GET /v1/calls/{id}/recording, saved to a file (or stdout when piped)
import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { action, examples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';

export function define(parent: Command, shell: Shell): void {
  parent
    .command('recording')
    .argument('<id>', 'call id', idArg('call'))
    .description('Download a call recording (raw audio)')
    .option('-o, --output <file>', 'file to write (default: standard output when it is not a terminal)')
    .addHelpText(
      'after',
      examples('vmv history recording "$CALL_ID" -o call.wav', 'vmv history recording "$CALL_ID" > call.wav'),
    )
    .action(action(shell, run));
}

export async function run(ctx: Context, o: { output?: string }, [id]: string[]): Promise<void> {
  if (!o.output && ctx.io.stdoutTTY)
    throw usage('Refusing to write audio to a terminal: give --output FILE or pipe the output.');
  const res = await ctx.call('GET', `/v1/calls/${encodeURIComponent(id)}/recording`);
  if (o.output) {
    await writeFile(o.output, res.body);
    ctx.io.err(`Saved ${res.body.length} bytes of ${res.headers['content-type'] ?? 'audio'} to ${o.output}\n`);
  } else {
    ctx.io.out(res.body);
  }
}
