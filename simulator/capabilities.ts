// Every resource the simulator serves, and every transition it schedules. A resource module (its
// route declarations and their schemas) is loaded the first time a request reaches one of its
// paths: a command needs one or two of them, and building every schema would cost every command
// start-up time. The state machines are loaded the same way, the first time one of their
// transitions falls due (the table names the transitions each machine handles; a test checks it).
// After-commit work (webhook deliveries) is loaded always. A new resource or machine is added here
// and nowhere else; a test checks that each resource's paths lie under the prefixes given for it.
import type { AfterCommit, Resource } from './core/http.js';
import type { TimerHandlers } from './core/scheduler.js';
import { deliverOutbox, deliveryTimers } from './webhooks/delivery.js';

export interface ResourceEntry {
  /** paths the resource serves start with one of these (a whole segment: /v1/calls is not /v1/callsx) */
  prefixes: readonly string[];
  load: () => Promise<Resource>;
}

export const resourceTable: readonly ResourceEntry[] = [
  { prefixes: ['/v1/quick/emails'], load: async () => (await import('./quick/email.js')).quickEmail },
  { prefixes: ['/v1/quick/ai-calls', '/v1/quick/ai-texts', '/v1/quick/actions'], load: async () => (await import('./quick/actions.js')).quickActions },
  { prefixes: ['/v1/quick/ai-numbers'], load: async () => (await import('./numbers/ai-numbers.js')).aiNumbers },
  { prefixes: ['/v1/phone-numbers'], load: async () => (await import('./numbers/phone-numbers.js')).phoneNumbers },
  { prefixes: ['/v1/voice/calls'], load: async () => (await import('./calls/routes.js')).voiceCalls },
  {
    prefixes: ['/v1/history', '/v1/contacts', '/v1/calls', '/v1/messages', '/v1/emails'],
    load: async () => (await import('./history/routes.js')).history,
  },
  { prefixes: ['/v1/voice/calls/webhooks', '/v1/sms/webhooks', '/_sim/webhook-deliveries', '/_sim/hosts'], load: async () => (await import('./webhooks/routes.js')).webhooks },
  {
    prefixes: ['/v1/videos', '/v1/posts', '/v1/social-connections', '/v1/media', '/_sim/social-connections'],
    load: async () => (await import('./videos/routes.js')).videos,
  },
  { prefixes: ['/v1/video-schedules', '/_sim/notifications'], load: async () => (await import('./schedules/routes.js')).videoSchedules },
  { prefixes: ['/v1/assistant'], load: async () => (await import('./assistant/routes.js')).assistant },
  { prefixes: ['/v1/openapi.json', '/_sim/openapi.json'], load: async () => (await import('./core/api-description.js')).apiDescription },
  {
    prefixes: ['/_sim/health', '/_sim/reset', '/_sim/clock', '/_sim/api-keys', '/_sim/workspaces', '/_sim/workspace', '/_sim/contacts',
      '/_sim/suppressions', '/_sim/calls', '/_sim/texts', '/_sim/emails', '/_sim/audit-log', '/_sim/ledger'],
    load: async () => (await import('./control/routes.js')).control,
  },
  { prefixes: ['/_sim/shared-pool', '/_sim/inbound/texts'], load: async () => (await import('./control/traffic.js')).controlTraffic },
  {
    prefixes: ['/_sim/phone-numbers', '/_sim/caller-ids', '/_sim/workspace/defaults', '/_sim/library', '/_sim/inbound/calls', '/_sim/voices'],
    load: async () => (await import('./numbers/control.js')).controlNumbers,
  },
];

/** Whether `path` lies under `prefix` (whole segments). */
export const under = (path: string, prefix: string) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/** Every resource, loaded (the API description needs them all). */
export const allResources = (): Promise<Resource[]> => Promise.all(resourceTable.map((e) => e.load()));

export interface MachineEntry {
  /** the transitions (timer types) the machine handles */
  types: readonly string[];
  /**
   * Of those, the ones that recur on the calendar for as long as something exists (a number's
   * monthly line, a schedule's posting days): time passing runs them, but no job waits on them,
   * so `--advance` does not move the clock to them (the clock's next_job_due_at leaves them out).
   */
  calendar?: readonly string[];
  load: () => Promise<TimerHandlers>;
}

export const machineTable: readonly MachineEntry[] = [
  { types: ['qcall.retry', 'qcall.answer', 'qcall.hangup', 'qcall.unanswered', 'qcall.voicemail', 'qcall.voicemail_left', 'qcall.failed', 'qcall.review'], load: async () => (await import('./quick/call-machine.js')).quickCallTimers },
  { types: ['qtext.scripted', 'qtext.agent', 'qtext.timeout'], load: async () => (await import('./quick/text-machine.js')).quickTextTimers },
  { types: ['call.answer', 'call.finish', 'call.review'], load: async () => (await import('./calls/scripted-call.js')).scriptedCallTimers },
  { types: ['number.sms_reply'], load: async () => (await import('./numbers/number-text.js')).numberTextTimers },
  { types: ['ainumber.wire', 'ainumber.line'], calendar: ['ainumber.line'], load: async () => (await import('./numbers/ai-number-machine.js')).aiNumberTimers },
  { types: ['video.stage', 'post.publish'], load: async () => (await import('./videos/machine.js')).videoTimers },
  { types: ['schedule.plan', 'schedule.post'], calendar: ['schedule.plan', 'schedule.post'], load: async () => (await import('./schedules/machine.js')).scheduleTimers },
  { types: ['assistant.think', 'assistant.act'], load: async () => (await import('./assistant/machine.js')).assistantTimers },
];

/** The transitions that recur on the calendar (MachineEntry.calendar). */
export const calendarTimers: ReadonlySet<string> = new Set(machineTable.flatMap((m) => m.calendar ?? []));

/** Every transition: the machines' (each loaded when first needed) and the webhook retries. */
export const timers: TimerHandlers = {
  ...Object.fromEntries(machineTable.flatMap((m) => m.types.map((type) => [type, async (...a: Parameters<TimerHandlers[string]>) => (await m.load())[type](...a)]))),
  ...deliveryTimers,
};

export const afterCommitHooks: AfterCommit[] = [deliverOutbox];
