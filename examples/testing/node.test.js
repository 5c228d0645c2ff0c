// vmv/testing with node:test (node --test): a simulator per test, the program under test calling it with fetch.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
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
  assert.equal(ended.event.data.call.to_number, '+14155550123');
  const [sent] = await sim.outbox({ kind: 'call' });
  assert.equal(sent.to, '+14155550123');
  const paid = (await sim.ledger()).filter((e) => e.reference_id === job.id);
  assert.ok(paid.length > 0);

  await sim.reset();
  assert.deepEqual(await sim.outbox(), []);
});
