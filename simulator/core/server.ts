// Serves the simulator's request handler over HTTP (node:http). Listening, body limits, the
// door's rules (which Host, Origin, site and path are answered, which clients reach the inspector,
// JSON bodies only: src/http-gate.ts), malformed
// HTTP and the real-clock timer loop live here; the handler itself (app.ts) knows nothing of
// sockets, and in-process callers (the embedded CLI, the library) pass no door: no browser reaches them.
import {
  createServer,
  maxHeaderSize,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  bodyTypeRefusal,
  fetchSiteRefusal,
  hostPolicy,
  hostRefusal,
  isLoopbackHost,
  originRefusal,
  type HostPolicy,
  type Refusal,
} from '../../src/http-gate.js';
import { under } from './capability.js';
import { normalTarget } from './router.js';
import { newRequestId, tooLarge, type App } from './app.js';
import { ApiError } from './errors.js';
import { BULK_MAX_BODY_BYTES } from './schema.js';
import type { SimResponse } from './http.js';
import type { WorldStore as Store } from './session.js';

export interface RunningServer {
  url: string;
  app: App;
  server: Server;
  close(): Promise<void>;
}

export interface ServeOptions {
  store: Store;
  /** the request handler over `store` (the composition root's createApp) */
  app: App;
  host?: string;
  port?: number;
  /** host names (or addresses) answered beyond loopback names and the bound address; '*' answers any */
  allowedHosts?: readonly string[];
  /** serve the inspector (`pages`, and its keyless way to /v1) to clients beyond loopback too; otherwise 403 to them */
  remoteInspector?: boolean;
  /**
   * the token a client beyond loopback sends (Vmv-Control-Token) to reach /_sim; none, and the
   * control plane answers anyone who reaches the port (`vmv sim serve` makes one when bound off loopback)
   */
  controlToken?: string;
  onRequest?: (method: string, url: string, status: number, ms: number) => void;
  /**
   * Answers of the server's own past the door, before the handler (the inspector's page and its
   * live feed): `handle` says whether it answered the request; `close` runs when the server does.
   */
  pages?: {
    handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean>;
    close(): void;
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A refusal of the server's own, before the handler runs: the error envelope, and the connection closed. */
function refused(r: Refusal): SimResponse {
  return {
    status: r.status,
    headers: { 'content-type': JSON_TYPE, connection: 'close', 'request-id': newRequestId() },
    body: JSON.stringify(new ApiError(r.status, r.code, r.message).envelope()),
  };
}

/** The reply to a request node could not parse as HTTP (there is no request to answer): its bytes, for the socket. */
function malformed(e: NodeJS.ErrnoException & { reason?: string }): string {
  const res = refused(malformedRefusal(e));
  const head = [
    `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status]}`,
    ...Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${Buffer.byteLength(res.body)}`,
  ];
  return `${head.join('\r\n')}\r\n\r\n${res.body}`;
}

/** Why node could not parse a request, in the error envelope's words: headers too large, too slow, or not HTTP. */
function malformedRefusal(e: NodeJS.ErrnoException & { reason?: string }): Refusal {
  if (e.code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      code: 'headers_too_large',
      message: `The request's headers are larger than ${maxHeaderSize} bytes.`,
    };
  if (e.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, code: 'request_timeout', message: 'The request did not arrive in time.' };
  return { status: 400, code: 'bad_request', message: `The request is not valid HTTP/1.1: ${e.reason ?? e.message}.` };
}

/** In real-clock mode, how often an idle server looks for transitions that fell due (other processes may add some). */
const IDLE_POLL_MS = 1000;

/**
 * The body, or 'too_large' past the route's limit (read to the end all the same, so the client
 * sees the reply). Reading starts at once, under the largest limit any route has until the
 * route's own is known: a client that goes away meanwhile is still noticed.
 */
function readBody(
  req: IncomingMessage,
  routeLimit: Promise<number>,
): Promise<{ body: Buffer | 'too_large'; limit: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let limit = BULK_MAX_BODY_BYTES;
    void routeLimit.then(
      (l) => (limit = l),
      () => {},
    );
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on(
      'end',
      () =>
        void routeLimit.then(
          (l) => resolve({ body: size > l ? 'too_large' : Buffer.concat(chunks), limit: l }),
          reject,
        ),
    );
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client went away mid-body'));
    });
  });
}

/** Serves `o.app` over HTTP (127.0.0.1, a free port, unless told) with the real-clock loop; close() ends both. */
export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const app = o.app;
  const loop = tickLoop(app);
  const hosts = hostPolicy(
    o.host ?? '127.0.0.1',
    o.allowedHosts ?? [],
    'Use a loopback address (127.0.0.1, localhost), or start the simulator with --allow-host NAME (VMV_SIM_ALLOW_HOSTS) to answer to that name.',
  );
  // node's own answer to an HTTP/1.1 request without Host is a bare 400: the gate answers it instead
  const server = createServer({ requireHostHeader: false }, listener(o, hosts, loop.kick));
  // An idle kept-alive connection is closed after 65 s, not node's 5 s: a client reusing a connection
  // just as the server closes it sees "other side closed" for a request that never arrived, and with
  // 5 s a busy machine (a test suite, a slow script between calls) lands in that window often.
  server.keepAliveTimeout = 65_000;
  // bad request lines, header characters or chunking, oversized headers: the error envelope, not node's bare status
  server.on('clientError', answerMalformed);

  const url = await listen(server, o.port ?? 0, o.host ?? '127.0.0.1');
  loop.kick();
  const close = closer(server, o.store, app, loop);
  return { url, app, server, close: () => (o.pages?.close(), close()) };
}

/** The real-clock loop as the server drives it. */
interface TickLoop {
  /** Look again at what is due: now, or (a tick under way) as soon as it ends. */
  kick(): void;
  /** No more ticks: the server is closing. */
  stop(): void;
}

/**
 * One loop runs what falls due on a real clock: a tick at a time, then a timer for the next. A
 * request that arrives while a tick runs asks for another once it ends (`again`), never a second
 * loop: each loop would reschedule itself for ever, and a busy server ended up ticking (and
 * reading its files) thousands of times a second while idle.
 */
function tickLoop(app: App): TickLoop {
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  let again = false;
  let closed = false;

  const next = (ms: number) => {
    if (timer) clearTimeout(timer);
    // the listening socket keeps `vmv sim serve` alive; a server a test left open (vmv/testing) must not be kept by its clock
    timer = setTimeout(pump, ms).unref();
  };
  const pump = async () => {
    timer = null;
    if (closed) return;
    ticking = true;
    again = false;
    let wait: number | null = IDLE_POLL_MS;
    try {
      const t = await app.tick();
      // a manual clock moves only when told to (a request kicks the loop); a real one is looked at
      // when its next transition falls due, or once a second for what other processes schedule
      if ('retryInMs' in t) wait = Math.min(IDLE_POLL_MS, t.retryInMs);
      else if (t.mode !== 'real') wait = null;
      else if (t.nextDueMs !== null) wait = Math.min(IDLE_POLL_MS, Math.max(0, t.nextDueMs - t.nowMs));
    } catch (e) {
      process.emitWarning(`vmv simulator: ${(e as Error).message}`);
    } finally {
      ticking = false;
    }
    if (closed) return;
    if (again) next(0);
    else if (wait !== null) next(wait);
  };
  return {
    kick: () => {
      if (ticking) again = true;
      else next(0);
    },
    stop: () => {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** The request listener: the path normalised, the body read, the door's rules, the handler, then a kick of the loop. */
function listener(o: ServeOptions, hosts: HostPolicy, kick: () => void) {
  const app = o.app;
  return async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const raw = req.url ?? '/';
    // one spelling of the path for the door, the inspector and the router alike (the log shows it as sent)
    const target = normalTarget(raw);
    if (typeof target === 'string') req.url = target;
    const read = await readBody(req, app.bodyLimit(method, req.url ?? '/')).catch(() => null);
    // a request whose body was cut off is never run: running it with a partial body could apply something else
    if (read === null || req.aborted || !req.complete) return void res.destroy();
    const { body, limit } = read;
    const refusal =
      hostRefusal(req.rawHeaders, hosts) ??
      (typeof target === 'string' ? door(o, req, target) : target) ??
      bodyRefusal(method, body, limit, req.headers['content-type']);
    if (!refusal && o.controlToken) keepToken(req, res, o.controlToken);
    if (!refusal && (await o.pages?.handle(req, res, body as Buffer))) {
      o.onRequest?.(method, raw, res.statusCode, performance.now() - started);
      return kick();
    }
    // a client that goes away before its reply stops what it started (a move of the clock) after its slice
    const gone = new AbortController();
    res.once('close', () => res.writableFinished || gone.abort());
    const out = refusal
      ? refused(refusal)
      : await app.handle({
          method,
          url: req.url ?? '/',
          headers: req.headers,
          body: body as Buffer,
          signal: gone.signal,
        });
    if (res.destroyed) {
      void out.stream?.[Symbol.asyncIterator]().return?.();
      return kick();
    }
    // Server names the simulator, so the CLI gives a simulator's hints under its errors (src/hints.ts)
    const sent = sendResponse(res, { ...out, headers: { ...out.headers, server: 'vmv-simulator' } });
    o.onRequest?.(method, raw, out.status, performance.now() - started);
    // a request may have scheduled transitions or switched the clock: look again at what is due
    kick();
    await sent;
  };
}

/** How many bytes of a streamed body the server reads ahead of a slow client: one piece of a recording and a little. */
const STREAM_AHEAD = 64 * 1024;

/**
 * Sends a reply: its length always said (a HEAD's may be that of a body it never made); a streamed
 * body (SimResponse.stream) a piece at a time as the client takes it, so a slow reader holds about
 * STREAM_AHEAD and the socket's buffer, never the whole; a client gone stops the making (the
 * pipeline returns the iterator). Resolves when the reply is sent or given up.
 */
export async function sendResponse(res: ServerResponse, out: SimResponse): Promise<void> {
  res.writeHead(out.status, {
    ...out.headers,
    'content-length': out.headers['content-length'] ?? String(Buffer.byteLength(out.body)),
  });
  if (!out.stream || res.req.method === 'HEAD') {
    if (out.stream) void out.stream[Symbol.asyncIterator]().return?.();
    return void res.end(out.body);
  }
  const body = Readable.from(out.stream, { objectMode: false, highWaterMark: STREAM_AHEAD });
  // a client gone mid-body is no error of the server's: the connection is closed and the making stopped
  await pipeline(body, res).catch(() => res.destroy());
}

/** The header a client beyond loopback names the control token in. */
export const CONTROL_TOKEN_HEADER = 'vmv-control-token';

/** The cookie a browser beyond loopback holds the control token in (the remote inspector's page sends no header of its own). */
const CONTROL_TOKEN_COOKIE = 'vmv_control_token';

/** Two strings equal, compared in constant time (a wrong guess says nothing of the right token). */
function same(given: string, token: string): boolean {
  const [a, b] = [createHash('sha256').update(given).digest(), createHash('sha256').update(token).digest()];
  return timingSafeEqual(a, b);
}

/** Whether the request names the control token: in its header, or in the cookie `?token=` set. */
function sameToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers[CONTROL_TOKEN_HEADER];
  if (typeof header === 'string') return same(header, token);
  const cookie = /(?:^|;\s*)vmv_control_token=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  return cookie !== undefined && same(decodeURIComponent(cookie), token);
}

/**
 * A page opened with `?token=TOKEN` (the address the banner prints for the remote inspector, as
 * Jupyter's) keeps the token in a cookie, so the page's own requests to /_sim carry it: HttpOnly
 * (no script reads it), SameSite=Strict (no other site's page sends it; Origin and Sec-Fetch-Site
 * refuse those anyway).
 */
function keepToken(req: IncomingMessage, res: ServerResponse, token: string): void {
  const given = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('token');
  if (given !== null && same(given, token))
    res.setHeader(
      'set-cookie',
      `${CONTROL_TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`,
    );
}

/** What a client beyond this machine may reach unless told otherwise: the API (with a key) and the control plane, not the inspector. */
const openBeyondLoopback = (path: string) =>
  under(path, '/v1') || (under(path, '/_sim') && !under(path, '/_sim/inspector'));

/**
 * The door's rules past the Host, on a normalised target: the inspector (its page, and its keyless
 * way to /v1, which spends as the seeded workspace's full-access key) only to loopback clients by
 * the socket's address, unless `remoteInspector`; a browser's cross-site or foreign-origin request
 * never runs (Origin everywhere, Sec-Fetch-Site on everything but /v1, whose signed media links
 * are meant to be embedded anywhere).
 */
function door(o: ServeOptions, req: IncomingMessage, target: string): Refusal | null {
  const path = target.split('?')[0];
  const from = req.socket.remoteAddress ?? '';
  if (!o.remoteInspector && !isLoopbackHost(from) && !openBeyondLoopback(path))
    return {
      status: 403,
      code: 'client_not_allowed',
      message: `The inspector (its page, and its way to /v1 without a key) answers only clients on this machine; this request came from ${from || 'an unknown address'}. Start the simulator with --remote-inspector to serve it beyond this machine.`,
    };
  if (o.controlToken && under(path, '/_sim') && !isLoopbackHost(from) && !sameToken(req, o.controlToken))
    return {
      status: 401,
      code: 'control_token_required',
      message: `This simulator's control plane (/_sim) answers clients beyond its machine only with the control token \`vmv sim serve\` printed when it started, in the ${CONTROL_TOKEN_HEADER} header (vmv sends VMV_SIM_CONTROL_TOKEN); ${req.headers[CONTROL_TOKEN_HEADER] === undefined ? 'this request has none' : 'this one is not it'}.`,
    };
  const meta = {
    site: req.headers['sec-fetch-site'],
    mode: req.headers['sec-fetch-mode'],
    dest: req.headers['sec-fetch-dest'],
  } as { site?: string; mode?: string; dest?: string };
  return (
    originRefusal(req.headers.origin) ??
    fetchSiteRefusal(req.method ?? 'GET', meta, { guarded: !under(path, '/v1'), navigable: !under(path, '/_sim') })
  );
}

/** The door's rule on a body: one past the route's limit is refused, a write's must be JSON, a GET's is never read. */
function bodyRefusal(
  method: string,
  body: Buffer | 'too_large',
  limit: number,
  contentType: string | undefined,
): Refusal | null {
  if (body === 'too_large') return { status: 413, code: 'payload_too_large', message: tooLarge(limit).message };
  if (method === 'GET' || method === 'HEAD') return null;
  return bodyTypeRefusal(contentType, body.length);
}

/** What the server says to HTTP node could not parse: the error envelope, unless the connection is gone or busy. */
function answerMalformed(e: NodeJS.ErrnoException, socket: Socket): void {
  // a reply already under way on this connection cannot be followed by another (node's own check)
  const busy = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage?.headersSent;
  if (e.code === 'ECONNRESET' || !socket.writable || busy) return void socket.destroy();
  socket.end(malformed(e));
}

/** Listens on `port` (0: any free one) at `host`; the URL it answers at. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${shown}:${addr.port}`;
}

/** The server's close: ticks stop, connections end, and the journal is folded into the data file. */
function closer(server: Server, store: Store, app: App, loop: TickLoop): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      loop.stop();
      // a move of the clock under way stops after its slice (its connection is closed below too)
      app.close();
      // a clean shutdown folds the journal into the snapshot
      server.close(
        () =>
          void app
            .idle()
            .then(() => store.compact())
            .catch((e) =>
              process.emitWarning(
                `vmv simulator: the journal was not folded into the data file at shutdown (it keeps every change, and the next start reads it): ${(e as Error).message}`,
              ),
            )
            .then(resolve),
      );
      server.closeAllConnections();
    });
}
