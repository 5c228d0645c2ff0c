// The simulator's request handler: given a store, it answers SimRequests. It never listens or logs;
// server.ts serves it over HTTP and the embedded CLI calls it in-process, so both targets run the
// very same code. Errors become the spec's envelope here and nowhere else.
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, notFound, unauthorized, validationError } from './errors.js';
import type { Transactor, AfterCommit, Auth, Ctx, Method, Reply, Resource, Route, SimRequest, SimResponse } from './http.js';
import type { Fields } from './errors.js';
import type { World } from './world.js';
import { hashKey } from './accounts.js';
import { nextDue, runDue, type Invoke, type TimerEnv, type TimerHandlers } from './scheduler.js';
import { StoreFileError } from '../store/snapshot.js';
import { removeWhere } from '../store/tracker.js';
import { NEEDS_LOCK, type Session, type WorldSession as StoreSession, type WorldStore as Store } from './session.js';
import * as z from 'zod/mini';
import { BULK_MAX_BODY_BYTES, check, fromText, isPlainObject, newFields, takesMany } from './schema.js';
import { DEFAULT_ORIGIN } from './http.js';
import { under, type ResourceEntry } from './capability.js';
import type { WorldServices } from './http.js';

const MAX_BODY_BYTES = 1024 * 1024;
/** The largest body `route` accepts: more for one that takes an array of fixtures (bulk seeding). */
const bodyLimitOf = (route: Route) => (takesMany(route.body) ? BULK_MAX_BODY_BYTES : MAX_BODY_BYTES);
/** Every reply carries one (Request-Id), the server's own refusals included. */
export const newRequestId = () => `req_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

interface Compiled { route: Route; re: RegExp; names: string[] }
/** What a request committed, and whether its reply waits for the work that follows (see App.handle). */
interface Committed { data: World | null; flush: boolean }

function compile(routes: readonly Route[]): Compiled[] {
  return routes.map((route) => {
    const names: string[] = [];
    const re = new RegExp(
      '^' + route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)')) + '$',
    );
    return { route, re, names };
  });
}

/** HEAD is GET without the body (the HTTP server leaves the body out). */
const methodOf = (method: string) => (method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()) as Method;
/** The request target is a path: prefixing the origin keeps "//x" a path, never a host. */
const targetOf = (target: string) => new URL(`http://sim.local${target.startsWith('/') ? '' : '/'}${target}`);

const header = (req: SimRequest, name: string): string | undefined => {
  const v = req.headers[name] ?? req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

export interface App extends Transactor {
  /**
   * Answers a request. After-commit work it caused (webhook deliveries) runs in the background: an
   * API reply never waits for a receiver. A control-plane request (/_sim/...) and a route marked
   * `flush` wait for it, and for all background work, before replying: when an advance of the
   * clock returns, every delivery that fell due has been attempted.
   */
  handle(req: SimRequest): Promise<SimResponse>;
  /** Resolves when no background work (deliveries) is under way. */
  idle(): Promise<void>;
  /** The largest request body the route at `method` `url` accepts (the server stops reading past it). */
  bodyLimit(method: string, url: string): Promise<number>;
  /** Runs whatever fell due; says when the next transition is due and how the clock runs. */
  tick(): Promise<{ nextDueMs: number | null; nowMs: number; mode: 'real' | 'manual' }>;
  store: Store;
}

/** How an app answers beyond its routes. */
export interface AppOptions {
  /**
   * Errors handed to the caller instead of answered as the envelope: the embedded CLI takes a data
   * file it may not use (StoreAccessError) as the local file error it is, not as an API's 500.
   */
  rethrow?: (e: unknown) => boolean;
}

/**
 * What the request pipeline is given of the world it serves, by the composition root (world.ts): the
 * resource table, every transition, the after-commit work, and the world's own services to routes.
 */
export interface WorldDefinition {
  resources: readonly ResourceEntry[];
  timers: TimerHandlers;
  afterCommit: readonly AfterCommit[];
  services: WorldServices;
}

export function createApp(store: Store, world: WorldDefinition, extra: Resource[] = [], options: AppOptions = {}): App {
  const timers: TimerHandlers = Object.assign({}, world.timers, ...extra.map((r) => r.timers));
  const hooks: AfterCommit[] = [...world.afterCommit, ...extra.flatMap((r) => (r.afterCommit ? [r.afterCommit] : []))];
  const resourceTable = world.resources;
  const extraRoutes = compile(extra.flatMap((r) => r.routes));
  const loaded = new Map<ResourceEntry, Promise<Compiled[]>>();

  /** The routes that could serve `path`: those of the resources whose prefixes it lies under, loaded on first need. */
  async function candidates(path: string): Promise<Compiled[]> {
    const out: Compiled[] = [];
    for (const e of resourceTable) {
      if (!e.prefixes.some((p) => under(path, p))) continue;
      let routes = loaded.get(e);
      if (!routes) loaded.set(e, (routes = e.load().then((r) => compile(r.routes))));
      out.push(...(await routes));
    }
    return [...out, ...extraRoutes];
  }

  async function match(method: string, path: string): Promise<{ route: Route; params: Record<string, string> } | 'method' | null> {
    let pathMatched = false;
    for (const c of await candidates(path)) {
      const m = c.re.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (c.route.method !== method) continue;
      const params: Record<string, string> = {};
      try {
        c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])));
      } catch {
        return null; // a malformed percent-escape names nothing
      }
      return { route: c.route, params };
    }
    return pathMatched ? 'method' : null;
  }

  async function handle(req: SimRequest): Promise<SimResponse> {
    const requestId = newRequestId();
    const committed: Committed = { data: null, flush: req.url.startsWith('/_sim/') };
    let res: SimResponse;
    try {
      res = await dispatch(req, requestId, committed);
    } catch (e) {
      if (options.rethrow?.(e)) throw e;
      res = errorResponse(e, requestId);
    }
    // even a failed request may have committed the transitions that fell due before it
    if (committed.data) background(afterCommit(committed.data));
    if (committed.flush) await idle();
    return res;
  }

  const pending = new Set<Promise<void>>();
  function background(work: Promise<void>): void {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }
  async function idle(): Promise<void> {
    while (pending.size > 0) await Promise.all(pending);
  }

  async function afterCommit(data: World): Promise<void> {
    for (const hook of hooks) {
      // the change is on disk whatever happens here: a hook's failure never fails the request
      await hook(app, data).catch((e) => process.emitWarning(`vmv simulator: ${(e as Error)?.stack ?? String(e)}`));
    }
  }

  async function dispatch(req: SimRequest, requestId: string, committed: Committed): Promise<SimResponse> {
    const method = methodOf(req.method);
    const url = targetOf(req.url);
    const found = await match(method, url.pathname);
    if (found === null) throw notFound(`No route for ${method} ${url.pathname}.`);
    if (found === 'method') throw new ApiError(405, 'method_not_allowed', `${method} is not allowed on ${url.pathname}.`);
    const { route, params } = found;
    const isApi = url.pathname.startsWith('/v1/');
    if (route.flush) committed.flush = true;

    interface Done { res: SimResponse; after?: Reply['after']; idem?: { apiKeyId: string; key: string; fingerprint: string } }
    const unit = async (ss: StoreSession): Promise<Done> => {
      const commit = async (s: Session) => {
        await ss.commit(s);
        committed.data = s.data;
      };
      let s = await ss.begin();
      // a read runs without the cross-process lock unless it has transitions to run first
      if (!ss.locked && (nextDue(s) ?? Infinity) <= s.now) throw NEEDS_LOCK;
      // whatever fell due since the last request runs first, and is kept even if this request fails
      if ((await runDue(s, s.now, timers, env)) > 0 || s.dirty) {
        await commit(s);
        s = await ss.begin();
      }
      try {
        // a public route (the API description) needs no key and ignores one sent
        const auth = route.public ? authFor(s.data, null, s.data.meta.default_workspace_id) : authenticate(s.data, header(req, 'authorization'), isApi, route);
        const noPlan = planRefusal(route, auth);
        if (noPlan) throw noPlan;
        const body = parseBody(req, method, route); // after the key: a bad key is 401 whatever the body
        const idemKey = isApi && method !== 'GET' ? header(req, 'idempotency-key') : undefined;
        if (idemKey !== undefined && (idemKey.length < 1 || idemKey.length > 255))
          throw validationError({ 'Idempotency-Key': `must be 1 to 255 characters (got ${idemKey.length})` });
        // only a request that can be replayed pays for the fingerprint (a bulk body's is costly)
        const fp = idemKey !== undefined && auth.key ? fingerprint(method, url.pathname + url.search, body) : '';
        if (idemKey !== undefined && auth.key) {
          const replay = lookupIdempotency(s, auth.key.id, idemKey, fp);
          if (replay) return { res: replay };
        }
        const input = validate(route, params, url.searchParams, body);
        const advance = (until: number) => runDue(s, until, timers, env);
        const ctx: Ctx<any, any, any> = { s, data: s.data, auth, ...input, requestId, advance, origin: originOf(req), header: (name) => header(req, name), world: world.services };
        const reply = await route.handler(ctx);
        const res = toResponse(reply, requestId);
        const idem = idemKey !== undefined && auth.key && res.status >= 200 && res.status < 300 && typeof res.body === 'string'
          ? { apiKeyId: auth.key.id, key: idemKey, fingerprint: fp } : undefined;
        // stored now (a retry while the request waits replays this, never starting a second run), and
        // again once a waiting reply is final (below), so that a later replay repeats what was sent
        if (idem) remember(s, idem, requestId, res);
        if (method !== 'GET' || s.dirty) await commit(s);
        return { res, after: reply.after, idem };
      } catch (e) {
        ss.rollback();
        throw e;
      }
    };
    let done = method === 'GET' ? await store.withRead(unit) : NEEDS_LOCK;
    if (done === NEEDS_LOCK) done = await store.withLock(unit);
    if (!done.after) return done.res;
    // outside the lock: the request waits for what its change set going, then answers
    const res = toResponse(await done.after(app), requestId);
    if (done.idem && res.status >= 200 && res.status < 300) {
      await transaction((s) => {
        const rec = s.data.idempotency.find((r) => r.api_key_id === done.idem!.apiKeyId && r.key === done.idem!.key && r.request_id === requestId);
        if (rec) {
          rec.status = res.status;
          rec.body = res.body as string;
          s.markDirty();
        }
      });
    }
    return res;
  }

  function remember(s: Session, idem: { apiKeyId: string; key: string; fingerprint: string }, requestId: string, res: SimResponse): void {
    s.data.idempotency.push({
      api_key_id: idem.apiKeyId, key: idem.key, fingerprint: idem.fingerprint, request_id: requestId, status: res.status, body: res.body as string, created_at_ms: s.now,
    });
    s.markDirty();
  }

  /** Why the key may not call the route (its scopes, the workspace's plan), or null. */
  function refusal(route: Route, auth: Auth): ApiError | null {
    const noPlan = planRefusal(route, auth);
    if (noPlan) return noPlan;
    const key = auth.key;
    if (key && key.scopes !== null && route.scope && !(route.scope !== 'full' && key.scopes.includes(route.scope)))
      return new ApiError(403, 'forbidden', route.scope === 'full' ? 'This needs a full-access API key.' : `This API key lacks the ${route.scope} scope.`);
    return null;
  }

  async function routeAs(s: Session, as: { workspaceId: string; apiKeyId: string | null }, method: string, path: string) {
    const found = await match(method, path);
    if (found === null || found === 'method') throw new Error(`invoke: no route for ${method} ${path}`);
    const key = as.apiKeyId ? s.data.api_keys.find((k) => k.id === as.apiKeyId) ?? null : null;
    return { ...found, auth: authFor(s.data, key, as.workspaceId) };
  }

  /** An API route run inside a session, as a key of the workspace would call it (the assistant's tools): its scopes and plan apply. */
  const invoke: Invoke = async (s, as, call) => {
    const { route, params, auth } = await routeAs(s, as, call.method, call.path);
    const refused = refusal(route, auth);
    if (refused) throw refused;
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const input = validate(route, params, query, (call.body ?? {}) as Record<string, unknown>);
    const ctx: Ctx<any, any, any> = {
      s, data: s.data, auth, ...input, requestId: newRequestId(), advance: (until: number) => runDue(s, until, timers, env),
      origin: DEFAULT_ORIGIN, header: () => undefined, world: world.services,
    };
    const reply = await route.handler(ctx);
    return { status: reply.status ?? 200, body: reply.body };
  };
  const authorize: TimerEnv['authorize'] = async (s, as, call) => {
    const { route, auth } = await routeAs(s, as, call.method, call.path);
    return refusal(route, auth)?.message ?? null;
  };
  const env: TimerEnv = { invoke, authorize };

  async function tick() {
    const look = (s: Session) => ({ data: s.data, nextDueMs: nextDue(s), nowMs: s.now, mode: s.data.meta.clock.mode });
    // nothing due: a look without the cross-process lock
    const seen = await store.withRead(async (ss) => {
      const t = look(await ss.begin());
      if (t.nextDueMs !== null && t.nextDueMs <= t.nowMs) throw NEEDS_LOCK;
      return t;
    });
    const { data, ...t } = seen !== NEEDS_LOCK ? seen : await transaction(look);
    background(afterCommit(data));
    return t;
  }

  function transaction<T>(fn: (s: Session) => T | Promise<T>): Promise<T> {
    return store.withLock(async (ss) => {
      const s = await ss.begin();
      await runDue(s, s.now, timers, env);
      try {
        const out = await fn(s);
        if (s.dirty) await ss.commit(s);
        return out;
      } catch (e) {
        ss.rollback();
        throw e;
      }
    });
  }

  async function bodyLimit(method: string, url: string): Promise<number> {
    const found = await match(methodOf(method), targetOf(url).pathname).catch(() => null);
    return found && found !== 'method' ? bodyLimitOf(found.route) : MAX_BODY_BYTES;
  }

  const app: App = { handle, idle, tick, transaction, store, bodyLimit };
  return app;
}

const EMPTY = z.strictObject({});

/**
 * Checks a request against its route's declaration: path parameters, query and body, every
 * problem of the three in one 400. Returns what the handler sees, parsed.
 */
function validate(route: Route, rawParams: Record<string, string>, query: URLSearchParams, body: Record<string, unknown>) {
  const errs: Fields = newFields();
  const paramSchema = route.params ?? EMPTY;
  const params = check(paramSchema, fromText(paramSchema, Object.entries(rawParams), errs, 'path'), errs, 'path');
  const querySchema = route.query ?? EMPTY;
  const queryErrs: Fields = newFields();
  const q = check(querySchema, fromText(querySchema, query, queryErrs, 'query'), queryErrs, 'query');
  // a query's problems are listed in the order its parameters were written
  for (const name of new Set(query.keys())) if (Object.hasOwn(queryErrs, name)) errs[name] ??= queryErrs[name];
  for (const [name, why] of Object.entries(queryErrs)) errs[name] ??= why;
  const parsedBody = route.method === 'GET' || route.bodyCheckedByHandler ? body : check(route.body ?? EMPTY, body, errs, 'body');
  if (Object.keys(errs).length > 0) throw validationError(errs);
  return { params: params as Record<string, unknown>, query: q as Record<string, unknown>, body: parsedBody as Record<string, unknown> };
}

export const tooLarge = (limit: number) => new ApiError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);

/** The JSON body: an object, or (a route that takes many) an array. */
function parseBody(req: SimRequest, method: Method, route: Route): Record<string, unknown> {
  if (method === 'GET') return {};
  const raw = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : req.body.toString('utf8');
  const limit = bodyLimitOf(route);
  if (Buffer.byteLength(raw) > limit) throw tooLarge(limit);
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw validationError({ body: `is not valid JSON (${(e as Error).message})` }, 'The request body is not valid JSON.');
  }
  const many = takesMany(route.body);
  if (!isPlainObject(parsed) && !(many && Array.isArray(parsed))) {
    const what = many ? 'a JSON object or an array of them' : 'a JSON object';
    throw validationError({ body: `must be ${what}` }, `The request body must be ${what}.`);
  }
  if (depth(parsed) > MAX_DEPTH) throw validationError({ body: `nests deeper than ${MAX_DEPTH} levels` }, 'The request body nests too deeply.');
  return parsed as Record<string, unknown>;
}

const MAX_DEPTH = 64;
function depth(v: unknown, d = 0): number {
  if (d > MAX_DEPTH || typeof v !== 'object' || v === null) return d;
  let max = d + 1;
  for (const x of Object.values(v)) max = Math.max(max, depth(x, d + 1));
  return max;
}

/** JSON with object keys sorted at every depth: the same body in another key order is the same body. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

function authenticate(data: World, authorization: string | undefined, isApi: boolean, route: Route): Auth {
  const m = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!m) {
    if (isApi) throw unauthorized(authorization ? 'The Authorization header must be "Bearer <API key>".' : 'Missing API key: send Authorization: Bearer <API key>.');
    return authFor(data, null, data.meta.default_workspace_id);
  }
  const hash = hashKey(m[1]);
  const key = data.api_keys.find((k) => k.hash === hash);
  if (!key) throw unauthorized('The API key is not valid.');
  if (isApi && route.scope && key.scopes !== null) {
    const ok = route.scope !== 'full' && key.scopes.includes(route.scope);
    if (!ok)
      throw new ApiError(403, 'forbidden',
        route.scope === 'full' ? 'This endpoint needs a full-access API key.' : `This API key lacks the ${route.scope} scope.`);
  }
  return authFor(data, key, key.workspace_id);
}

/** 403 plan_not_included when the route needs a plan feature the workspace lacks. */
function planRefusal(route: Route, auth: Auth): ApiError | null {
  if (!route.plan || auth.workspace.plan[route.plan]) return null;
  return new ApiError(403, 'plan_not_included', `The workspace's plan does not include ${route.plan === 'content' ? 'Content (videos)' : 'the assistant'}.`);
}

function authFor(data: World, key: Auth['key'], workspaceId: string): Auth {
  const workspace = data.workspaces.find((w) => w.id === workspaceId)!;
  const org = data.organizations.find((o) => o.id === workspace.organization_id)!;
  const user = data.users.find((u) => (key ? u.id === key.user_id : u.organization_id === org.id))!;
  return { key, workspace, org, user };
}

/** http://<Host> when the request names a plausible host, else `vmv sim serve`'s default address (embedded requests have none). */
function originOf(req: SimRequest): string {
  const host = header(req, 'host');
  return host && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `http://${host}` : DEFAULT_ORIGIN;
}

const fingerprint = (method: string, path: string, body: unknown) =>
  createHash('sha256').update(`${method} ${path}\n${canonical(body)}`).digest('hex');

function lookupIdempotency(s: Session, apiKeyId: string, key: string, fp: string): SimResponse | null {
  // (journaled as the places of the records that expired, not the records kept)
  if (removeWhere(s.data.idempotency, (r) => s.now - r.created_at_ms >= IDEMPOTENCY_TTL_MS) > 0) s.markDirty();
  const rec = s.data.idempotency.find((r) => r.api_key_id === apiKeyId && r.key === key);
  if (!rec) return null;
  if (rec.fingerprint !== fp)
    throw new ApiError(409, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request.', {
      conflicts_with: rec.request_id,
    });
  return {
    status: rec.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'idempotency-replay': 'true', 'request-id': rec.request_id },
    body: rec.body,
  };
}

function toResponse(reply: Reply, requestId: string): SimResponse {
  const headers: Record<string, string> = { 'request-id': requestId, ...reply.headers };
  if (reply.raw) {
    headers['content-type'] = reply.raw.contentType;
    return { status: reply.status ?? 200, headers, body: reply.raw.bytes };
  }
  headers['content-type'] = 'application/json; charset=utf-8';
  const status = reply.status ?? 200;
  return { status, headers, body: status === 204 ? '' : JSON.stringify(reply.body ?? {}) };
}

function errorResponse(e: unknown, requestId: string): SimResponse {
  // a data file that cannot be read or used is said as it is (the file, the line, what to do): it is no bug of ours
  const err =
    e instanceof ApiError ? e
    : e instanceof StoreFileError ? new ApiError(500, 'internal_error', `${e.message} The request was not applied.`)
    : new ApiError(500, 'internal_error', 'The simulator hit an unexpected error; the request was not applied.');
  if (!(e instanceof ApiError) && !(e instanceof StoreFileError)) process.emitWarning(`vmv simulator: ${(e as Error)?.stack ?? String(e)}`);
  return {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'request-id': requestId, ...err.headers },
    body: JSON.stringify(err.envelope()),
  };
}
