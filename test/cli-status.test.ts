// `vmv status` (issue 24, point 4): the target, the key (masked) and where each came from, and on a
// simulator the workspace, wallet, plan usage, clock with the next thing due, and what is in flight;
// on a service, whether it takes the key and the calls under way.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeViolations } from './contract.js';
import { cli, T0, tempDir, useTargets } from './helpers.js';

const { targets } = useTargets({ resetEach: true });

describe('vmv status on a simulator', () => {
  it('shows the workspace, wallet, plan usage, clock, the next thing due and what is in flight, alike on both targets', async () => {
    // (the target part differs by target: compared apart below)
    const sim = async () => {
      const [e, r] = [await targets.embedded.run(['status', '--json']), await targets.remote.run(['status', '--json'])];
      const strip = ({ target: _t, api_key: _k, workspace: _w, ...rest }: any) => rest;
      expect(strip(e.json)).toEqual(strip(r.json));
      return e;
    };
    const idle = await sim();
    expect(idle.code).toBe(0);
    expect(idle.json).toMatchObject({
      simulator: true,
      wallet_usd: 50,
      clock: { mode: 'manual', now: T0 },
      next_due: null,
      in_flight: { quick_jobs: 0, calls: 0, videos: 0 },
      usage: { minutes_used: 0, texts_used: 0 },
    });
    for (const t of Object.values(targets)) await t.run(['quick', 'call', '+14155550100', '--goal', 'confirm Tuesday']);
    const busy = (await sim()).json;
    expect(busy.in_flight).toMatchObject({ quick_jobs: 1, calls: 1 });
    expect(busy.wallet_usd).toBe(49.8);
    expect(busy.next_due).toMatchObject({
      type: expect.stringMatching(/^qcall\./),
      what: expect.stringContaining('quick call'),
    });
    // the lines after the target and the key are alike on both targets
    const human = async () => {
      const [e, r] = [await targets.embedded.run(['status']), await targets.remote.run(['status'])];
      const tail = (x: string) => x.split('\n').slice(2).join('\n');
      expect(tail(e.stdout)).toBe(tail(r.stdout));
      return e.stdout;
    };
    const lines = await human();
    expect(lines).toContain('wallet\t49.80 USD (auto-recharge off)\n');
    expect(lines).toContain(`clock\tmanual, ${T0}\n`);
    expect(lines).toMatch(/next due\t2026-01-05T09:00:\d\d\.000Z: a quick call /);
    expect(lines).toContain('in flight\t1 quick job, 1 call\n');
    for (const t of Object.values(targets)) await t.run(['sim', 'advance', '10m']);
    expect(await human()).toContain('in flight\tnothing\n');
  });

  it('names the target and where the key came from, the key masked', async () => {
    const e = await targets.embedded.run(['status']);
    expect(e.stdout).toContain(`target\tthe embedded simulator (${targets.embedded.env.VMV_SIM_DATA})\n`);
    expect(e.stdout).toContain("api key\tnone: the seeded workspace's own\n");
    const r = await targets.remote.run(['status']);
    const key = targets.remote.env.VMV_API_KEY;
    expect(r.stdout).toContain(`target\t${targets.remote.env.VMV_BASE_URL} (from VMV_BASE_URL)\n`);
    expect(r.stdout).toContain(`api key\tsk_sim_…${key.slice(-4)} (from VMV_API_KEY)\n`);
    expect(r.stdout + r.stderr).not.toContain(key);
    expect((await targets.remote.run(['status', '--json'])).json).toMatchObject({
      target: { kind: 'remote', from: 'VMV_BASE_URL' },
      api_key: { from: 'VMV_API_KEY' },
    });
  });
});

describe('vmv status on a service', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // a stand-in service: no /_sim, and /v1/calls answering a total for each status, or 401 without the right key
    server = createServer((req, res) => {
      const u = new URL(req.url!, 'http://x');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_1' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== 'Bearer live_key_0001')
        return json(401, { error: { code: 'unauthorized', message: 'Invalid API key.' } });
      if (u.pathname === '/v1/calls') {
        const totals: Record<string, number> = { queued: 0, ringing: 1, in_progress: 2 };
        return json(200, { data: [], meta: { page_size: 1, total_results: totals[u.searchParams.get('status')!] } });
      }
      json(404, { error: { code: 'not_found', message: 'No such route.' } });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('says whether the key is accepted and how many calls are under way', async () => {
    const env = { VMV_CONFIG_DIR: tempDir(), VMV_BASE_URL: url, VMV_API_KEY: 'live_key_0001', NO_COLOR: '1' };
    const ok = await cli(['status'], { env });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`target\t${url} (from VMV_BASE_URL)\n`);
    expect(ok.stdout).toContain('key accepted\tyes\n');
    expect(ok.stdout).toContain('calls under way\t3\n');
    expect(ok.stdout).toContain("workspace\tnot told by a service's API");
    // a refused key: what is known, then exit 3 (like `gh auth status`, non-zero), the reason on stderr
    const bad = await cli(['status', '--json'], { env: { ...env, VMV_API_KEY: 'live_key_9999' } });
    expect(bad.code).toBe(3);
    expect(bad.json).toMatchObject({
      simulator: false,
      usable: false,
      service: { key_accepted: false, live_calls: null },
    });
    const badText = await cli(['status'], { env: { ...env, VMV_API_KEY: 'live_key_9999' } });
    expect(badText.code).toBe(3);
    expect(badText.stdout).toContain('key accepted\tno: Invalid API key.\n');
    expect(badText.stderr).toContain('error: Invalid API key.');
    // a service has no /_sim: its 404 there is the one answer outside the simulator's description
    expect(new Set(await takeViolations())).toEqual(new Set([expect.stringContaining('GET /_sim/status → 404')]));
  });
});

describe('vmv status when the target cannot be used (issue 33, point 4)', () => {
  it('a simulator refusing the key: the target and key, the workspace unknown, exit 3', async () => {
    const env = { ...targets.remote.env, VMV_API_KEY: 'sk_sim_not_a_key_000000' };
    const r = await cli(['status'], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`target\t${targets.remote.env.VMV_BASE_URL} (from VMV_BASE_URL)\n`);
    expect(r.stdout).toMatch(/key accepted\tno: /);
    expect(r.stdout).toContain('workspace\tunknown: the simulator shows the workspace of a key it accepts\n');
    expect(r.stdout).not.toContain('service');
    const j = await cli(['status', '--json'], { env });
    expect(j.code).toBe(3);
    expect(j.json).toMatchObject({ simulator: true, usable: false, target: { kind: 'remote' } });
  });

  it('a target that does not answer: what is known, once (no retry lines), exit 4', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise<void>((r) => server.close(() => r()));
    const env = { VMV_CONFIG_DIR: tempDir(), VMV_BASE_URL: url, VMV_API_KEY: 'live_key_0001', NO_COLOR: '1' };
    const r = await cli(['status'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain(`target\t${url} (from VMV_BASE_URL)\n`);
    expect(r.stdout).toMatch(/api key\t\S+0001 \(from VMV_API_KEY\)\n/);
    expect(r.stdout).toMatch(/reachable\tno: /);
    expect(r.stdout).toContain('workspace\tunknown: the target did not answer\n');
    expect(r.stderr).not.toMatch(/retry|retrying/i);
    // --retries still asks again when given
    const again = await cli(['status', '--retries', '1'], { env });
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/retry|retrying/i);
  });
});
