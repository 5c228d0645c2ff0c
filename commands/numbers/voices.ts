// vmv numbers voices ID: GET /v1/phone-numbers/{id}/voices
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { ALWAYS, col, table, textCol } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('voices')
      .argument('<id>', 'number id')
      .description("Voices the number's agent can speak with")
      .action(action(shell, run)),
    'vmv numbers voices 1001',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('GET', `/v1/phone-numbers/${encodeURIComponent(id)}/voices`);
  ctx.emit(res, (b: any) =>
    table(
      ctx.io,
      [col('voice id', ALWAYS), textCol('name', 4), col('language', 5), col('gender', 3)],
      b.data.map((v: any) => [v.id, v.name, v.language, v.gender]),
    ),
  );
}
