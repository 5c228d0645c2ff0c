// vmv config delete PROFILE: remove a profile and its settings
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { openConfig } from '../../src/config-store.js';
import { usage } from '../../src/errors.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('delete')
      .argument('<profile>', 'profile name')
      .description('Delete a profile and its settings')
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
      .action(action(shell, run)),
    'vmv config delete staging',
  );
}

export async function run(ctx: Context, o: { yes?: boolean }, [profile]: string[]): Promise<void> {
  const store = await openConfig(ctx.env);
  if (!Object.hasOwn(store.profiles(), profile)) throw usage(`No profile named "${profile}".`);
  await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
    verb: 'delete',
    done: 'deleted',
    subject: `profile "${profile}"`,
    consequence: 'Its settings, API key included, are removed.',
  });
  store.deleteProfile(profile);
  ctx.io.err(`Deleted profile "${profile}".\n`);
}
