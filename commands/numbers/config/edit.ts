// vmv numbers config edit ID: opens $VISUAL/$EDITOR on the configuration and sends only what changed
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diff, leafPaths } from '../../../src/assign.js';
import { action, withExamples, type Shell } from '../../../src/command.js';
import type { Context } from '../../../src/context.js';
import { usage } from '../../../src/errors.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('edit')
      .argument('<id>', 'number id')
      .description('Edit the configuration in $VISUAL or $EDITOR; only changed fields are sent')
      .action(action(shell, run)),
    'EDITOR=nano vmv numbers config edit 1001',
    'vmv numbers config edit 1001',
  );
}

/** Fields the editor shows but the API does not take. */
function editable(config: any): any {
  const { id: _i, phone_number: _p, stack: _s, ...rest } = config;
  const { inherits_workspace_default: _v, ...voice } = rest.voice;
  const { inherits_workspace_default: _m, ...sms } = rest.sms;
  return { ...rest, voice, sms };
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  if (!ctx.io.stdinTTY || !ctx.io.stdoutTTY)
    throw usage('config edit needs a terminal; use `vmv numbers config set` (or --file) in scripts.');
  const res = await ctx.call('GET', `/v1/phone-numbers/${encodeURIComponent(id)}/config`);
  const before = editable(res.json().data);
  const dir = await mkdtemp(join(tmpdir(), 'vmv-edit-'));
  const file = join(dir, `number-${id}.json`);
  try {
    await writeFile(file, JSON.stringify(before, null, 2) + '\n', { mode: 0o600 });
    const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi';
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env: ctx.env as NodeJS.ProcessEnv });
      child.on('exit', resolve);
      child.on('error', reject);
    });
    if (code !== 0) throw usage(`The editor (${editor}) exited with ${code}; nothing was changed.`);
    let after: unknown;
    try {
      after = JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      throw usage(`The edited file is not valid JSON (${(e as Error).message}); nothing was changed.`);
    }
    const patch = diff(before, after as never) as Record<string, unknown> | undefined;
    // the phone menu's first enabling needs its whole section (rule 4): send all of it when it changed
    if (patch?.ivr !== undefined) patch.ivr = (after as { ivr: unknown }).ivr;
    if (patch === undefined) {
      ctx.io.err('No changes.\n');
      return;
    }
    const out = await ctx.call('PATCH', `/v1/phone-numbers/${encodeURIComponent(id)}/config`, { body: patch });
    ctx.emit(out, () => ctx.io.err(`Updated number ${id}: ${leafPaths(patch as never).join(', ')}\n`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
