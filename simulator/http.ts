// Types shared by the request handler and the route modules.
import type { App } from './app.js';
import type { ApiKey, Data, Organization, Scope, User, Workspace } from './model.js';
import type { TimerHandlers } from './scheduler.js';
import type { Session } from './store.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SimRequest {
  method: string;
  /** path and query, e.g. /v1/calls?limit=5 */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer | string;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface Auth {
  /** null on the control plane when no key was sent */
  key: ApiKey | null;
  workspace: Workspace;
  org: Organization;
  user: User;
}

export interface Ctx {
  s: Session;
  data: Data;
  auth: Auth;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  requestId: string;
  /** runs every transition due by `untilMs`, in time order (the clock-advance control route) */
  advance: (untilMs: number) => number;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** a non-JSON body, e.g. audio */
  raw?: { bytes: Buffer; contentType: string };
}

export interface Route {
  method: Method;
  path: string;
  /** /v1 routes: the scope a restricted key needs; 'full' for endpoints whose scope the spec does not name */
  scope?: Scope | 'full';
  /** the reply waits for the deliveries the request caused (webhook test sends) */
  flush?: boolean;
  handler: (c: Ctx) => Reply | Promise<Reply>;
}

/**
 * Work that must happen outside any transaction (network I/O: the lock is held inside one), run
 * after a request or tick committed. `committed` is the data just written, for a cheap look
 * before taking the lock again through app.transaction().
 */
export type AfterCommit = (app: App, committed: Data) => Promise<void>;

/** What a resource module contributes: its routes, the timers it schedules, and any after-commit work. */
export interface Resource {
  routes: Route[];
  timers?: TimerHandlers;
  afterCommit?: AfterCommit;
}
