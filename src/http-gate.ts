// Who may drive a server of ours on this machine (`vmv sim serve`, the `vmv webhooks listen`
// receiver), written once for both. A web page the developer visits can make the browser send
// requests to loopback ports: cross-site (the browser adds an Origin header) or, after DNS
// rebinding, "same-site" under the attacker's name (the Host header names it). Neither reaches a
// server that answers only to the hosts it serves and only to loopback origins, and takes only
// JSON bodies (an HTML form or a no-preflight fetch cannot send Content-Type: application/json).
// Beyond these, the rule on what a browser says of a request's site (Sec-Fetch-Site), for the
// servers that use it.
import { isLoopbackHost } from './webhooks.js';

export { isLoopbackHost };

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** The hosts a server answers to (the port of a Host header is not looked at). */
export interface HostPolicy {
  /** normalised host names and IP addresses, beyond the loopback ones */
  names: ReadonlySet<string>;
  /** every IP address (a server bound to 0.0.0.0 or ::): an address, unlike a name, cannot be rebound */
  anyAddress: boolean;
  /** every host (--allow-host '*'): no DNS-rebinding defence */
  anyHost: boolean;
  /** what to do about a refused host, for the refusal's message */
  advice: string;
}

const HOST_SYNTAX = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?$/;
const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;

/**
 * A Host header's host (its port dropped; with `port: false`, a host with a port is refused), as
 * a URL has it: lower case, IPv4 in dotted form, IPv6 in brackets. Null when it is not one.
 */
export function normalHost(raw: string, o: { port: boolean } = { port: true }): string | null {
  const bare = !raw.startsWith('[') && raw.split(':').length > 2 ? `[${raw}]` : raw; // "::1" is an address, not host ":" port "1"
  const m = HOST_SYNTAX.exec(bare);
  if (!m || (m[2] !== undefined && !o.port)) return null;
  try {
    return new URL(`http://${m[1]}`).hostname;
  } catch {
    return null;
  }
}

const isAddress = (host: string) => IPV4.test(host) || host.startsWith('[');
const isUnspecified = (host: string) => host === '0.0.0.0' || host === '[::]';

/**
 * What a server bound to `bound` answers to: loopback names, the address it is bound to, and the
 * `allowed` names ('*': any host). Bound to the unspecified address (0.0.0.0, ::) it answers to any
 * IP address (the one a client used to reach it); names still need allowing.
 */
export function hostPolicy(bound: string, allowed: readonly string[], advice = ''): HostPolicy {
  const names = new Set<string>();
  const b = normalHost(bound, { port: false });
  if (b && !isUnspecified(b)) names.add(b);
  for (const a of allowed) {
    const n = a === '*' ? null : normalHost(a, { port: false });
    if (n) names.add(n);
  }
  return { names, anyAddress: b !== null && isUnspecified(b), anyHost: allowed.includes('*'), advice };
}

/** The hosts a policy answers to, in words. */
export function describeHosts(p: HostPolicy): string {
  if (p.anyHost) return 'any host';
  return [
    'loopback names',
    ...(p.anyAddress ? ['any IP address'] : []),
    ...[...p.names].filter((n) => !isLoopbackHost(n)),
  ].join(', ');
}

/**
 * Why a request with these headers (node's rawHeaders: name, value, …) is not answered for its Host,
 * or null when it is: it must have exactly one (RFC 9112 §3.2; node keeps the first of several,
 * which would let a second one past a proxy that reads the last), naming a host the policy answers.
 */
export function hostRefusal(rawHeaders: readonly string[], policy: HostPolicy): Refusal | null {
  const hosts = rawHeaders.filter((v, i) => i % 2 === 1 && rawHeaders[i - 1].toLowerCase() === 'host');
  if (hosts.length > 1)
    return { status: 400, code: 'bad_request', message: 'The request has more than one Host header.' };
  const host = hosts[0];
  if (policy.anyHost && host) return null;
  const name = host ? normalHost(host) : null;
  if (name !== null && (isLoopbackHost(name) || policy.names.has(name) || (policy.anyAddress && isAddress(name))))
    return null;
  return {
    status: 421,
    code: 'host_not_allowed',
    message: `${host ? `This server does not answer to the host ${JSON.stringify(host)}` : 'The request has no Host header'} (a defence against DNS rebinding).${policy.advice ? ` ${policy.advice}` : ''}`,
  };
}

/** Why a request a browser sent from `origin` (its Origin header) is refused, or null: only pages on this machine's loopback addresses may call. */
export function originRefusal(origin: string | undefined): Refusal | null {
  if (origin === undefined) return null;
  let host: string | null = null;
  try {
    const u = new URL(origin);
    if (u.protocol === 'http:' || u.protocol === 'https:') host = u.hostname;
  } catch {
    // "null" (a sandboxed frame, a file) and anything else that is not an origin
  }
  if (host !== null && isLoopbackHost(host)) return null;
  return {
    status: 403,
    code: 'origin_not_allowed',
    message: `Requests from the web page at ${JSON.stringify(origin)} are refused: only pages on a loopback address (localhost, 127.0.0.1, [::1]) may call this server.`,
  };
}

/**
 * Why a write's body is refused for its Content-Type, or null. A body must be sent as
 * application/json (a charset parameter, if any, must be utf-8); so must a write without a body
 * that names a type. application/*+json types are refused too: they name other formats.
 */
export function bodyTypeRefusal(contentType: string | undefined, bodyBytes: number): Refusal | null {
  if (contentType === undefined && bodyBytes === 0) return null;
  const [type, ...params] = (contentType ?? '').split(';').map((p) => p.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"(.*)"$/, '$1');
  if (type === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return null;
  return {
    status: 415,
    code: 'unsupported_media_type',
    message:
      contentType === undefined
        ? 'The request body has no Content-Type: send it as application/json.'
        : `The request body is ${JSON.stringify(contentType)}: send JSON as application/json (UTF-8).`,
  };
}

/** What a browser says of a request it sends (the Sec-Fetch-* headers), when it says it. */
export interface FetchMetadata {
  site?: string;
  mode?: string;
  dest?: string;
}

/**
 * Why a browser's request for another site's page is refused (403 origin_not_allowed), or null.
 * Browsers send no Origin on a page's <img>, <audio> or link, but say `Sec-Fetch-Site: cross-site`;
 * the routes in `guarded` answer none of those but a top-level navigation to a page (`navigable`,
 * a link followed: it runs nothing and reads nothing for the linking site). `same-origin` (the
 * inspector's own requests), `same-site` (a page on another port of the same loopback name: the
 * Origin rule already trusts pages on loopback addresses) and `none` (a typed or opened address)
 * pass, and so does a request that says nothing (every tool that is not a browser).
 */
export function fetchSiteRefusal(
  method: string,
  meta: FetchMetadata,
  place: { guarded: boolean; navigable: boolean },
): Refusal | null {
  const crossSite = meta.site?.split(',').some((v) => v.trim() === 'cross-site');
  if (!crossSite || !place.guarded) return null;
  const navigation = (method === 'GET' || method === 'HEAD') && meta.mode === 'navigate' && meta.dest === 'document';
  if (navigation && place.navigable) return null;
  return {
    status: 403,
    code: 'origin_not_allowed',
    message:
      "The browser says another site's page made this request (Sec-Fetch-Site: cross-site): the control plane and the inspector answer only tools and pages on this machine.",
  };
}
