// Serves the simulator's request handler over HTTP (node:http). Listening, body limits, the
// door's rules (which Host and Origin are answered, JSON bodies only: src/http-gate.ts), malformed
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
import type { AddressInfo, Socket } from 'node:net';
import {
  bodyTypeRefusal,
  hostPolicy,
  hostRefusal,
  originRefusal,
  type HostPolicy,
  type Refusal,
} from '../../src/http-gate.js';
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
    timer = setTimeout(pump, ms);
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
      if (t.mode !== 'real') wait = null;
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

/** The request listener: the body read, the door's rules, the handler, then a kick of the loop. */
function listener(o: ServeOptions, hosts: HostPolicy, kick: () => void) {
  const app = o.app;
  return async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const read = await readBody(req, app.bodyLimit(method, req.url ?? '/')).catch(() => null);
    // a request whose body was cut off is never run: running it with a partial body could apply something else
    if (read === null || req.aborted || !req.complete) return void res.destroy();
    const { body, limit } = read;
    // the door: a browser's cross-site or DNS-rebound request, or a body an HTML form or a fetch without
    // preflight could send (anything but JSON), is never run; a GET's body is never read
    const refusal =
      hostRefusal(req.rawHeaders, hosts) ??
      originRefusal(req.headers.origin) ??
      bodyRefusal(method, body, limit, req.headers['content-type']);
    if (!refusal && (await o.pages?.handle(req, res, body as Buffer))) {
      o.onRequest?.(method, req.url ?? '/', res.statusCode, performance.now() - started);
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
    if (res.destroyed) return kick();
    // Server names the simulator, so the CLI gives a simulator's hints under its errors (src/hints.ts)
    res.writeHead(out.status, {
      ...out.headers,
      server: 'vmv-simulator',
      'content-length': String(Buffer.byteLength(out.body)),
    });
    res.end(out.body);
    o.onRequest?.(method, req.url ?? '/', out.status, performance.now() - started);
    // a request may have scheduled transitions or switched the clock: look again at what is due
    kick();
  };
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
