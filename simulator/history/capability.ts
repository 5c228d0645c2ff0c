// History and contacts, declared: the calls, texts and emails of a workspace, its contacts and the
// people it reached (indexed, and the people and the calls under way saved beside the data), suppressions and the audit log.
import type { Capability } from '../core/capability.js';
import { savedIndexes } from './indexes.js';

export const history: Capability = {
  name: 'history',
  resources: [
    {
      prefixes: ['/v1/history', '/v1/contacts', '/v1/calls', '/v1/messages', '/v1/emails'],
      load: async () => (await import('./routes.js')).history,
    },
  ],
  collections: { records: ['contacts', 'calls', 'texts', 'emails', 'suppressions', 'audit_log'] },
  // what history/indexes.ts reads of a record
  keyFields: [
    'id',
    'seq',
    'workspace_id',
    'contact_id',
    'direction',
    'from_number',
    'to_number',
    'from_address',
    'to',
    'source',
    'phone_number',
    'email',
    'name',
    'created_at',
  ],
  workspace: (ws) => void (ws.recordings_disabled = false),
  saved: savedIndexes,
};
