// The webhook scheme of spec Part 6, written once for both ends: the simulator, which signs and
// delivers, and receivers (`vmv webhooks listen`, users' own code through the library's
// verifySignature). Only node core: the CLI loads it with `listen`, the simulator when it delivers.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The headers every delivery carries (node presents incoming ones lower-cased: read them with headerOf). */
export const EVENT_HEADER = 'X-Service-Event';
export const EVENT_ID_HEADER = 'X-Service-Event-Id';
export const SIGNATURE_HEADER = 'X-Service-Signature-256';

export const headerOf = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** The largest delivery a receiver reads (`vmv webhooks listen`, vmv/testing's): past it, 413. */
export const DELIVERY_MAX_BYTES = 1024 * 1024;

/**
 * A delivery's body, or null when it is over DELIVERY_MAX_BYTES: the rest is read and dropped (never
 * kept), so the receiver can still answer 413 on the same connection.
 */
export function readDelivery(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= DELIVERY_MAX_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > DELIVERY_MAX_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** How many event ids a receiver remembers to drop duplicates (the oldest forgotten first). */
const SEEN_LIMIT = 10_000;

/**
 * A receiver's memory of event ids: true the first time an id is seen, false for a duplicate (a
 * retry of a delivery that did arrive, whose answer was lost or late). Bounded to SEEN_LIMIT ids.
 */
export function firstSight(): (id: string) => boolean {
  const seen = new Set<string>();
  return (id) => {
    if (seen.has(id)) return false;
    seen.add(id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value!);
    return true;
  };
}

/** Hosts that are this machine: where the simulator accepts plain http, and where listen needs no tunnel. */
export function isLoopbackHost(hostname: string): boolean {
  // as URLs and Host headers write it: any case, [brackets] round IPv6, a final dot on a name
  const h = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (h === 'localhost') return true;
  const family = isIP(h);
  // 127.0.0.0/8 and ::1, and 127.0.0.0/8 written inside IPv6 (::ffff:127.0.0.1), which BlockList matches
  return family !== 0 && (loopback ??= loopbackList()).check(h, family === 4 ? 'ipv4' : 'ipv6');
}
let loopback: BlockList | undefined;
function loopbackList(): BlockList {
  const b = new BlockList();
  b.addSubnet('127.0.0.0', 8, 'ipv4');
  b.addAddress('::1', 'ipv6');
  return b;
}

/** A receiver must answer within this; a delivery that takes longer has failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Hex HMAC-SHA256 of the raw body, keyed with the webhook secret. */
export function sign(rawBody: string | Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * True when `signatureHeader` is the signature of `rawBody` (exactly as received, before any JSON
 * parsing) under `secret`. Compares in constant time; a missing or malformed header, or a missing
 * secret, is false.
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  signatureHeader: string | string[] | null | undefined,
  secret: string,
): boolean {
  // a receiver whose secret is not configured (an unset variable) rejects, rather than crashing
  if (typeof secret !== 'string' || secret === '') return false;
  const given = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{64}$/.test(given.trim())) return false;
  return timingSafeEqual(Buffer.from(given.trim(), 'hex'), Buffer.from(sign(rawBody, secret), 'hex'));
}

export interface PostResult {
  /** null when no response arrived (network error or timeout) */
  status: number | null;
  /** null for a 2xx; otherwise why the attempt failed */
  error: string | null;
}

/**
 * POSTs a raw body once: no redirect is followed (a 3xx is a failure, as is any non-2xx), and the
 * whole exchange must finish within `timeoutMs`. With `addresses`, a host name is not looked up
 * again: the connection goes to those addresses only (the ones the caller judged). Never throws.
 */
export async function postOnce(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  timeoutMs = DELIVERY_TIMEOUT_MS,
  addresses?: readonly string[],
): Promise<PostResult> {
  const target = new URL(url);
  const pinned = addresses?.map((address) => ({ address, family: isIP(address) }));
  const lookup: LookupFunction | undefined =
    pinned && ((_host, o, cb) => (o.all ? cb(null, pinned) : cb(null, pinned[0].address, pinned[0].family)));
  const { request } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const done = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
        agent: false, // one connection per delivery: nothing keeps a CLI process alive afterwards
        lookup,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.on('data', () => {}); // the body is not needed, but must be drained to finish
        res.on('error', (e) => done({ status, error: describe(e) }));
        res.on('end', () => done({ status, error: failure(status, res.headers.location) }));
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, error: `no response within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => done({ status: null, error: describe(e) }));
    req.end(body);
  });
}

function failure(status: number, location: string | undefined): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect${location ? ` to ${location}` : ''} not followed`;
  return `HTTP ${status}`;
}

const describe = (e: NodeJS.ErrnoException) => e.code ?? e.message;
