// Quick actions, declared: quick email, quick AI calls and texts (jobs over the shared sender pool),
// their state machines, the jobs and the pool they keep, and a workspace's quick-email limits.
import type { Capability } from '../core/capability.js';
import { seedSharedPool } from './shared-pool.js';

export const quick: Capability = {
  name: 'quick',
  resources: [
    { prefixes: ['/v1/quick/emails'], load: async () => (await import('./email.js')).quickEmail },
    {
      prefixes: ['/v1/quick/ai-calls', '/v1/quick/ai-texts', '/v1/quick/actions'],
      load: async () => (await import('./actions.js')).quickActions,
    },
  ],
  machines: [
    {
      types: [
        'qcall.retry',
        'qcall.answer',
        'qcall.hangup',
        'qcall.hung_up',
        'qcall.unanswered',
        'qcall.voicemail',
        'qcall.voicemail_left',
        'qcall.failed',
        'qcall.review',
      ],
      load: async () => (await import('./call-machine.js')).quickCallTimers,
    },
    {
      types: ['qtext.scripted', 'qtext.agent', 'qtext.timeout'],
      load: async () => (await import('./text-machine.js')).quickTextTimers,
    },
    { types: ['quick.settle'], load: async () => (await import('./jobs.js')).settleTimers },
  ],
  collections: { records: ['quick_jobs'], values: ['shared_numbers'] },
  seed: (world, { nowMs }) => void (world.shared_numbers = seedSharedPool(nowMs)),
  workspace: (ws) => Object.assign(ws, { rate_limits: { quick_emails_per_minute: 60 }, recent_quick_emails: [] }),
};
