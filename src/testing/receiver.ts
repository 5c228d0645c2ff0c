// The webhook receiver of vmv/testing: a node:http server on a loopback port whose URL a test
// registers as a webhook. It checks each delivery's signature with the same code as the library's
// verifySignature, against the secrets of the webhooks registered to it, keeps what it received
// (each event id once: a retry of an event already received is answered 200 and dropped), and
// waits for an event by moving a manual clock to each next transition in turn. Like `vmv webhooks
// listen` it reads at most 1 MiB of a body (413 past it), and a delivery it cannot take (a signed
// body that is no event, secrets it could not read) is answered 400 and listed in `rejected`.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// the wait's own wall time and sleeps, from Node's modules rather than the globals: a test that
// fakes timers (jest.useFakeTimers(), vi.useFakeTimers()) replaces the globals, and a wait on them
// would never time out
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import {
  DELIVERY_MAX_BYTES,
  EVENT_HEADER,
  EVENT_ID_HEADER,
  firstSight,
  headerOf,
  readDelivery,
  SIGNATURE_HEADER,
  verifySignature,
} from '../webhooks.js';
import { EVENT_TYPES } from '../../simulator/vocabulary.js';
import { checkWait } from './arguments.js';
import { callerFrame, opened } from './open.js';

/** One delivery as the receiver got it. */
export interface ReceivedEvent {
  /** the event's type (`call.started`, `call.ended`, `sms.received`) */
  type: string;
  /** the event's id (the same on every retry of it) */
  id: string;
  /** the event as parsed from the body: `{id, type, created_at, data}` */
  event: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  /** the body exactly as received */
  raw: string;
  headers: IncomingHttpHeaders;
  /** the path it was posted to */
  path: string;
}

/** What `waitFor` is told. */
export interface WaitOptions {
  /** wall milliseconds before it gives up and throws (default 5000) */
  timeout?: number;
  /** only an event for which this is true */
  where?: (e: ReceivedEvent) => boolean;
}

/** What the receiver needs of its simulator: the secrets to check against, and a step of the clock. */
export interface ReceiverHost {
  secrets(origin: string): Promise<string[]>;
  /** Moves a manual clock to the next due transition; false when nothing is due (or the clock is real). */
  step(): Promise<boolean>;
  /** The simulator's time, for the error of a wait that timed out. */
  describeClock(): Promise<string>;
}

/** How long a wait sleeps when nothing is due on the clock: the code under test may still be acting. */
const IDLE_MS = 10;

export interface WebhookReceiver extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/webhooks`: register it as a webhook's `url` (any path of it works too) */
  readonly url: string;
  /** every event whose delivery's signature checked, in the order they arrived; a retry of one already here is dropped */
  readonly received: readonly ReceivedEvent[];
  /**
   * deliveries refused: no registered webhook's secret signs them, the body is no event, the
   * secrets could not be read (400), or the body is over 1 MiB (413)
   */
  readonly rejected: readonly { path: string; reason: string }[];
  /**
   * The first `type` event not yet returned by an earlier `waitFor` (already received counts). On
   * a manual clock it moves the clock to each next due transition in turn until the event arrives;
   * on a real one it waits. Throws after `timeout` wall milliseconds, saying what did arrive. A
   * `type` the service never sends, or a timeout that is not a number of milliseconds, is a
   * TypeError at once.
   */
  waitFor(type: string, options?: WaitOptions): Promise<ReceivedEvent>;
  /** Forgets what was received, and the event ids seen (a simulator's reset() does it too). */
  clear(): void;
  close(): Promise<void>;
}

/** Starts a receiver for `host`'s deliveries on 127.0.0.1 (a free port). */
export async function startReceiver(host: ReceiverHost, where = callerFrame()): Promise<WebhookReceiver> {
  const received: ReceivedEvent[] = [];
  const rejected: { path: string; reason: string }[] = [];
  const taken = new Set<ReceivedEvent>();
  const arrivals = new Set<() => void>();
  let isNew = firstSight();
  const server = createServer((req, res) => {
    void take(req.url ?? '/', req).then((status) => {
      res.writeHead(status).end();
      for (const wake of arrivals) wake();
    });
  });
  const url = await listen(server);
  const origin = new URL(url).origin;
  /** A delivery taken or refused: the status it is answered with. Never throws. */
  const take = async (path: string, req: IncomingMessage): Promise<number> => {
    const refuse = (status: number, reason: string) => (rejected.push({ path, reason }), status);
    const raw = await readDelivery(req).catch(() => undefined);
    if (raw === undefined) return refuse(400, 'the body could not be read');
    if (raw === null) return refuse(413, `the body is over ${DELIVERY_MAX_BYTES} bytes`);
    const signature = headerOf(req.headers, SIGNATURE_HEADER);
    const secrets = await host.secrets(origin).catch(() => null);
    if (secrets === null) return refuse(400, "the simulator's webhook secrets could not be read");
    if (!secrets.some((s) => verifySignature(raw, signature, s)))
      return refuse(400, secrets.length ? 'the signature checks with no secret' : 'no webhook is registered here');
    let event: ReceivedEvent['event'];
    try {
      event = JSON.parse(raw.toString('utf8'));
      if (typeof event?.id !== 'string') throw new Error('no event id');
    } catch {
      return refuse(400, 'the body is not an event');
    }
    const id = headerOf(req.headers, EVENT_ID_HEADER) ?? event.id;
    if (!isNew(id)) return 200; // a retry of an event already received: answered, not kept twice
    const type = headerOf(req.headers, EVENT_HEADER) ?? event.type;
    received.push({ type, id, event, raw: raw.toString('utf8'), headers: req.headers, path });
    return 200;
  };
  const closed = opened(server, `a webhook receiver at ${url}`, where, () => close());
  const close = async () => {
    closed();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };
  const receiver: WebhookReceiver = {
    url,
    received,
    rejected,
    waitFor: (type, o = {}) => waitFor({ host, received, rejected, taken, arrivals }, type, o),
    clear: () => {
      received.length = 0;
      rejected.length = 0;
      taken.clear();
      isNew = firstSight(); // a reset world numbers its events again
    },
    close,
    [Symbol.asyncDispose]: close,
  };
  return receiver;
}

interface Kept {
  host: ReceiverHost;
  received: ReceivedEvent[];
  rejected: { path: string; reason: string }[];
  taken: Set<ReceivedEvent>;
  arrivals: Set<() => void>;
}

/** The wait: look, step the clock (or sleep until a delivery or a moment passes), until found or timed out. */
async function waitFor(k: Kept, type: string, o: WaitOptions): Promise<ReceivedEvent> {
  const { timeout } = checkWait(type, o, EVENT_TYPES);
  const deadline = performance.now() + timeout;
  const find = () => k.received.find((e) => e.type === type && !k.taken.has(e) && (o.where?.(e) ?? true));
  for (;;) {
    const found = find();
    if (found) {
      k.taken.add(found);
      return found;
    }
    if (performance.now() >= deadline) break;
    if (!(await k.host.step())) await arrivalOr(k.arrivals, Math.min(IDLE_MS, deadline - performance.now()));
  }
  throw new Error(await timedOut(k, type, timeout));
}

/** Resolves at the next delivery, or after `ms`. */
function arrivalOr(arrivals: Set<() => void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      arrivals.delete(done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    arrivals.add(done);
  });
}

/** The words of a wait that timed out: what did arrive, what was refused, and where the clock stands. */
async function timedOut(k: Kept, type: string, timeout: number): Promise<string> {
  const got = k.received.map((e) => `${e.type} ${e.id}${k.taken.has(e) ? ' (returned by an earlier waitFor)' : ''}`);
  const lines = [
    `waitFor('${type}') timed out after ${timeout} ms; ${await k.host.describeClock()}.`,
    got.length ? `Received ${got.length}:\n  ${got.join('\n  ')}` : 'Received nothing.',
  ];
  if (k.rejected.length)
    lines.push(`Refused ${k.rejected.length}: ${k.rejected.map((r) => `${r.path} (${r.reason})`).join(', ')}`);
  return lines.join('\n');
}

/** Listens on 127.0.0.1 at a free port; nothing of it keeps the process alive. */
async function listen(server: Server): Promise<string> {
  server.on('connection', (socket) => socket.unref());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}
