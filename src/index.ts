// The library surface of the vmv package: the simulator for programs and tests, and the webhook
// signature check for receivers.
export { createApp, type App } from '../simulator/app.js';
export { startServer, type RunningServer } from '../simulator/server.js';
export { Store } from '../simulator/store.js';
export type { SimRequest, SimResponse } from '../simulator/http.js';
export { verifySignature } from './webhooks.js';
