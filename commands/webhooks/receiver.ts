// The local receiver behind `vmv webhooks listen` (loaded only when listen runs): checks each
// delivery's signature in constant time (400 for a bad one), drops event ids it has seen, prints
// each event on stdout, and forwards the raw body with the service's headers unchanged to
// --forward-to, one at a time in arrival order. A forward target that is down is reported, never fatal.
// Like `vmv sim serve` it answers only its own hosts and loopback origins, and takes only JSON bodies.
// Requests it turns away are reported one line each for the first few, then as one count a while (a
// flood of forged deliveries is a handful of lines, not one per request).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { humanTime } from '../../src/formats.js';
import { type HostPolicy, hostPolicy, hostRefusal, originRefusal, type Refusal } from '../../src/http-gate.js';
import type { IO } from '../../src/io.js';
import { MIN_PREFIX } from '../../src/ids.js';
import { clip } from '../../src/output.js';
import { visible } from '../../src/visible.js';
import {
  DELIVERY_MAX_BYTES,
  EVENT_HEADER,
  EVENT_ID_HEADER,
  firstSight,
  headerOf,
  postOnce,
  readDelivery,
  SIGNATURE_HEADER,
  verifySignature,
} from '../../src/webhooks.js';

export interface ReceiverOptions {
  io: IO;
  /** one JSON object per line instead of a summary line */
  json: boolean;
  forwardTo?: string;
  /** the tunnel's URL: its host is answered too (a tunnel may pass it on as the Host) */
  publicUrl?: string;
  port: number;
  /** how often turned-away requests past the first few are summed up in one line (default 10 s) */
  summaryMs?: number;
}

export interface Receiver {
  port: number;
  /** the secrets of the webhooks registered for this receiver: a delivery must be signed with one */
  secrets: string[];
  close(): Promise<void>;
}

const USER_AGENT = 'vmv-webhooks-listen/0.1';
/** Turned-away requests reported one line each before the rest are counted. */
const REPORTED_IN_FULL = 5;
const SUMMARY_MS = 10_000;

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const secrets: string[] = [];
  const isNew = firstSight();
  let forwarding = Promise.resolve();
  const status = (line: string) => o.io.err(line + '\n');
  const turnedAway = rejections(status, o.summaryMs ?? SUMMARY_MS);
  const hosts = hostPolicy(
    '127.0.0.1',
    o.publicUrl ? [new URL(o.publicUrl).hostname] : [],
    'Deliveries reach it at 127.0.0.1, or through the --public-url tunnel.',
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const taken = await takeDelivery(req, res, { hosts, secrets, turnedAway });
    if (!taken) return;
    const { body, event } = taken;
    res.writeHead(200).end();
    if (!isNew(event.id)) return turnedAway(`dropped a duplicate of ${event.id}`);
    o.io.out((o.json ? JSON.stringify(event) : eventLine(event)) + '\n');
    if (o.forwardTo) {
      const to = o.forwardTo;
      forwarding = forwarding.then(() => forward(to, body, req, event.id, status));
    }
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    secrets,
    close: async () => {
      turnedAway.flush();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await forwarding;
    },
  };
}

/** What a delivery is checked against: the hosts answered, the webhooks' secrets, and where a request turned away is reported. */
interface Checks {
  hosts: HostPolicy;
  secrets: readonly string[];
  turnedAway: (line: string) => void;
}

/**
 * A request taken as a delivery: from an answered host and origin, a POST, within the size, signed
 * with a secret of ours, an event envelope. Anything else is answered here (421/403, 405, 413, 400)
 * and reported as turned away: undefined.
 */
async function takeDelivery(
  req: IncomingMessage,
  res: ServerResponse,
  c: Checks,
): Promise<{ body: Buffer; event: Event } | undefined> {
  const { turnedAway } = c;
  const refuse = (r: Refusal) => {
    res.writeHead(r.status, { 'content-type': 'text/plain' }).end(r.message + '\n');
    turnedAway(`refused a request: ${r.message} (answered ${r.status})`);
  };
  const foreign = hostRefusal(req.rawHeaders, c.hosts) ?? originRefusal(req.headers.origin);
  if (foreign) return void refuse(foreign);
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return void turnedAway(`refused a ${req.method} request: only POST is taken (answered 405)`);
  }
  const body = await readDelivery(req);
  if (body === null) {
    res.writeHead(413).end();
    return void turnedAway(`refused a delivery over ${DELIVERY_MAX_BYTES} bytes (answered 413)`);
  }
  const signature = headerOf(req.headers, SIGNATURE_HEADER);
  const claimedId = headerOf(req.headers, EVENT_ID_HEADER) ?? 'no event id';
  if (!c.secrets.some((secret) => verifySignature(body, signature, secret))) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('signature does not match\n');
    return void turnedAway(`rejected a delivery (${claimedId}): ${signature ? 'bad' : 'no'} signature; answered 400`);
  }
  try {
    const event = JSON.parse(body.toString('utf8')) as Event;
    if (typeof event?.id !== 'string') throw new Error('no event id');
    return { body, event };
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('body is not an event\n');
    return void turnedAway(`rejected a delivery (${claimedId}): the body is not an event envelope; answered 400`);
  }
}

/** Sends a delivery's raw body on to --forward-to with the service's headers unchanged; the outcome is a status line. */
async function forward(
  to: string,
  body: Buffer,
  req: IncomingMessage,
  id: string,
  status: (line: string) => void,
): Promise<void> {
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    'content-type': headerOf(req.headers, 'content-type') ?? 'application/json',
  };
  for (const name of [EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER]) {
    const v = headerOf(req.headers, name);
    if (v !== undefined) headers[name] = v;
  }
  const r = await postOnce(to, body, headers);
  status(r.status !== null ? `forwarded ${id} to ${to}: ${r.status}` : `could not forward ${id} to ${to}: ${r.error}`);
}

/**
 * Reports turned-away requests: the first few a line each, then, every `everyMs`, one line with how
 * many more there were and the last of them (and the rest when the receiver closes).
 */
function rejections(status: (line: string) => void, everyMs: number): ((line: string) => void) & { flush(): void } {
  let reported = 0;
  let more = 0;
  let last = '';
  let since = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (more === 0) return;
    const secs = Math.max(1, Math.round((Date.now() - since) / 1000));
    status(`turned away ${more} more request${more > 1 ? 's' : ''} in the last ${secs}s (the last: ${last})`);
    more = 0;
  };
  const report = (line: string) => {
    if (reported < REPORTED_IN_FULL) {
      reported++;
      return status(line);
    }
    if (more++ === 0) since = Date.now();
    last = line;
    timer ??= setTimeout(flush, everyMs).unref();
  };
  return Object.assign(report, { flush });
}

interface Event {
  id: string;
  type: string;
  created_at: string;
  test: boolean;
  data: {
    call?: {
      id: string;
      direction: string;
      status: string;
      from_number: string;
      to_number: string;
      duration_seconds: number | null;
      end_reason?: string | null;
    };
    message_id?: string;
    from?: string;
    to?: string;
    body?: string;
  };
}

/** The widest an event line gets (as `stripe listen`): everything is in --json. */
export const LINE_MAX = 100;

/**
 * One event as a line of at most LINE_MAX columns: time (as every human view writes it: src/formats.ts), type, the call's or
 * message's id by its 8-character prefix (the event id repeats it: in --json), from -> to (the
 * direction, in --json), and a
 * short summary (a text's body quoted as JSON, so its line breaks stay on the line; the line's end
 * cut with an ellipsis when longer). Every field came from outside: its control characters are made
 * visible (src/visible.ts).
 */
export function eventLine(e: Event): string {
  const parts = [humanTime(e.created_at), e.type];
  const { call, message_id } = e.data ?? {};
  const short = (id: string) => id.slice(0, MIN_PREFIX);
  if (e.test) parts.push('(test)');
  if (call) {
    parts.push(short(call.id), `${call.from_number} -> ${call.to_number}`);
    parts.push(
      e.type === 'call.ended'
        ? [call.status, `${call.duration_seconds ?? 0}s`, call.end_reason].filter(Boolean).join(' ')
        : call.status,
    );
  } else if (message_id) {
    parts.push(short(message_id), `${e.data.from} -> ${e.data.to}`, JSON.stringify(e.data.body));
  } else parts.push(e.id);
  return clip(visible(parts.join('  ').replace(/[\t\n]/g, ' ')), LINE_MAX);
}
