// Targets that do not trip over each other (issue 24, point 6): a profile's key goes only to the
// target it was set for (its base URL, or the embedded simulator), is parked when the base URL
// changes and comes back with it, and a refused or missing key is reported naming the target and
// where the key came from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, freshEnv, startSim, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());

const fresh = freshEnv;
const profileOf = (env: { VMV_CONFIG_DIR: string }) =>
  JSON.parse(readFileSync(join(env.VMV_CONFIG_DIR, 'config.json'), 'utf8')).profiles.default;

describe('keys belong to the target they were set for', () => {
  it("unsetting the base URL leaves the service's key behind: the embedded simulator is used without it", async () => {
    const env = fresh();
    await cli(['config', 'set', 'base_url', sim.url], { env });
    await cli(['config', 'set', 'api_key', '-'], { env, stdin: sim.key });
    expect((await cli(['contacts', 'list'], { env })).code).toBe(0);
    const unset = await cli(['config', 'unset', 'base_url'], { env });
    expect(unset.stderr).toContain(
      `The API key set for ${sim.url} stays with it: it is not sent to the embedded simulator.`,
    );
    expect(profileOf(env)).toEqual({ api_keys: { [sim.url]: sim.key } });
    const list = await cli(['contacts', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    const status = await cli(['status'], { env });
    expect(status.stdout).toContain(
      `api key\tnone: the seeded workspace's own; profile "default" keeps one for ${sim.url}, not sent here\n`,
    );
    // back to the URL: its key comes back with it
    const back = await cli(['config', 'set', 'base_url', sim.url], { env });
    expect(back.stderr).toContain(`The API key set before for ${sim.url} is used again.`);
    expect(profileOf(env)).toEqual({ base_url: sim.url, api_key: sim.key });
    expect((await cli(['contacts', 'list'], { env })).code).toBe(0);
  });

  it('a key set for the embedded simulator is not sent to a base URL set later; the error says so', async () => {
    const env = fresh();
    await cli(['config', 'set', 'api_key', 'sk_sim_embedded0000000000000000000000000001'], { env });
    expect((await cli(['config', 'get', '--json'], { env })).json).toMatchObject({ target: 'embedded' });
    const moved = await cli(['config', 'set', 'base_url', sim.url], { env });
    expect(moved.stderr).toContain('The API key set for the embedded simulator stays with it');
    expect(moved.stderr).toContain('vmv config set api_key -');
    const r = await cli(['contacts', 'list'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`No API key was sent to ${sim.url}.`);
    expect(r.stderr).toContain('Profile "default" keeps a key for the embedded simulator');
    // a key set now is the URL's
    const set = await cli(['config', 'set', 'api_key', '-'], { env, stdin: sim.key });
    expect(set.stderr).toContain(`(the key of ${sim.url})`);
    expect((await cli(['contacts', 'list'], { env })).code).toBe(0);
    expect(profileOf(env).api_keys).toEqual({ embedded: 'sk_sim_embedded0000000000000000000000000001' });
  });

  it("a --base-url other than the profile's does not get the profile's key", async () => {
    const env = fresh();
    await cli(['config', 'set', 'base_url', 'http://127.0.0.1:9'], { env });
    await cli(['config', 'set', 'api_key', 'sk_live_secret00000001'], { env });
    const r = await cli(['contacts', 'list', '--base-url', sim.url], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `No API key was sent to ${sim.url}. Profile "default" keeps a key for http://127.0.0.1:9`,
    );
  });

  it('a refused key is named with its target and source', async () => {
    const env = fresh();
    const embedded = await cli(['contacts', 'list'], { env: { ...env, VMV_API_KEY: 'sk_live_wrong0000000042' } });
    expect(embedded.code).toBe(3);
    expect(embedded.stderr).toContain(
      `The embedded simulator (${env.VMV_SIM_DATA}) refused the API key sk_live_…0042 (from VMV_API_KEY).`,
    );
    const remote = await cli(['contacts', 'list', '--api-key', 'sk_sim_wrong0000000043'], {
      env: { ...env, VMV_BASE_URL: sim.url },
    });
    expect(remote.code).toBe(3);
    expect(remote.stderr).toContain(`${sim.url} refused the API key sk_sim_…0043 (from --api-key).`);
    expect(remote.stderr).toContain('vmv sim serve');
    expect(remote.stderr + embedded.stderr).not.toContain('wrong00000000');
  });
});
