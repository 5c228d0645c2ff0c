// vmv/testing: the simulated service as a fixture in a user's own test suite (vitest, Jest,
// node:test, any runner). One line starts a fresh in-memory world on a loopback port; its methods
// move the clock, play the other party, show what was sent and paid, and receive webhooks. The
// examples in startSimulator's JSDoc (simulator.ts) are type-checked against the installed package
// by test/testing-package.test.ts.

export { startSimulator } from './simulator.js';
export type {
  DeliveryAttempt,
  IdleOptions,
  LedgerEntry,
  OutboxMessage,
  Persona,
  Simulator,
  SimulatorOptions,
} from './simulator.js';
export { SimulatorError } from './control.js';
export type { ReceivedEvent, WaitOptions, WebhookReceiver } from './receiver.js';
