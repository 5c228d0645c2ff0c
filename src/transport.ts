// One HTTP exchange with a remote target over node:http or node:https, bounded in time, its
// failures named by a code the retry rule (retry.ts) and the failure's words (faults.ts) read.
// The CLI used undici for this; a command makes one to a few requests to one origin, and undici
// cost about 40 ms of start-up (its chunk, two WebAssembly HTTP parsers compiled on first use, and
// tls/http2/crypto pulled in) where node:http is already in the binary. Keep-alive connections
// are pooled by an Agent (the MCP server asks for 8), and idle ones do not hold the process open.
import type { Agent, IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/**
 * What came back, or the code of why nothing did. With `into`, a 2xx reply's body went there
 * (`written` bytes; `body` empty); a failure after some of it did is `partial`: it cannot be
 * sent again as if nothing arrived.
 */
export type Exchange =
  | { status: number; headers: Record<string, string>; body: Buffer; written?: number }
  | { code: string; partial?: boolean };

export interface TransportOptions {
  /** at most this many connections at once (1 for a command; the MCP server asks for more) */
  connections: number;
  /** how long making the connection (TLS handshake included) may take */
  connectTimeoutMs: number;
}

export interface SendOptions {
  method: string;
  /** the path and query, the target's own path prefix included */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** how long until the reply's headers, and at most between two pieces of its body */
  timeoutMs: number;
  /** where a 2xx reply's body goes as it arrives, with back-pressure (a download), instead of memory */
  into?: NodeJS.WritableStream;
}

export interface Transport {
  send(o: SendOptions): Promise<Exchange>;
  close(): void;
}

/**
 * The codes a failure is named by. They are the names vmv has always printed and put in `--json`
 * (from its earlier transport), kept so scripts that read them go on working: a connection that
 * was not made in time, no reply's headers in time, a reply's body that stalled, a connection
 * closed after the request went out. Node's own codes (ECONNREFUSED, ENOTFOUND, TLS errors) pass
 * through as they are.
 */
export const CODES = {
  connectTimeout: 'UND_ERR_CONNECT_TIMEOUT',
  headersTimeout: 'UND_ERR_HEADERS_TIMEOUT',
  bodyTimeout: 'UND_ERR_BODY_TIMEOUT',
  closed: 'UND_ERR_SOCKET',
} as const;

/** Errors of a connection that ended under a request already sent: "closed", whatever Node calls it. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** A transport to one origin (`http:` or `https:`; node:https is loaded only for the latter). */
export async function createTransport(origin: URL, o: TransportOptions): Promise<Transport> {
  const mod = origin.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const agent: Agent = new mod.Agent({ keepAlive: true, maxSockets: o.connections });
  const target = {
    protocol: origin.protocol,
    hostname: origin.hostname.replace(/^\[|\]$/g, ''),
    port: origin.port || undefined,
    agent,
  };
  return {
    send: (s) => exchange((headers, onReply) => mod.request({ ...target, ...headers }, onReply), s, o),
    close: () => agent.destroy(),
  };
}

type Start = (
  options: { method: string; path: string; headers: OutgoingHttpHeaders },
  onReply: (res: IncomingMessage) => void,
) => import('node:http').ClientRequest;

function exchange(start: Start, s: SendOptions, o: TransportOptions): Promise<Exchange> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let sent = false;
    // bytes of the body already written `into` its destination: a failure after them is partial
    let written = 0;
    const finish = (x: Exchange) => {
      clearTimeout(timer);
      if ('code' in x && written > 0) x.partial = true;
      resolve(x);
      // a failed exchange gives its connection up; a whole reply leaves it to the pool
      if ('code' in x) req.destroy();
    };
    /** (Re)starts the one clock this exchange runs against: on expiry it ends with `code`. */
    const within = (ms: number, code: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ code }), ms);
    };
    // the body's length always said: Node frames a DELETE's body with nothing otherwise (no
    // chunked encoding by default for it), and the service would read the body as the next request
    const headers = s.body === undefined ? s.headers : { ...s.headers, 'content-length': Buffer.byteLength(s.body) };
    const req = start({ method: s.method, path: s.path, headers }, (res) => {
      const status = res.statusCode ?? 0;
      const into = status >= 200 && status < 300 ? s.into : undefined;
      const chunks: Buffer[] = [];
      within(s.timeoutMs, CODES.bodyTimeout);
      res.on('data', (c: Buffer) => {
        within(s.timeoutMs, CODES.bodyTimeout);
        if (!into) return void chunks.push(c);
        written += c.length;
        if (into.write(c)) return;
        // the file or pipe is behind: stop reading (and the clock: the service is not the slow one) until it drains
        res.pause();
        clearTimeout(timer);
        into.once('drain', () => {
          within(s.timeoutMs, CODES.bodyTimeout);
          res.resume();
        });
      });
      res.on('end', () =>
        finish({ status, headers: flat(res.headers), body: Buffer.concat(chunks), ...(into ? { written } : {}) }),
      );
      res.on('aborted', () => finish({ code: CODES.closed }));
      res.on('error', () => finish({ code: CODES.closed }));
    });
    req.on('socket', (socket) => {
      const connected = () => {
        sent = true;
        within(s.timeoutMs, CODES.headersTimeout);
      };
      if (!socket.connecting) return connected();
      within(o.connectTimeoutMs, CODES.connectTimeout);
      socket.once('encrypted' in socket ? 'secureConnect' : 'connect', connected);
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? e.message;
      finish({ code: sent && CLOSED.has(code) ? CODES.closed : code });
    });
    req.end(s.body);
  });
}

/** A reply's headers as one string each (a repeated header joined with ", ", as fetch does). */
function flat(h: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
