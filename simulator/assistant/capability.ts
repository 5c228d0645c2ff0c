// The assistant, declared: its conversations, and the runs that plan and take actions through the API.
import type { Capability } from '../core/capability.js';

export const assistant: Capability = {
  name: 'assistant',
  resources: [{ prefixes: ['/v1/assistant'], load: async () => (await import('./routes.js')).assistant }],
  machines: [
    { types: ['assistant.think', 'assistant.act'], load: async () => (await import('./machine.js')).assistantTimers },
  ],
  collections: { records: ['assistant_conversations'] },
};
