// Small things a person meets (issue 24, point 10): piped --json and `vmv api` output end with a
// newline; `sim wallet --json` prints the wallet; a video's --wait --advance progress shows time
// on the simulator's clock; `vmv --help` names the data file in use; an environment variable set
// to the empty string counts as unset.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, freshEnv, useTargets } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });

describe('small things', () => {
  it('piped --json and vmv api output end with a newline', async () => {
    expect((await both(['contacts', 'list', '--json'])).stdout).toMatch(/}\n$/);
    expect((await both(['api', '/v1/contacts'])).stdout).toMatch(/}\n$/);
    expect((await both(['api', '/_sim/clock'])).stdout).toMatch(/}\n$/);
  });

  it('sim wallet --json prints the wallet, not the whole workspace and its ledger', async () => {
    const r = await both(['sim', 'wallet', '--set', '42', '--json']);
    expect(r.json).toEqual({
      wallet_usd: 42,
      auto_recharge: {
        enabled: false,
        amount_usd: expect.any(Number),
        threshold_usd: expect.any(Number),
        card_declined: false,
      },
    });
    expect((await both(['sim', 'wallet', '--json'])).json.wallet_usd).toBe(42);
  });

  it("a video's --wait --advance progress shows time on the simulator's clock, not 0s", async () => {
    // (run on each target: the video's media links name the target's address)
    for (const t of Object.values(targets)) {
      const r = await t.run([
        'videos',
        'create',
        '--template',
        'talking_avatar',
        '--text',
        'Our espresso bar opens Monday on Main Street.',
        '--wait',
        '--advance',
      ]);
      expect(r.code).toBe(0);
      const notes = r.stderr.split('\n').filter((l) => / at \+/.test(l));
      expect(notes.length).toBeGreaterThan(2);
      expect(notes.at(-1)).toMatch(/ready at \+\d+m/);
    }
    // on a terminal, the live line counts on the simulator's clock too
    const live = await targets.embedded.run(
      ['videos', 'create', '--template', 'talking_avatar', '--text', 'Open Monday.', '--wait', '--advance', '--yes'],
      { tty: true },
    );
    expect(live.stdout).toMatch(/: compositing · \+\d+m\d*s? · /);
  });

  it('vmv --help names the data file in use', async () => {
    const env = freshEnv();
    expect((await cli(['--help'], { env })).stdout).toContain(
      `its data in\n${env.VMV_SIM_DATA} (VMV_SIM_DATA, or XDG_DATA_HOME)`,
    );
    const xdg = await cli(['--help'], { env: { XDG_DATA_HOME: '/srv/data' } });
    expect(xdg.stdout).toContain(join('/srv/data', 'vmv', 'sim.json'));
  });

  it('an environment variable set to the empty string counts as unset (VMV_PROFILE=)', async () => {
    const env = { ...freshEnv(), VMV_PROFILE: '' };
    const set = await cli(['config', 'set', 'base_url', 'http://127.0.0.1:4010'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain('in profile "default"');
    expect((await cli(['config', 'get', 'base_url'], { env })).stdout).toBe('http://127.0.0.1:4010\n');
    expect((await cli(['config', 'unset', 'base_url'], { env })).code).toBe(0);
    expect((await cli(['config', 'list'], { env })).code).toBe(0);
  });
});
