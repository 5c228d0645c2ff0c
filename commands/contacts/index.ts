import type { Command } from 'commander';
import { action, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { withList, type ListOptions } from '../../src/list.js';
import { fields } from '../../src/output.js';
import { renderPeople } from '../history/people.js';

export function register(program: Command, shell: Shell): void {
  const contacts = program.command('contacts').description('Contacts of the workspace (free reads)');
  withList(contacts.command('list').description('Contacts and everyone reached, most recent first'), { order: false })
    .action(action(shell, list));
  contacts.command('get').argument('<id>', 'contact id').description('One contact\'s full record').action(action(shell, get));
}

export async function list(ctx: Context, o: ListOptions): Promise<void> {
  const res = await ctx.call('GET', '/v1/contacts', { query: { limit: o.limit, cursor: o.cursor } });
  ctx.emit(res, renderPeople(ctx));
}

export async function get(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('GET', `/v1/contacts/${encodeURIComponent(id)}`);
  ctx.emit(res, ({ data: c }: any) =>
    fields(ctx.io, [
      ['id', c.id], ['name', c.name], ['phone', c.phone_number], ['email', c.email], ['company', c.company],
      ['job title', c.job_title], ['location', c.location], ['tags', c.tags.join(', ')],
      ['custom fields', Object.keys(c.custom_fields).length ? JSON.stringify(c.custom_fields) : null],
      ['created', c.created_at], ['updated', c.updated_at],
    ]));
}
