// Types shared by the request handler and the route modules. A route is a declaration: its path
// parameters, query, body, responses and error codes are schemas (schema.ts), which app.ts uses to
// validate every request and openapi.ts to describe the API. Types flow one way: routes → http.
import type * as z from 'zod/mini';
import type { ApiKey, World, Organization, Scope, User, Workspace } from './world.js';
import type { Moved } from './move.js';
import type { ClockState } from './clock.js';
import type { TimerHandlers } from './scheduler.js';
import type { Session } from './session.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where links point when no request says how the simulator is reached: `vmv sim serve`'s default address. */
export const DEFAULT_ORIGIN = 'http://127.0.0.1:4010';

export interface SimRequest {
  method: string;
  /** path and query, e.g. /v1/calls?limit=5 */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer | string;
  /** aborts when the client goes away (over HTTP: its connection closed before the reply) */
  signal?: AbortSignal;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  /**
   * A body made a piece at a time as it is read (a recording), `body` then empty and Content-Length
   * its whole size: the server sends it with back-pressure (server.ts sendResponse), an in-process
   * caller writes it where it goes; stopping the iteration (return()) stops the making.
   */
  stream?: AsyncIterable<Buffer>;
}

export interface Auth {
  /** null on the control plane when no key was sent */
  key: ApiKey | null;
  workspace: Workspace;
  org: Organization;
  user: User;
}

type Out<S, D> = S extends z.ZodMiniType ? z.output<S> : D;

export interface Ctx<P = Record<string, string>, Q = Record<string, never>, B = Record<string, unknown>> {
  s: Session;
  data: World;
  auth: Auth;
  /** path parameters, parsed by the route's `params` schema */
  params: P;
  /** the query, parsed by the route's `query` schema */
  query: Q;
  /** the body, parsed by the route's `body` schema (raw JSON when the handler checks it itself) */
  body: B;
  requestId: string;
  /** how the client reached the simulator (scheme, host, port), for absolute links */
  origin: string;
  /** a request header (lower-case name) */
  header: (name: string) => string | undefined;
  /** runs every transition due by `untilMs`, in time order, in this unit of work (a call placed at once) */
  advance: (untilMs: number) => Promise<number>;
  /** aborts when the client goes away or the server closes (a long move of the clock stops: move.ts) */
  signal?: AbortSignal;
  /** the request is a HEAD: its reply's body is never sent, so a costly one need only be measured (Reply raw.size) */
  head?: boolean;
  /** what the world itself offers routes (the control plane's reset and new workspaces) */
  world: WorldServices;
}

/** What the composition root (world.ts) offers routes of the world as a whole: core knows no capability. */
export interface WorldServices {
  /** a freshly seeded world (POST /_sim/reset) */
  seed(o: { seed?: number; clock?: ClockState }): World;
  /** a new organization, its owner and a workspace, with every capability's part, and a full-access key */
  addWorkspace(s: Session, name: string): { workspace: Workspace; user: User; key: string };
  /** the transitions that recur on the calendar (the clock's next_job_due_at leaves them out) */
  calendarTimers: ReadonlySet<string>;
  /** about how many transitions the calendar runs from `fromMs` to `toMs` (a move's estimate: move.ts) */
  calendarWork(data: World, fromMs: number, toMs: number): number;
  /** the most transitions one move of the clock may run (move.ts MOVE_WORK_LIMIT unless a server was told otherwise) */
  moveLimit?: number;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** a non-JSON body, e.g. audio; `size` (a HEAD's reply, its bytes left out) says the length they would have */
  raw?: { bytes: Buffer; contentType: string; size?: number };
  /**
   * A large body made only as the client reads it (a 2-hour recording is 57.6 MB): `pieces` starts
   * making it (never for a HEAD), `size` is its length in bytes (Content-Length). A slow reader holds
   * a piece or two, never the whole; one gone stops the making.
   */
  stream?: { contentType: string; size: number; pieces: () => AsyncIterable<Buffer> };
  /**
   * Runs after the request's change is on disk and the store's lock is released, and gives the
   * reply sent instead: a request that waits (an assistant message waiting for its run).
   */
  after?: (t: Transactor) => Promise<Reply>;
}

/** A success response: JSON described by `schema`, or another content type (audio). */
export interface ResponseDecl {
  description: string;
  schema?: z.ZodMiniType;
  /** default application/json */
  contentType?: string;
  /** response headers beyond the conventions' (Request-Id on every reply; Idempotency-Replay on writes) */
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

export interface Route<
  PS extends z.ZodMiniObject | undefined = any,
  QS extends z.ZodMiniObject | undefined = any,
  BS extends z.ZodMiniType | undefined = any,
> {
  method: Method;
  path: string;
  /** /v1 routes: the scope a restricted key needs; 'full' for endpoints whose scope the spec does not name */
  scope?: Scope | 'full';
  /** answered without an API key (the API description) */
  public?: boolean;
  /** a plan feature the workspace needs (403 plan_not_included without it) */
  plan?: 'content' | 'assistant';
  /** the reply waits for the deliveries the request caused (webhook test sends) */
  flush?: boolean;
  /** one line for the API description */
  summary: string;
  description?: string;
  params?: PS;
  query?: QS;
  /** the JSON body; a write without one accepts only an empty body or {} */
  body?: BS;
  /**
   * The handler validates the body itself with `body` (check()), so that its own cross-field
   * problems are reported in the same 400 as the structural ones.
   */
  bodyCheckedByHandler?: boolean;
  /** success responses by status */
  responses: Record<number, ResponseDecl>;
  /** error codes the route itself can answer, by status (the conventions' errors are added for every route) */
  errors?: Record<number, readonly string[]>;
  handler: (c: Ctx<any, any, any>) => Reply | Promise<Reply>;
}

/** Declares a route, inferring the types its handler sees from its schemas. */
export function route<
  PS extends z.ZodMiniObject | undefined = undefined,
  QS extends z.ZodMiniObject | undefined = undefined,
  BS extends z.ZodMiniType | undefined = undefined,
>(
  r: Omit<Route<PS, QS, BS>, 'handler'> & {
    handler: (
      c: Ctx<Out<PS, Record<string, string>>, Out<QS, Record<string, never>>, Out<BS, Record<string, never>>>,
    ) => Reply | Promise<Reply>;
  },
): Route {
  return r as Route;
}

/** What after-commit work may do: run one more transaction (it runs outside any). */
export interface Transactor {
  transaction<T>(fn: (s: Session) => T | Promise<T>): Promise<T>;
  /**
   * Moves the clock from `fromMs` (where the request found it) to `toMs` in slices, each its own
   * unit of work, answering other requests between them; stops early when `signal` aborts (move.ts).
   */
  move(fromMs: number, toMs: number, signal?: AbortSignal): Promise<Moved>;
}

/**
 * Work that must happen outside any transaction (network I/O: the lock is held inside one), run
 * after a request or tick committed. `committed` is the data just written, for a cheap look
 * before taking the lock again through transaction().
 */
export type AfterCommit = (t: Transactor, committed: World) => Promise<void>;

/** What a resource module contributes: its routes, the timers it schedules, and any after-commit work. */
export interface Resource {
  /** how the API description groups these routes */
  tag?: { name: string; description: string };
  routes: Route[];
  timers?: TimerHandlers;
  afterCommit?: AfterCommit;
}
