// Where webhook deliveries may go (issue 14, item 6). The real service wants public HTTPS; the
// simulator also allows this machine (loopback: local receivers such as `vmv webhooks listen`) and
// refuses every other address that is not public, in IPv4 and in the IPv6 forms that carry an IPv4
// address. A URL's literal address is judged when the webhook is registered; a host name is judged
// at every delivery attempt by every address it resolves to (the hosts table of the control plane,
// else the system resolver), and the attempt connects only to the addresses judged, so a name that
// changes its answer in between (DNS rebinding) cannot steer it elsewhere.
import { BlockList, isIP } from 'node:net';
import { isLoopbackHost } from '../../src/webhooks.js';
import type { HostEntry } from './records.js';

interface Rule {
  what: string;
  list: BlockList;
}

/** Special-purpose IPv4 ranges that are not public (IANA's registry), with what each is. */
const V4: readonly [network: string, prefix: number, what: string][] = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['255.255.255.255', 32, 'the broadcast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];
const V6: readonly [network: string, prefix: number, what: string][] = [
  ['::', 128, 'the unspecified address'],
  ['::', 96, 'a deprecated IPv4-compatible address'],
  ['64:ff9b:1::', 48, 'a local-use NAT64 address'],
  ['100::', 64, 'a discard-only address'],
  ['2001::', 32, 'a Teredo tunnel address'],
  ['2001:2::', 48, 'a benchmarking address'],
  ['2001:db8::', 32, 'a documentation address'],
  ['3fff::', 20, 'a documentation address'],
  ['fc00::', 7, 'a unique local (private) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a deprecated site-local address'],
  ['ff00::', 8, 'a multicast address'],
];
/** Beyond the ranges named above, IPv6 is public only in global unicast, or when it carries a public IPv4 address (mapped, NAT64). */
const GLOBAL_V6: [string, number] = ['2000::', 3];
const CARRIES_V4: [string, number][] = [
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
];
const OUTSIDE_GLOBAL = 'an address outside IPv6 global unicast (2000::/3)';
/** This machine's IPv4 range (allowed as it is, not in NAT64 or 6to4 form). */
const LOOPBACK_V4: [string, number] = ['127.0.0.0', 8];

const subnet = (network: string, prefix: number, family: 'ipv4' | 'ipv6') => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list;
};

/** An IPv4 range as it appears inside IPv6: NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address in their bits. */
function embedded([network, prefix, what]: readonly [string, number, string]): Rule[] {
  const [a, b, c, d] = network.split('.').map(Number);
  const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
  return [
    {
      what: `${what} (${network}/${prefix}) in NAT64 form (64:ff9b::/96)`,
      list: subnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6'),
    },
    {
      what: `${what} (${network}/${prefix}) in 6to4 form (2002::/16)`,
      list: subnet(`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix, 'ipv6'),
    },
  ];
}

let built: { refused: Rule[]; public6: BlockList } | undefined;
/** Built on first use: most commands never judge an address. */
function rules() {
  if (built) return built;
  const refused: Rule[] = [
    ...V4.map(([n, p, what]) => ({ what: `${what} (${n}/${p})`, list: subnet(n, p, 'ipv4') })),
    ...V6.map(([n, p, what]) => ({ what: `${what} (${n}/${p})`, list: subnet(n, p, 'ipv6') })),
    // a NAT64 or 6to4 gateway would carry these to the gateway's network, not to this machine: loopback too
    ...[...V4, [...LOOPBACK_V4, 'a loopback address'] as const].flatMap(embedded),
  ];
  const public6 = subnet(...GLOBAL_V6, 'ipv6');
  for (const [n, p] of CARRIES_V4) public6.addSubnet(n, p, 'ipv6');
  return (built = { refused, public6 });
}

/** What kind of address refused this is, naming its range ("a private address (10.0.0.0/8)"); undefined for public and loopback addresses. */
export function refusedAs(address: string): string | undefined {
  // this machine: allowed (an IPv4-mapped form such as ::ffff:127.0.0.1 included)
  if (isLoopbackHost(address)) return undefined;
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const { refused, public6 } = rules();
  const what = refused.find((r) => r.list.check(address, family))?.what;
  if (what === undefined && family === 'ipv6' && !public6.check(address, family)) return OUTSIDE_GLOBAL;
  return what;
}

/** The address a URL's host names literally (IPv6 without its brackets), or undefined for a host name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** How a host name is looked up in the hosts table: the URL's form (lower case, IDN as punycode) without a final dot. */
export const tableName = (hostname: string) => hostname.replace(/\.$/, '');

/** Where an attempt may connect: the addresses judged, or why it is not made (an `error` for the delivery log). */
export type Target = { addresses: string[] } | { error: string };

/**
 * Judges the URL's host for one attempt: a literal address as it is; a name by every address it
 * resolves to, from the hosts table when it is there, else the system resolver (within `timeoutMs`).
 */
export async function resolveTarget(url: string, hosts: readonly HostEntry[], timeoutMs: number): Promise<Target> {
  const host = new URL(url).hostname;
  const literal = literalAddress(host);
  if (literal) {
    const what = refusedAs(literal);
    return what ? { error: `refused: ${literal} is ${what}` } : { addresses: [literal] };
  }
  let addresses: string[];
  try {
    addresses = hosts.find((h) => h.name === tableName(host))?.addresses ?? (await lookupAll(host, timeoutMs));
  } catch (e) {
    return { error: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
  for (const a of addresses) {
    const what = refusedAs(a);
    if (what) return { error: `refused: ${host} resolves to ${a}, ${what}` };
  }
  return { addresses };
}

/** Every address the system resolver gives for `host`. */
async function lookupAll(host: string, timeoutMs: number): Promise<string[]> {
  const { lookup } = await import('node:dns/promises');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no address for ${host} within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return (await Promise.race([lookup(host, { all: true }), late])).map((r) => r.address);
  } finally {
    clearTimeout(timer);
  }
}
