// The door's remaining gaps (issue 31, point 8, and point 10's 405): a browser's cross-site request
// is refused on every /_sim and inspector route; the door and the router read one spelling of a
// path (dot segments and their disguises refused, so none reaches /_sim); the inspector and its
// keyless /v1 answer only clients on this machine unless --remote-inspector, and the warning of a
// bind beyond loopback says exactly what is open; every 405 says what its path takes (Allow).
// Raw bytes on sockets throughout: fetch and URL would normalise the very paths under test.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allResources } from '../simulator/capabilities.js';
import type { Route } from '../simulator/core/http.js';
import { PANES } from '../simulator/inspector/serve.js';
import { Store } from '../simulator/world.js';
import { BIN, cli, freshEnv, rawHttp, startSim, useTargets, type Sim } from './helpers.js';
import { requires } from './skips.js';

let sim: Sim;
let routes: Route[];
beforeAll(async () => {
  sim = await startSim();
  routes = (await allResources()).flatMap((r) => r.routes);
});
afterAll(() => sim.stop());

/** A route's path with a value in each parameter. */
const concrete = (template: string) => template.replace(/\{\w+\}/g, 'x1');
const portOf = (s: Sim) => new URL(s.url).port;

/** One request written as is (the path exactly as given), with a JSON body on a write. */
function send(
  method: string,
  path: string,
  o: { headers?: Record<string, string>; body?: string; url?: string; from?: string } = {},
) {
  const url = o.url ?? sim.url;
  const body = o.body ?? (method === 'GET' || method === 'HEAD' ? '' : '{}');
  const head = {
    host: new URL(url).host,
    ...(body ? { 'content-type': 'application/json' } : {}),
    ...o.headers,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const lines = Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`);
  return rawHttp(url, `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n${body}`, { localAddress: o.from });
}

/** The inspector's own addresses: the page and its deep links, its files. */
const pagePaths = () => [
  '/',
  ...PANES.map((p) => `/${p}`),
  '/calls/x1',
  ...readdirSync(new URL('../dist/inspector/', import.meta.url))
    .filter((f) => f !== 'index.html')
    .map((f) => `/assets/${f}`),
];

/** What the world holds that a request run by mistake would change: keys, the clock, messages sent. */
async function state() {
  const keys = await new Store(sim.data).withLock(async (ss) => (await ss.begin()).data.api_keys.length);
  const clock = (await sim.api('GET', '/_sim/clock')).json.now;
  const sent = (await sim.api('GET', '/_sim/outbox')).json.meta.total_results;
  return { keys, clock, sent, seededKey: (await sim.api('GET', '/v1/contacts')).status };
}

describe('Sec-Fetch-Site: cross-site is refused on every /_sim and inspector route', () => {
  const CROSS = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };

  it('every route of the control plane, the inspector way to each /v1 route, the page and its files: 403, nothing run', async () => {
    const before = await state();
    const targets: [string, string][] = [
      ...routes.filter((r) => r.path.startsWith('/_sim/')).map((r): [string, string] => [r.method, concrete(r.path)]),
      ...routes
        .filter((r) => r.path.startsWith('/v1/'))
        .map((r): [string, string] => [r.method, `/_sim/inspector${concrete(r.path)}`]),
      ...pagePaths().map((p): [string, string] => ['GET', p]),
    ];
    let refused = 0;
    for (const [method, path] of targets) {
      const r = await send(method, path, { headers: CROSS });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.error.code, `${method} ${path}`).toBe('origin_not_allowed');
      refused++;
    }
    // the loop ran over the whole table: 46 control-plane routes, 61 of /v1, the page's addresses
    expect(targets.filter(([, p]) => p.startsWith('/_sim/') && !p.startsWith('/_sim/inspector/'))).toHaveLength(46);
    expect(refused).toBe(targets.length);
    expect(refused).toBeGreaterThanOrEqual(46 + 61 + PANES.length + 2);
    expect(await state()).toEqual(before);
  });

  it('even with a loopback Origin: a page on localhost:3000 is another site than 127.0.0.1', async () => {
    const r = await send('POST', '/_sim/api-keys', { headers: { ...CROSS, origin: 'http://localhost:3000' } });
    expect(r.status).toBe(403);
  });

  it('same-origin (the inspector itself), same-site (another port of this name), none (a typed address) and no header pass', async () => {
    for (const site of ['same-origin', 'same-site', 'none', undefined]) {
      const headers: Record<string, string> = site ? { 'sec-fetch-site': site } : {};
      for (const path of ['/_sim/health', '/_sim/inspector/v1/contacts', '/', '/assets/inspector.js'])
        expect((await send('GET', path, { headers })).status, `${site} ${path}`).toBe(200);
    }
  });

  it('/v1 is not concerned (a key is needed; signed media links are meant to be embedded anywhere)', async () => {
    const r = await send('GET', '/v1/contacts', { headers: { ...CROSS, authorization: `Bearer ${sim.key}` } });
    expect(r.status).toBe(200);
    expect((await send('GET', '/v1/openapi.json', { headers: CROSS })).status).toBe(200);
  });

  it("a link followed from another site opens the page, never a /_sim route or the page's way to /v1", async () => {
    const nav = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    for (const path of ['/', '/calls/x1', '/money']) {
      const r = await send('GET', path, { headers: nav });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    for (const path of ['/_sim/health', '/_sim/inspector/v1/contacts', '/_sim/outbox'])
      expect((await send('GET', path, { headers: nav })).status, path).toBe(403);
    // a form posted from another site navigates too, but is no read of a page
    expect((await send('POST', '/', { headers: nav })).status).toBe(403);
    expect((await send('GET', '/', { headers: { ...nav, 'sec-fetch-dest': 'iframe' } })).status).toBe(403);
  });
});

describe('one spelling of a path: dot segments and their disguises are 400 and never reach /_sim', () => {
  const DOTS = ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%2E.'];
  const VARIANTS = [
    ...DOTS.map((d) => `/_sim/inspector/v1/${d}/${d}/_sim/clock/advance`),
    ...DOTS.map((d) => `/v1/${d}/_sim/clock/advance`),
    '/_sim/inspector/v1/./../../_sim/clock/advance',
    '/_sim/inspector/v1/contacts/%2e/../../../_sim/clock/advance',
    '/_sim/inspector/v1\\..\\..\\_sim\\clock\\advance',
    '/_sim/inspector/v1%5c..%5c..%5c_sim/clock/advance',
    '/_sim/inspector/v1%2f..%2f..%2f_sim/clock/advance',
    '/_sim/inspector/v1%2F..%2F..%2F_sim%2Fclock%2Fadvance',
    '//_sim/clock/advance',
    '/_sim//clock/advance',
    '/_sim/inspector/v1//contacts',
    '/_sim/clock/advance/.',
    '/_sim/clock/advance/..',
    '/_sim/./clock/advance',
  ];

  it('each variant is 400 bad_request in the envelope, and the clock never moved', async () => {
    const before = (await sim.api('GET', '/_sim/clock')).json.now;
    for (const path of VARIANTS) {
      const r = await send('POST', path, { body: '{"seconds": 3600}' });
      expect(r.status, path).toBe(400);
      expect(r.json, path).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
      expect(r.json.error.message, path).toContain('The request path');
      expect(r.headers['request-id'], path).toMatch(/^req_/);
    }
    expect((await sim.api('GET', '/_sim/clock')).json.now).toBe(before);
    // the same move, spelled plainly, does move it: the variants would have reached it
    expect((await send('POST', '/_sim/clock/advance', { body: '{"seconds": 60}' })).status).toBe(200);
    expect((await sim.api('GET', '/_sim/clock')).json.now).not.toBe(before);
  });

  it('a target that is not a path (absolute-form, *) is 400 too', async () => {
    for (const target of [`http://127.0.0.1:${portOf(sim)}/_sim/health`, '*'])
      expect((await send('GET', target)).status, target).toBe(400);
  });

  it('an escaped unreserved character is read as itself; dots inside a segment are names', async () => {
    expect((await send('GET', '/_sim/cl%6Fck')).json.mode).toBe('manual');
    expect((await send('GET', '/_sim/inspector/v1/cont%61cts')).status).toBe(200);
    expect((await send('GET', '/v1/openapi.json')).status).toBe(200);
    expect((await send('GET', '/assets/inspector.js')).status).toBe(200);
    expect((await send('GET', '/_sim/voices/..x.wav')).json.error.code).not.toBe('bad_request');
  });
});

describe('the same spelling rule on both targets (the in-process handler has it too)', () => {
  const { both } = useTargets();
  it('vmv api with a dot segment is the same 400 embedded and remote', async () => {
    for (const path of ['/v1/../_sim/clock', '/_sim/%2e%2e/_sim/clock', '/v1/contacts/a%2Fb']) {
      const r = await both(['api', 'GET', path]);
      expect(r.code, path).toBe(1);
      expect(JSON.parse(r.stdout).error.code, path).toBe('bad_request');
    }
  });
  it('an id with a slash in it is that 400, with a hint about the path rather than "retry"', async () => {
    const r = await both(['contacts', 'get', 'a/b']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('has a backslash or an escaped slash');
    expect(r.stderr).toContain('Write the path plainly');
    expect(r.stderr).not.toContain('retry');
  });
});

/** This machine's first address that is not loopback: a connection from it is what another machine's looks like. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address;

describe(`the inspector answers only clients on this machine (from ${outside})`, () => {
  const can = requires(outside ? null : 'this machine has no non-loopback IPv4 address to connect from');
  let wide: Sim;
  beforeAll(async () => {
    if (can) wide = await startSim({ extraArgs: ['--host', '0.0.0.0'] });
  });
  afterAll(() => wide?.stop());
  const far = (method: string, path: string, o: { headers?: Record<string, string>; body?: string } = {}) =>
    send(method, path, { ...o, url: `http://${outside}:${portOf(wide)}`, from: outside });
  const near = (method: string, path: string, o: { headers?: Record<string, string>; body?: string } = {}) =>
    send(method, path, { ...o, url: `http://127.0.0.1:${portOf(wide)}` });
  const sent = async () => (await near('GET', '/_sim/outbox')).json.meta.total_results;
  const EMAIL = JSON.stringify({ to: ['ada@example.com'], subject: 'Hi', body: 'Hello' });

  it('from another address the page, its files and its keyless /v1 are 403 client_not_allowed, and nothing is spent', async () => {
    const before = await sent();
    const spend = await far('POST', '/_sim/inspector/v1/quick/emails', { body: EMAIL });
    expect(spend.status).toBe(403);
    expect(spend.json.error.code).toBe('client_not_allowed');
    expect(spend.json.error.message).toContain(`this request came from ${outside}`);
    expect(spend.json.error.message).toContain('--remote-inspector');
    expect(await sent()).toBe(before);
    for (const path of [...pagePaths(), '/_sim/inspector/v1/contacts', '/elsewhere']) {
      const r = await far('GET', path);
      expect(r.status, path).toBe(403);
      expect(r.json.error.code, path).toBe('client_not_allowed');
    }
    // the same from loopback is served, and spends
    for (const path of [...pagePaths(), '/_sim/inspector/v1/contacts'])
      expect((await near('GET', path)).status, path).toBe(200);
    expect((await near('POST', '/_sim/inspector/v1/quick/emails', { body: EMAIL })).status).toBe(200);
    expect(await sent()).toBe(before + 1);
  });

  it('/v1 with a key and the control plane with the control token answer other machines, as the warning says', async () => {
    expect(wide.controlToken).toMatch(/^simctl_[\w-]{32}$/);
    const token = { 'vmv-control-token': wide.controlToken! };
    expect((await far('GET', '/_sim/health', { headers: token })).status).toBe(200);
    expect((await far('GET', '/v1/contacts', { headers: { authorization: `Bearer ${wide.key}` } })).status).toBe(200);
    expect((await far('GET', '/v1/contacts')).status).toBe(401);
    await vi.waitFor(() => expect(wide.stderr()).toContain('warning'));
    expect(wide.stderr()).toBe(
      'warning: binding 0.0.0.0 opens the simulator to other machines: /v1 to anyone holding an API key; ' +
        'the /_sim control plane to anyone holding the control token (it resets the world, moves the clock and mints full-access API keys). ' +
        'The inspector (its page, and its /v1 without a key) answers only this machine (--remote-inspector opens it).\n',
    );
  });

  it('without the control token another machine gets 401 control_token_required on every /_sim route, and nothing is run; this machine needs none', async () => {
    const before = await near('GET', '/_sim/api-keys/current');
    const count = async () =>
      await new Store(wide.data).withLock(async (ss) => (await ss.begin()).data.api_keys.length);
    const keys = await count();
    const control = routes.filter((r) => r.path.startsWith('/_sim/') && !r.path.startsWith('/_sim/inspector'));
    for (const r of control)
      for (const headers of [{}, { 'vmv-control-token': `${wide.controlToken}x` }] as Record<string, string>[]) {
        const got = await far(r.method, concrete(r.path), { headers });
        expect(got.status, `${r.method} ${r.path}`).toBe(401);
        expect(got.json.error.code).toBe('control_token_required');
      }
    const minted = await far('POST', '/_sim/api-keys', { body: '{}' });
    expect(minted.json.error.message).toContain('this request has none');
    expect(await count()).toBe(keys);
    expect((await near('GET', '/_sim/api-keys/current')).status).toBe(before.status);
    expect((await near('GET', '/_sim/health')).status).toBe(200);
  });

  it('vmv on another machine reaches /_sim with VMV_SIM_CONTROL_TOKEN; without it the hint says so', async () => {
    const env = { VMV_BASE_URL: `http://${outside}:${portOf(wide)}`, VMV_API_KEY: wide.key };
    const without = await cli(['sim', 'clock'], { env });
    expect(without.code).toBe(3);
    expect(without.stderr).toContain('(control_token_required, HTTP 401)');
    expect(without.stderr).toContain('Set VMV_SIM_CONTROL_TOKEN to the control token');
    const withIt = await cli(['sim', 'clock', '--json'], {
      env: { ...env, VMV_SIM_CONTROL_TOKEN: wide.controlToken! },
    });
    expect(withIt.code, withIt.stderr).toBe(0);
    expect(withIt.json.mode).toBe('manual');
  });

  it('a token given (VMV_SIM_CONTROL_TOKEN) is the one asked, masked in the banner; --no-control-token opens /_sim and says so', async () => {
    const chosen = 'a-token-of-our-own-0123456789';
    const given = await startSim({ extraArgs: ['--host', '0.0.0.0'], env: { VMV_SIM_CONTROL_TOKEN: chosen } });
    const open = await startSim({ extraArgs: ['--host', '0.0.0.0', '--no-control-token'] });
    try {
      expect(given.controlToken).toBe(chosen);
      const at = (s: Sim) => ({ url: `http://${outside}:${portOf(s)}`, from: outside });
      expect(
        (await send('GET', '/_sim/health', { ...at(given), headers: { 'vmv-control-token': chosen } })).status,
      ).toBe(200);
      expect((await send('GET', '/_sim/health', at(given))).status).toBe(401);
      expect(open.controlToken).toBeUndefined();
      expect((await send('GET', '/_sim/health', at(open))).status).toBe(200);
      await vi.waitFor(() => expect(open.stderr()).toContain('warning'));
      expect(open.stderr()).toContain(
        'the /_sim control plane to anyone, without a key, by --no-control-token (it resets the world',
      );
      // the banner: a token made here whole (the only way to learn it but --json), one given masked
      const banner = async (env: Record<string, string>) => {
        const args = [BIN, 'sim', 'serve', '--host', '0.0.0.0', '--port', '0', '--quiet', '--data', `${given.data}.b`];
        const p = spawn(process.execPath, args, {
          env: { ...process.env, ...freshEnv(), ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        p.stderr.on('data', (d) => (err += d));
        await vi.waitFor(() => expect(err).toContain('Stop with Ctrl-C'), { timeout: 10_000 });
        const exited = new Promise((r) => p.once('exit', r));
        p.kill();
        await exited;
        return err;
      };
      expect(await banner({ VMV_SIM_CONTROL_TOKEN: chosen })).toContain('  token  …6789\n');
      expect(await banner({})).toMatch(/\n {2}token {2}simctl_[\w-]{32}\n/);
      const short = await cli(['sim', 'serve', '--host', '0.0.0.0', '--port', '0', '--control-token', 'short']);
      expect(short.code).toBe(2);
      expect(short.stderr).toContain('--control-token must be 16 to 200 visible ASCII characters');
    } finally {
      await given.stop();
      await open.stop();
    }
  });

  it('bound to :: (dual stack), a loopback client seen as ::ffff:127.0.0.1 is served, another address is not', async () => {
    const six = await startSim({ extraArgs: ['--host', '::'] });
    try {
      const port = portOf(six);
      expect((await send('GET', '/', { url: `http://127.0.0.1:${port}` })).status).toBe(200);
      expect((await send('GET', '/', { url: `http://[::1]:${port}` })).status).toBe(200);
      const r = await send('GET', '/', { url: `http://${outside}:${port}`, from: outside });
      expect(r.status).toBe(403);
      expect(r.json.error.message).toContain(`came from ::ffff:${outside}`);
    } finally {
      await six.stop();
    }
  });

  it('--remote-inspector serves the inspector to other machines, and the warning says so', async () => {
    const open = await startSim({ extraArgs: ['--host', '0.0.0.0', '--remote-inspector'] });
    try {
      const url = `http://${outside}:${portOf(open)}`;
      // the page opens; its way to /v1 and the control plane need the token, which ?token= keeps in a cookie
      expect((await send('GET', '/_sim/inspector/v1/contacts', { url, from: outside })).status).toBe(401);
      const page = await send('GET', `/?token=${open.controlToken}`, { url, from: outside });
      expect(page.status).toBe(200);
      const cookie = page.headers['set-cookie'];
      expect(cookie).toBe(`vmv_control_token=${open.controlToken}; Path=/; HttpOnly; SameSite=Strict`);
      const jar = { cookie: String(cookie).split(';')[0] };
      expect((await send('GET', '/_sim/inspector/v1/contacts', { url, from: outside, headers: jar })).status).toBe(200);
      expect((await send('GET', '/_sim/health', { url, from: outside, headers: jar })).status).toBe(200);
      expect(
        (await send('GET', '/?token=wrong-token-0123456789', { url, from: outside })).headers['set-cookie'],
      ).toBeUndefined();
      await vi.waitFor(() => expect(open.stderr()).toContain('warning'));
      expect(open.stderr()).toBe(
        'warning: binding 0.0.0.0 opens the simulator to other machines: /v1 to anyone holding an API key; ' +
          'the /_sim control plane to anyone holding the control token (it resets the world, moves the clock and mints full-access API keys); ' +
          'and, by --remote-inspector, the inspector and its /_sim/inspector/v1, which spends as the full-access key without one.\n',
      );
    } finally {
      await open.stop();
    }
  });
});

describe('the warning on loopback', () => {
  it('says nothing; --remote-inspector there is said to change nothing', async () => {
    expect(sim.stderr()).toBe('');
    const s = await startSim({ extraArgs: ['--remote-inspector'] });
    try {
      await vi.waitFor(() => expect(s.stderr()).toContain('warning'));
      expect(s.stderr()).toBe(
        'warning: --remote-inspector changes nothing here: bound to 127.0.0.1, only this machine can connect.\n',
      );
    } finally {
      await s.stop();
    }
  });
});

describe('405 says what the path takes (Allow, RFC 9110 §15.5.6)', () => {
  const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

  it('on every path of the route table, /v1 and /_sim, and through the inspector to /v1', async () => {
    const patterns = routes.map((r) => ({
      method: r.method,
      re: new RegExp(`^${r.path.replace(/\./g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
    const paths = [...new Set(routes.map((r) => concrete(r.path)))];
    const seen = new Set<string>();
    let checked = 0;
    for (const path of paths) {
      // every route whose pattern the path matches, as the oracle: /v1/calls/search is also /v1/calls/{id}
      const takes = new Set(patterns.filter((p) => p.re.test(path)).map((p) => p.method as string));
      if (takes.has('GET')) takes.add('HEAD');
      const allow = ORDER.filter((m) => takes.has(m)).join(', ');
      for (const method of ORDER.filter((m) => !takes.has(m)))
        for (const p of path.startsWith('/v1/') ? [path, `/_sim/inspector${path}`] : [path]) {
          const r = await send(method, p);
          expect(r.status, `${method} ${p}`).toBe(405);
          expect(r.headers.allow, `${method} ${p}`).toBe(allow);
          if (method !== 'HEAD') expect(r.json.error.code, `${method} ${p}`).toBe('method_not_allowed');
          seen.add(p);
          checked++;
        }
    }
    // every path of the table (92), and the inspector's way to each /v1 one, had at least one 405 checked
    expect(paths).toHaveLength(92);
    expect(seen.size).toBe(paths.length + paths.filter((p) => p.startsWith('/v1/')).length);
    expect(checked).toBeGreaterThan(seen.size);
  });

  it("the page's addresses are read only: a write is 405 Allow: GET, HEAD", async () => {
    for (const path of ['/', ...PANES.map((p) => `/${p}`), '/calls/x1'])
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const r = await send(method, path);
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.allow).toBe('GET, HEAD');
      }
  });
});
