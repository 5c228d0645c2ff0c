// Webhooks, declared: their routes and the control plane's delivery log and hosts table, the
// deliveries made after every commit and their retries, and what they keep.
import type { Capability } from '../core/capability.js';
import { deliverOutbox, deliveryTimers } from './delivery.js';

export const webhooks: Capability = {
  name: 'webhooks',
  resources: [
    {
      prefixes: ['/v1/voice/calls/webhooks', '/v1/sms/webhooks', '/_sim/webhook-deliveries', '/_sim/hosts'],
      load: async () => (await import('./routes.js')).webhooks,
    },
  ],
  timers: deliveryTimers,
  afterCommit: deliverOutbox,
  collections: { records: ['webhook_outbox', 'webhook_deliveries'], values: ['webhooks', 'hosts'] },
};
