// Many waits on one world (issue 20, item 4): `vmv … --wait --advance` run in parallel on one manual
// clock, embedded (separate processes on one data file) and through `vmv sim serve`; the control
// plane's at-least move that makes it safe; a 5xx on the clock is the error it is, not "not a
// simulator"; and a wait that an error ends still prints what continues (its id), once.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cli, makeTarget, startSim, T0, tempDir, type Sim, type Target } from './helpers.js';

/** Goal, not interested, rings out, voicemail, call back later; without retries, one placed call each. */
const NUMBERS = ['+14155550100', '+14155550101', '+14155550102', '+14155550103', '+14155550107'];
const ROUNDS = 3;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** bin/vmv as its own process (each one opens the data file itself, as parallel shells would). */
function vmv(args: string[], env: Record<string, string>): Promise<Run> {
  const p = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH!, HOME: env.VMV_CONFIG_DIR, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  p.stdout!.on('data', (d) => (stdout += d));
  p.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => p.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** A `sim serve` of the describe block's own, reset to its seeded state before each test. */
function useSim(): Pick<Sim, 'url' | 'key' | 'api'> {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.stop());
  beforeEach(() => sim.reset());
  return {
    get url() {
      return sim.url;
    },
    get key() {
      return sim.key;
    },
    api: (...a) => sim.api(...a),
  };
}

/**
 * A proxy in front of a `sim serve` that answers what `fault` says instead of forwarding: a status
 * (with the simulator's error envelope) or 'drop' (the connection closed without a reply).
 */
async function proxy(
  sim: { url: string },
  fault: (method: string, path: string, body: string) => number | 'drop' | null,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    seen.push(`${req.method} ${req.url}`);
    const f = fault(req.method!, req.url!, body);
    if (f === 'drop') return req.socket.destroy();
    if (f !== null) {
      res.writeHead(f, { 'content-type': 'application/json', 'request-id': 'req_proxy' });
      const error =
        f === 400
          ? {
              code: 'validation_error',
              message: 'The request is invalid.',
              fields: { at_least: 'is not a known field' },
            }
          : { code: f === 503 ? 'store_busy' : 'internal_error', message: 'The data file is busy; retry the request.' };
      return res.end(JSON.stringify({ error }));
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    const up = await fetch(sim.url + req.url, { method: req.method, headers, body: body || undefined });
    res.writeHead(
      up.status,
      Object.fromEntries(
        [...up.headers].filter(
          ([k]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k),
        ),
      ),
    );
    res.end(Buffer.from(await up.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('POST /_sim/clock {now, at_least: true}', () => {
  const sim = useSim();

  it('moves the clock forward as now alone does; behind the clock it succeeds and leaves the clock where it is, while now alone is still refused', async () => {
    const at = await sim.api('POST', '/_sim/clock', { body: { now: '2026-01-05T10:00:00+01:00', at_least: true } }); // 09:00Z: where it is
    expect([at.status, at.json.now]).toEqual([200, T0]);
    const moved = await sim.api('POST', '/_sim/clock', { body: { now: '2026-01-05T09:30:00Z', at_least: true } });
    expect([moved.status, moved.json.now]).toEqual([200, '2026-01-05T09:30:00.000Z']);
    const behind = await sim.api('POST', '/_sim/clock', {
      body: { now: '2026-01-05T09:10:00Z', at_least: true, mode: 'manual' },
    });
    expect(behind.status).toBe(200);
    expect(behind.json).toMatchObject({ now: '2026-01-05T09:30:00.000Z', mode: 'manual' });
    for (const body of [{ now: '2026-01-05T09:10:00Z' }, { now: '2026-01-05T09:10:00Z', at_least: false }]) {
      const refused = await sim.api('POST', '/_sim/clock', { body });
      expect(refused.status).toBe(400);
      expect(refused.json.error.fields).toEqual({ now: 'cannot move the clock backwards' });
    }
    const alone = await sim.api('POST', '/_sim/clock', { body: { at_least: true } });
    expect([alone.status, alone.json.error.fields]).toEqual([
      400,
      { at_least: 'goes with now: the least time wanted' },
    ]);
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
    expect(schema.properties.at_least).toMatchObject({
      type: 'boolean',
      description: expect.stringMatching(
        /^`now` is the least time wanted: a clock already there or past it stays where it is/,
      ),
    });
    expect(body.example).toMatchObject({ now: expect.any(String), at_least: true });
  });

  it('vmv sim clock --at-least: moves forward, or leaves a clock already past', async () => {
    const env = { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key, VMV_CONFIG_DIR: tempDir(), NO_COLOR: '1' };
    expect((await cli(['sim', 'clock', '--at-least', '2026-01-05T09:05:00Z', '--json'], { env })).json.now).toBe(
      '2026-01-05T09:05:00.000Z',
    );
    expect((await cli(['sim', 'clock', '--at-least', '2026-01-05T09:01:00Z', '--json'], { env })).json.now).toBe(
      '2026-01-05T09:05:00.000Z',
    );
    const set = await cli(['sim', 'clock', '--set', '2026-01-05T09:01:00Z'], { env });
    expect(set.code).toBe(1);
    expect(set.stderr).toContain('cannot move the clock backwards');
    const twice = await cli(['sim', 'clock', '--set', '2026-01-05T09:06:00Z', '--at-least', '2026-01-05T09:06:00Z'], {
      env,
    });
    expect([twice.code, twice.stderr]).toEqual([2, 'error: Give --set or --at-least, not both.\n']);
  });
});

describe('parallel --wait --advance on one manual clock', () => {
  const targets: Target[] = [];
  beforeAll(async () => {
    targets.push(await makeTarget('embedded'), await makeTarget('remote'));
    for (const t of targets) await t.reset();
  });
  afterAll(async () => {
    for (const t of targets) await t.close();
  });

  for (const [i, label] of ['embedded (one data file)', 'through sim serve'].entries()) {
    it(`${label}: ${NUMBERS.length} at once, ${ROUNDS} rounds: every one completes its job, each charged one placed call`, async () => {
      const t = targets[i];
      const ids: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const runs = await Promise.all(
          NUMBERS.map((n) =>
            vmv(
              [
                'quick',
                'call',
                n,
                '--goal',
                'Confirm Tuesday',
                '--retry-attempts',
                '0',
                '--wait',
                '--advance',
                '--json',
              ],
              t.env,
            ),
          ),
        );
        for (const r of runs) {
          expect(r.code, r.stderr).toBe(0);
          const job = JSON.parse(r.stdout).data;
          expect(job.status).toBe('completed');
          expect(job.targets[0].attempts).toBe(1);
          ids.push(job.id);
        }
      }
      expect(new Set(ids).size).toBe(NUMBERS.length * ROUNDS);
      const ledger = (await t.run(['api', '/_sim/ledger', '--paginate'])).json as {
        kind: string;
        reference_id: string;
        description: string;
      }[];
      const fees = ledger.filter((e) => e.kind === 'quick_call' && e.description.endsWith('the placed-call fee'));
      expect(fees).toHaveLength(ids.length);
      for (const id of ids)
        expect(
          fees.filter((e) => e.reference_id === id),
          id,
        ).toHaveLength(1);
    }, 120_000);
  }
});

describe('parallel --wait --advance on a simulator from before at_least', () => {
  const sim = useSim();

  it('each command falls back to now, and reads its refusal to go backwards as another having moved the clock first', async () => {
    // the older simulator: POST /_sim/clock knows no at_least field
    const old = await proxy(sim, (m, path, body) =>
      m === 'POST' && path === '/_sim/clock' && 'at_least' in JSON.parse(body) ? 400 : null,
    );
    try {
      const env = { VMV_BASE_URL: old.url, VMV_API_KEY: sim.key, VMV_CONFIG_DIR: tempDir(), NO_COLOR: '1' };
      const runs = await Promise.all(
        NUMBERS.map((n) =>
          vmv(['quick', 'call', n, '--goal', 'x', '--retry-attempts', '0', '--wait', '--advance', '--json'], env),
        ),
      );
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).data.status).toBe('completed');
      }
      expect(old.seen.filter((x) => x === 'POST /_sim/clock').length).toBeGreaterThan(NUMBERS.length);
    } finally {
      await old.close();
    }
  }, 60_000);
});

describe('errors during --wait --advance', () => {
  const sim = useSim();

  const envOf = (url: string) => ({
    VMV_BASE_URL: url,
    VMV_API_KEY: sim.key,
    VMV_CONFIG_DIR: tempDir(),
    NO_COLOR: '1',
    VMV_POLL_MS: '5',
  });
  const started = async () =>
    (await sim.api('GET', '/_sim/ledger')).json.data.filter((e: { kind: string }) => e.kind === 'quick_call').length;

  it('a 5xx on GET /_sim/clock is the API error it is (exit 1), not "not a simulator" (exit 2); nothing is started', async () => {
    const p = await proxy(sim, (m, path) => (m === 'GET' && path === '/_sim/clock' ? 503 : null));
    try {
      const r = await cli(['quick', 'call', '+14155550100', '--goal', 'x', '--wait', '--advance'], {
        env: envOf(p.url),
      });
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain('not a simulator');
      expect(r.stderr).toContain('error: The data file is busy; retry the request. (store_busy, HTTP 503)');
      expect(r.stdout).toBe('');
      expect(p.seen.every((x) => x === 'GET /_sim/clock')).toBe(true);
      expect(await started()).toBe(0);
    } finally {
      await p.close();
    }
  });

  it('a transient 503 on GET /_sim/clock is never "not a simulator"', async () => {
    let failed = 0;
    const p = await proxy(sim, (m, path) => (m === 'GET' && path === '/_sim/clock' && failed++ === 0 ? 503 : null));
    try {
      const r = await cli(['quick', 'call', '+14155550100', '--goal', 'x', '--wait', '--advance'], {
        env: envOf(p.url),
      });
      expect(r.stderr).not.toContain('not a simulator');
      // a read: the client sends it again, and the wait goes on to the end
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Retrying GET /_sim/clock');
    } finally {
      await p.close();
    }
  });

  it("an API error while the clock moves: the job's id alone on stdout (in the envelope with --json), the error, and how to follow it", async () => {
    const p = await proxy(sim, (m, path) => (m === 'POST' && path === '/_sim/clock' ? 503 : null));
    try {
      const r = await cli(['quick', 'call', '+14155550100', '--goal', 'x', '--wait', '--advance'], {
        env: envOf(p.url),
      });
      expect(r.code).toBe(1);
      const id = r.stdout.trim();
      expect(r.stdout).toBe(`${id}\n`);
      // moving the clock to at least a time is sent again as a read is (twice), then the error is the API's
      expect(r.stderr.match(/^Retrying POST \/_sim\/clock in \d+ ms \(HTTP 503; retry \d of 2\)$/gm)).toHaveLength(2);
      expect(r.stderr).toContain(
        `error: The data file is busy; retry the request. (store_busy, HTTP 503)\nStopped waiting; job ${id} continues. Follow it: vmv quick status ${id} --watch\n`,
      );
      expect(r.stderr).not.toContain('may have been applied');
      expect((await sim.api('GET', `/v1/quick/actions/${id}`)).json.data.status).toBe('running');
      const j = await cli(['quick', 'call', '+14155550100', '--goal', 'x', '--wait', '--advance', '--json'], {
        env: envOf(p.url),
      });
      expect([j.code, j.stdout]).toEqual([1, '']);
      const envelope = JSON.parse(j.stderr);
      expect(envelope.error).toMatchObject({ code: 'store_busy', id: expect.any(String) });
      expect((await sim.api('GET', `/v1/quick/actions/${envelope.error.id}`)).status).toBe(200);
    } finally {
      await p.close();
    }
  });

  it("the network gone while polling: exit 4, the id once, and how to follow it (calls place --wait prints the call's)", async () => {
    let reads = 0;
    const p = await proxy(sim, (m, path) =>
      m === 'GET' && path.startsWith('/v1/calls/') && ++reads > 1 ? 'drop' : null,
    );
    try {
      expect((await cli(['sim', 'caller-id', '+12025550199'], { env: envOf(p.url) })).code).toBe(0);
      const r = await cli(
        ['calls', 'place', '--caller-id', '+12025550199', '--to', '+12025550100', '--wait', '--advance'],
        { env: envOf(p.url) },
      );
      expect(r.code).toBe(4);
      const id = r.stdout.trim();
      expect(r.stdout).toBe(`${id}\n`);
      expect(r.stderr).toContain(
        `error: The connection to ${p.url} was lost after the request was sent (UND_ERR_SOCKET; 3 attempts).`,
      );
      expect(r.stderr).toContain(`Stopped waiting; call ${id} continues. See it: vmv history call ${id}\n`);
      const j = await cli(
        ['calls', 'place', '--caller-id', '+12025550199', '--to', '+12025550100', '--wait', '--advance', '--json'],
        { env: envOf(p.url) },
      );
      expect(j.code).toBe(4);
      expect(JSON.parse(j.stderr).error).toMatchObject({
        code: 'network_error',
        id: expect.any(String),
        hint: expect.stringContaining('See it: vmv history call'),
      });
    } finally {
      await p.close();
    }
  });

  it("the assistant: an error while its run is followed prints the conversation's id", async () => {
    const p = await proxy(sim, (m, path) =>
      m === 'GET' && path.startsWith('/v1/assistant/conversations/') ? 500 : null,
    );
    try {
      const r = await cli(['assistant', 'send', 'how many calls did we get yesterday?', '--advance'], {
        env: envOf(p.url),
      });
      expect(r.code).toBe(1);
      const id = r.stdout.trim();
      expect(r.stdout).toBe(`${id}\n`);
      expect(r.stderr).toContain(
        `Stopped waiting; the assistant's run in conversation ${id} continues. See it: vmv assistant get ${id}\n`,
      );
    } finally {
      await p.close();
    }
  });
});
