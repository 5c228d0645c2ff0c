// The inspector's server side (`vmv sim serve` at /): the page and its assets, the live feed of
// changes over Server-Sent Events (GET /_sim/events), and the page's way to the /v1 routes
// (/_sim/inspector/v1/…). All of it sits behind the server's door (loopback Host, no foreign
// Origin or cross-site request, a normalised path, loopback clients only unless told otherwise:
// core/server.ts) like the /_sim control plane; this module is loaded only when one of its paths is asked
// for, and the page's files are read from dist/inspector/ only when served.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { newRequestId, type App } from '../core/app.js';
import { ApiError, notFound } from '../core/errors.js';
import { targetOf } from '../core/router.js';
import { sendResponse } from '../core/server.js';
import { NEEDS_LOCK, type WorldSession, type WorldStore } from '../core/session.js';
import { JournalFeed } from './feed.js';
import { eventStreams } from './stream.js';

/** The page's routes: each pane's deep link serves the same page (it reads its path). */
export const PANES = [
  'activity',
  'conversations',
  'calls',
  'texts',
  'emails',
  'place-call',
  'videos',
  'webhooks',
  'money',
  'assistant',
];

/** What every answer of the inspector carries: no script, style, frame or connection but this server's. */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; media-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
};

/** The folder of the built page: beside the bundle (dist/simulator.js), or dist/ when run from the sources. */
function assetsDir(): URL {
  const beside = new URL('./inspector/', import.meta.url);
  return existsSync(new URL('index.html', beside)) ? beside : new URL('../../dist/inspector/', import.meta.url);
}

/** What the server asks of the inspector for each request past the door: answered (true), or not its own. */
export interface Pages {
  handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean>;
  close(): void;
}

export function inspector(store: WorldStore, app: App): Pages {
  const feed = store.file ? new JournalFeed(store.file) : null;
  const boot = randomBytes(4).toString('hex');
  const dir = assetsDir();
  const events = eventStreams(feed, boot);
  return {
    close: () => feed?.close(),
    async handle(req, res, body) {
      // (the target as sent: a URL parser would read a path starting with // as a host)
      const path = (req.url ?? '/').split('?')[0];
      const method = req.method ?? 'GET';
      if (path === '/_sim/events' && method === 'GET') return (void (await events(req, res)), true);
      if (path.startsWith('/_sim/inspector/v1/')) return (void (await proxy(req, res, body, store, app)), true);
      const first = path.split('/')[1];
      const page = path === '/' || PANES.includes(first);
      if (method !== 'GET' && method !== 'HEAD') return page && (notAllowed(res, method, path), true);
      if (path.startsWith('/assets/')) return serveFile(res, dir, path.slice('/assets/'.length), method);
      if (page) return serveFile(res, dir, 'index.html', method);
      return false;
    },
  };
}

/** An error of the inspector's own, in the API's envelope. */
function answerError(res: ServerResponse, e: ApiError): void {
  const body = JSON.stringify(e.envelope());
  res.writeHead(e.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'request-id': newRequestId(),
    ...e.headers,
  });
  res.end(body);
}

/** 405 for a write to a page's address: it is only read (RFC 9110 §15.5.6: the Allow header says so). */
const notAllowed = (res: ServerResponse, method: string, path: string) =>
  answerError(
    res,
    new ApiError(
      405,
      'method_not_allowed',
      `${method} is not allowed on ${path}: it takes GET, HEAD.`,
      undefined,
      undefined,
      {
        allow: 'GET, HEAD',
      },
    ),
  );

/** A file of the page (a name with no folder in it), or 404 like any unknown path. */
async function serveFile(res: ServerResponse, dir: URL, name: string, method: string): Promise<boolean> {
  const ext = /^[a-z0-9-]+\.([a-z]+)$/.exec(name)?.[1];
  const type = ext && TYPES[ext];
  const bytes = type ? await readFile(new URL(name, dir)).catch(() => null) : null;
  if (!bytes) return false;
  res.writeHead(200, { ...PAGE_HEADERS, 'content-type': type, 'content-length': String(bytes.length) });
  res.end(method === 'HEAD' ? undefined : bytes);
  return true;
}

/** The seeded workspace's full-access key, read from the store: the page's requests to /v1 go as it. */
async function defaultKey(store: WorldStore): Promise<string> {
  const read = async (ss: WorldSession) => (await ss.begin()).data.meta.default_api_key;
  const k = await store.withRead(read);
  return k === NEEDS_LOCK ? store.withLock(read) : k;
}

/**
 * /_sim/inspector/v1/… runs /v1/… as the seeded workspace's key. Whoever passes the door may drive
 * the control plane without a key (and mint one there), so this opens nothing new; the key itself
 * never reaches the page. A media element cannot send an Authorization header, so a recording or a
 * video file is fetched this way too.
 */
async function proxy(req: IncomingMessage, res: ServerResponse, body: Buffer, store: WorldStore, app: App) {
  const url = (req.url ?? '/').slice('/_sim/inspector'.length);
  // the door normalised the path; whatever it lets through, nothing but /v1 is run as the key
  if (!targetOf(url).pathname.startsWith('/v1/'))
    return void answerError(res, notFound(`No route for ${req.method} /_sim/inspector${url}.`));
  const headers = { ...req.headers, authorization: `Bearer ${await defaultKey(store)}` };
  const out = await app.handle({ method: req.method ?? 'GET', url, headers, body });
  await sendResponse(res, out);
}
