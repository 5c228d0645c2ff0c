// The /_sim control plane: test helpers served only by the simulator, without an API key (a key,
// when sent, picks its workspace; otherwise the seeded one). Not part of /v1.
// Each part declares its routes in its own file; this one puts them in the order the control plane
// lists them (the order of its paths in the API description):
// clock.ts        health, reset and the clock
// accounts.ts     API keys and workspaces
// workspace.ts    the workspace, its wallet, plan and ledger; the audit log
// fixtures.ts     contacts, suppressions and history fixtures; an email by its id
import type { Resource } from '../core/http.js';
import { accountRoutes } from './accounts.js';
import { clockRoutes } from './clock.js';
import { fixtureRoutes } from './fixtures.js';
import { auditRoutes, workspaceRoutes } from './workspace.js';

export const control: Resource = {
  tag: {
    name: 'Simulator',
    description:
      'Health, reset and the clock; API keys and workspaces; the wallet and plan; contacts, suppressions and history fixtures.',
  },
  routes: [...clockRoutes, ...accountRoutes, ...workspaceRoutes, ...fixtureRoutes, ...auditRoutes],
};
