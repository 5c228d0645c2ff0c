// GET /_sim/events, as the API description shows it. Over HTTP the server answers it (serve.ts: a
// stream that stays open); this handler answers the in-process caller (the embedded CLI, the
// library), which has no connection to keep open: the stream's opening, and nothing after it.
import { route, type Resource } from '../core/http.js';

/** What the stream says first: how soon to reconnect after a break (ms). */
export const RETRY = 'retry: 1000\n\n';
/** The event that opens a fresh stream (one that resumes gets what it missed instead). */
export const HELLO = 'event: hello\ndata: {}\n\n';

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
        'server no longer knows them (then it reads everything again). A `hello` event opens a fresh stream; a comment every 15 s keeps ' +
        'it open. In-process (no HTTP connection) the reply is the opening only.',
      responses: { 200: { description: 'The stream of changes', contentType: 'text/event-stream' } },
      handler: () => ({ raw: { bytes: Buffer.from(RETRY + HELLO), contentType: 'text/event-stream; charset=utf-8' } }),
    }),
  ],
};
