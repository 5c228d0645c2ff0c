// Which route answers a request: the resources whose path prefixes the path lies under are loaded on
// first need (their schemas cost start-up time), their routes compiled once, and the first whose path
// and method match wins. A path that matches with another method is 405 with the methods it takes
// (the Allow header), none at all 404 (app.ts).
import { under, type ResourceEntry } from './capability.js';
import type { Method, Route } from './http.js';
import { BULK_MAX_BODY_BYTES, takesMany } from './schema.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** The largest body `route` accepts: more for one that takes an array of fixtures (bulk seeding). */
export const bodyLimitOf = (route: Route) => (takesMany(route.body) ? BULK_MAX_BODY_BYTES : MAX_BODY_BYTES);

/** HEAD is GET without the body (the HTTP server leaves the body out). */
export const methodOf = (method: string) => (method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()) as Method;
/** The request target is a path: prefixing the origin keeps "//x" a path, never a host. */
export const targetOf = (target: string) => new URL(`http://sim.local${target.startsWith('/') ? '' : '/'}${target}`);

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
