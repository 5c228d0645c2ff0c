// The inspector, declared: its one route of the control plane, the live feed (GET /_sim/events).
// The page, its assets and its way to /v1 are the server's (serve.ts, past the door), not routes of
// the request handler; the feed is declared here so the API description shows it.
import type { Capability } from '../core/capability.js';

export const inspector: Capability = {
  name: 'inspector',
  resources: [{ prefixes: ['/_sim/events'], load: async () => (await import('./routes.js')).inspectorRoutes }],
};
