// The local receiver behind `vmv webhooks listen` (loaded only when listen runs): checks each
// delivery's signature in constant time (400 for a bad one), drops event ids it has seen, prints
// each event on stdout, and forwards the raw body with the service's headers unchanged to
// --forward-to, one at a time in arrival order. A forward target that is down is reported, never fatal.
// Like `vmv sim serve` it answers only its own hosts and loopback origins, and takes only JSON bodies.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostPolicy, hostRefusal, originRefusal, type Refusal } from '../../src/http-gate.js';
import type { IO } from '../../src/io.js';
import { truncate } from '../../src/list.js';
import {
  EVENT_HEADER,
  EVENT_ID_HEADER,
  headerOf,
  postOnce,
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
}

export interface Receiver {
  port: number;
  /** the secrets of the webhooks registered for this receiver: a delivery must be signed with one */
  secrets: string[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** How many event ids are remembered for dropping duplicates. */
const SEEN_LIMIT = 10_000;
const USER_AGENT = 'vmv-webhooks-listen/0.1';

export async function startReceiver(o: ReceiverOptions): Promise<Receiver> {
  const secrets: string[] = [];
  const seen = new Set<string>();
  let forwarding = Promise.resolve();
  const status = (line: string) => o.io.err(line + '\n');
  const hosts = hostPolicy(
    '127.0.0.1',
    o.publicUrl ? [new URL(o.publicUrl).hostname] : [],
    'Deliveries reach it at 127.0.0.1, or through the --public-url tunnel.',
  );
  const refuse = (res: ServerResponse, r: Refusal) => {
    res.writeHead(r.status, { 'content-type': 'text/plain' }).end(r.message + '\n');
    status(`refused a request: ${r.message} (answered ${r.status})`);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const foreign = hostRefusal(req.rawHeaders, hosts) ?? originRefusal(req.headers.origin);
    if (foreign) return refuse(res, foreign);
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const body = await readBody(req);
    if (body === null) return void res.writeHead(413).end();
    const signature = headerOf(req.headers, SIGNATURE_HEADER);
    const claimedId = headerOf(req.headers, EVENT_ID_HEADER) ?? 'no event id';
    if (!secrets.some((secret) => verifySignature(body, signature, secret))) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('signature does not match\n');
      return status(`rejected a delivery (${claimedId}): ${signature ? 'bad' : 'no'} signature; answered 400`);
    }
    let event: Event;
    try {
      event = JSON.parse(body.toString('utf8')) as Event;
      if (typeof event?.id !== 'string') throw new Error('no event id');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('body is not an event\n');
      return status(`rejected a delivery (${claimedId}): the body is not an event envelope; answered 400`);
    }
    res.writeHead(200).end();
    if (seen.has(event.id)) return status(`dropped a duplicate of ${event.id}`);
    seen.add(event.id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value!);
    o.io.out((o.json ? JSON.stringify(event) : eventLine(event, o.io.stdoutTTY)) + '\n');
    if (o.forwardTo) {
      const to = o.forwardTo;
      forwarding = forwarding.then(() => forward(to, body, req, event.id));
    }
  }

  async function forward(to: string, body: Buffer, req: IncomingMessage, id: string): Promise<void> {
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      'content-type': headerOf(req.headers, 'content-type') ?? 'application/json',
    };
    for (const name of [EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER]) {
      const v = headerOf(req.headers, name);
      if (v !== undefined) headers[name] = v;
    }
    const r = await postOnce(to, body, headers);
    status(
      r.status !== null ? `forwarded ${id} to ${to}: ${r.status}` : `could not forward ${id} to ${to}: ${r.error}`,
    );
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
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await forwarding;
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
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

/** One event as a line: time, type, id, the call or message, and a short summary (a text's body clipped on a terminal only). */
export function eventLine(e: Event, clip = false): string {
  const parts = [e.created_at, e.type, e.id];
  const { call, message_id } = e.data ?? {};
  if (call) {
    parts.push(`call ${call.id}`, `${call.direction} ${call.from_number} -> ${call.to_number}`);
    parts.push(
      e.type === 'call.ended'
        ? [call.status, `${call.duration_seconds ?? 0}s`, call.end_reason].filter(Boolean).join(' ')
        : call.status,
    );
  } else if (message_id) {
    parts.push(
      `message ${message_id}`,
      `${e.data.from} -> ${e.data.to}`,
      JSON.stringify(clip ? truncate(e.data.body, 60) : e.data.body),
    );
  }
  if (e.test) parts.push('(test)');
  return parts.join('  ');
}
