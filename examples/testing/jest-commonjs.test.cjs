// vmv/testing with Jest's default configuration (CommonJS: require, no flags), a simulator per test.
const { startSimulator } = require('vmv/testing');
const { callSummaries } = require('./crm.cjs');

let sim;
beforeEach(async () => {
  sim = await startSimulator({ now: '2026-03-02T09:00:00Z' });
});
afterEach(() => sim.close());

test('the CRM reads the summary of a call one of its numbers took', async () => {
  // a number of the workspace's own, answered by its AI (the simulator's control plane needs no key)
  const number = await fetch(`${sim.url}/_sim/phone-numbers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stack: 't2' }),
  }).then((r) => r.json());
  await sim.inbound.call({ from: '+14155550123', to: number.phone_number, says: 'I want to book Tuesday' });
  await sim.advanceUntilIdle(); // the call runs to its end on the simulator's clock

  const summaries = await callSummaries({ baseUrl: sim.url, apiKey: sim.apiKey });
  expect(summaries).toEqual([{ from: '+14155550123', summary: expect.stringContaining('I want to book Tuesday') }]);
  expect(await sim.now()).toBeInstanceOf(Date);
});
