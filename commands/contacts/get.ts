// vmv contacts get ID: GET /v1/contacts/{id}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fields } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('get')
      .argument('<id>', 'contact id', idArg('contact'))
      .description("One contact's full record")
      .action(action(shell, run)),
    'vmv contacts get "$CONTACT_ID"',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('GET', `/v1/contacts/${encodeURIComponent(id)}`);
  ctx.emit(res, ({ data: c }: any) =>
    fields(ctx.io, [
      ['id', c.id],
      ['name', c.name],
      ['phone', c.phone_number],
      ['email', c.email],
      ['company', c.company],
      ['job title', c.job_title],
      ['location', c.location],
      ['tags', c.tags.join(', ')],
      ['custom fields', Object.keys(c.custom_fields).length ? JSON.stringify(c.custom_fields) : null],
      ['created', c.created_at],
      ['updated', c.updated_at],
    ]),
  );
}
