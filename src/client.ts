// The one API client every command uses. Remote targets are spoken to over HTTP (transport.ts), each
// attempt bounded in time and retried where that cannot apply a write twice (retry.ts); the
// embedded target runs the simulator's own request handler in-process on the local data file (no
// network: nothing to retry).
import { once, type EventEmitter } from 'node:events';
import { ApiCallError, type Envelope } from './errors.js';
import { NetworkError, retryNote, unsureReply, type Failure, type Known, type Unsure } from './faults.js';
import {
  decide,
  DEFAULT_POLICY,
  DEFAULT_RETRIES,
  faultOf,
  mayHaveApplied,
  retryAfterMs,
  type Fault,
  type Outcome,
} from './retry.js';
import { markNotes, type Mark } from './marks.js';
import { DEFAULT_REQUEST_TIMEOUT_S, type NetSettings, type Target } from './settings.js';

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  json<T = any>(): T;
  /** set on an error reply to a write some attempt of which may have been applied all the same */
  unsure?: Unsure;
  /** with RequestOptions.into, the bytes of the body written there (`body` is then empty) */
  written?: number;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** a body sent as is, instead of `body` as JSON (vmv api --input) */
  rawBody?: string | Buffer;
  idempotencyKey?: string;
  /** extra request headers (lower-case names), applied last: they override the defaults; null removes one */
  headers?: Record<string, string | null>;
  /** what the command knows beyond the request, for the words of a failure (how to rerun it safely) */
  known?: Known;
  /**
   * the write does the same however often it is sent (moving a simulator clock to at least a time):
   * retried like a read, though the target keeps no Idempotency-Key for it
   */
  repeatable?: boolean;
  /**
   * stops the embedded simulator's long work for this request (a move of the clock, after its
   * slice); a remote request's work stops when its connection closes
   */
  signal?: AbortSignal;
  /**
   * where a 2xx reply's body goes as it arrives (a recording saved to a file), with back-pressure,
   * never whole in memory on either target; an error reply is read as usual. A connection lost
   * after some of it was written is not retried (the destination holds part of it).
   */
  into?: NodeJS.WritableStream;
}

export interface ClientOptions extends Partial<NetSettings> {
  /** told before each retry, in one line (a command prints it on stderr) */
  onRetry?: (note: string) => void;
  /** told once of each mark of a reply that shows the world behind the simulator's clock (src/marks.ts), in one line */
  onMark?: (note: string) => void;
  /**
   * connections to the service at once (default 1: a command sends one request at a time); a
   * long-lived server of many callers (vmv mcp) takes more, so that a call the service holds open
   * (an assistant run, up to 240 s) never makes every other call wait behind it
   */
  connections?: number;
}

export interface ApiClient {
  readonly target: Target;
  /** Any status; see call() for one that throws on errors. */
  request(method: string, path: string, o?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

function toResponse(status: number, headers: Record<string, string>, body: Buffer, written?: number): ApiResponse {
  return {
    status,
    headers,
    body,
    ...(written === undefined ? {} : { written }),
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
/** The Server header of `vmv sim serve`'s replies: how a base URL is known to be a simulator. */
export const SIMULATOR_SERVER = 'vmv-simulator';

/**
 * Sees every exchange of every client once it is complete: how the test suite checks each
 * response the CLI receives against the API description, on both targets.
 */
export const exchanges: { observe?: (method: string, url: string, res: ApiResponse) => void } = {};

/** The request body as sent: `rawBody` as it is, or `body` as JSON. */
export const bodyOf = (o: RequestOptions): string | Buffer | undefined =>
  o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));

/** The request body, and the headers to apply after the defaults. */
function payload(o: RequestOptions, headers: Record<string, string>): string | Buffer | undefined {
  const body = bodyOf(o);
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

export async function createClient(target: Target, o: ClientOptions = {}): Promise<ApiClient> {
  const client = await (target.kind === 'remote' ? remoteClient(target, o) : embeddedClient(target));
  return o.onMark ? noting(client, o.onMark, target.kind === 'embedded' ? target.dataFile : undefined) : client;
}

/**
 * The client, telling `onMark` what a reply's marks mean (a read answered behind the simulator's
 * clock: src/marks.ts), each kind once for the client's life (a command's run); replies unchanged.
 */
function noting(client: ApiClient, onMark: (note: string) => void, dataFile?: string): ApiClient {
  const said = new Set<Mark>();
  return {
    ...client,
    async request(method, path, o) {
      const res = await client.request(method, path, o);
      for (const note of markNotes(res.headers, said, dataFile)) onMark(note);
      return res;
    },
  };
}

/** A fresh Idempotency-Key (a v4 UUID) for a write to a remote target; none in-process, where no reply is ever lost. */
export async function newIdempotencyKey(target: Target): Promise<string | undefined> {
  return target.kind === 'remote' ? (await import('node:crypto')).randomUUID() : undefined;
}

const CONNECT_TIMEOUT_MS = 10_000;
const ASSISTANT_MESSAGES = '/v1/assistant/messages';
/** the API's own wait for an assistant message that names none (spec: default 120, at most 240) */
const ASSISTANT_DEFAULT_WAIT_S = 120;

/**
 * How long the service may hold this request's reply on purpose, on top of the request timeout:
 * the `wait_seconds` its JSON body asks for (an assistant message waits up to 240 s for its run),
 * or for an assistant message that names none, the API's default.
 */
function heldMs(method: string, path: string, o: RequestOptions): number {
  let body = o.body;
  if (body === undefined && o.rawBody !== undefined && path === ASSISTANT_MESSAGES) {
    try {
      body = JSON.parse(o.rawBody.toString());
    } catch {
      // not JSON: the service will say so at once
    }
  }
  const wait = (body as { wait_seconds?: unknown } | null | undefined)?.wait_seconds;
  if (typeof wait === 'number' && Number.isFinite(wait)) return Math.min(Math.max(wait, 0), 3600) * 1000;
  return method === 'POST' && path === ASSISTANT_MESSAGES ? ASSISTANT_DEFAULT_WAIT_S * 1000 : 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function remoteClient(target: Target, net: ClientOptions): Promise<ApiClient> {
  const { createTransport, CODES } = await import('./transport.js');
  const origin = new URL(target.baseUrl!);
  const prefix = origin.pathname.replace(/\/+$/, '');
  const transport = await createTransport(origin, {
    connections: net.connections ?? 1,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
  });
  const policy = {
    ...DEFAULT_POLICY,
    retries: net.retries ?? DEFAULT_RETRIES,
    baseMs: net.retryBaseMs ?? DEFAULT_POLICY.baseMs,
  };
  const requestTimeoutMs = net.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_S * 1000;
  return {
    target,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
      if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
      // (only to a simulator's control plane: a service has none, and /v1 never sees it)
      if (target.controlToken && /^\/_sim(\/|$|\?)/.test(path)) headers['vmv-control-token'] = target.controlToken;
      if (o.idempotencyKey && method !== 'GET') headers['idempotency-key'] = o.idempotencyKey;
      const body = payload(o, headers);
      const url = buildPath(path, o.query);
      const key = headers['idempotency-key'];
      // a reply held on purpose (an assistant run) is waited for on top of the timeout; so is each pause in a body
      const timeoutMs = requestTimeoutMs + heldMs(method, path, o);
      // the same request, the same key, every attempt: a retried write is never applied twice
      const attempt = async (): Promise<ApiResponse | { fault: Fault; code: string; partial?: boolean }> => {
        const got = await transport.send({ method, path: prefix + url, headers, body, timeoutMs, into: o.into });
        if ('code' in got) return { fault: faultOf(got.code), code: got.code, partial: got.partial };
        return toResponse(got.status, got.headers, got.body, got.written);
      };
      let unsure = false;
      for (let retried = 0; ; retried++) {
        const got = await attempt();
        const outcome: Outcome = 'fault' in got ? got : { status: got.status, retryAfter: got.headers['retry-after'] };
        // a write that does the same however often it is sent is never "maybe applied": sending it
        // again is the answer; nor is one the simulator answered 503 store_busy (nothing applied)
        const untouched =
          o.repeatable || ('status' in got && got.status === 503 && errorEnvelope(got).error.code === 'store_busy');
        unsure ||= mayHaveApplied(outcome) && !untouched;
        // part of a body already in its destination: sending again would write it twice
        const partial = 'fault' in got && got.partial === true;
        const d = partial
          ? { retry: false as const }
          : decide({ method, path, hasKey: key !== undefined, repeatable: untouched }, outcome, retried, policy);
        if (d.retry) {
          net.onRetry?.(retryNote(method, path, outcome, d.delayMs, retried + 1, policy.retries));
          await sleep(d.delayMs);
          continue;
        }
        if ('fault' in got) {
          const waitedMs = got.code === CODES.connectTimeout ? CONNECT_TIMEOUT_MS : timeoutMs;
          const failure: Failure = {
            ...got,
            baseUrl: target.baseUrl!,
            method,
            path,
            attempts: retried + 1,
            mayHaveApplied: unsure,
            key,
            waitedMs,
          };
          throw new NetworkError(failure, o.known);
        }
        if (got.status >= 400 && unsure) got.unsure = { method, path, key };
        return observed(method, url, got);
      }
    },
    close: async () => transport.close(),
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
      const res = await sim.app.handle({ method, url: buildPath(path, o.query), headers, body, signal: o.signal });
      const into = res.status >= 200 && res.status < 300 ? o.into : undefined;
      let bytes = Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.body);
      let written: number | undefined;
      if (res.stream && into) written = await drain(res.stream, into);
      else if (res.stream) bytes = await collect(res.stream);
      return observed(method, buildPath(path, o.query), toResponse(res.status, res.headers, bytes, written));
    },
    // deliveries the commands caused run in the background: finish them before the process ends
    close: () => sim.app.idle(),
  };
}

/** A streamed body written into `into` a piece at a time, waiting whenever it is behind; the bytes written. */
async function drain(pieces: AsyncIterable<Buffer>, into: NodeJS.WritableStream): Promise<number> {
  let written = 0;
  for await (const piece of pieces) {
    written += piece.length;
    if (!into.write(piece)) await once(into as EventEmitter, 'drain');
  }
  return written;
}

/** A streamed body whole, for a caller that asked for no destination. */
async function collect(pieces: AsyncIterable<Buffer>): Promise<Buffer> {
  const all: Buffer[] = [];
  for await (const piece of pieces) all.push(piece);
  return Buffer.concat(all);
}

/**
 * The API's error envelope of an error reply; a reply without one (not JSON, or its code not one
 * `hasCode` takes: a string unless told) becomes http_<status>.
 */
export function errorEnvelope(
  res: ApiResponse,
  hasCode: (code: unknown) => boolean = (code) => typeof code === 'string',
): Envelope {
  try {
    const env = res.json<Envelope>();
    if (hasCode(env?.error?.code)) return env;
  } catch {
    // not JSON: as below
  }
  return {
    error: { code: `http_${res.status}`, message: `The service answered ${res.status} without an error body.` },
  };
}

/** Sends a request and throws ApiCallError for an error reply. */
export async function call(client: ApiClient, method: string, path: string, o?: RequestOptions): Promise<ApiResponse> {
  const res = await client.request(method, path, o);
  if (res.status >= 400) {
    // here any code but an empty one will do, a string or not
    const e = new ApiCallError(
      res.status,
      errorEnvelope(res, (code) => Boolean(code)),
      res.text(),
      unsureReply(res.unsure, o?.known),
    );
    // who answered, for the hint of its column (src/hints.ts): the simulator names itself (Server)
    e.fromSimulator = client.target.kind === 'embedded' || res.headers.server === SIMULATOR_SERVER;
    // a rate limit whose Retry-After was too long to wait for here: when to try again
    const after = res.status === 429 ? retryAfterMs(res.headers['retry-after'], Date.now()) : null;
    if (after !== null)
      e.hint = [e.hint, `The service asks to wait ${Math.ceil(after / 1000)} s before trying again (Retry-After).`]
        .filter(Boolean)
        .join('\n');
    throw e;
  }
  return res;
}
