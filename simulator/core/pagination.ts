// The list envelope: keyset pagination with opaque, signed cursors that are valid 24 hours on the
// simulator clock and bound to the list and filters they came from.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { validationError } from './errors.js';
import { oneOf, qInt, qString } from './schema.js';
import type { Session } from './session.js';

export const CURSOR_TTL_MS = 24 * 3600_000;

/** The list conventions' query parameters (spread into a route's query schema). */
export function listParams(maxLimit = 100, defaultLimit = 20) {
  return {
    limit: qInt(1, maxLimit, {
      description: `page size, default ${defaultLimit}, at most ${maxLimit}`,
      example: defaultLimit,
    }),
    cursor: qString({
      description: 'meta.cursor of the previous page (valid 24 hours)',
      example: 'eyJvIjoiZGVzYyJ9.AbCdEfGhIjKlMnOpQrStUv',
    }),
    order: oneOf(['asc', 'desc'], 'newest first (desc, the default) or oldest first (asc)'),
  };
}

interface CursorBody {
  o: 'asc' | 'desc';
  k: number;
  i: string | number;
  at: number;
  f: string;
}

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 22);
const scopeTag = (secret: string, scope: string) => sign(secret, `scope:${scope}`).slice(0, 10);

function encode(s: Session, body: CursorBody): string {
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${sign(s.data.meta.secret, payload)}`;
}

function decode(s: Session, raw: string, scope: string): CursorBody {
  const bad = (why: string) => validationError({ cursor: why }, 'The cursor is not valid.');
  const [payload, mac] = raw.split('.');
  const expected = payload ? sign(s.data.meta.secret, payload) : '';
  if (!payload || !mac || !/^[A-Za-z0-9_-]{22}$/.test(mac) || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected)))
    throw bad('is not a cursor this list returned');
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    throw bad('is not a cursor this list returned');
  }
  if (body.f !== scopeTag(s.data.meta.secret, scope))
    throw bad('belongs to another list or other filters; start again without a cursor');
  if (s.now - body.at > CURSOR_TTL_MS)
    throw validationError(
      { cursor: 'has expired (cursors are valid 24 hours); start again without a cursor' },
      'The cursor has expired.',
    );
  return body;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
  order?: 'asc' | 'desc';
}

interface PageOptions<T, R> {
  key: (t: T) => number;
  tie: (t: T) => string | number;
  scope: string;
  present: (t: T) => R;
  defaultLimit?: number;
  totalResults?: boolean;
}
type Page<R> = { data: R[]; meta: { cursor?: string; page_size: number; total_results?: number } };

/**
 * One page of `items`, newest first (or oldest first with order=asc). `key` gives an item's sort
 * time; ties break on `tie` (creation sequence, or id). `scope` names the list and its filters, so
 * a cursor only fits its list.
 */
export function paginate<T, R>(s: Session, items: readonly T[], q: PageQuery, o: PageOptions<T, R>): Page<R> {
  const keyed = items.map((t) => ({ t, k: o.key(t), i: o.tie(t) })).sort((a, b) => compare(a, b));
  return pageOf(s, keyed, q, o);
}

/** paginate() for items already in order, oldest first by key and tie (an index's): a page costs its size. */
export function paginateSorted<T, R>(s: Session, sorted: readonly T[], q: PageQuery, o: PageOptions<T, R>): Page<R> {
  return pageOf(
    s,
    { length: sorted.length, at: (n) => ({ t: sorted[n], k: o.key(sorted[n]), i: o.tie(sorted[n]) }) },
    q,
    o,
  );
}

/** A place in a list: its item's sort time and tie-break. */
export type Pos = { k: number; i: string | number };
/** Orders places oldest first. */
export const compare = (a: Pos, b: Pos) => a.k - b.k || order(a.i, b.i);

/**
 * The cursor of a list paged by its own means (a feed merged from several indexes, newest first),
 * signed and bound to `scope` as every list's: the next page starts below `last`.
 */
export const cursorBelow = (s: Session, scope: string, last: Pos) =>
  encode(s, { o: 'desc', k: last.k, i: last.i, at: s.now, f: scopeTag(s.data.meta.secret, scope) });

/** The place a cursor of cursorBelow names (a 400 when it is not one of this list's, or has expired). */
export function placeOf(s: Session, raw: string, scope: string): Pos {
  const c = decode(s, raw, scope);
  return { k: c.k, i: c.i };
}

/** -1, 0 or 1 as `a` comes before, with or after `b` (the tie-break, a string or a number). */
function order(a: string | number, b: string | number): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

function pageOf<T, R>(
  s: Session,
  items: { length: number; at(n: number): Pos & { t: T } } | (Pos & { t: T })[],
  q: PageQuery,
  o: PageOptions<T, R>,
): Page<R> {
  const at = Array.isArray(items) ? (n: number) => items[n] : items.at;
  const n = items.length;
  const limit = q.limit ?? o.defaultLimit ?? 20;
  let order = q.order ?? 'desc';
  let after: Pos | null = null;
  if (q.cursor !== undefined) {
    const c = decode(s, q.cursor, o.scope);
    if (q.order !== undefined && q.order !== c.o)
      throw validationError({ order: 'must match the order of the cursor' });
    order = c.o;
    after = { k: c.k, i: c.i };
  }
  // the first place past the cursor, oldest first (a binary search)
  let lo = 0;
  let hi = n;
  if (after) {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order === 'asc' ? compare(at(mid), after) <= 0 : compare(at(mid), after) < 0) lo = mid + 1;
      else hi = mid;
    }
  }
  // asc: from lo up; desc: from just below the cursor (or the end) down
  const [from, rest] =
    order === 'asc' ? [after ? lo : 0, n - (after ? lo : 0)] : [(after ? lo : n) - 1, after ? lo : n];
  const page: (Pos & { t: T })[] = [];
  for (let j = 0; j < Math.min(limit, rest); j++) page.push(at(order === 'asc' ? from + j : from - j));
  const meta: Page<R>['meta'] = { page_size: limit };
  if (rest > limit) {
    const last = page[page.length - 1];
    meta.cursor = encode(s, { o: order, k: last.k, i: last.i, at: s.now, f: scopeTag(s.data.meta.secret, o.scope) });
  }
  if (o.totalResults) meta.total_results = n;
  return { data: page.map((x) => o.present(x.t)), meta };
}
