// How vmv/testing talks to its simulator: the control plane (/_sim) and the API answered in-process
// by the same request handler the server runs (no socket, no door: nothing a browser reaches), a
// refusal turned into an error that names every field's reason, and the world read directly where
// no route shows it (a webhook's secret).
import type { App } from '../../simulator/index.js';

/**
 * A fixture's own request the simulator refused (a persona that is not valid, an inbound text to a
 * number nobody owns). Requests made by the code under test never throw: it sees the HTTP answer.
 */
export class SimulatorError extends Error {
  override readonly name = 'SimulatorError';
  constructor(
    message: string,
    /** the HTTP status of the refusal */
    readonly status: number,
    /** the error envelope as the simulator answered it */
    readonly body: unknown,
  ) {
    super(message);
  }
}

/**
 * The words of a refusal: the request as the test wrote it (a number shown `+1415…`, not
 * `%2B1415…`), the message, then each field's reason (the envelope's `fields`).
 */
function describeRefusal(method: string, path: string, status: number, body: unknown): string {
  const error = (body as { error?: { message?: string; fields?: Record<string, string> } } | null)?.error;
  const fields = Object.entries(error?.fields ?? {}).map(([k, v]) => `${k}: ${v}`);
  const why = [error?.message ?? `HTTP ${status}`, fields.join('; ')].filter(Boolean).join(' ');
  return `${method} ${decodeURIComponent(path)} was refused (${status}): ${why}`;
}

/** One request to the simulator, in-process: its JSON answer, or a SimulatorError for anything but 2xx. */
export async function control<T>(app: App, method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const headers: Record<string, string> = { host: '127.0.0.1', accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await app.handle({
    method,
    url: path,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = res.body.toString();
  const parsed: unknown = text === '' ? null : JSON.parse(text);
  if (res.status >= 300)
    throw new SimulatorError(describeRefusal(method, path, res.status, parsed), res.status, parsed);
  return parsed as T;
}

/** Every item of a list route, following its cursors (100 a page). */
export async function all<T>(app: App, path: string, query: Record<string, string | undefined> = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null | undefined;
  do {
    const q = new URLSearchParams({ limit: '100' });
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, v);
    if (cursor) q.set('cursor', cursor);
    const page = await control<{ data: T[]; meta?: { cursor?: string } }>(app, 'GET', `${path}?${q}`);
    items.push(...page.data);
    cursor = page.meta?.cursor;
  } while (cursor);
  return items;
}

/** The secrets of the webhooks registered (in any workspace) to a URL at `origin`: what signs their deliveries. */
export async function webhookSecrets(app: App, origin: string): Promise<string[]> {
  const read = (data: { webhooks?: { url: string; secret: string }[] }) =>
    (data.webhooks ?? []).filter((w) => sameOrigin(w.url, origin)).map((w) => w.secret);
  const peeked = await app.store.withRead(async (ss) => read((await ss.begin()).data));
  if (Array.isArray(peeked)) return peeked;
  return app.store.withLock(async (ss) => read((await ss.begin()).data));
}

const sameOrigin = (url: string, origin: string) => URL.canParse(url) && new URL(url).origin === origin;
