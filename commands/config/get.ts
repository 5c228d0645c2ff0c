// vmv config get [KEY]: the settings in effect and where each comes from
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { checkKey } from '../../src/config-store.js';
import { fields } from '../../src/output.js';
import { maskKey } from '../../src/settings.js';

export function define(parent: Command, shell: Shell): void {
  parent
    .command('get')
    .argument('[key]', 'base_url or api_key')
    .description('Show the settings in effect (the API key masked)')
    .addHelpText('after', examples('vmv config get', 'vmv config get base_url'))
    .action(action(shell, run));
}

export async function run(ctx: Context, _o: unknown, [key]: string[]): Promise<void> {
  const t = ctx.target();
  const view = {
    profile: t.profile,
    target: t.kind,
    base_url: t.baseUrl,
    api_key: t.apiKey ? maskKey(t.apiKey) : null,
    sim_data: t.kind === 'embedded' ? t.dataFile : null,
  };
  if (key !== undefined) {
    const k = checkKey(key);
    ctx.io.out(`${view[k] ?? ''}\n`);
    return;
  }
  if (ctx.json) ctx.io.out(JSON.stringify(view) + '\n');
  else
    fields(ctx.io, [
      ['profile', view.profile],
      ['target', view.target === 'embedded' ? 'embedded simulator' : 'remote'],
      ['base_url', view.base_url],
      ['api_key', view.api_key ?? (t.kind === 'embedded' ? "(the simulator's own)" : '(none)')],
      ['sim data', view.sim_data],
    ]);
}
