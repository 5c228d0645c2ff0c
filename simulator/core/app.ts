// The simulator's request handler: given a store and the world it serves (the composition root,
// world.ts, hands both over), it answers SimRequests. It never listens or logs; server.ts serves it
// over HTTP and the embedded CLI calls it in-process, so both targets run the very same code.
//
// A request goes through a list of named steps (STEPS, below), in one unit of work on the store:
// what fell due on the clock runs first and is kept whatever follows (in slices when a real clock is
// far behind: the request waits for them while the server answers others between them; a read on a
// server answers from the world as of the slice, its real-clock loop catching up the rest); then the
// key is checked, the plan, the body parsed, a replay answered, the input validated, the route run,
// and its reply kept for its Idempotency-Key. The parts: router.ts (which route), auth.ts (as whom),
// request.ts (the body, validation, the envelope), idempotency.ts (replays); app-clock.ts (units of
// work outside a request: transactions, slices, the real clock's tick), app-background.ts (work after
// a commit, each request's signal).
import type {
  AfterCommit,
  Auth,
  Ctx,
  Method,
  Reply,
  Resource,
  Route,
  SimRequest,
  SimResponse,
  Transactor,
  WorldServices,
} from './http.js';
import { CATCHING_UP_HEADER, STALE_HEADER, STALE_VALUE } from '../../src/marks.js';
import { DEFAULT_ORIGIN } from './http.js';
import { authenticate, authFor, planRefusal, refusal } from './auth.js';
import type { ResourceEntry } from './capability.js';
import { ApiError, notFound } from './errors.js';
import { checkKey, fingerprint, remember, rememberFinal, replayOf, type Keyed } from './idempotency.js';
import { errorResponse, header, newRequestId, originOf, parseBody, toResponse, validate } from './request.js';
import { createRouter, methodOf, normalTarget, targetOf, type Router } from './router.js';
import { nextDue, runDue, runSome, type Invoke, type TimerEnv, type TimerHandlers } from './scheduler.js';
import { iso } from './clock.js';
import { moveInSlices, SLICE_MS } from './move.js';
import { DueStall } from './stall.js';
import { NEEDS_LOCK, type Session, type WorldSession, type WorldStore } from './session.js';
import type { World } from './world.js';
import { backgroundWork, stopper } from './app-background.js';
import { slicer, ticker, transactor, type Tick, type Wiring } from './app-clock.js';

export { IDEMPOTENCY_TTL_MS } from './idempotency.js';
export { newRequestId, tooLarge } from './request.js';
export type { Tick } from './app-clock.js';

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
  /**
   * Runs what fell due (for one slice at most: move.ts); says when the next transition is due and how
   * the clock runs, or, when a full disk kept what fell due from being saved, only when to look again.
   */
  tick(): Promise<Tick>;
  /** Stops every move of the clock under way after its current slice (the server is closing). */
  close(): void;
  store: WorldStore;
}

/** How an app answers beyond its routes. */
export interface AppOptions {
  /**
   * Errors handed to the caller instead of answered as the envelope: the embedded CLI takes a data
   * file it may not use (StoreAccessError) as the local file error it is, not as an API's 500.
   */
  rethrow?: (e: unknown) => boolean;
  /**
   * A loop catches up what fell due in the background (a server's real-clock loop, server.ts): a read
   * that finds more due than one slice answers from the world as of that slice (marked CATCHING_UP_HEADER)
   * instead of waiting for the rest. Without one (the embedded CLI), every request waits for it, in slices.
   */
  catchesUp?: boolean;
  /**
   * The reader of the replies tells what a full disk keeps from being saved, from their Vmv-Stale
   * mark (the embedded CLI: src/marks.ts), so the app does not warn of it on the process's stderr too.
   */
  staleToldByReader?: boolean;
  /** the most transitions one move of the clock may run (`sim serve --move-limit`; default move.ts MOVE_WORK_LIMIT) */
  moveLimit?: number;
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

/** What a request committed, and whether its reply waits for the work that follows (see App.handle). */
interface Committed {
  data: World | null;
  flush: boolean;
}

/** One request on its way through the steps: what it is, and what each step adds. */
interface Exchange {
  req: SimRequest;
  requestId: string;
  method: Method;
  url: URL;
  route: Route;
  params: Record<string, string>;
  /** a /v1 route (the API), not the control plane */
  isApi: boolean;
  s: Session;
  auth?: Auth;
  body?: Record<string, unknown>;
  keyed?: Keyed;
  input?: ReturnType<typeof validate>;
  reply?: Reply;
  res?: SimResponse;
}

/** A step: what it adds to the exchange, or a reply that ends the request early (a replay). */
type Step = (x: Exchange, w: Wiring) => void | SimResponse | Promise<void | SimResponse>;

/** The steps of a request, in order, after what fell due has run (they roll back together). */
const STEPS: readonly (readonly [string, Step])[] = [
  // a public route (the API description) needs no key and ignores one sent
  [
    'authenticate',
    (x) =>
      void (x.auth = x.route.public
        ? authFor(x.s.data, null, x.s.data.meta.default_workspace_id)
        : authenticate(x.s.data, header(x.req, 'authorization'), x.isApi, x.route)),
  ],
  [
    'plan',
    (x) => {
      const noPlan = planRefusal(x.route, x.auth!);
      if (noPlan) throw noPlan;
    },
  ],
  // after the key: a bad key is 401 whatever the body
  ['parse', (x) => void (x.body = parseBody(x.req, x.method, x.route))],
  [
    'replay',
    (x) => {
      const key = x.isApi && x.method !== 'GET' ? header(x.req, 'idempotency-key') : undefined;
      if (key === undefined) return;
      checkKey(key);
      if (!x.auth!.key) return;
      // only a request that can be replayed pays for the fingerprint (a bulk body's is costly)
      x.keyed = {
        apiKeyId: x.auth!.key.id,
        key,
        fingerprint: fingerprint(x.method, x.url.pathname + x.url.search, x.body),
      };
      return replayOf(x.s, x.keyed) ?? undefined;
    },
  ],
  ['validate', (x) => void (x.input = validate(x.route, x.params, x.url.searchParams, x.body!))],
  [
    'run',
    async (x, w) => {
      const ctx: Ctx<any, any, any> = {
        s: x.s,
        data: x.s.data,
        auth: x.auth!,
        ...x.input!,
        requestId: x.requestId,
        advance: (until: number) => w.run(x.s, until),
        signal: x.req.signal,
        head: x.req.method.toUpperCase() === 'HEAD',
        origin: originOf(x.req),
        header: (name) => header(x.req, name),
        world: w.services,
      };
      x.reply = await x.route.handler(ctx);
      x.res = toResponse(x.reply, x.requestId, ctx.head);
    },
  ],
  // kept now (a retry while the request waits replays this, never starting a second run), and again
  // once a waiting reply is final (App.handle), so that a later replay repeats what was sent
  [
    'remember',
    (x) => {
      if (!x.keyed || x.res!.status < 200 || x.res!.status >= 300 || typeof x.res!.body !== 'string' || x.res!.stream)
        x.keyed = undefined;
      else remember(x.s, x.keyed, x.requestId, x.res!);
    },
  ],
];

/** What runSteps answers when a slice of what fell due ran and more is due: the request waits and tries again. */
const BEHIND = Symbol('behind');

/**
 * One unit of work for a request: what fell due runs (and is kept), then the steps, which commit or
 * roll back together. When more fell due than a slice runs (a real clock far behind), the slice is
 * kept and the request either waits for the rest (BEHIND) or, a read on a server that catches up,
 * answers from the world as of the slice.
 */
async function runSteps(
  ss: WorldSession,
  start: Omit<Exchange, 's'>,
  w: Wiring,
  committed: Committed,
): Promise<Exchange | typeof BEHIND> {
  const commit = async (s: Session) => {
    await ss.commit(s);
    committed.data = s.data;
  };
  let s = await ss.begin();
  const due = (nextDue(s) ?? Infinity) <= s.now;
  // a read while what fell due cannot be saved (stall.ts) answers from the disk without trying again;
  // one while the real-clock loop catches up answers from the disk as of its last slice
  const read = due && start.method === 'GET';
  const stale = read && w.stall.waiting();
  const catching = read && w.readsAnswerBehind && w.catchingUp;
  // a read runs without the cross-process lock unless it has transitions to run first
  if (!ss.locked && due && !stale && !catching) throw NEEDS_LOCK;
  let behind = catching;
  if (!stale && !catching) ({ s, behind } = await runDueFirst(ss, s, start.method, w, commit));
  if (behind && !(start.method === 'GET' && w.readsAnswerBehind)) return BEHIND;
  const x: Exchange = { ...start, s };
  try {
    for (const [, step] of STEPS) {
      const early = await step(x, w);
      if (early) return { ...x, res: early, reply: undefined };
    }
    if (x.method !== 'GET' || s.dirty) await commit(s);
    if (stale || w.stall.waiting()) x.res!.headers[STALE_HEADER] = STALE_VALUE;
    if (behind) x.res!.headers[CATCHING_UP_HEADER] = iso(nextDue(s) ?? s.now);
    return x;
  } catch (e) {
    ss.rollback();
    throw e;
  }
}

/**
 * Runs a slice of whatever fell due since the last request, kept even if this request fails; the
 * session the request goes on with, and whether more is due (`behind`: a real clock catching up).
 * On a full disk a read goes on with what the disk holds (stall.ts); a write fails.
 */
async function runDueFirst(
  ss: WorldSession,
  s: Session,
  method: Method,
  w: Wiring,
  commit: (s: Session) => Promise<void>,
): Promise<{ s: Session; behind: boolean }> {
  try {
    const r = await w.runSlice(s, s.now);
    if (r.ran > 0 || s.dirty) {
      await commit(s);
      s = await ss.begin();
    }
    w.stall.saved();
    return { s, behind: !r.done };
  } catch (e) {
    if (method !== 'GET' || !w.stall.failed(e)) throw e;
    ss.rollback();
    return { s: await ss.begin(), behind: false };
  }
}

/** Finds a request's route and runs its steps: without the lock when it only reads, under it otherwise. */
function dispatcher(
  store: WorldStore,
  router: Router,
  w: Wiring,
  transaction: App['transaction'],
  app: () => App,
  after: (data: World) => void,
) {
  /** Outside the lock: the request waits for what its change set going (an assistant run), then answers. */
  async function waited(x: Exchange, requestId: string): Promise<SimResponse> {
    const res = toResponse(await x.reply!.after!(app()), requestId);
    if (x.keyed && res.status >= 200 && res.status < 300)
      await transaction((s) => rememberFinal(s, x.keyed!, requestId, res));
    return res;
  }
  return async (req: SimRequest, requestId: string, committed: Committed): Promise<SimResponse> => {
    const method = methodOf(req.method);
    // the same spelling rule as the HTTP server's door, so both targets read a path alike
    const target = normalTarget(req.url);
    if (target instanceof ApiError) throw target;
    const url = targetOf(target);
    const found = await router.match(method, url.pathname);
    if (found === null) throw notFound(`No route for ${method} ${url.pathname}.`);
    if ('allow' in found)
      throw new ApiError(
        405,
        'method_not_allowed',
        `${req.method.toUpperCase()} is not allowed on ${url.pathname}: it takes ${found.allow.join(', ')}.`,
        undefined,
        undefined,
        { allow: found.allow.join(', ') },
      );
    if (found.route.flush) committed.flush = true;
    const start = {
      req,
      requestId,
      method,
      url,
      route: found.route,
      params: found.params,
      isApi: url.pathname.startsWith('/v1/'),
    };
    const unit = (ss: WorldSession) => runSteps(ss, start, w, committed);
    for (;;) {
      let done = method === 'GET' ? await store.withRead(unit) : NEEDS_LOCK;
      if (done === NEEDS_LOCK) done = await store.withLock(unit);
      if (done !== BEHIND) return done.reply?.after ? waited(done, requestId) : done.res!;
      await caughtUpSlice(req, committed, after);
    }
  };
}

/**
 * Between two slices of a catch-up a request waits for: the slice's deliveries started, the server's
 * other requests answered; a client gone or a server closing ends the wait (the slices done are kept).
 */
async function caughtUpSlice(req: SimRequest, committed: Committed, after: (data: World) => void): Promise<void> {
  if (committed.data) after(committed.data);
  committed.data = null;
  await new Promise((r) => setImmediate(r));
  if (req.signal?.aborted)
    throw new ApiError(
      503,
      'store_busy',
      'The simulator stopped while its clock caught up with what fell due; what ran is kept, the rest runs on the next request.',
    );
}

/**
 * API routes run inside a session, as a key of the workspace would call them (the assistant's
 * tools): its scopes and plan apply. What a transition may use beyond its session (TimerEnv).
 */
function invoker(router: Router, w: Wiring): TimerEnv {
  async function routeAs(
    s: Session,
    as: { workspaceId: string; apiKeyId: string | null },
    method: string,
    path: string,
  ) {
    const found = await router.match(method as Method, path);
    if (found === null || 'allow' in found) throw new Error(`invoke: no route for ${method} ${path}`);
    const key = as.apiKeyId ? (s.data.api_keys.find((k) => k.id === as.apiKeyId) ?? null) : null;
    return { ...found, auth: authFor(s.data, key, as.workspaceId) };
  }
  const invoke: Invoke = async (s, as, call) => {
    const { route, params, auth } = await routeAs(s, as, call.method, call.path);
    const refused = refusal(route, auth);
    if (refused) throw refused;
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const input = validate(route, params, query, (call.body ?? {}) as Record<string, unknown>);
    const ctx: Ctx<any, any, any> = {
      ...{ s, data: s.data, auth, ...input, requestId: newRequestId(), advance: (until: number) => w.run(s, until) },
      ...{ origin: DEFAULT_ORIGIN, header: () => undefined, world: w.services },
    };
    const reply = await route.handler(ctx);
    return { status: reply.status ?? 200, body: reply.body };
  };
  const authorize: TimerEnv['authorize'] = async (s, as, call) => {
    const { route, auth } = await routeAs(s, as, call.method, call.path);
    return refusal(route, auth)?.message ?? null;
  };
  return { invoke, authorize };
}

/** The request handler of a world on `store` (with resources of a test's own, `extra`): the parts above, wired. */
export function createApp(
  store: WorldStore,
  world: WorldDefinition,
  extra: Resource[] = [],
  options: AppOptions = {},
): App {
  const timers: TimerHandlers = Object.assign({}, world.timers, ...extra.map((r) => r.timers));
  const hooks = [...world.afterCommit, ...extra.flatMap((r) => (r.afterCommit ? [r.afterCommit] : []))];
  const router = createRouter(
    world.resources,
    extra.flatMap((r) => r.routes),
  );
  // (the transitions' environment invokes routes, which may run transitions: defined together)
  const wiring: Wiring = {
    run: (s, until) => runDue(s, until, timers, env),
    runSlice: (s, until) => {
      const started = performance.now();
      return runSome(s, until, timers, env, () => performance.now() - started > SLICE_MS);
    },
    services: options.moveLimit ? { ...world.services, moveLimit: options.moveLimit } : world.services,
    readsAnswerBehind: options.catchesUp === true,
    catchingUp: false,
    stall: new DueStall(!options.staleToldByReader),
  };
  const env = invoker(router, wiring);
  const transaction = transactor(store, wiring);
  const work = backgroundWork(hooks, () => app);
  const dispatch = dispatcher(store, router, wiring, transaction, () => app, work.after);
  const slice = slicer(store, wiring, work.after);
  // (closed when the server closes: every move under way stops after its slice)
  const signals = stopper();

  async function handle(given: SimRequest): Promise<SimResponse> {
    const { signal, end } = signals.open(given.signal);
    const req = { ...given, signal };
    const requestId = newRequestId();
    const committed: Committed = { data: null, flush: req.url.startsWith('/_sim/') };
    let res: SimResponse;
    try {
      res = await dispatch(req, requestId, committed);
    } catch (e) {
      if (options.rethrow?.(e)) throw e;
      res = errorResponse(e, requestId);
    } finally {
      end();
    }
    // even a failed request may have committed the transitions that fell due before it
    if (committed.data) work.after(committed.data);
    if (committed.flush) await work.idle();
    return res;
  }

  const app: App = {
    handle,
    idle: work.idle,
    tick: ticker(store, slice, work.after, wiring),
    transaction,
    move: (from, to, signal) => moveInSlices((t, left) => slice(t, left, true), from, to, signal),
    close: signals.close,
    store,
    bodyLimit: router.bodyLimit,
  };
  return app;
}
