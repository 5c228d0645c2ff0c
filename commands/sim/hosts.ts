// vmv sim hosts list|set|unset: the simulator's hosts table (GET, PUT, DELETE /_sim/hosts), what host
// names in webhook URLs resolve to when events are delivered, like /etc/hosts or curl --resolve.
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { ALWAYS, col, table } from '../../src/output.js';

interface Host {
  name: string;
  addresses: string[];
}

export function define(parent: Command, shell: Shell): void {
  const hosts = parent
    .command('hosts')
    .description('What host names in webhook URLs resolve to (names not listed: the system resolver)');
  withExamples(
    hosts.command('list').description('The hosts table, by name').action(action(shell, list)),
    'vmv sim hosts list',
    'vmv sim hosts list --json',
  );
  withExamples(
    hosts
      .command('set')
      .argument('<name>', 'a host name, as in webhook URLs')
      .argument('<addresses...>', 'every IPv4 or IPv6 address it resolves to')
      .description(
        'Set what a name resolves to; each delivery judges every address (one that is not public refuses it)',
      )
      .action(action(shell, set)),
    'vmv sim hosts set hooks.example.test 127.0.0.1',
    'vmv sim hosts set internal.example.test 10.0.0.7 fd00::7',
  );
  withExamples(
    hosts
      .command('unset')
      .argument('<name>', 'a host name in the table')
      .description('Take a name out of the table: the system resolver answers for it again')
      .action(action(shell, unset)),
    'vmv sim hosts unset hooks.example.test',
  );
}

export async function list(ctx: Context): Promise<void> {
  const res = await ctx.call('GET', '/_sim/hosts');
  ctx.emit(res, ({ data }: { data: Host[] }) =>
    table(
      ctx.io,
      [col('name', ALWAYS), col('addresses', 5)],
      data.map((h) => [h.name, h.addresses.join(' ')]),
    ),
  );
}

export async function set(ctx: Context, _o: unknown, [name, ...addresses]: string[]): Promise<void> {
  const res = await ctx.call('PUT', `/_sim/hosts/${encodeURIComponent(name)}`, { body: { addresses } });
  ctx.emit(res, ({ data }: { data: Host }) => ctx.io.err(`${data.name} resolves to ${data.addresses.join(', ')}\n`));
}

export async function unset(ctx: Context, _o: unknown, [name]: string[]): Promise<void> {
  await ctx.call('DELETE', `/_sim/hosts/${encodeURIComponent(name)}`);
  if (!ctx.json) ctx.io.err(`${name} is resolved by the system again\n`);
}
