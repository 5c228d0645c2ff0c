// vmv config unset KEY: remove a setting from a profile
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { checkKey, openConfig, retargetNote } from '../../src/config-store.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('unset')
      .argument('<key>', 'base_url, api_key or default_country')
      .description('Remove a setting from the profile (no base_url: the embedded simulator)')
      .action(action(shell, run)),
    'vmv config unset base_url',
  );
}

export async function run(ctx: Context, _o: unknown, [rawKey]: string[]): Promise<void> {
  const key = checkKey(rawKey);
  const store = await openConfig(ctx.env);
  const profile = ctx.globals.profile ?? ctx.env.VMV_PROFILE ?? store.active();
  const moved = store.unsetValue(profile, key);
  ctx.io.err(`Removed ${key} from profile "${profile}".\n`);
  if (moved) ctx.io.err(retargetNote(moved, null) + '\n');
}
