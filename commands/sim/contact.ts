// vmv sim contact: POST /_sim/contacts (the API itself cannot create contacts)
import type { Command } from 'commander';
import { action, collect, e164Arg, examples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

interface Options { name: string; email?: string; phone?: string; company?: string; tag?: string[] }

export function define(parent: Command, shell: Shell): void {
  parent.command('contact').description('Add a contact to the simulator\'s workspace')
    .requiredOption('--name <name>', 'full name')
    .option('--email <address>', 'email address')
    .option('--phone <number>', 'E.164 phone number', e164Arg('--phone'))
    .option('--company <name>', 'company')
    .option('--tag <tag>', 'a tag (repeat for more)', collect)
    .addHelpText('after', examples(
      'vmv sim contact --name "Grace Hopper" --email grace@example.com --phone +14155550188 --company Navy --tag vip',
    ))
    .action(action(shell, run));
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const res = await ctx.call('POST', '/_sim/contacts', {
    body: { name: o.name, email: o.email, phone_number: o.phone, company: o.company, tags: o.tag },
  });
  ctx.emit(res, ({ data }: any) => ctx.io.out(`${data.id}\n`));
}
