// vmv config get [KEY]: the settings in effect and where each comes from
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { checkKey } from '../../src/config-store.js';
import { fields } from '../../src/output.js';
import { maskKey, resolveCountry } from '../../src/settings.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('get')
      .argument('[key]', 'base_url, api_key or default_country')
      .description('Show the settings in effect (the API key masked)')
      .action(action(shell, run)),
    'vmv config get',
    'vmv config get base_url',
  );
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
  // the country numbers without + are read in: shown once set (US otherwise)
  const country = resolveCountry(ctx.env, ctx.globals.profile).toUpperCase();
  const shown = country === 'US' ? view : { ...view, default_country: country };
  if (key !== undefined) {
    const k = checkKey(key);
    ctx.io.out(`${k === 'default_country' ? country : (view[k] ?? '')}\n`);
    return;
  }
  if (ctx.json) ctx.io.out(JSON.stringify(shown) + '\n');
  else
    fields(ctx.io, [
      ['profile', view.profile],
      ['target', view.target === 'embedded' ? 'embedded simulator' : 'remote'],
      ['base_url', view.base_url],
      ['api_key', view.api_key ?? (t.kind === 'embedded' ? "(the simulator's own)" : '(none)')],
      ['sim data', view.sim_data],
      ['default_country', country],
    ]);
}
