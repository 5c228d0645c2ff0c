// Which route answers a request: the resources whose path prefixes the path lies under are loaded on
// first need (their schemas cost start-up time), their routes compiled once, and the first whose path
// and method match wins. A path that matches with another method is 405 with the methods it takes
// (the Allow header), none at all 404 (app.ts).
import { under, type ResourceEntry } from './capability.js';
import { ApiError } from './errors.js';
import type { Method, Route } from './http.js';
import { BULK_MAX_BODY_BYTES, takesMany } from './schema.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** The largest body `route` accepts: more for one that takes an array of fixtures (bulk seeding). */
export const bodyLimitOf = (route: Route) => (takesMany(route.body) ? BULK_MAX_BODY_BYTES : MAX_BODY_BYTES);

/** HEAD is GET without the body (the HTTP server leaves the body out). */
export const methodOf = (method: string) => (method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()) as Method;
/** The request target is a path: prefixing the origin keeps "//x" a path, never a host. */
export const targetOf = (target: string) => new URL(`http://sim.local${target.startsWith('/') ? '' : '/'}${target}`);

/** What a path's characters mean unchanged when percent-decoded (RFC 3986 §2.3, unreserved). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** How much of a refused path a message quotes. */
const QUOTED = 120;

const badTarget = (why: string, path: string) =>
  new ApiError(
    400,
    'bad_request',
    `The request path ${JSON.stringify(path.length > QUOTED ? `${path.slice(0, QUOTED)}…` : path)} ${why}: send the path itself, as a plain absolute path.`,
  );

/**
 * The request target in the one spelling every reader of it sees (the HTTP server's door, the
 * inspector, the router), or why it is refused (400 bad_request). A path a URL parser would rewrite
 * could name one route to the door and another to the router (/_sim/inspector/v1/../_sim/clock
 * reached /_sim/clock), so none passes: escapes of unreserved characters are decoded once (%2e is
 * "."), then a dot segment ("." or ".."), an empty one ("//"), a backslash (a URL parser reads "/")
 * and an escaped slash or backslash (%2F, %5C: no route takes one in a value, and a proxy that
 * decodes them would read another path) are refused; so is a target that is not a path
 * (absolute-form, "*"). The query is left as sent.
 */
export function normalTarget(raw: string): string | ApiError {
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  if (!path.startsWith('/')) return badTarget('is not an absolute path (origin-form)', path);
  const normal = path.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : m.toUpperCase();
  });
  if (/\\|%2F|%5C/.test(normal)) return badTarget('has a backslash or an escaped slash', path);
  const segments = normal.split('/').slice(1);
  if (segments.some((s) => s === '.' || s === '..')) return badTarget('has a dot segment ("." or "..")', path);
  if (segments.slice(0, -1).includes('')) return badTarget('has an empty segment ("//")', path);
  return q < 0 ? normal : normal + raw.slice(q);
}

interface Compiled {
  route: Route;
  re: RegExp;
  names: string[];
}

function compile(routes: readonly Route[]): Compiled[] {
  return routes.map((route) => {
    const names: string[] = [];
    const re = new RegExp(
      '^' +
        route.path
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)')) +
        '$',
    );
    return { route, re, names };
  });
}

/** A route and its parameters; or, when only other methods are served at the path, those methods (HEAD with GET); or null. */
export type Match = { route: Route; params: Record<string, string> } | { allow: string[] } | null;

/** The order methods are listed in an Allow header. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface Router {
  /** The route for `method` and `path`, with its path parameters; the methods served there when `method` is not one. */
  match(method: Method, path: string): Promise<Match>;
  /** The largest request body the route at `method` `url` accepts (the server stops reading past it). */
  bodyLimit(method: string, url: string): Promise<number>;
}

/** A router over the resource table, and routes of a test's own (`extra`), always loaded. */
export function createRouter(resources: readonly ResourceEntry[], extra: readonly Route[]): Router {
  const extraRoutes = compile(extra);
  const loaded = new Map<ResourceEntry, Promise<Compiled[]>>();

  /** The routes that could serve `path`: those of the resources whose prefixes it lies under, loaded on first need. */
  async function candidates(path: string): Promise<Compiled[]> {
    const out: Compiled[] = [];
    for (const e of resources) {
      if (!e.prefixes.some((p) => under(path, p))) continue;
      let routes = loaded.get(e);
      if (!routes) loaded.set(e, (routes = e.load().then((r) => compile(r.routes))));
      out.push(...(await routes));
    }
    return [...out, ...extraRoutes];
  }

  async function match(method: Method, path: string): Promise<Match> {
    const allow = new Set<string>();
    for (const c of await candidates(path)) {
      const m = c.re.exec(path);
      if (!m) continue;
      if (c.route.method !== method) {
        allow.add(c.route.method).add(c.route.method === 'GET' ? 'HEAD' : c.route.method);
        continue;
      }
      const params: Record<string, string> = {};
      try {
        c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])));
      } catch {
        return null; // a malformed percent-escape names nothing
      }
      return { route: c.route, params };
    }
    return allow.size > 0 ? { allow: METHOD_ORDER.filter((x) => allow.has(x)) } : null;
  }

  async function bodyLimit(method: string, url: string): Promise<number> {
    const found = await match(methodOf(method), targetOf(url).pathname).catch(() => null);
    return found && 'route' in found ? bodyLimitOf(found.route) : MAX_BODY_BYTES;
  }

  return { match, bodyLimit };
}
