// The composition root of the simulated world: what its store is told of the data it keeps (how to
// seed an empty world, how to upgrade an older file, which collections are records, what is saved
// beside the data), so that the store itself (store/) knows no domain. The embedded simulator,
// `vmv sim serve` and the library open their stores here.
import { WorldStore } from './core/session.js';
import type { World } from './core/world.js';
import { savedPeople } from './history/indexes.js';
import { seedData, upgrade, type SeedOptions } from './seed.js';
import type { StoreSchema } from './store/store.js';

/** The format version this simulator writes (model.ts Data.version: why each step). */
const VERSION = 3;

/**
 * The collections that grow with use (records): a change to one of their records journals that
 * record (store/tracker.ts). Every other top-level value is small and journaled whole.
 */
const RECORD_UNITS: ReadonlySet<string> = new Set([
  'contacts', 'calls', 'texts', 'emails', 'audit_log', 'webhook_deliveries', 'notifications', 'ledger', 'posts', 'suppressions', 'opt_outs',
  // they grow too (replays kept 24 h, jobs, videos, conversations, deliveries waiting): journaled by record, like the others
  'idempotency', 'quick_jobs', 'videos', 'assistant_conversations', 'webhook_outbox', 'phone_numbers', 'video_schedules',
  // timers come and go on every transition: a timer run or cancelled journals the row moved into its place (core/scheduler.ts)
  'timers',
]);

/** Record fields that indexes read (history/indexes.ts): a change to one of them rebuilds them, any other change does not. */
const KEY_FIELDS: ReadonlySet<PropertyKey> = new Set([
  'id', 'seq', 'workspace_id', 'contact_id', 'direction', 'from_number', 'to_number', 'from_address', 'to', 'source',
  'phone_number', 'email', 'name', 'created_at',
]);

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a JSON array' : typeof v === 'object' ? 'a JSON object of another shape' : `a JSON ${typeof v}`);

/** Whether a parsed document is a world this simulator reads: a version it knows, its meta and workspaces. */
function refuse(doc: unknown): string | null {
  const d = doc as Partial<World> | null;
  const ok = typeof d === 'object' && d !== null && !Array.isArray(d) && [1, 2, 3].includes(d.version as number) && typeof d.meta === 'object' && d.meta !== null && Array.isArray(d.workspaces);
  return ok ? null : `${describe(doc)}, not {"version": ${VERSION}, "meta": …}`;
}

/** What the world's store is told of it. */
export function worldSchema(seed: SeedOptions = {}): StoreSchema<World> {
  return {
    version: VERSION,
    seed: () => seedData(seed),
    upgrade,
    refuse,
    eager: ['version', 'meta', 'workspaces'],
    recordUnits: RECORD_UNITS,
    keyFields: KEY_FIELDS,
    saved: savedPeople,
  };
}

/** The store of a world on a data file (null: in memory), seeded by `seed` when the file holds none. */
export class Store extends WorldStore {
  constructor(file: string | null, seed: SeedOptions = {}) {
    super(file, worldSchema(seed));
  }
}
