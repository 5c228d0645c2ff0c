// vmv config use PROFILE: make a profile the active one
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { openConfig } from '../../src/config-store.js';
import { usage } from '../../src/errors.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('use')
      .argument('<profile>', 'profile name')
      .description('Make a profile the active one')
      .action(action(shell, run)),
    'vmv config use staging',
  );
}

export async function run(ctx: Context, _o: unknown, [profile]: string[]): Promise<void> {
  const store = await openConfig(ctx.env);
  const known = ['default', ...Object.keys(store.profiles()).filter((p) => p !== 'default')];
  if (!known.includes(profile))
    throw usage(
      `No profile named "${profile}". Profiles: ${known.join(', ')}.`,
      `Create one with \`vmv config set base_url URL --profile ${profile}\`.`,
    );
  store.setActive(profile);
  ctx.io.err(
    `Active profile: ${profile}${Object.hasOwn(store.profiles(), profile) ? '' : ' (empty: the embedded simulator until you set base_url)'}\n`,
  );
}
