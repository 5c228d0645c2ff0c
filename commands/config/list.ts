// vmv config list: every profile, the active one marked
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { ALWAYS, col, table } from '../../src/output.js';
import { maskKey, readSettings, type Profile } from '../../src/settings.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent.command('list').description('List settings profiles').action(action(shell, run)),
    'vmv config list',
  );
}

export async function run(ctx: Context): Promise<void> {
  const s = readSettings(ctx.env);
  const active = s.active_profile ?? 'default';
  const profiles: Record<string, Profile> = { default: {}, ...s.profiles };
  const rows = Object.entries(profiles).map(([name, p]) => ({
    name,
    active: name === active,
    base_url: p.base_url ?? null,
    api_key: p.api_key ? maskKey(p.api_key) : null,
  }));
  if (ctx.json) ctx.io.out(JSON.stringify({ data: rows }) + '\n');
  else
    table(
      ctx.io,
      [col('profile', ALWAYS), col('active', 5), col('base url', 4), col('api key', 3)],
      rows.map((r) => [r.name, r.active ? 'yes' : 'no', r.base_url ?? '(embedded simulator)', r.api_key]),
    );
}
