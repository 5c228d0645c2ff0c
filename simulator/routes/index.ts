// Every resource the simulator serves, and every transition it schedules. A resource module (its
// route declarations and their schemas) is loaded the first time a request reaches one of its
// paths: a command needs one or two of them, and building every schema would cost every command
// start-up time. Transitions and after-commit work are loaded always: whatever fell due runs
// before any request. A new resource is added here and nowhere else; a test checks that each
// resource's paths lie under the prefixes given for it.
import type { AfterCommit, Resource } from '../http.js';
import type { TimerHandlers } from '../scheduler.js';
import { aiNumberTimers } from '../machines/ai-number.js';
import { numberTextTimers } from '../machines/number-text.js';
import { quickCallTimers } from '../machines/quick-call.js';
import { quickTextTimers } from '../machines/quick-text.js';
import { scriptedCallTimers } from '../machines/scripted-call.js';
import { videoTimers } from '../machines/video.js';
import { scheduleTimers } from '../machines/schedule.js';
import { assistantTimers } from '../machines/assistant.js';
import { deliverOutbox, deliveryTimers } from '../webhooks/delivery.js';

export interface ResourceEntry {
  /** paths the resource serves start with one of these (a whole segment: /v1/calls is not /v1/callsx) */
  prefixes: readonly string[];
  load: () => Promise<Resource>;
}

export const resourceTable: readonly ResourceEntry[] = [
  { prefixes: ['/v1/quick/emails'], load: async () => (await import('./quick-email.js')).quickEmail },
  { prefixes: ['/v1/quick/ai-calls', '/v1/quick/ai-texts', '/v1/quick/actions'], load: async () => (await import('./quick-actions.js')).quickActions },
  { prefixes: ['/v1/quick/ai-numbers'], load: async () => (await import('./ai-numbers.js')).aiNumbers },
  { prefixes: ['/v1/phone-numbers'], load: async () => (await import('./phone-numbers.js')).phoneNumbers },
  { prefixes: ['/v1/voice/calls'], load: async () => (await import('./voice-calls.js')).voiceCalls },
  {
    prefixes: ['/v1/history', '/v1/contacts', '/v1/calls', '/v1/messages', '/v1/emails'],
    load: async () => (await import('./history.js')).history,
  },
  { prefixes: ['/v1/voice/calls/webhooks', '/v1/sms/webhooks', '/_sim/webhook-deliveries'], load: async () => (await import('./webhooks.js')).webhooks },
  {
    prefixes: ['/v1/videos', '/v1/posts', '/v1/social-connections', '/v1/media', '/_sim/social-connections'],
    load: async () => (await import('./videos.js')).videos,
  },
  { prefixes: ['/v1/video-schedules', '/_sim/notifications'], load: async () => (await import('./video-schedules.js')).videoSchedules },
  { prefixes: ['/v1/assistant'], load: async () => (await import('./assistant.js')).assistant },
  { prefixes: ['/v1/openapi.json', '/_sim/openapi.json'], load: async () => (await import('./api-description.js')).apiDescription },
  {
    prefixes: ['/_sim/health', '/_sim/reset', '/_sim/clock', '/_sim/api-keys', '/_sim/workspaces', '/_sim/workspace', '/_sim/contacts',
      '/_sim/suppressions', '/_sim/calls', '/_sim/texts', '/_sim/emails', '/_sim/audit-log'],
    load: async () => (await import('./control.js')).control,
  },
  { prefixes: ['/_sim/shared-pool', '/_sim/inbound/texts'], load: async () => (await import('./control-traffic.js')).controlTraffic },
  {
    prefixes: ['/_sim/phone-numbers', '/_sim/caller-ids', '/_sim/workspace/defaults', '/_sim/library', '/_sim/inbound/calls', '/_sim/voices'],
    load: async () => (await import('./control-numbers.js')).controlNumbers,
  },
];

/** Whether `path` lies under `prefix` (whole segments). */
export const under = (path: string, prefix: string) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/** Every resource, loaded (the API description needs them all). */
export const allResources = (): Promise<Resource[]> => Promise.all(resourceTable.map((e) => e.load()));

export const timers: TimerHandlers = {
  ...quickCallTimers, ...quickTextTimers, ...scriptedCallTimers, ...numberTextTimers, ...aiNumberTimers, ...deliveryTimers, ...videoTimers, ...scheduleTimers, ...assistantTimers,
};

export const afterCommitHooks: AfterCommit[] = [deliverOutbox];
