// vmv history recording ID: GET /v1/calls/{id}/recording, saved to a file (or stdout when piped) as it
// arrives, never held whole in memory on either target.
import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ApiResponse } from '../../src/client.js';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('recording')
      .argument('<id>', 'call id', idArg('call'))
      .description('Download a call recording (raw audio)')
      .option('-o, --output <file>', 'file to write (default: standard output when it is not a terminal)')
      .action(action(shell, run)),
    'vmv history recording "$CALL_ID" -o call.wav',
    'vmv history recording "$CALL_ID" > call.wav',
  );
}

export async function run(ctx: Context, o: { output?: string }, [id]: string[]): Promise<void> {
  if (!o.output && ctx.io.stdoutTTY)
    throw usage('Refusing to write audio to a terminal: give --output FILE or pipe the output.');
  const path = `/v1/calls/${encodeURIComponent(id)}/recording`;
  // the audio goes where it is saved as it arrives (a 2-hour call is 57.6 MB), on either target
  if (!o.output) return void (await ctx.call('GET', path, { into: process.stdout }));
  const { bytes, type } = await saveWhole(o.output, (into) => ctx.call('GET', path, { into }));
  ctx.io.err(`Saved ${bytes} bytes of ${type ?? 'audio'} to ${o.output}\n`);
}

/**
 * Writes a download to `file` whole or not at all: into a file beside it, renamed over it once every
 * byte is on disk; on any failure the partial file is removed and `file` is as it was.
 */
async function saveWhole(
  file: string,
  download: (into: NodeJS.WritableStream) => Promise<ApiResponse>,
): Promise<{ bytes: number; type?: string }> {
  const part = join(dirname(file), `.${basename(file)}.${process.pid}.part`);
  const out = createWriteStream(part);
  // a write error (a full disk) fails the download where it waits, not the process
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  try {
    const res = await Promise.race([download(out), failed]);
    await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed]);
    await rename(part, file);
    return { bytes: res.written ?? res.body.length, type: res.headers['content-type'] };
  } catch (e) {
    out.destroy();
    await rm(part, { force: true });
    throw e;
  }
}
