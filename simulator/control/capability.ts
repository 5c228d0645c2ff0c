// The control plane (/_sim), declared: health, reset, the clock, keys, workspaces, the wallet and
// plan, fixtures, the outbox, the shared pool and inbound traffic, and numbers' test helpers. It keeps nothing
// of its own: it reaches every capability through its surface.
import type { Capability } from '../core/capability.js';

export const control: Capability = {
  name: 'control',
  resources: [
    {
      prefixes: [
        '/_sim/health',
        '/_sim/reset',
        '/_sim/clock',
        '/_sim/api-keys',
        '/_sim/workspaces',
        '/_sim/workspace',
        '/_sim/contacts',
        '/_sim/suppressions',
        '/_sim/calls',
        '/_sim/texts',
        '/_sim/emails',
        '/_sim/audit-log',
        '/_sim/ledger',
      ],
      load: async () => (await import('./routes.js')).control,
    },
    {
      prefixes: ['/_sim/status'],
      load: async () => (await import('./status.js')).controlStatus,
    },
    {
      prefixes: ['/_sim/outbox'],
      load: async () => (await import('./outbox.js')).controlOutbox,
    },
    {
      prefixes: ['/_sim/shared-pool', '/_sim/inbound/texts'],
      load: async () => (await import('./traffic.js')).controlTraffic,
    },
    {
      prefixes: [
        '/_sim/phone-numbers',
        '/_sim/caller-ids',
        '/_sim/workspace/defaults',
        '/_sim/library',
        '/_sim/inbound/calls',
        '/_sim/voices',
      ],
      load: async () => (await import('./numbers.js')).controlNumbers,
    },
  ],
};
