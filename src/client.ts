// The one API client every command uses. Remote targets are spoken to over HTTP with undici;
// the embedded target runs the simulator's own request handler in-process on the local data file.
import { ApiCallError, CliError, EXIT, type Envelope } from './errors.js';
import type { Target } from './settings.js';

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  json<T = any>(): T;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** a body sent as is, instead of `body` as JSON (vmv api --input) */
  rawBody?: string | Buffer;
  idempotencyKey?: string;
  /** extra request headers (lower-case names), applied last: they override the defaults; null removes one */
  headers?: Record<string, string | null>;
}

export interface ApiClient {
  readonly target: Target;
  /** Any status; see call() for one that throws on errors. */
  request(method: string, path: string, o?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

function toResponse(status: number, headers: Record<string, string>, body: Buffer): ApiResponse {
  return {
    status,
    headers,
    body,
    text: () => body.toString('utf8'),
    json: () => JSON.parse(body.toString('utf8')),
  };
}

export function buildPath(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

const USER_AGENT = 'vmv-cli/0.1';

/**
 * Sees every exchange of every client once it is complete: how the test suite checks each
 * response the CLI receives against the API description, on both targets.
 */
export const exchanges: { observe?: (method: string, url: string, res: ApiResponse) => void } = {};

/** The request body, and the headers to apply after the defaults. */
function payload(o: RequestOptions, headers: Record<string, string>): string | Buffer | undefined {
  const body = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of Object.entries(o.headers ?? {})) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  return body;
}

function observed(method: string, url: string, res: ApiResponse): ApiResponse {
  exchanges.observe?.(method, url, res);
  return res;
}

export async function createClient(target: Target): Promise<ApiClient> {
  return target.kind === 'remote' ? remoteClient(target) : embeddedClient(target);
}

async function remoteClient(target: Target): Promise<ApiClient> {
  // undici's index loads every feature it has (fetch, websockets, caches, mocks: ~1 MB bundled).
  // A command needs one Client for one origin and the request API, so only those are loaded.
  // undici parses HTTP with WebAssembly; V8's background optimising compile of it would hold the
  // process open ~70 ms after a command finishes. A short-lived CLI gains nothing from it.
  (await import('node:v8')).setFlagsFromString('--liftoff-only');
  const [{ default: Client }, { default: apiRequest }] = await Promise.all([
    import('undici/lib/dispatcher/client.js'),
    import('undici/lib/api/api-request.js'),
  ]);
  const origin = new URL(target.baseUrl!);
  const prefix = origin.pathname.replace(/\/+$/, '');
  const client = new Client(origin.origin, { connectTimeout: 10_000, headersTimeout: 300_000, bodyTimeout: 300_000 });
  return {
    target,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
      if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
      if (o.idempotencyKey && method !== 'GET') headers['idempotency-key'] = o.idempotencyKey;
      const body = payload(o, headers);
      try {
        const res = await apiRequest.call(client, { path: prefix + buildPath(path, o.query), method: method as 'GET', headers, body });
        const buf = Buffer.from(await res.body.arrayBuffer());
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
        return observed(method, buildPath(path, o.query), toResponse(res.statusCode, h, buf));
      } catch (e) {
        const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
        const code = err.code ?? err.cause?.code ?? '';
        throw new CliError(`Could not reach ${target.baseUrl}: ${code || err.message}`.trim(), EXIT.network,
          'Is the service (or `vmv sim serve`) running at that address? Check --base-url / VMV_BASE_URL.');
      }
    },
    close: () => client.close(),
  };
}

async function embeddedClient(target: Target): Promise<ApiClient> {
  const { openEmbedded } = await import('../simulator/index.js');
  const sim = await openEmbedded(target.dataFile);
  const apiKey = target.apiKey ?? (await sim.defaultApiKey());
  return {
    target,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { 'user-agent': USER_AGENT };
      if (apiKey) headers.authorization = `Bearer ${apiKey}`;
      if (o.idempotencyKey && method !== 'GET') headers['idempotency-key'] = o.idempotencyKey;
      const body = payload(o, headers);
      const res = await sim.app.handle({ method, url: buildPath(path, o.query), headers, body });
      return observed(method, buildPath(path, o.query), toResponse(res.status, res.headers, Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.body)));
    },
    // deliveries the commands caused run in the background: finish them before the process ends
    close: () => sim.app.idle(),
  };
}

/**
 * The API's error envelope of an error reply; a reply without one (not JSON, or its code not one
 * `hasCode` takes: a string unless told) becomes http_<status>.
 */
export function errorEnvelope(res: ApiResponse, hasCode: (code: unknown) => boolean = (code) => typeof code === 'string'): Envelope {
  try {
    const env = res.json<Envelope>();
    if (hasCode(env?.error?.code)) return env;
  } catch {
    // not JSON: as below
  }
  return { error: { code: `http_${res.status}`, message: `The service answered ${res.status} without an error body.` } };
}

/** Sends a request and throws ApiCallError for an error reply. */
export async function call(client: ApiClient, method: string, path: string, o?: RequestOptions): Promise<ApiResponse> {
  const res = await client.request(method, path, o);
  if (res.status >= 400) {
    // here any code but an empty one will do, a string or not
    throw new ApiCallError(res.status, errorEnvelope(res, (code) => Boolean(code)), res.text());
  }
  return res;
}
