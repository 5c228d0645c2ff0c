// Serves the simulator's request handler over HTTP (node:http). Listening, body limits and the
// real-clock timer loop live here; the handler itself (app.ts) knows nothing of sockets.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, MAX_BODY_BYTES, newRequestId, type App } from './app.js';
import type { SimResponse } from './http.js';
import type { Store } from './store.js';

export interface RunningServer {
  url: string;
  app: App;
  server: Server;
  close(): Promise<void>;
}

export interface ServeOptions {
  store: Store;
  host?: string;
  port?: number;
  onRequest?: (method: string, url: string, status: number, ms: number) => void;
}

/** In real-clock mode, how often an idle server looks for transitions that fell due (other processes may add some). */
const IDLE_POLL_MS = 1000;

function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client went away mid-body'));
    });
  });
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const app = createApp(o.store);
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const pump = async () => {
    timer = null;
    if (closed) return;
    try {
      const t = await app.tick();
      if (closed || t.mode !== 'real') return;
      const wait = t.nextDueMs === null ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(0, t.nextDueMs - t.nowMs));
      timer = setTimeout(pump, wait);
    } catch (e) {
      process.emitWarning(`vmv simulator: ${(e as Error).message}`);
      timer = setTimeout(pump, IDLE_POLL_MS);
    }
  };
  const kick = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(pump, 0);
  };

  const server = createServer(async (req, res) => {
    const started = performance.now();
    let out: SimResponse;
    const body = await readBody(req).catch(() => null);
    // a request whose body was cut off is never run: running it with a partial body could apply something else
    if (body === null || req.aborted || !req.complete) return void res.destroy();
    if (body === 'too_large') {
      out = {
        status: 413,
        headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close', 'request-id': newRequestId() },
        body: JSON.stringify({ error: { code: 'payload_too_large', message: `The request body is larger than ${MAX_BODY_BYTES} bytes.` } }),
      };
    } else {
      out = await app.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
    }
    res.writeHead(out.status, { ...out.headers, 'content-length': String(Buffer.byteLength(out.body)) });
    res.end(out.body);
    o.onRequest?.(req.method ?? 'GET', req.url ?? '/', out.status, performance.now() - started);
    // a request may have scheduled transitions or switched the clock: look again at what is due
    kick();
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  kick();

  return {
    url: `http://${host}:${addr.port}`,
    app,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (timer) clearTimeout(timer);
        // a clean shutdown folds the journal into the snapshot
        server.close(() => void app.idle().then(() => o.store.compact()).catch((e) => process.emitWarning(`vmv simulator: ${(e as Error).message}`)).then(resolve));
        server.closeAllConnections();
      }),
  };
}
