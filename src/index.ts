// The library surface of the vmv package: the simulator for programs and tests, and the webhook
// signature check for receivers.
export {
  createApp,
  startServer,
  Store,
  type App,
  type RunningServer,
  type SimRequest,
  type SimResponse,
} from '../simulator/index.js';
export { verifySignature } from './webhooks.js';
