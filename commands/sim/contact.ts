// vmv sim contact: POST /_sim/contacts (the API itself cannot create contacts); --file adds many at once
import type { Command } from 'commander';
import { action, collect, e164Arg, withExamples, readFileArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';

interface Options {
  name?: string;
  email?: string;
  phone?: string;
  company?: string;
  tag?: string[];
  file?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('contact')
      .description("Add a contact to the simulator's workspace, or many from a file")
      .option('--name <name>', 'full name (required unless --file)')
      .option('--email <address>', 'email address')
      .option('--phone <number>', 'E.164 phone number', e164Arg('--phone'))
      .option('--company <name>', 'company')
      .option('--tag <tag>', 'a tag (repeat for more)', collect)
      .option(
        '--file <file>',
        'contacts as JSON (- for standard input): one object or an array of up to 10,000, fields as POST /_sim/contacts takes them; added all or none',
      )
      .action(action(shell, run)),
    'vmv sim contact --name "Grace Hopper" --email grace@example.com --phone +14155550188 --company Navy --tag vip',
    'echo \'[{"name": "Ada Lovelace", "email": "ada@example.com"}, {"name": "Alan Turing", "phone_number": "+14155550199"}]\' | vmv sim contact --file -',
    'vmv sim contact --file contacts.json',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const res = await ctx.call('POST', '/_sim/contacts', { body: await bodyOf(ctx, o) });
  // one contact: its id; many: their ids, one a line, in the order of the file
  ctx.emit(res, (r: any) => ctx.io.out(`${(r.data ? [r.data.id] : r.ids).map((id: string) => `${id}\n`).join('')}`));
}

async function bodyOf(ctx: Context, o: Options): Promise<unknown> {
  if (o.file === undefined) {
    if (o.name === undefined) throw usage('--name is required (or --file with the contacts as JSON).');
    return { name: o.name, email: o.email, phone_number: o.phone, company: o.company, tags: o.tag };
  }
  const flags = (['name', 'email', 'phone', 'company', 'tag'] as const).filter((k) => o[k] !== undefined);
  if (flags.length > 0) throw usage(`--file holds every field: give --${flags[0]} in the file instead.`);
  const text = await readFileArg(ctx.io, '--file', o.file);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw usage(`--file is not valid JSON: ${(e as Error).message}`);
  }
}
