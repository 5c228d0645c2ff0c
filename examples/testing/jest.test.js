// vmv/testing with Jest (ES modules: run with node --experimental-vm-modules, as Jest's docs say).
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { startSimulator } from 'vmv/testing';
import { placeReminder, watchCalls } from './reminders.js';

let sim;
beforeEach(async () => {
  sim = await startSimulator({ now: '2026-03-02T09:00:00Z' });
});
afterEach(() => sim.close());

test('a reminder call ends, is reported by webhook and is paid for', async () => {
  const hooks = await sim.webhookReceiver();
  const service = { baseUrl: sim.url, apiKey: sim.apiKey };
  await watchCalls(service, hooks.url);
  const job = await placeReminder(service, '+14155550123', 'Tuesday at 10:00');

  const ended = await hooks.waitFor('call.ended', { timeout: 5000 });
  expect(ended.event.data.call.to_number).toBe('+14155550123');
  const [sent] = await sim.outbox({ kind: 'call' });
  expect(sent.to).toBe('+14155550123');
  const paid = (await sim.ledger()).filter((e) => e.reference_id === job.id);
  expect(paid.length).toBeGreaterThan(0);

  await sim.reset();
  expect(await sim.outbox()).toEqual([]);
});
