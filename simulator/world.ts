// The composition root of the simulated world: every capability's declaration (capabilities.ts)
// gathered into what the store is told of the data (how to seed an empty world, how to upgrade an
// older file, which collections are records, what is saved beside the data) and what the request
// pipeline is given (its tables, the world's services to routes), so that neither the store
// (store/) nor the pipeline (core/) knows a capability. The embedded simulator, `vmv sim serve`,
// the library and the tests open their stores and apps here.
import { randomBytes } from 'node:crypto';
import { afterCommitHooks, calendarTimers, calendarWork, CAPABILITIES, resourceTable, timers } from './capabilities.js';
import { addWorkspace as addAccounts, type AccountParts } from './core/accounts.js';
import { createApp as createPipeline, type App, type AppOptions, type WorldDefinition } from './core/app.js';
import type { SeedContext } from './core/capability.js';
import { clockNow, realClock, type ClockState } from './core/clock.js';
import type { Resource, WorldServices } from './core/http.js';
import { startServer as serveHttp, type RunningServer, type ServeOptions } from './core/server.js';
import { Rng, seedRng } from './core/rng.js';
import { WorldStore } from './core/session.js';
import type { World } from './core/world.js';
import type { StoreSchema } from './store/schema.js';

/** The format version this simulator writes (core/world.ts World.version: why each step). */
const VERSION = 3;

export interface SeedOptions {
  seed?: number;
  clock?: ClockState;
}

export const DEFAULT_SEED = 1;

/** What each capability gives a new organization and workspace, in the order of the capabilities. */
const accountParts: AccountParts = {
  organization: (org, rng, nowMs) => CAPABILITIES.forEach((c) => c.organization?.(org, { rng, nowMs })),
  workspace: (ws, rng, nowMs) => CAPABILITIES.forEach((c) => c.workspace?.(ws, { rng, nowMs })),
  added: (world, ws, rng, nowMs) => CAPABILITIES.forEach((c) => c.workspaceAdded?.(world, ws, { rng, nowMs })),
};

/** The top-level values of a world and how each is journaled: core's, then each capability's. */
const RECORDS = ['idempotency', 'timers', ...CAPABILITIES.flatMap((c) => c.collections?.records ?? [])];
const VALUES = [
  'organizations',
  'workspaces',
  'users',
  'api_keys',
  ...CAPABILITIES.flatMap((c) => c.collections?.values ?? []),
];

/**
 * The freshly seeded world: one organization with a 50.00 USD wallet, one workspace whose plan
 * includes Content (with video credits) and the assistant, its owner, and one full-access API key,
 * and each capability's part of an empty world.
 */
export function seedData(o: SeedOptions = {}): World {
  const seed = o.seed ?? DEFAULT_SEED;
  const clock = o.clock ?? realClock();
  const world = {
    version: VERSION,
    meta: {
      seed,
      rng: seedRng(seed),
      secret: randomBytes(32).toString('hex'),
      clock,
      default_api_key: '',
      default_workspace_id: '',
      next_seq: 1,
    },
    ...Object.fromEntries([...VALUES, ...RECORDS].map((k) => [k, []])),
  } as unknown as World;
  const c: SeedContext = { rng: new Rng(world.meta.rng), nowMs: clockNow(clock) };
  for (const cap of CAPABILITIES) cap.seed?.(world, c);
  const { workspace, key } = addAccounts(world, c.rng, c.nowMs, 'Acme Sandbox', accountParts);
  world.meta.default_api_key = key;
  world.meta.default_workspace_id = workspace.id;
  return world;
}

/** Brings a data file written by an earlier version up to the current shape (a value it lacks starts as a fresh world's). */
export function upgrade(world: World): World {
  // the next snapshot tells an older vmv, which could not read its journal, to keep away (World.version)
  if (world.version !== VERSION) world.version = VERSION;
  const raw = world as unknown as Record<string, unknown>;
  // (`in`: a large value of the snapshot is parsed only when used)
  const had = new Set([...VALUES, ...RECORDS].filter((k) => k in raw));
  // a fresh world is built only for a file that lacks a value (an older version's): not at every read
  let fresh: Record<string, unknown> | undefined;
  const freshValue = (k: string) => {
    fresh ??= seedData({ seed: world.meta.seed, clock: world.meta.clock }) as unknown as Record<string, unknown>;
    return fresh[k];
  };
  for (const k of [...VALUES, ...RECORDS]) if (!had.has(k)) raw[k] = RECORDS.includes(k) ? [] : freshValue(k);
  const rng = new Rng(world.meta.rng);
  for (const w of world.workspaces) w.time_zone ??= null;
  for (const cap of CAPABILITIES) cap.upgrade?.(world, { rng, had: (k) => had.has(k) });
  return world;
}

/** What a parsed document that is not a world is, for the refusal: null, an array, another object, a bare value. */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a JSON array';
  return typeof v === 'object' ? 'a JSON object of another shape' : `a JSON ${typeof v}`;
}

/** Whether a parsed document is a world this simulator reads: a version it knows, its meta and workspaces. */
function refuse(doc: unknown): string | null {
  const d = doc as Partial<World> | null;
  const ok =
    typeof d === 'object' &&
    d !== null &&
    !Array.isArray(d) &&
    [1, 2, 3].includes(d.version as number) &&
    typeof d.meta === 'object' &&
    d.meta !== null &&
    Array.isArray(d.workspaces);
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
    recordUnits: new Set(RECORDS),
    keyFields: new Set(CAPABILITIES.flatMap((c) => c.keyFields ?? [])),
    saved: (view) => Object.assign({}, ...CAPABILITIES.map((c) => c.saved?.(view) ?? {})),
    // (loaded by an import only)
    check: async (doc, cap) =>
      (await import('./import-check.js')).checkWorld(doc, ['meta', ...VALUES, ...RECORDS], cap),
  };
}

/** The store of a world on a data file (null: in memory), seeded by `seed` when the file holds none. */
export class Store extends WorldStore {
  constructor(file: string | null, seed: SeedOptions = {}) {
    super(file, worldSchema(seed));
  }
}

/** What routes may ask of the world as a whole. */
const services: WorldServices = {
  seed: (o) => seedData(o),
  addWorkspace: (s, name) => addAccounts(s.data, s.rng, s.now, name, accountParts),
  calendarTimers,
  calendarWork,
};

const definition: WorldDefinition = { resources: resourceTable, timers, afterCommit: afterCommitHooks, services };

/** The request handler of the simulated world on `store` (with resources of a test's own, `extra`). */
export function createApp(store: WorldStore, extra: Resource[] = [], options: AppOptions = {}): App {
  return createPipeline(store, definition, extra, options);
}

/** `vmv sim serve`: the simulated world on `o.store`, over HTTP. */
export function startServer(o: Omit<ServeOptions, 'app' | 'pages'> & { moveLimit?: number }): Promise<RunningServer> {
  // (its real-clock loop catches up what fell due: reads meanwhile need not wait for it)
  const app = createApp(o.store, [], { catchesUp: true, moveLimit: o.moveLimit });
  return serveHttp({ ...o, app, pages: inspectorPages(o.store, app) });
}

/**
 * The inspector's page, feed and way to /v1 (inspector/serve.ts), its module evaluated on the first
 * request that could be its own: a server nobody opens the page of never runs it.
 */
function inspectorPages(store: WorldStore, app: App): NonNullable<ServeOptions['pages']> {
  let pages: Promise<NonNullable<ServeOptions['pages']>> | null = null;
  const load = () => (pages ??= import('./inspector/serve.js').then((m) => m.inspector(store, app)));
  return {
    handle: async (req, res, body) => {
      const path = req.url ?? '/';
      if (path.startsWith('/v1/') || (path.startsWith('/_sim/') && !/^\/_sim\/(events|inspector\/)/.test(path)))
        return false;
      return (await load()).handle(req, res, body);
    },
    close: () => void pages?.then((p) => p.close()),
  };
}

export type { App, RunningServer };
