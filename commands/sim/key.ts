// vmv sim key: POST /_sim/api-keys (prints the new key: creation is the one time it is shown)
import type { Command } from 'commander';
import { action, choicesArg, withExamples, type Shell } from '../../src/command.js';
// a constant of the store's model (no state): the scopes a key can carry
import { SCOPES } from '../../simulator/vocabulary.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('key')
      .description('Create an API key on the simulator and print it (no --scope: full access)')
      .option(
        '--scope <scope>',
        `a scope (repeat or comma-separate for more): ${SCOPES.join(', ')}`,
        choicesArg('--scope', SCOPES),
      )
      .option('--workspace <id>', "workspace of the key (default: the seeded one, or the --api-key's)")
      .action(action(shell, run)),
    'vmv sim key',
    'vmv sim key --scope calls:read --scope sms:read',
  );
}

export async function run(ctx: Context, o: { scope?: string[]; workspace?: string }): Promise<void> {
  const res = await ctx.call('POST', '/_sim/api-keys', { body: { scopes: o.scope, workspace_id: o.workspace } });
  ctx.emit(res, (k: any) => {
    ctx.io.out(k.key + '\n');
    ctx.io.err(`Scopes: ${k.scopes ? k.scopes.join(', ') : 'full access'}; workspace ${k.workspace_id}\n`);
  });
}
