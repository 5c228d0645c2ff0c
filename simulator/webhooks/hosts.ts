// The hosts table (/_sim/hosts): what host names resolve to for webhook deliveries, like a line of
// /etc/hosts, so a test can point a public-looking URL at an address it chooses. Its names and
// addresses, its bound, and its three routes (read, set a name, remove one); deliveries read it in
// targets.ts.
import { isIP } from 'node:net';
import * as z from 'zod/mini';
import { ApiError, notFound } from '../core/errors.js';
import { route, type Route } from '../core/http.js';
import { arr, dataOf, doc, named, obj, record } from '../core/schema.js';
import { literalAddress, tableName } from './targets.js';

/** A host as a URL carries it, in the hosts table's form; undefined when `raw` is not one host. */
function tableHost(raw: string): string | undefined {
  if (!/^[^\s/?#@:[\]\\%]{1,253}$/.test(raw)) return undefined;
  try {
    return tableName(new URL(`https://${raw}/`).hostname);
  } catch {
    return undefined;
  }
}

/** Why a hosts-table name is refused, or undefined: a host name as URLs carry it, not an address, not localhost. */
function hostNameProblem(raw: string): string | undefined {
  const host = tableHost(raw);
  if (host === undefined) return 'must be a host name such as hooks.example.com';
  if (literalAddress(host)) return 'is an address, not a name: a URL with an address is judged by that address';
  if (host === 'localhost') return 'always means this machine and cannot be mapped';
  return undefined;
}

/** A host name for the hosts table, stored as URLs give it (lower case, IDN as punycode, no final dot). */
const hostName = () =>
  doc(
    z.pipe(
      z.string().check(
        z.maxLength(253),
        z.superRefine((s: string, ctx) => {
          const why = hostNameProblem(s);
          if (why) ctx.issues.push({ code: 'custom', message: why, input: s });
        }),
      ),
      z.transform((s: string) => tableHost(s)!),
    ),
    { description: 'a host name, as in webhook URLs', example: 'hooks.example.com' },
  );

const ipAddress = () =>
  doc(
    z.string().check(
      z.maxLength(45),
      z.refine((s: string) => isIP(s) !== 0 && !s.includes('%'), {
        error: 'must be an IPv4 or IPv6 address such as 93.184.215.14 or 2606:2800:21f:cb07::1',
      }),
    ),
    { example: '93.184.215.14' },
  );

/** The hosts table's size: like /etc/hosts, a handful of names a test needs, never a resolver's cache. */
const MAX_HOSTS = 1000;
const HostName = obj({ name: hostName() }, { required: ['name'] });
export const HostSchema = named(
  'Host',
  () =>
    record({
      name: doc(z.string(), {
        description: 'lower case, IDN as punycode, without a final dot',
        example: 'hooks.example.com',
      }),
      addresses: arr(z.string(), {
        description: 'every address the name resolves to, as given',
        example: ['93.184.215.14'],
      }),
    }),
  'A line of the hosts table: what a host name resolves to when webhooks are delivered.',
);

// ---- routes ----

export const hostRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/_sim/hosts',
    summary: 'The hosts table',
    description:
      'What host names resolve to for webhook deliveries, by name. A name not in the table is looked up with the system resolver.',
    responses: { 200: { description: 'The hosts table', schema: dataOf(z.array(HostSchema)) } },
    handler: (c) => ({ body: { data: [...c.data.hosts].sort((a, b) => (a.name < b.name ? -1 : 1)) } }),
  }),
  route({
    method: 'PUT',
    path: '/_sim/hosts/{name}',
    summary: 'Set what a host name resolves to',
    description:
      "Like a line of /etc/hosts or curl --resolve, for every workspace's webhook deliveries: each attempt to a URL with this host connects to these addresses, " +
      "after judging every one of them (one that is not public refuses the attempt). Replaces the name's addresses; a reset empties the table.",
    params: HostName,
    body: obj(
      {
        addresses: arr(ipAddress(), {
          min: 1,
          max: 16,
          description: 'the addresses the name resolves to (repeats collapse)',
          example: ['93.184.215.14'],
        }),
      },
      { required: ['addresses'] },
    ),
    responses: { 200: { description: 'The line as set', schema: dataOf(HostSchema) } },
    errors: { 409: ['hosts_limit_exceeded'] },
    handler: (c) => {
      if (c.data.hosts.length >= MAX_HOSTS && !c.data.hosts.some((h) => h.name === c.params.name))
        throw new ApiError(
          409,
          'hosts_limit_exceeded',
          `The hosts table holds at most ${MAX_HOSTS} names; remove one first (DELETE /_sim/hosts/{name}).`,
        );
      const entry = { name: c.params.name, addresses: [...new Set(c.body.addresses)] };
      c.data.hosts = [...c.data.hosts.filter((h) => h.name !== entry.name), entry];
      c.s.markDirty();
      return { body: { data: entry } };
    },
  }),
  route({
    method: 'DELETE',
    path: '/_sim/hosts/{name}',
    summary: 'Remove a host name from the hosts table',
    description: 'The name is looked up with the system resolver again.',
    params: HostName,
    responses: { 204: { description: 'Removed' } },
    handler: (c) => {
      if (!c.data.hosts.some((h) => h.name === c.params.name))
        throw notFound(`${c.params.name} is not in the hosts table.`);
      c.data.hosts = c.data.hosts.filter((h) => h.name !== c.params.name);
      c.s.markDirty();
      return { status: 204 };
    },
  }),
];
