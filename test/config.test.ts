// `vmv config`: profiles in a file only its owner can read, keys never printed whole, and the
// order flags > environment > profile > embedded simulator.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, childEnv, cli, freshEnv, startSim, tempDir, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());

const fresh = freshEnv;

describe('vmv config', () => {
  it('with no configuration the target is the embedded simulator', async () => {
    const env = fresh();
    const r = await cli(['config', 'get', '--json'], { env });
    expect(r.json).toEqual({
      profile: 'default',
      target: 'embedded',
      base_url: null,
      api_key: null,
      sim_data: env.VMV_SIM_DATA,
    });
  });

  it('set stores base_url and api_key (from stdin) in a 0600 file in a 0700 folder; get masks the key', async () => {
    const env = fresh();
    expect((await cli(['config', 'set', 'base_url', `${sim.url}/v1/`], { env })).code).toBe(0);
    const s = await cli(['config', 'set', 'api_key', '-'], { env, stdin: sim.key + '\n' });
    expect(s.code).toBe(0);
    expect(s.stderr).not.toContain(sim.key);
    const file = join(env.VMV_CONFIG_DIR, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(env.VMV_CONFIG_DIR).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ base_url: sim.url, api_key: sim.key });
    const g = await cli(['config', 'get'], { env });
    expect(g.stdout).toContain(`base_url\t${sim.url}`);
    expect(g.stdout).toContain(`api_key\tsk_sim_…${sim.key.slice(-4)}`);
    expect(g.stdout + g.stderr).not.toContain(sim.key);
    expect((await cli(['config', 'get', 'api_key'], { env })).stdout).toBe(`sk_sim_…${sim.key.slice(-4)}\n`);
    // and commands now go to the server
    const list = await cli(['contacts', 'list', '--json'], { env });
    expect(list.code).toBe(0);
    expect((await cli(['config', 'get', 'target'], { env })).code).toBe(2);
  });

  it('api_key without a value and without a TTY is a usage error, not a prompt', async () => {
    const r = await cli(['config', 'set', 'api_key'], { env: fresh() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"-" to read it from standard input');
  });

  it('profiles: list, use, --profile and VMV_PROFILE; unknown profile is a usage error', async () => {
    const env = fresh();
    await cli(['config', 'set', 'base_url', sim.url, '--profile', 'staging'], { env });
    await cli(['config', 'set', 'api_key', sim.key, '--profile', 'staging'], { env });
    const list = await cli(['config', 'list'], { env });
    expect(list.stdout).toBe(
      `default\tyes\t(embedded simulator)\t-\nstaging\tno\t${sim.url}\tsk_sim_…${sim.key.slice(-4)}\n`,
    );
    expect((await cli(['config', 'get', 'base_url', '--profile', 'staging'], { env })).stdout).toBe(`${sim.url}\n`);
    expect((await cli(['config', 'get', 'base_url'], { env: { ...env, VMV_PROFILE: 'staging' } })).stdout).toBe(
      `${sim.url}\n`,
    );
    const bad = await cli(['contacts', 'list', '--profile', 'nope'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('No profile named "nope"');
    await cli(['config', 'use', 'staging'], { env });
    expect((await cli(['config', 'get', '--json'], { env })).json).toMatchObject({
      profile: 'staging',
      target: 'remote',
    });
    await cli(['config', 'unset', 'base_url'], { env });
    expect((await cli(['config', 'get', '--json'], { env })).json).toMatchObject({
      profile: 'staging',
      target: 'embedded',
    });
    expect((await cli(['config', 'delete', 'staging', '--yes'], { env })).code).toBe(0);
    expect((await cli(['config', 'get', '--json'], { env })).json.profile).toBe('default');
    expect((await cli(['config', 'set', 'base_url', 'http://x', '--profile', '../evil'], { env })).code).toBe(2);
  });

  it('flags win over environment variables, which win over the profile', async () => {
    const env = fresh();
    await cli(['config', 'set', 'base_url', 'http://127.0.0.1:1'], { env });
    const fromEnv = await cli(['config', 'get', 'base_url'], { env: { ...env, VMV_BASE_URL: 'http://127.0.0.1:2' } });
    expect(fromEnv.stdout).toBe('http://127.0.0.1:2\n');
    const fromFlag = await cli(['config', 'get', 'base_url', '--base-url', 'http://127.0.0.1:3'], {
      env: { ...env, VMV_BASE_URL: 'http://127.0.0.1:2' },
    });
    expect(fromFlag.stdout).toBe('http://127.0.0.1:3\n');
    const key = await cli(['config', 'get', 'api_key', '--api-key', 'sk_sim_flagkey1234'], {
      env: { ...env, VMV_API_KEY: 'sk_sim_envkey5678' },
    });
    expect(key.stdout).toBe('sk_sim_…1234\n');
    expect((await cli(['contacts', 'list', '--base-url', 'ftp://x'], { env })).code).toBe(2);
  });

  it('an empty variable counts as unset', async () => {
    const env = fresh();
    await cli(['config', 'set', 'base_url', 'http://127.0.0.1:1'], { env });
    const r = await cli(['config', 'get', '--json'], { env: { ...env, VMV_BASE_URL: '', VMV_API_KEY: '' } });
    expect(r.json).toMatchObject({ base_url: 'http://127.0.0.1:1', api_key: null });
  });

  it('config path names both files', async () => {
    const env = fresh();
    const r = await cli(['config', 'path', '--json'], { env });
    expect(r.json).toEqual({ config: join(env.VMV_CONFIG_DIR, 'config.json'), sim_data: env.VMV_SIM_DATA });
  });
});

describe('a damaged settings file stops every command (only a missing one is "no settings")', () => {
  /** bin/vmv as a process, in a home of its own */
  const vmv = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });

  it('cut short after `config set base_url`: exit 2 naming the file and the way out, never the embedded simulator', () => {
    const env = childEnv(tempDir());
    const file = join(env.VMV_CONFIG_DIR, 'config.json');
    expect(vmv(env, 'config', 'set', 'base_url', 'https://api.example.com').status).toBe(0);
    const whole = readFileSync(file, 'utf8');
    const damaged: [string, string][] = [
      [whole.slice(0, whole.length / 2), 'it is not valid JSON'],
      ['', 'it is not valid JSON'],
      ['[]', 'it does not hold a JSON object'],
      ['{"profiles":{"default":{"base_url":42}}}', 'profiles.default.base_url is not a string'],
    ];
    for (const [text, why] of damaged) {
      writeFileSync(file, text);
      for (const args of [['status'], ['contacts', 'list'], ['config', 'get'], ['config', 'set', 'api_key', 'sk_x']]) {
        const r = vmv(env, ...args);
        expect([args.join(' '), r.status]).toEqual([args.join(' '), 2]);
        expect(r.stderr).toContain(`error: The settings file ${file} is damaged: ${why}`);
        expect(r.stderr).toContain(`mv '${file}' '${file}.damaged'`);
        expect(r.stdout).not.toContain('embedded');
      }
      // the file is left as it was for the user to mend (config set did not overwrite it)
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    const json = vmv(env, 'status', '--json');
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage_error' });
    // config path still names it; once moved aside, the settings are "none" again
    expect(vmv(env, 'config', 'path').status).toBe(0);
    rmSync(file);
    expect(JSON.parse(vmv(env, 'config', 'get', '--json').stdout).target).toBe('embedded');
  });

  it('a folder where the file should be (it cannot be read) is refused too', async () => {
    const env = fresh();
    mkdirSync(join(env.VMV_CONFIG_DIR, 'config.json'), { recursive: true });
    const r = await cli(['status'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('config.json cannot be read (EISDIR)');
  });
});
