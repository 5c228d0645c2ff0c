// Exit codes and arguments (issue 9): every exit code documented and true, flags checked before any
// request, server field errors named by their flag, config use of a missing profile, vmv help foo.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exchanges } from '../src/client.js';
import { cli, T0, tempDir, useTargets, type CliResult, type Target } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });
const NAMES = ['embedded', 'remote'] as const;

/** Every request the CLI's client completes while `f` runs (both targets go through the one client). */
async function requestsDuring<T>(f: () => Promise<T>): Promise<{ result: T; urls: string[] }> {
  const urls: string[] = [];
  const prev = exchanges.observe;
  exchanges.observe = (method, url, res) => {
    urls.push(`${method} ${url}`);
    prev?.(method, url, res);
  };
  try {
    return { result: await f(), urls };
  } finally {
    exchanges.observe = prev;
  }
}

/** Runs a waiting command while advancing the simulator clock until it returns. */
async function whileAdvancing(t: Target, args: string[]): Promise<CliResult> {
  let done = false;
  const p = t.run(args).finally(() => (done = true));
  for (let i = 0; i < 5000 && !done; i++) {
    await t.run(['sim', 'advance', '10']);
    await new Promise((r) => setImmediate(r));
  }
  return p;
}

const CODES = ['0', '1', '2', '3', '4', '5', '6', '7', '130'];

describe('the exit-code table', () => {
  it('vmv --help lists every exit code', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    const table = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
    for (const c of CODES) expect(table).toMatch(new RegExp(`^  ${c} +\\S`, 'm'));
    expect(table).toContain('--wait ran out of --timeout');
    expect(table).toContain('confirmation was declined');
    expect(table).toContain('interrupted (Ctrl-C)');
  });

  it('the scripting guide has the same codes', () => {
    const guide = readFileSync(new URL('../docs/scripting.md', import.meta.url), 'utf8');
    for (const c of CODES) expect(guide).toMatch(new RegExp(`^\\| ${c} \\| \\S`, 'm'));
  });
});

describe('each exit code', () => {
  it('0 ok, 1 API error, 2 usage, 3 authentication', async () => {
    expect((await both(['contacts', 'list'])).code).toBe(0);
    const notFound = await both(['history', 'call', '00000000-0000-4000-8000-000000000000']);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toContain('HTTP 404');
    expect((await both(['contacts', 'list', '--limitt', '3'])).code).toBe(2);
    // (run on each target: the hint names the target that refused the key)
    for (const t of Object.values(targets)) {
      const auth = await t.run(['contacts', 'list', '--api-key', 'sk_sim_not_a_real_key_0000']);
      expect(auth.code).toBe(3);
      expect(auth.stderr).toContain('HTTP 401');
    }
  });

  it('4 network', async () => {
    const r = await cli(['contacts', 'list'], {
      env: { VMV_BASE_URL: 'http://127.0.0.1:1', VMV_API_KEY: 'sk_x', VMV_CONFIG_DIR: join(tempDir(), 'c') },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Could not reach http://127.0.0.1:1');
  });

  for (const name of NAMES) {
    describe(name, () => {
      it('5: calls place --wait that ends FAILED, BUSY or NO_ANSWER; 0 when COMPLETED', async () => {
        const t = targets[name];
        expect((await t.run(['sim', 'caller-id', '+14155550100'])).code).toBe(0);
        const failed = await whileAdvancing(t, [
          'calls',
          'place',
          '--caller-id',
          '+14155550100',
          '--to',
          '+12025550106',
          '--wait',
        ]);
        expect(failed.code).toBe(5);
        expect(failed.stdout).toContain('status\tFAILED');
        expect(failed.stderr).toMatch(/error: Call [0-9a-f-]{36} ended FAILED \(SIP 503/);
        const busy = await whileAdvancing(t, [
          'calls',
          'place',
          '--caller-id',
          '+14155550100',
          '--to',
          '+12025550104',
          '--wait',
          '--json',
        ]);
        expect(busy.code).toBe(5);
        expect(busy.json.data.status).toBe('BUSY');
        expect(
          (await whileAdvancing(t, ['calls', 'place', '--caller-id', '+14155550100', '--to', '+12025550102', '--wait']))
            .code,
        ).toBe(5);
        const ok = await whileAdvancing(t, [
          'calls',
          'place',
          '--caller-id',
          '+14155550100',
          '--to',
          '+12025550100',
          '--wait',
        ]);
        expect(ok.code).toBe(0);
        expect(ok.stdout).toContain('status\tCOMPLETED');
      });

      it('5: quick call --wait with a target that failed; no answer is an outcome, exit 0', async () => {
        const r = await whileAdvancing(targets[name], [
          'quick',
          'call',
          '+12025550106',
          '--goal',
          'x',
          '--retry-attempts',
          '0',
          '--wait',
        ]);
        expect(r.code).toBe(5);
        expect(r.stderr).toContain('1 of 1 targets failed');
        const unanswered = await whileAdvancing(targets[name], [
          'quick',
          'call',
          '+12025550102',
          '--goal',
          'x',
          '--retry-attempts',
          '0',
          '--wait',
        ]);
        expect(unanswered.code).toBe(0);
      });

      it('1: webhooks test to a receiver that is down, with the error on stderr', async () => {
        const t = targets[name];
        const port = await closedPort();
        const id = (await t.run(['webhooks', 'create', '--url', `http://127.0.0.1:${port}/hooks`, '--json'])).json.data
          .id;
        const r = await t.run(['webhooks', 'test', id]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('error: Not delivered: ECONNREFUSED');
        // with --json the error is one JSON document on stderr, same exit code
        const j = await t.run(['webhooks', 'test', id, '--json']);
        expect(j.code).toBe(1);
        expect(JSON.parse(j.stderr).error.message).toMatch(/^Not delivered: ECONNREFUSED/);
      });

      it('1: webhooks test answered non-2xx; 0 when delivered', async () => {
        const t = targets[name];
        let status = 503;
        const rx = await listen((_req, res) => res.writeHead(status).end());
        try {
          const id = (await t.run(['webhooks', 'create', '--url', `${rx.url}/hooks`, '--json'])).json.data.id;
          const bad = await t.run(['webhooks', 'test', id]);
          expect(bad.code).toBe(1);
          expect(bad.stderr).toContain('error: Not delivered: HTTP 503');
          status = 204;
          const good = await t.run(['webhooks', 'test', id]);
          expect(good.code).toBe(0);
          expect(good.stderr).toContain('Delivered: HTTP 204');
        } finally {
          rx.server.close();
        }
      });
    });
  }
});

describe('flags are checked before any request: exit 2 naming the flag', () => {
  const cases: [string[], string][] = [
    [
      ['calls', 'place', '--caller-id', '+14155550100', '--to', '12025550106'],
      '--to must be an E.164 phone number such as +14155550100, got "12025550106"',
    ],
    [
      ['calls', 'place', '--caller-id', '4155550100', '--to', '+12025550106'],
      '--caller-id must be an E.164 phone number',
    ],
    [
      ['quick', 'call', '+12025550100', '202555', '--goal', 'x'],
      '<numbers...> must be an E.164 phone number such as +14155550100, got "202555"',
    ],
    [['quick', 'text', 'ada', '--goal', 'x'], '<numbers...> must be an E.164 phone number'],
    [['sim', 'text', '--from', '555', '--to', '+14155550150', '--body', 'hi'], '--from must be an E.164 phone number'],
    [['sim', 'call', '--from', '+12025550100', '--to', 'x'], '--to must be an E.164 phone number'],
    [['sim', 'contact', '--name', 'Ada', '--phone', '123'], '--phone must be an E.164 phone number'],
    [['sim', 'number', '--stack', 't1', '--phone', '+0123'], '--phone must be an E.164 phone number'],
    [['sim', 'caller-id', '12'], '<number> must be an E.164 phone number'],
    [['history', 'calls', '--phone', '555-0100'], '--phone must be an E.164 phone number'],
    [['history', 'texts', '--phone', 'ada'], '--phone must be an E.164 phone number'],
    [
      ['history', 'calls', '--after', 'soon'],
      '--after takes an ISO 8601 time with Z or an offset (2026-01-31T09:00:00Z) or a date (2026-01-31), or a time ago: 30m, 24h, 7d, today, yesterday; got "soon"',
    ],
    [['history', 'texts', '--before', '2026-01-05T09:00'], '--before takes an ISO 8601 time'],
    [['history', 'emails', '--email', 'a@example.com', '--after', '2026-02-30'], '--after takes an ISO 8601 time'],
    [['history', 'calls', '--after', '5'], '--after takes an ISO 8601 time'],
    [
      ['sim', 'reset', '--now', '24h'],
      '--now takes an ISO 8601 time with Z or an offset (2026-01-31T09:00:00Z) or a date (2026-01-31); got "24h"',
    ],
    [['sim', 'clock', '--set', 'yesterday'], '--set takes an ISO 8601 time'],
    [['quick', 'number', '--area-code', '41'], '--area-code must be a 3-digit area code such as 415, got "41"'],
    [['numbers', 'search', '--area-code', '4155'], '--area-code must be a 3-digit area code'],
    [
      ['history', 'calls', '--status', 'done'],
      '--status takes one of completed, voicemail, failed, busy, canceled, in_progress, ringing, queued; got "done"',
    ],
    [['history', 'texts', '--direction', 'up'], '--direction takes one of inbound, outbound; got "up"'],
    [['numbers', 'search', '--type', 'cheap'], '--type takes one of local, tollFree, mobile, national; got "cheap"'],
    [['sim', 'number', '--stack', 't3'], '--stack takes one of t1, t2; got "t3"'],
    [['numbers', 'config', 'get', '1', '--section', 'nope'], '--section takes one of name, is_active,'],
    [
      ['sim', 'suppress', 'a@example.com', '--reason', 'spam'],
      '--reason takes one of unsubscribe, bounce, complaint; got "spam"',
    ],
    [['sim', 'pool', '--fill', 'emails'], '--fill takes one of calls, texts; got "emails"'],
    [['sim', 'reset', '--clock', 'fast'], '--clock takes one of real, manual; got "fast"'],
    [
      ['webhooks', 'create', '--url', 'https://example.com', '--events', 'call.started,call.answered'],
      '--events takes one of call.started, call.ended; got "call.answered"',
    ],
    // a variable not set in a help example's "$JOB": refused, not a 404 for a route with no id
    [['quick', 'status', '', '--watch'], 'ID is empty: give one (in a script, a "$VARIABLE" that is not set'],
    [['history', 'call', ' '], 'ID is empty'],
    [['videos', 'get', ''], 'ID is empty'],
    [['sim', 'outbox', ''], 'ID is empty'],
  ];
  for (const name of NAMES) {
    it(`${name}: each bad value`, async () => {
      const t = targets[name];
      for (const [args, message] of cases) {
        const { result, urls } = await requestsDuring(() => t.run(args));
        expect({ args, code: result.code, urls }).toEqual({ args, code: 2, urls: [] });
        expect(result.stderr, args.join(' ')).toContain(`error: ${message}`);
        expect(result.stdout).toBe('');
      }
      // and nothing was created
      expect((await t.run(['history', 'calls', '--json'])).json.data).toEqual([]);
      expect((await t.run(['contacts', 'list', '--json'])).json.data.map((c: any) => c.name)).not.toContain('Ada');
    });
  }

  it('values in another accepted form: a spaced number, any letter case', async () => {
    await both(['sim', 'caller-id', '+1 (415) 555-0100']);
    const r = await both(['calls', 'place', '--caller-id', '+14155550100', '--to', '+1 202-555-0100', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.data.to_number).toBe('+12025550100');
    expect(
      (await both(['history', 'calls', '--status', 'RINGING', '--direction', 'Outbound', '--json'])).json.data,
    ).toHaveLength(1);
    expect((await both(['numbers', 'search', '--type', 'tollfree', '--limit', '1'])).code).toBe(0);
  });
});

describe('times', () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const t0 = Date.parse(T0);
  const localMidnight = (ms: number, days = 0) => {
    const d = new Date(ms);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days).toISOString();
  };
  /** the created_after the CLI sent for `--after VALUE` */
  async function sentAfter(t: Target, value: string, flag = '--after'): Promise<string | null> {
    const { result, urls } = await requestsDuring(() => t.run(['history', 'calls', flag, value, '--json']));
    expect(result.code, result.stderr).toBe(0);
    const list = urls.find((u) => u.startsWith('GET /v1/calls?'))!;
    return new URLSearchParams(list.split('?')[1]).get(flag === '--after' ? 'created_after' : 'created_before');
  }

  for (const name of NAMES) {
    it(`${name}: relative times are resolved against the simulator clock; absolute ones are sent as UTC`, async () => {
      const t = targets[name];
      expect(await sentAfter(t, '24h')).toBe(at(t0 - 86400e3));
      expect(await sentAfter(t, '30m', '--before')).toBe(at(t0 - 1800e3));
      expect(await sentAfter(t, '7d')).toBe(at(t0 - 7 * 86400e3));
      expect(await sentAfter(t, '2w')).toBe(at(t0 - 14 * 86400e3));
      expect(await sentAfter(t, '1h30m')).toBe(at(t0 - 5400e3));
      expect(await sentAfter(t, 'now')).toBe(T0);
      expect(await sentAfter(t, 'today')).toBe(localMidnight(t0));
      expect(await sentAfter(t, 'yesterday')).toBe(localMidnight(t0, -1));
      expect(await sentAfter(t, '2026-01-05T10:00:00+01:00')).toBe(T0);
      expect(await sentAfter(t, '2026-01-03')).toBe(new Date(2026, 0, 3).toISOString());
      await t.run(['sim', 'advance', '2d']);
      expect(await sentAfter(t, '24h')).toBe(at(t0 + 86400e3)); // the simulator's clock moved, not the wall clock
    });
  }

  it('filters records by a relative time on the simulator clock', async () => {
    await both(['sim', 'caller-id', '+14155550100']);
    const id = (await both(['calls', 'place', '--caller-id', '+14155550100', '--to', '+12025550100'])).stdout.trim();
    await both(['sim', 'advance', '2d']);
    const ids = async (...args: string[]) =>
      (await both(['history', 'calls', ...args, '--json'])).json.data.map((c: any) => c.id);
    expect(await ids('--after', '3d')).toEqual([id]);
    expect(await ids('--after', '1d')).toEqual([]);
    expect(await ids('--before', '1d')).toEqual([id]);
    expect(await ids('--after', 'today')).toEqual([]);
  });

  it("on a real service (no /_sim/clock) relative times use this machine's clock", async () => {
    const seen: string[] = [];
    const api = await listen((req, res) => {
      seen.push(req.url!);
      if (req.url!.startsWith('/v1/calls'))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"meta":{"has_more":false}}');
      else
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"code":"not_found","message":"Not found."}}');
    });
    const prev = exchanges.observe;
    exchanges.observe = undefined; // not the simulator: its replies are not checked against the description
    try {
      const before = Date.now();
      const r = await cli(['history', 'calls', '--after', '24h', '--json'], {
        env: { VMV_BASE_URL: api.url, VMV_API_KEY: 'sk_x', VMV_CONFIG_DIR: join(tempDir(), 'c') },
      });
      expect(r.code).toBe(0);
      expect(seen[0]).toBe('/_sim/clock');
      const sent = Date.parse(new URLSearchParams(seen[1].split('?')[1]).get('created_after')!);
      expect(sent).toBeGreaterThanOrEqual(before - 86400e3);
      expect(sent).toBeLessThanOrEqual(Date.now() - 86400e3);
    } finally {
      exchanges.observe = prev;
      api.server.close();
    }
  });
});

describe('a simulator whose clock cannot be read: relative times stop the command, never the machine clock', () => {
  /** `history calls --after 24h` against a server whose GET /_sim/clock answers as `clock` says */
  async function afterDay(clock: (res: import('node:http').ServerResponse) => void) {
    const seen: string[] = [];
    const api = await listen((req, res) => {
      seen.push(req.url!);
      if (req.url!.startsWith('/v1/calls'))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"meta":{"has_more":false}}');
      else clock(res);
    });
    const prev = exchanges.observe;
    exchanges.observe = undefined; // a stand-in: its replies are not checked against the description
    try {
      const r = await cli(['history', 'calls', '--after', '24h'], {
        env: { VMV_BASE_URL: api.url, VMV_API_KEY: 'sk_x', VMV_CONFIG_DIR: join(tempDir(), 'c'), NO_COLOR: '1' },
      });
      return { ...r, seen };
    } finally {
      exchanges.observe = prev;
      api.server.close();
    }
  }
  const busy = '{"error":{"code":"store_busy","message":"The data file is busy; retry the request."}}';

  it("the simulator's own error (named by its Server header): exit 1, naming the clock; the list is not asked", async () => {
    const r = await afterDay((res) =>
      res.writeHead(503, { 'content-type': 'application/json', server: 'vmv-simulator' }).end(busy),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: "24h" counts back from the simulator's clock, which could not be read (GET /_sim/clock answered 503 store_busy: The data file is busy; retry the request.).`,
    );
    expect(r.seen.filter((u) => u.startsWith('/v1/'))).toEqual([]);
  });

  it('a simulator answering 200 without a clock, and an unnamed 502 after the retries, stop it too', async () => {
    const odd = await afterDay((res) => res.writeHead(200, { server: 'vmv-simulator' }).end('{}'));
    expect(odd.code).toBe(1);
    expect(odd.stderr).toContain('answered a reply that holds no clock');
    const gateway = await afterDay((res) => res.writeHead(502).end('<h1>Bad gateway</h1>'));
    expect(gateway.code).toBe(1);
    expect(gateway.stderr).toContain(
      "counts back from the target's clock, which could not be read (GET /_sim/clock answered 502 http_502",
    );
    expect(gateway.seen).toEqual(['/_sim/clock', '/_sim/clock', '/_sim/clock']);
  });

  it('a reply lost on the way: exit 4, as any failed request', async () => {
    const r = await afterDay((res) => res.socket!.destroy());
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('was lost after the request was sent');
    expect(r.seen.filter((u) => u.startsWith('/v1/'))).toEqual([]);
  });
});

describe('a server-side validation error names the flag its field came from', () => {
  it('a body field of a flag, and an item of the numbers argument', async () => {
    const r = await both(['calls', 'place', '--caller-id', '+14155550199', '--to', '+12025550100']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '(caller_id_not_verified, HTTP 422)\n  --caller-id (caller_id): is not a verified caller ID of this account\n',
    );
    const dup = await both(['quick', 'call', '+12025550100', '+12025550100', '--goal', 'x']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('  <numbers...> (to_numbers[1]): repeats to_numbers[0]\n');
    const subject = await both(['email', 'send', '--to', 'a@example.com', '--subject', 'x'.repeat(201), '--body', 'y']);
    expect(subject.stderr).toContain('  --subject (subject): must be at most 200 characters (got 201)\n');
  });

  it('a field with no flag keeps its own name', async () => {
    const r = await both(['api', 'POST', '/v1/voice/calls', '-f', 'caller_id=x']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toContain('--caller-id');
  });
});

describe('config use', () => {
  const env = () => ({ VMV_CONFIG_DIR: join(tempDir(), 'config'), VMV_SIM_DATA: join(tempDir(), 'sim.json') });

  it('of a profile that does not exist is a usage error listing the profiles; nothing changes', async () => {
    const e = env();
    await cli(['config', 'set', 'base_url', 'http://127.0.0.1:9', '--profile', 'staging'], { env: e });
    const r = await cli(['config', 'use', 'stagin'], { env: e });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: No profile named "stagin". Profiles: default, staging.');
    expect(r.stderr).toContain('vmv config set base_url URL --profile stagin');
    expect((await cli(['config', 'get', '--json'], { env: e })).json.profile).toBe('default');
    expect((await cli(['config', 'use', 'staging'], { env: e })).code).toBe(0);
    expect((await cli(['config', 'use', 'default'], { env: e })).code).toBe(0); // always there
    expect((await cli(['config', 'use', 'default'], { env: env() })).code).toBe(0); // even with no settings file
  });
});

describe('help and required options', () => {
  it('vmv help foo is an error with a suggestion', async () => {
    const foo = await cli(['help', 'foo']);
    expect(foo.code).toBe(2);
    expect(foo.stdout).toBe('');
    expect(foo.stderr).toBe(
      "error: unknown command 'foo'\n(Commands: quick, email, videos, schedules, assistant, posts, social, numbers, calls, history, contacts, webhooks, sim, config, status, mcp, api, completion)\n",
    );
    const typo = await cli(['help', 'quik']);
    expect(typo).toMatchObject({ code: 2, stderr: "error: unknown command 'quik'\n(Did you mean quick?)\n" });
    expect(await cli(['quick', 'help', 'cal'])).toMatchObject({
      code: 2,
      stderr: "error: unknown command 'cal'\n(Did you mean call?)\n",
    });
    expect(await cli(['help', 'numbers', 'confg'])).toMatchObject({
      code: 2,
      stderr: "error: unknown command 'confg'\n(Did you mean config?)\n",
    });
    expect((await cli(['help', 'quick'])).code).toBe(0);
    expect((await cli(['quick', 'help', 'call'])).stdout).toContain('Usage: vmv quick call');
  });

  it('a missing required option: a mistyped flag is named with the closest one; else every missing one', async () => {
    const typo = await cli(['calls', 'place', '--caller-idd', '+14155550100', '--to', '+12025550100']);
    expect(typo).toMatchObject({
      code: 2,
      stderr: "error: unknown option '--caller-idd'\n(Did you mean --caller-id?)\n",
    });
    const other = await cli(['calls', 'place', '--caller-id', '+14155550100', '--destination', '+12025550100']);
    expect(other).toMatchObject({
      code: 2,
      stderr: "error: required option '--to <number>' not specified\n(Did you mean --to instead of --destination?)\n",
    });
    const none = await cli(['calls', 'place']);
    expect(none).toMatchObject({
      code: 2,
      stderr: "error: required options '--caller-id <number>', '--to <number>' not specified\n",
    });
    expect(await cli(['sim', 'text', '--from', '+12025550100', '--to', '+14155550150', '--bodyy', 'hi'])).toMatchObject(
      { code: 2, stderr: "error: unknown option '--bodyy'\n(Did you mean --body?)\n" },
    );
  });
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function closedPort(): Promise<number> {
  const { server } = await listen(() => {});
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('help topics and flag names, a level deeper', () => {
  it("vmv help quick call shows the leaf command's help", async () => {
    const r = await cli(['help', 'quick', 'call']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: vmv quick call /);
  });

  it("a repeatable flag's server error names the flag (--tag for tags[0]); scopes and countries are checked locally", async () => {
    const dir = tempDir();
    const env = { VMV_SIM_DATA: join(dir, 'sim.json'), VMV_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1' };
    const r = await cli(['sim', 'contact', '--name', 'Z', '--tag', ''], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--tag (tags[0]): must not be empty');
    const scope = await cli(['sim', 'key', '--scope', 'bogus'], { env });
    expect(scope).toMatchObject({ code: 2, stderr: expect.stringContaining('--scope takes one of videos:read') });
    const country = await cli(['numbers', 'search', '--country', 'USA'], { env });
    expect(country).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--country takes a 2-letter country code'),
    });
  });
});
