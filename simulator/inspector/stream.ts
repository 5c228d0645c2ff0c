// The live feed's streams over HTTP (GET /_sim/events): each client's Server-Sent Events, bounded so
// that clients which stop reading never grow the server. A stream may have at most MAX_QUEUED_BYTES
// waiting in the server (past what the kernel took); a reader further behind is dropped: its stream
// ends with a `reset` event (the page reads everything again), and a reconnect resumes from there. A
// reconnect is sent at most MAX_REPLAY_BYTES of what it missed, a reset instead of more; at most
// MAX_STREAMS streams are open at once, one more is answered 503 with Retry-After.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../core/errors.js';
import type { Change, JournalFeed } from './feed.js';
import { HELLO, MAX_QUEUED_BYTES, MAX_REPLAY_BYTES, MAX_STREAMS, RETRY } from './routes.js';

/** How soon a client refused for the cap may try again (seconds, the Retry-After header). */
const RETRY_AFTER_S = 5;
/** How long a dropped reader has to take its last bytes (up to the reset) before its connection is reset. */
const DRAIN_MS = 5000;
/** How often a comment line keeps an idle stream (and any proxy between) open. */
const HEARTBEAT_MS = 15_000;

/** Why a stream says `reset`: the client reads everything again, whichever it is. */
type ResetReason = 'fell_behind' | 'missed_too_many' | 'unknown_event_id';

/** One change as an SSE event: its id is the server's boot id and the change's number. */
const eventText = (boot: string, c: Change) =>
  `id: ${boot}.${c.seq}\nevent: change\ndata: ${JSON.stringify({ units: c.units, ids: c.ids })}\n\n`;

const resetText = (boot: string, seq: number, reason: ResetReason) =>
  `id: ${boot}.${seq}\nevent: reset\ndata: ${JSON.stringify({ reason })}\n\n`;

/** The answer past the cap: the error envelope, with Retry-After. */
function refuseFull(res: ServerResponse): void {
  const body = JSON.stringify(
    new ApiError(
      503,
      'too_many_streams',
      `This server already holds ${MAX_STREAMS} event streams (GET /_sim/events), its most: close one, or try again in ${RETRY_AFTER_S} s.`,
    ).envelope(),
  );
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'retry-after': String(RETRY_AFTER_S),
  });
  res.end(body);
}

/**
 * Closes the connection of a dropped reader once its grace has passed, unless it came back on it
 * (a new request on the same connection: it took its reset, so it reads). With a TCP reset: the
 * kernel drops the megabytes it may still hold for it (loopback sockets buffer up to tcp_wmem's
 * 4 MB), so when it reads again it gets only what its own receive buffer held, and reconnects.
 */
function abandon(socket: Socket | null, res: ServerResponse): void {
  const current = (socket as (Socket & { _httpMessage?: unknown }) | null)?._httpMessage;
  if (socket && !socket.destroyed && (current == null || current === res)) socket.resetAndDestroy();
}

/** The changes a reconnect missed (`last`: its Last-Event-ID), as text; a reset's reason when they cannot be sent. */
function replay(
  feed: JournalFeed | null,
  boot: string,
  last: string,
  text: (c: Change) => Buffer,
): { reset: ResetReason } | { texts: Buffer[] } {
  const [b, n] = last.split('.');
  const missed = b === boot && /^\d+$/.test(n ?? '') ? (feed?.since(Number(n)) ?? null) : null;
  if (missed === null) return { reset: 'unknown_event_id' };
  const texts = missed.map(text);
  if (texts.reduce((sum, t) => sum + t.length, 0) > MAX_REPLAY_BYTES) return { reset: 'missed_too_many' };
  return { texts };
}

/**
 * GET /_sim/events over HTTP for `feed` (null: a server with no data file). A page that reconnects
 * with Last-Event-ID gets the changes it missed; when they are no longer known (another server,
 * too far back) or too many, it gets `reset`, and reads everything again.
 */
export function eventStreams(feed: JournalFeed | null, boot: string) {
  let open = 0;
  // the last change's event, shared by every stream (each change is sent to all of them in turn); as
  // bytes, written as they are to each stream, where a string would be copied into each one's queue
  let memo: { c: Change | null; t: Buffer } = { c: null, t: Buffer.alloc(0) };
  const text = (c: Change) => (memo.c === c ? memo.t : (memo = { c, t: Buffer.from(eventText(boot, c)) }).t);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (open >= MAX_STREAMS) return refuseFull(res);
    open++;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    res.write(RETRY);
    let dropped = false;
    let stop = () => {};
    const beat = setInterval(() => send(': still here\n\n'), HEARTBEAT_MS);
    /** Ends the stream with a reset (the reader fell behind, or missed too much to be sent it). */
    const drop = (seq: number, reason: ResetReason) => {
      dropped = true;
      stop();
      clearInterval(beat);
      res.end(resetText(boot, seq, reason));
      const socket = res.socket;
      setTimeout(() => abandon(socket, res), DRAIN_MS).unref();
    };
    const send = (t: string | Buffer, seq = feed?.last ?? 0) => {
      if (dropped) return;
      res.write(t);
      if (res.writableLength > MAX_QUEUED_BYTES) drop(seq, 'fell_behind');
    };
    // (a dropped reader's grace timer is left to run: its response closes once the kernel took the
    // last bytes, which may still be megabytes the reader never reads)
    res.on('close', () => {
      open--;
      clearInterval(beat);
      stop();
    });
    const last = String(req.headers['last-event-id'] ?? '');
    // the opening, or what it missed, then the changes from now on: no change can come in between
    const follow = (now: number) => {
      if (!last) return send(`id: ${boot}.${now}\n${HELLO}`);
      const r = replay(feed, boot, last, text);
      if ('reset' in r) send(resetText(boot, now, r.reset));
      else for (const t of r.texts) send(t);
    };
    if (!feed) return follow(0);
    const listening = await feed.listen((c) => send(text(c), c.seq), follow);
    if (dropped || res.destroyed) listening();
    else stop = listening;
  };
}
