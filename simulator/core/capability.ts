// How a capability of the simulated world declares itself, in one place (its folder's capability.ts):
// the paths it serves, the transitions it schedules, the collections it keeps, and its part of a new
// world, organization and workspace. The composition root (capabilities.ts, world.ts) builds the
// resource table, the machine table, the record collections and the seed from these declarations.
import type { AfterCommit, Resource } from './http.js';
import type { Rng } from './rng.js';
import type { TimerHandlers } from './scheduler.js';
import type { Organization, Workspace, World } from './world.js';

export interface ResourceEntry {
  /** paths the resource serves start with one of these (a whole segment: /v1/calls is not /v1/callsx) */
  prefixes: readonly string[];
  /** its routes and their schemas, loaded on the first request to one of its paths */
  load: () => Promise<Resource>;
}

export interface MachineEntry {
  /** the transitions (timer types) the machine handles */
  types: readonly string[];
  /**
   * Of those, the ones that recur on the calendar for as long as something exists (a number's
   * monthly line, a schedule's posting days) or fall due months ahead (a recording's end of
   * retention): time passing runs them, but no job waits on them,
   * so `--advance` does not move the clock to them (the clock's next_job_due_at leaves them out).
   */
  calendar?: readonly string[];
  /**
   * About how many transitions its calendar runs from `fromMs` to `toMs`, with what they start (a
   * schedule's videos and posts): a move of the clock that would run too many is refused before it
   * starts (core/move.ts). Rough is enough, counted without loading the machine.
   */
  work?: (data: World, fromMs: number, toMs: number) => number;
  /** its handlers, loaded the first time one of its transitions falls due */
  load: () => Promise<TimerHandlers>;
}

/** What a capability's part of a new world is given: the seeded generator, the time. */
export interface SeedContext {
  rng: Rng;
  nowMs: number;
}

export interface Capability {
  name: string;
  /** what it serves, each resource loaded on the first request to its paths */
  resources?: readonly ResourceEntry[];
  /** the state machines of its transitions, each loaded when one of its transitions falls due */
  machines?: readonly MachineEntry[];
  /** transitions loaded with the capability (small, and due often: webhook retries) */
  timers?: TimerHandlers;
  /** work run outside any transaction after a request or tick committed (webhook deliveries) */
  afterCommit?: AfterCommit;
  /**
   * The world's top-level values it keeps: `records`, collections that grow with use (journaled
   * record by record; a new world holds none), and `values`, small ones journaled whole (a new
   * world holds what `seed` gives, or an empty list).
   */
  collections?: { records?: readonly string[]; values?: readonly string[] };
  /** record fields its structures (indexes) read: a change to one rebuilds them */
  keyFields?: readonly string[];
  /** its part of a new world, beyond empty collections (the shared sender pool) */
  seed?(world: World, c: SeedContext): void;
  /** its fields of a new organization */
  organization?(org: Organization, c: SeedContext): void;
  /** its fields of a new workspace */
  workspace?(ws: Workspace, c: SeedContext): void;
  /** what a new workspace starts with, once it is in the world (its social connections) */
  workspaceAdded?(world: World, ws: Workspace, c: SeedContext): void;
  /** brings its part of a world an older version wrote to the current shape (`had`: whether the file held a value) */
  upgrade?(world: World, c: { rng: Rng; had(key: string): boolean }): void;
  /** structures derived from its records, saved beside the data (a process reads them without parsing the records) */
  saved?(view: World): Record<string, string>;
}

/** Whether `path` lies under `prefix` (whole segments). */
export const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
