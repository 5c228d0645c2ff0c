// Calls and texts as they happen, declared: voice calls placed from a workspace's numbers, the
// scripted calls' state machine (the simulated other party), the personas set for numbers
// (/_sim/personas: the world's, for every workspace), and the opt-outs texts keep.
import type { Capability } from '../core/capability.js';

export const calls: Capability = {
  name: 'calls',
  resources: [
    { prefixes: ['/v1/voice/calls'], load: async () => (await import('./routes.js')).voiceCalls },
    { prefixes: ['/_sim/personas'], load: async () => (await import('./persona-routes.js')).personas },
  ],
  machines: [
    {
      types: ['call.answer', 'call.finish', 'call.review', 'call.recording_expired'],
      // a recording's end of retention, months ahead: no job waits on it
      calendar: ['call.recording_expired'],
      load: async () => (await import('./scripted-call.js')).scriptedCallTimers,
    },
  ],
  collections: { records: ['opt_outs'], values: ['personas'] },
};
