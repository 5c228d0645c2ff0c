// Many waits on one world (issue 20, item 4): `vmv … --wait --advance` run in parallel on one manual
// clock, embedded (separate processes on one data file) and through `vmv sim serve`; the control
// plane's at-least move that makes it safe; a 5xx on the clock is the error it is, not "not a
// simulator"; and a wait that an error ends still prints what continues (its id), once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, startSim, T0, tempDir, type Sim } from './helpers.js';

/** A `sim serve` of the describe block's own, reset to its seeded state before each test. */
function useSim(): Pick<Sim, 'url' | 'key' | 'api'> {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.stop());
  beforeEach(() => sim.reset());
  return {
    get url() { return sim.url; },
    get key() { return sim.key; },
    api: (...a) => sim.api(...a),
  };
}

describe('POST /_sim/clock {now, at_least: true}', () => {
  const sim = useSim();

  it('moves the clock forward as now alone does; behind the clock it succeeds and leaves the clock where it is, while now alone is still refused', async () => {
    const at = await sim.api('POST', '/_sim/clock', { body: { now: '2026-01-05T10:00:00+01:00', at_least: true } }); // 09:00Z: where it is
    expect([at.status, at.json.now]).toEqual([200, T0]);
    const moved = await sim.api('POST', '/_sim/clock', { body: { now: '2026-01-05T09:30:00Z', at_least: true } });
    expect([moved.status, moved.json.now]).toEqual([200, '2026-01-05T09:30:00.000Z']);
    const behind = await sim.api('POST', '/_sim/clock', { body: { now: '2026-01-05T09:10:00Z', at_least: true, mode: 'manual' } });
    expect(behind.status).toBe(200);
    expect(behind.json).toMatchObject({ now: '2026-01-05T09:30:00.000Z', mode: 'manual' });
    for (const body of [{ now: '2026-01-05T09:10:00Z' }, { now: '2026-01-05T09:10:00Z', at_least: false }]) {
      const refused = await sim.api('POST', '/_sim/clock', { body });
      expect(refused.status).toBe(400);
      expect(refused.json.error.fields).toEqual({ now: 'cannot move the clock backwards' });
    }
    const alone = await sim.api('POST', '/_sim/clock', { body: { at_least: true } });
    expect([alone.status, alone.json.error.fields]).toEqual([400, { at_least: 'goes with now: the least time wanted' }]);
    expect((await sim.api('GET', '/_sim/clock')).json.now).toBe('2026-01-05T09:30:00.000Z');
  });

  it('runs what falls due on the way, as now does', async () => {
    const env = { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key, VMV_CONFIG_DIR: tempDir(), NO_COLOR: '1' };
    const id = (await cli(['quick', 'call', '+14155550100', '--goal', 'x'], { env })).stdout.trim();
    await sim.api('POST', '/_sim/clock', { body: { now: '2026-01-05T09:30:00Z', at_least: true } });
    expect((await sim.api('GET', `/v1/quick/actions/${id}`)).json.data.status).toBe('completed');
  });

  it('is described in GET /_sim/openapi.json', async () => {
    const doc = (await sim.api('GET', '/_sim/openapi.json')).json;
    const body = doc.paths['/_sim/clock'].post.requestBody.content['application/json'];
    const schema = body.schema.$ref ? doc.components.schemas[body.schema.$ref.split('/').pop()] : body.schema;
    expect(schema.properties.at_least).toMatchObject({ type: 'boolean', description: expect.stringMatching(/^`now` is the least time wanted: a clock already there or past it stays where it is/) });
    expect(body.example).toMatchObject({ now: expect.any(String), at_least: true });
  });

  it('vmv sim clock --at-least: moves forward, or leaves a clock already past', async () => {
    const env = { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key, VMV_CONFIG_DIR: tempDir(), NO_COLOR: '1' };
    expect((await cli(['sim', 'clock', '--at-least', '2026-01-05T09:05:00Z', '--json'], { env })).json.now).toBe('2026-01-05T09:05:00.000Z');
    expect((await cli(['sim', 'clock', '--at-least', '2026-01-05T09:01:00Z', '--json'], { env })).json.now).toBe('2026-01-05T09:05:00.000Z');
    const set = await cli(['sim', 'clock', '--set', '2026-01-05T09:01:00Z'], { env });
    expect(set.code).toBe(1);
    expect(set.stderr).toContain('cannot move the clock backwards');
    const twice = await cli(['sim', 'clock', '--set', '2026-01-05T09:06:00Z', '--at-least', '2026-01-05T09:06:00Z'], { env });
    expect([twice.code, twice.stderr]).toEqual([2, 'error: Give --set or --at-least, not both.\n']);
  });
});
