// Every capability of the simulated world, in the order the API description lists them, and the
// tables the request pipeline is built from: each resource loaded the first time a request reaches
// one of its paths (a command needs one or two of them; building every schema would cost every
// command start-up time), each state machine loaded the first time one of its transitions falls due,
// the after-commit work, and the API description's own routes (which describe all the others). A
// new capability is a folder with its capability.ts, added here and nowhere else; a test checks
// that each resource's paths lie under the prefixes it declares.
import { assistant } from './assistant/capability.js';
import { billing } from './billing/capability.js';
import { calls } from './calls/capability.js';
import { control } from './control/capability.js';
import { apiDescription, describer } from './core/api-description.js';
import type { Capability, MachineEntry, ResourceEntry } from './core/capability.js';
import type { AfterCommit, Resource } from './core/http.js';
import type { TimerHandlers } from './core/scheduler.js';
import type { World } from './core/world.js';
import { history } from './history/capability.js';
import { inspector } from './inspector/capability.js';
import { numbers } from './numbers/capability.js';
import { quick } from './quick/capability.js';
import { schedules } from './schedules/capability.js';
import { videos } from './videos/capability.js';
import { webhooks } from './webhooks/capability.js';

/** Every capability; their resources are described in this order, the API description's own before the control plane's. */
export const CAPABILITIES: readonly Capability[] = [
  quick,
  numbers,
  calls,
  history,
  billing,
  webhooks,
  videos,
  schedules,
  assistant,
  control,
  inspector,
];

/** Every resource, loaded (the API description needs them all). */
export const allResources = (): Promise<Resource[]> => Promise.all(resourceTable.map((e) => e.load()));

/** The API description of every resource: GET /v1/openapi.json and /_sim/openapi.json, the build's openapi.json. */
export const apiDocument = describer(allResources);

const describing: ResourceEntry = {
  prefixes: ['/v1/openapi.json', '/_sim/openapi.json'],
  load: async () => apiDescription(apiDocument),
};

export const resourceTable: readonly ResourceEntry[] = CAPABILITIES.flatMap((c) => [
  ...(c === control ? [describing] : []),
  ...(c.resources ?? []),
]);

export const machineTable: readonly MachineEntry[] = CAPABILITIES.flatMap((c) => c.machines ?? []);

/** The transitions that recur on the calendar (MachineEntry.calendar). */
export const calendarTimers: ReadonlySet<string> = new Set(machineTable.flatMap((m) => m.calendar ?? []));

/** About how many transitions the calendar runs between two times (MachineEntry.work): a move's estimate. */
export const calendarWork = (data: World, fromMs: number, toMs: number): number =>
  machineTable.reduce((n, m) => n + (m.work?.(data, fromMs, toMs) ?? 0), 0);

/** Every transition: the machines' (each loaded when first needed) and the capabilities' own (webhook retries). */
export const timers: TimerHandlers = Object.assign(
  Object.fromEntries(
    machineTable.flatMap((m) =>
      m.types.map((type) => [type, async (...a: Parameters<TimerHandlers[string]>) => (await m.load())[type](...a)]),
    ),
  ),
  ...CAPABILITIES.map((c) => c.timers ?? {}),
);

export const afterCommitHooks: readonly AfterCommit[] = CAPABILITIES.flatMap((c) =>
  c.afterCommit ? [c.afterCommit] : [],
);
