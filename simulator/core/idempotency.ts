// Idempotency-Key (spec Part 4): a write's first reply is kept 24 hours for the key (scoped to the API
// key that sent it); the same key with the same body replays it (Idempotency-Replay: true), with
// another body is 409 idempotency_conflict naming the first request.
import { createHash } from 'node:crypto';
import { removeWhere } from '../store/tracker.js';
import { ApiError, validationError } from './errors.js';
import type { SimResponse } from './http.js';
import { isPlainObject } from './schema.js';
import type { Session } from './session.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** A key a request carries, and its request's fingerprint (method, path and canonical body). */
export interface Keyed {
  apiKeyId: string;
  key: string;
  fingerprint: string;
}

/** The key's length is the API's to check: 1 to 255 characters. */
export function checkKey(key: string): void {
  if (key.length < 1 || key.length > 255)
    throw validationError({ 'Idempotency-Key': `must be 1 to 255 characters (got ${key.length})` });
}

/** JSON with object keys sorted at every depth: the same body in another key order is the same body. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export const fingerprint = (method: string, path: string, body: unknown) =>
  createHash('sha256')
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest('hex');

/** The reply kept for the key, to send again; null when the key is new (records past their 24 hours go first). */
export function replayOf(s: Session, k: Keyed): SimResponse | null {
  // (journaled as the places of the records that expired, not the records kept)
  if (removeWhere(s.data.idempotency, (r) => s.now - r.created_at_ms >= IDEMPOTENCY_TTL_MS) > 0) s.markDirty();
  const rec = s.data.idempotency.find((r) => r.api_key_id === k.apiKeyId && r.key === k.key);
  if (!rec) return null;
  if (rec.fingerprint !== k.fingerprint)
    throw new ApiError(409, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request.', {
      conflicts_with: rec.request_id,
    });
  return {
    status: rec.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'idempotency-replay': 'true',
      'request-id': rec.request_id,
    },
    body: rec.body,
  };
}

/** Keeps a reply for the key. */
export function remember(s: Session, k: Keyed, requestId: string, res: SimResponse): void {
  s.data.idempotency.push({
    api_key_id: k.apiKeyId,
    key: k.key,
    fingerprint: k.fingerprint,
    request_id: requestId,
    status: res.status,
    body: res.body as string,
    created_at_ms: s.now,
  });
  s.markDirty();
}

/** A reply that waited (an assistant run) replaces what was kept for its key once it is final. */
export function rememberFinal(s: Session, k: Keyed, requestId: string, res: SimResponse): void {
  const rec = s.data.idempotency.find(
    (r) => r.api_key_id === k.apiKeyId && r.key === k.key && r.request_id === requestId,
  );
  if (!rec) return;
  rec.status = res.status;
  rec.body = res.body as string;
  s.markDirty();
}
