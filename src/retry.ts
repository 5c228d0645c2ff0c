// When the remote client sends a failed request again, and after how long: the one retry policy
// (docs/scripting.md, "Network faults and retries"). Pure: the client says what happened to an attempt, this
// module answers; test/retry.test.ts walks its table. The rule it keeps: a request is sent again
// only when that cannot apply it twice, because the service it drives charges money. And how a
// write ended (answered, unknown, unapplied): whether its key is kept for a rerun (unsettled.ts).

/** How an attempt failed without a reply. */
export type Fault =
  /** it certainly never reached the service: refused, no such host, no connection in time */
  | 'unreached'
  /** the connection broke after the request was (maybe) sent: the service may have acted on it */
  | 'lost'
  /** no reply (or the rest of it) before the deadline: the service may have acted on it */
  | 'timeout';

/** What one attempt came to: a fault, or a reply's status (and its Retry-After header). */
export type Outcome = { fault: Fault; code: string } | { status: number; retryAfter?: string };

export interface RetryRequest {
  method: string;
  /** the path on the target, without the query */
  path: string;
  /** whether it carries an Idempotency-Key */
  hasKey: boolean;
  /** the caller knows it does the same however often it is sent (a write idempotent by its own terms) */
  repeatable?: boolean;
}

export interface RetryPolicy {
  /** retries after the first attempt */
  retries: number;
  /** backoff before retry n (0-based): a random time up to min(capMs, baseMs * 2^n) */
  baseMs: number;
  capMs: number;
  /** a longer Retry-After is not waited for: the reply is the answer */
  maxRetryAfterMs: number;
}

/** --retries / VMV_MAX_RETRIES unless given: two retries, three attempts in all. */
export const DEFAULT_RETRIES = 2;
export const MAX_RETRIES = 10;
export const DEFAULT_POLICY: Omit<RetryPolicy, 'retries'> = { baseMs: 500, capMs: 5_000, maxRetryAfterMs: 20_000 };

/** Statuses that say "try again later": a gateway that got no answer, an overloaded service, a rate limit. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Error codes of a connection that was never made, so nothing was sent (node codes, and the names transport.ts gives its own).
 * Everything else that ends a request without a reply may have come after it was sent.
 */
const UNREACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * TLS failures (a certificate not trusted, expired, for another name; a handshake refused): the
 * connection was never made, so nothing was sent, and sending again meets the same certificate.
 */
export const isTlsFailure = (code: string): boolean =>
  /^ERR_(TLS|SSL)_|CERT|^UNABLE_TO_|^DEPTH_ZERO_|SELF_SIGNED|^HOSTNAME_MISMATCH$/.test(code);

export function faultOf(code: string): Fault {
  if (UNREACHED.has(code) || isTlsFailure(code)) return 'unreached';
  return TIMEOUTS.has(code) ? 'timeout' : 'lost';
}

/** The service keeps Idempotency-Keys on its API (/v1) only; the simulator's control plane (/_sim) ignores them. */
export const keyHonoured = (path: string): boolean => path.startsWith('/v1/');

/**
 * Whether sending the request again cannot apply it twice: reads, PUT and DELETE (the same effect
 * however often: idempotent by nature), and any write whose Idempotency-Key the target keeps.
 */
export function repeatable(r: RetryRequest): boolean {
  return (
    !!r.repeatable ||
    ['GET', 'HEAD', 'PUT', 'DELETE'].includes(r.method.toUpperCase()) ||
    (r.hasKey && keyHonoured(r.path))
  );
}

/** Whether the attempt may have reached the service (and a write been applied). */
export const mayHaveReached = (o: Outcome): boolean => ('fault' in o ? o.fault !== 'unreached' : true);

/** Whether a write the attempt carried may have been applied although no success came back. */
export const mayHaveApplied = (o: Outcome): boolean =>
  'fault' in o ? o.fault !== 'unreached' : o.status === 502 || o.status === 503 || o.status === 504;

/** Milliseconds a Retry-After header asks for (delay-seconds or an HTTP-date); null when it is neither. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return /[a-z]/i.test(v) && !Number.isNaN(at) ? Math.max(0, at - now) : null;
}

export type Decision =
  | { retry: true; delayMs: number }
  | { retry: false; why: 'answered' | 'exhausted' | 'unsafe' | 'retry_after_too_long' | 'certificate' };

/**
 * After attempt number `retried` + 1 came to `outcome`: whether to send the request again, and
 * when. A request that certainly never reached the service is always sent again; one that may have
 * (a broken connection, no reply in time, 429/502/503/504) only when `repeatable`. The delay is
 * exponential backoff with full jitter, and at least what Retry-After asks, within the limit.
 */
export function decide(
  r: RetryRequest,
  outcome: Outcome,
  retried: number,
  p: RetryPolicy,
  random: () => number = Math.random,
  now = Date.now(),
): Decision {
  if (!('fault' in outcome) && !RETRY_STATUSES.has(outcome.status)) return { retry: false, why: 'answered' };
  if ('fault' in outcome && isTlsFailure(outcome.code)) return { retry: false, why: 'certificate' };
  if (retried >= p.retries) return { retry: false, why: 'exhausted' };
  if (mayHaveReached(outcome) && !repeatable(r)) return { retry: false, why: 'unsafe' };
  const backoff = random() * Math.min(p.capMs, p.baseMs * 2 ** retried);
  const asked = 'fault' in outcome ? null : retryAfterMs(outcome.retryAfter, now);
  if (asked !== null && asked > p.maxRetryAfterMs) return { retry: false, why: 'retry_after_too_long' };
  return { retry: true, delayMs: Math.max(backoff, asked ?? 0) };
}

/** How a write ended, for remembering its key: see `settlementOf`. */
export type Settlement = 'answered' | 'unknown' | 'unapplied';

/**
 * How a write ended. `answered`: the service judged it, a 2xx (applied) or a 4xx other than 408
 * and 429 (refused, as it stands: a rerun is a request of its own). `unknown`: it may have been
 * applied and no reply says whether (no reply, or a 5xx, 408 or 429, after an attempt that may have
 * reached the service: the connection lost after it was sent, no reply in time, a 502/503/504).
 * `unapplied`: neither (it never left this machine; a lone 500 is the service's word that it failed).
 * `status` is null when no reply came.
 */
export function settlementOf(status: number | null, mayHaveApplied: boolean): Settlement {
  if (status !== null && status < 500 && status !== 408 && status !== 429) return 'answered';
  return mayHaveApplied ? 'unknown' : 'unapplied';
}
