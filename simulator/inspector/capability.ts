// The inspector, declared: its routes of the control plane, the live feed (GET /_sim/events) and the
// Activity feed (GET /_sim/activity). The page, its assets and its way to /v1 are the server's
// (serve.ts, past the door), not routes of the request handler; the live feed is declared here so
// the API description shows it.
import type { Capability } from '../core/capability.js';

export const inspector: Capability = {
  name: 'inspector',
  resources: [
    { prefixes: ['/_sim/events'], load: async () => (await import('./routes.js')).inspectorRoutes },
    { prefixes: ['/_sim/activity'], load: async () => (await import('./activity.js')).activityRoutes },
  ],
};
