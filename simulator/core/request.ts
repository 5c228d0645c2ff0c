// A request's parts and a reply's form: the body parsed as JSON (within the route's size), the path,
// query and body checked against the route's declaration in one 400, where links point, and the
// reply or error as the spec's envelope. Errors become the envelope here and nowhere else.
import { randomUUID } from 'node:crypto';
import { StoreFileError } from '../store/snapshot.js';
import * as z from 'zod/mini';
import { ApiError, validationError, type Fields } from './errors.js';
import { DEFAULT_ORIGIN, type Method, type Reply, type Route, type SimRequest, type SimResponse } from './http.js';
import { bodyLimitOf } from './router.js';
import { isPlainObject, takesMany } from './schema.js';
import { check, fromText, newFields } from './check.js';

/** Every reply carries one (Request-Id), the server's own refusals included. */
export const newRequestId = () => `req_${randomUUID().replace(/-/g, '').slice(0, 20)}`;

export const header = (req: SimRequest, name: string): string | undefined => {
  const v = req.headers[name] ?? req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

const EMPTY = z.strictObject({});

/**
 * Checks a request against its route's declaration: path parameters, query and body, every
 * problem of the three in one 400. Returns what the handler sees, parsed.
 */
export function validate(
  route: Route,
  rawParams: Record<string, string>,
  query: URLSearchParams,
  body: Record<string, unknown>,
) {
  const errs: Fields = newFields();
  const paramSchema = route.params ?? EMPTY;
  const params = check(paramSchema, fromText(paramSchema, Object.entries(rawParams), errs, 'path'), errs, 'path');
  const querySchema = route.query ?? EMPTY;
  const queryErrs: Fields = newFields();
  const q = check(querySchema, fromText(querySchema, query, queryErrs, 'query'), queryErrs, 'query');
  // a query's problems are listed in the order its parameters were written
  for (const name of new Set(query.keys())) if (Object.hasOwn(queryErrs, name)) errs[name] ??= queryErrs[name];
  for (const [name, why] of Object.entries(queryErrs)) errs[name] ??= why;
  const parsedBody =
    route.method === 'GET' || route.bodyCheckedByHandler ? body : check(route.body ?? EMPTY, body, errs, 'body');
  if (Object.keys(errs).length > 0) throw validationError(errs);
  return {
    params: params as Record<string, unknown>,
    query: q as Record<string, unknown>,
    body: parsedBody as Record<string, unknown>,
  };
}

export const tooLarge = (limit: number) =>
  new ApiError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);

/** The body as text: none is empty, bytes are UTF-8. */
function bodyText(body: SimRequest['body']): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : body.toString('utf8');
}

/** The JSON body: an object, or (a route that takes many) an array. */
export function parseBody(req: SimRequest, method: Method, route: Route): Record<string, unknown> {
  if (method === 'GET') return {};
  const raw = bodyText(req.body);
  const limit = bodyLimitOf(route);
  if (Buffer.byteLength(raw) > limit) throw tooLarge(limit);
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw validationError(
      { body: `is not valid JSON (${(e as Error).message})` },
      'The request body is not valid JSON.',
    );
  }
  const many = takesMany(route.body);
  if (!isPlainObject(parsed) && !(many && Array.isArray(parsed))) {
    const what = many ? 'a JSON object or an array of them' : 'a JSON object';
    throw validationError({ body: `must be ${what}` }, `The request body must be ${what}.`);
  }
  if (depth(parsed) > MAX_DEPTH)
    throw validationError({ body: `nests deeper than ${MAX_DEPTH} levels` }, 'The request body nests too deeply.');
  return parsed as Record<string, unknown>;
}

const MAX_DEPTH = 64;
function depth(v: unknown, d = 0): number {
  if (d > MAX_DEPTH || typeof v !== 'object' || v === null) return d;
  let max = d + 1;
  for (const x of Object.values(v)) max = Math.max(max, depth(x, d + 1));
  return max;
}

/** http://<Host> when the request names a plausible host, else `vmv sim serve`'s default address (embedded requests have none). */
export function originOf(req: SimRequest): string {
  const host = header(req, 'host');
  return host && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
    ? `http://${host}`
    : DEFAULT_ORIGIN;
}

export function toResponse(reply: Reply, requestId: string, head = false): SimResponse {
  const headers: Record<string, string> = { 'request-id': requestId, ...reply.headers };
  if (reply.stream) {
    headers['content-type'] = reply.stream.contentType;
    headers['content-length'] = String(reply.stream.size);
    // a HEAD's body is never sent: nothing is made
    return { status: reply.status ?? 200, headers, body: '', stream: head ? undefined : reply.stream.pieces() };
  }
  if (reply.raw) {
    headers['content-type'] = reply.raw.contentType;
    if (reply.raw.size !== undefined) headers['content-length'] = String(reply.raw.size);
    return { status: reply.status ?? 200, headers, body: reply.raw.bytes };
  }
  headers['content-type'] = 'application/json; charset=utf-8';
  const status = reply.status ?? 200;
  return { status, headers, body: status === 204 ? '' : JSON.stringify(reply.body ?? {}) };
}

/** One `bytes=` range of a body of `size` bytes; null to send it all (no header, several ranges, or one not understood). */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]); // the last n bytes
    return n === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  return end < start ? null : { start, end };
}

/** The 416 of a range outside a body of `size` bytes, saying the size (Content-Range: bytes *\/size). */
export const rangeNotSatisfiable = (size: number, what = 'file') =>
  new ApiError(
    416,
    'range_not_satisfiable',
    `The range is outside the ${what} (${size} bytes).`,
    undefined,
    undefined,
    {
      'content-range': `bytes */${size}`,
    },
  );

export function errorResponse(e: unknown, requestId: string): SimResponse {
  // a data file that cannot be read or used is said as it is (the file, the line, what to do): it is no bug of ours
  let err: ApiError;
  if (e instanceof ApiError) err = e;
  else if (e instanceof StoreFileError)
    err = new ApiError(500, 'internal_error', `${e.message} The request was not applied.`);
  else err = new ApiError(500, 'internal_error', 'The simulator hit an unexpected error; the request was not applied.');
  if (!(e instanceof ApiError) && !(e instanceof StoreFileError))
    process.emitWarning(`vmv simulator: ${(e as Error)?.stack ?? String(e)}`);
  return {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'request-id': requestId, ...err.headers },
    body: JSON.stringify(err.envelope()),
  };
}
