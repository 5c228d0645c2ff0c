// GET /_sim/events, as the API description shows it. Over HTTP the server answers it (serve.ts: a
// stream that stays open); this handler answers the in-process caller (the embedded CLI, the
// library), which has no connection to keep open: the stream's opening, and nothing after it.
import { route, type Resource } from '../core/http.js';

/** What the stream says first: how soon to reconnect after a break (ms). */
export const RETRY = 'retry: 1000\n\n';
/** The event that opens a fresh stream (one that resumes gets what it missed instead). */
export const HELLO = 'event: hello\ndata: {}\n\n';

/** Streams open at once over HTTP (dropped ones count until their connection closes). */
export const MAX_STREAMS = 100;
/** Bytes a stream may have waiting in the server before its reader counts as fallen behind, and is dropped. */
export const MAX_QUEUED_BYTES = 64 * 1024;
/** What a reconnect is sent of the changes it missed, at most; more is a reset. */
export const MAX_REPLAY_BYTES = 128 * 1024;

export const inspectorRoutes: Resource = {
  tag: {
    name: 'Live changes',
    description: "The world's changes as they happen, for the inspector's page or any client that follows them.",
  },
  routes: [
    route({
      method: 'GET',
      path: '/_sim/events',
      summary: "Follow the world's changes (Server-Sent Events)",
      description:
        'A stream of `change` events, one per unit of work that wrote the data file, whichever process did it (this server, or a CLI ' +
        'command on the same file): `data` is `{"units": [...], "ids": [...]}`, the top-level values written (texts, calls, meta…; "*" when ' +
        'the journal was folded or replaced and anything may have changed) and the ids of the records written, never their content. ' +
        'Each event has an id; a client that reconnects with `Last-Event-ID` gets the changes it missed, or a `reset` event when this ' +
        `server no longer knows them or they are more than ${MAX_REPLAY_BYTES / 1024} KiB (then it reads everything again). A \`hello\` ` +
        `event opens a fresh stream; a comment every 15 s keeps it open. A client that falls more than ${MAX_QUEUED_BYTES / 1024} KiB ` +
        'behind is dropped: its stream ends with a `reset` (data `{"reason": ...}`) whose id resumes from there. At most ' +
        `${MAX_STREAMS} streams are open at once; one more is answered 503 \`too_many_streams\` with Retry-After. In-process ` +
        '(no HTTP connection) the reply is the opening only.',
      responses: { 200: { description: 'The stream of changes', contentType: 'text/event-stream' } },
      errors: { 503: ['too_many_streams'] },
      handler: () => ({ raw: { bytes: Buffer.from(RETRY + HELLO), contentType: 'text/event-stream; charset=utf-8' } }),
    }),
  ],
};
