// vmv sim social add|remove: connect or disconnect a simulated social account (POST/DELETE /_sim/social-connections)
import type { Command } from 'commander';
import { action, choiceArg, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { PLATFORMS } from '../../simulator/vocabulary.js';

export function define(parent: Command, shell: Shell): void {
  const social = parent
    .command('social')
    .description('Social accounts of the simulated workspace (one per platform is seeded)');
  withExamples(
    social
      .command('add')
      .description('Connect a social account; prints its id')
      .requiredOption('--platform <name>', PLATFORMS.join(', '), choiceArg('--platform', PLATFORMS))
      .option(
        '--name <name>',
        'the account\'s name (its handle is made from it; default: "<workspace name> on <Platform>", handle from the workspace\'s name)',
      )
      .action(action(shell, add)),
    'vmv sim social add --platform tiktok --name "Acme Coffee"',
  );
  withExamples(
    social
      .command('remove')
      .argument('<id>', 'social connection id (vmv social list)', idArg('social'))
      .description('Disconnect a social account, as on the platform: its scheduled posts fail')
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
      .action(action(shell, remove)),
    'ID=$(vmv sim social add --platform tiktok --name "Second account")',
    'vmv sim social remove "$ID" --yes',
  );
}

export async function add(ctx: Context, o: { platform: string; name?: string }): Promise<void> {
  const res = await ctx.call('POST', '/_sim/social-connections', { body: { platform: o.platform, name: o.name } });
  ctx.emit(res, ({ data }: { data: { id: string; platform: string; name: string; handle: string } }) => {
    ctx.io.out(`${data.id}\n`);
    ctx.io.err(`Connected ${data.platform} account ${data.handle} (${data.name})\n`);
  });
}

export async function remove(ctx: Context, o: { yes?: boolean }, [id]: string[]): Promise<void> {
  await (await import('../../src/confirm.js')).confirmDestructive(ctx, o.yes, {
    verb: 'remove',
    done: 'removed',
    subject: `social connection ${id}`,
    consequence: 'Its scheduled posts fail.',
  });
  await ctx.call('DELETE', `/_sim/social-connections/${encodeURIComponent(id)}`);
  if (!ctx.json) ctx.io.err(`Removed social connection ${id}\n`);
}
