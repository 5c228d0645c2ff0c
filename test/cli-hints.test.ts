// Errors name the fix (issue 24, point 2): one table of code → hint (src/hints.ts), a simulator's
// column (commands that change the simulated world) and a service's (what its user would do),
// checked for every code either API description can answer, through the CLI: a stand-in server
// answers each code, as a simulator (its replies name it in Server) and as a service; then the issue's
// cases on both real targets.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HINTS } from '../src/hints.js';
import { takeViolations } from './contract.js';
import { cli, tempDir, useTargets } from './helpers.js';

/** Every error code an API description lists, with a status it is answered with. */
function codesOf(file: string): Map<string, number> {
  const doc = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));
  const out = new Map<string, number>();
  for (const ops of Object.values<any>(doc.paths))
    for (const op of Object.values<any>(ops))
      for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
        const ref: string | undefined = res.content?.['application/json']?.schema?.$ref;
        const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : res;
        for (const code of schema?.properties?.error?.properties?.code?.enum ?? [])
          if (!out.has(code)) out.set(code, Number(status));
      }
  return out;
}

// the API's, the control plane's, and the server's own refusals (before any route: src/http-gate.ts, core/server.ts)
const CODES = new Map([
  ...codesOf('../openapi.json'),
  ...codesOf('../dist/control-openapi.json'),
  ['bad_request', 400],
  ['headers_too_large', 431],
  ['request_timeout', 408],
]);

describe('the hint table', () => {
  it('has a simulator hint and a service hint for every code the API can answer', () => {
    expect(CODES.size).toBeGreaterThan(25);
    for (const code of CODES.keys()) expect(HINTS[code], code).toBeDefined();
  });
});

const messageOf = (code: string) =>
  code === 'forbidden' ? 'This API key lacks the calls:read scope.' : `A ${code} refusal.`;

describe('every code, through the CLI, on a simulator and on a service', () => {
  let server: Server;
  let url: string;
  let simulator = true;
  let code = 'not_found';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const reply = (status: number, body: unknown) => {
        // a simulator names itself in Server, as vmv sim serve does
        const server = simulator ? { server: 'vmv-simulator' } : {};
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_1', ...server });
        res.end(JSON.stringify(body));
      };
      reply(CODES.get(code)!, { error: { code, message: messageOf(code) } });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('prints the column of the target under the error', async () => {
    const env = { VMV_CONFIG_DIR: tempDir(), VMV_BASE_URL: url, VMV_API_KEY: 'sk_test_0001', VMV_RETRIES: '0' };
    for (const asSimulator of [true, false]) {
      simulator = asSimulator;
      for (const c of CODES.keys()) {
        code = c;
        const r = await cli(['contacts', 'list', '--retries', '0'], { env });
        const row = HINTS[c][asSimulator ? 'simulator' : 'service'];
        const expected =
          typeof row === 'string'
            ? row
            : row({
                code: c,
                status: CODES.get(c)!,
                message: messageOf(c),
                simulator: asSimulator,
                target: { kind: 'remote', baseUrl: url, apiKey: 'sk_test_0001', profile: 'default', dataFile: '' },
              });
        expect(r.stderr, `${c} on a ${asSimulator ? 'simulator' : 'service'}`).toContain(
          `(${c}, HTTP ${CODES.get(c)})`,
        );
        // (a function's words may name the message's details: its first words are enough here);
        // where the message says it all (a conflict, a field's explanation), no hint line
        if (expected) expect(r.stderr, c).toContain(expected.slice(0, 30));
        else expect(r.stderr.trim().split('\n'), c).toHaveLength(1);
      }
    }
    // a service has no /_sim, and this stand-in's replies are not the API's: the contract check saw them
    await takeViolations();
  });

  it('tells a simulator from a service apart in the words', () => {
    expect(HINTS.insufficient_funds.simulator).toContain('vmv sim wallet --set 50');
    expect(HINTS.insufficient_funds.service).not.toContain('vmv sim');
    expect(HINTS.shared_pool_exhausted.simulator).toMatch(/vmv sim advance 1d.*vmv sim pool/);
  });
});

describe("the issue's cases on both targets", () => {
  const { both } = useTargets({ resetEach: true });

  it('caller_id_not_verified names vmv sim caller-id with the number sent', async () => {
    const r = await both(['calls', 'place', '--caller-id', '+14155550999', '--to', '+14155550100']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('vmv sim caller-id +14155550999');
  });

  it('an empty wallet names vmv sim wallet --set 50 or auto-recharge', async () => {
    await both(['sim', 'wallet', '--set', '0']);
    const r = await both(['email', 'send', '--to', 'a@example.com', '--subject', 's', '--body', 'b']);
    expect(r.stderr).toContain('(insufficient_funds, HTTP 403)');
    expect(r.stderr).toContain('vmv sim wallet --set 50 (or let it top up: vmv sim wallet --auto-recharge on)');
  });

  it('shared_pool_exhausted names vmv sim advance 1d or vmv sim pool', async () => {
    await both(['sim', 'pool', '--fill', 'calls']);
    const r = await both(['quick', 'call', '+14155550100', '--goal', 'x']);
    expect(r.stderr).toContain('(shared_pool_exhausted, HTTP 409)');
    expect(r.stderr).toContain('vmv sim advance 1d');
    expect(r.stderr).toContain('vmv sim pool');
  });

  it('plan_not_included names vmv sim workspace set --content on (or --assistant on)', async () => {
    await both(['sim', 'workspace', 'set', '--content', 'off', '--assistant', 'off']);
    expect((await both(['videos', 'list'])).stderr).toContain('vmv sim workspace set --content on');
    expect((await both(['assistant', 'list'])).stderr).toContain('vmv sim workspace set --assistant on');
  });

  it('a manual clock that holds a job says --advance or vmv sim advance', async () => {
    const r = await both(['quick', 'call', '+14155550100', '--goal', 'x', '--wait', '--timeout', '1s']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('the simulator clock is manual');
    expect(r.stderr).toContain('vmv sim advance 1m');
    expect(r.stderr).toContain('with --advance the command moves it itself');
  });
});
