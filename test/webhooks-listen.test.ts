// `vmv webhooks listen` as a user runs it: bin/vmv in a child process, against a `vmv sim serve`
// (or the embedded simulator) on a manual clock, with a local server to forward to (issue 5).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { bufferIO } from '../src/io.js';
import { BIN, cli, rawHttp, request, startSim, tempDir, type Sim } from './helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

/** The lines a stream has printed so far, and a way to wait for the next one that matches. */
class Lines {
  readonly all: string[] = [];
  /** next() looks at lines from here on: each match moves it past the line matched */
  private cursor = 0;
  private waiter: { re: RegExp; resolve: (l: string) => void } | null = null;
  constructor(stream: Readable) {
    createInterface({ input: stream }).on('line', (l) => {
      this.all.push(l);
      if (this.waiter?.re.test(l)) {
        const { resolve } = this.waiter;
        this.waiter = null;
        this.cursor = this.all.length;
        resolve(l);
      }
    });
  }
  /** the first line after the last match (already printed or still to come) matching `re` */
  next(re: RegExp): Promise<string> {
    const i = this.all.findIndex((l, j) => j >= this.cursor && re.test(l));
    if (i >= 0) {
      this.cursor = i + 1;
      return Promise.resolve(this.all[i]);
    }
    return new Promise((resolve) => (this.waiter = { re, resolve }));
  }
  find(re: RegExp): string | undefined {
    return this.all.find((l) => re.test(l));
  }
}

interface Listen {
  proc: ChildProcess;
  out: Lines;
  err: Lines;
  exited: Promise<number | null>;
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

function listen(args: string[], env: Record<string, string>): Listen {
  const proc = spawn(process.execPath, [BIN, 'webhooks', 'listen', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH!, HOME: tempDir(), NO_COLOR: '1', ...env },
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const l: Listen = {
    proc,
    out: new Lines(proc.stdout!),
    err: new Lines(proc.stderr!),
    exited,
    stop: (signal) => (proc.kill(signal), exited),
  };
  running.push(l);
  return l;
}

const running: Listen[] = [];
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const l of running.splice(0))
    if (l.proc.exitCode === null && l.proc.signalCode === null) await l.stop('SIGKILL');
  for (const c of cleanup.splice(0)) await c();
});

const CALLS = '/v1/voice/calls/webhooks';
const TEXTS = '/v1/sms/webhooks';
const sign = (body: Buffer | string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

async function started<T extends Sim | Receiver>(x: Promise<T>): Promise<T> {
  const v = await x;
  cleanup.push(() => ('stop' in v ? v.stop() : v.close()));
  return v;
}

/** An embedded simulator on its own data file (manual clock), with a quick AI number ready to be texted. */
async function embeddedWithNumber() {
  const dir = tempDir();
  cleanup.push(async () => (await import('node:fs')).rmSync(dir, { recursive: true, force: true }));
  const env = { VMV_SIM_DATA: join(dir, 'sim.json'), VMV_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1' };
  await cli(['sim', 'reset', '--clock', 'manual', '--now', '2026-01-05T09:00:00Z'], { env });
  const number = (await cli(['quick', 'number', '--area-code', '415', '--json'], { env })).json.data.id;
  await cli(['sim', 'advance', '1m'], { env });
  const phone = (await cli(['quick', 'status', String(number), '--json'], { env })).json.data.phone_number;
  return { dir, env, number, phone };
}

describe('vmv webhooks listen', () => {
  it("against sim serve: forwards a call's events byte for byte, survives the forward target being down, checks signatures, drops duplicates, and removes its webhooks on SIGINT", async () => {
    const sim = await started(startSim());
    const direct = await started(startReceiver()); // an ordinary webhook, to compare the bytes with
    await sim.api('POST', CALLS, { body: { url: `${direct.url}/direct` } });
    let forward = await started(startReceiver());
    const port = forward.port;

    const l = listen(
      ['--forward-to', `${forward.url}/in`, '--print-secret', '--base-url', sim.url, '--api-key', sim.key],
      { VMV_CONFIG_DIR: join(tempDir(), 'cfg') },
    );
    const ready = await l.err.next(/^Ready: receiving events at /);
    const listenUrl = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(ready)![1];
    const callHook = /^Registered call webhook (\S+) for call\.started, call\.ended$/.exec(
      l.err.find(/^Registered call webhook/)!,
    )![1];
    const callSecret = /: (whsec_[0-9a-f]{48})$/.exec(l.err.find(/^Signing secret of call webhook/)!)![1];
    expect(l.err.find(/^Registered text webhook \S+ for sms\.received$/)).toBeDefined();
    expect(l.err.all).toContain(`Forwarding events to ${forward.url}/in`);
    expect((await sim.api('GET', CALLS)).json.data.map((w: any) => w.url)).toEqual([listenUrl, `${direct.url}/direct`]);
    expect((await sim.api('GET', TEXTS)).json.data.map((w: any) => w.url)).toEqual([listenUrl]);

    // call.started: printed, and forwarded unchanged
    const job = (
      await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100'], goal: 'Confirm Tuesday' } })
    ).json.data;
    const callId = (await sim.api('GET', `/v1/quick/actions/${job.id}`)).json.data.targets[0].last_call_id;
    const startedLine = await l.out.next(/call\.started/);
    expect(startedLine).toBe(
      `2026-01-05 09:00:00 UTC  call.started  ${callId.slice(0, 8)}  ${job.from_number} -> +12025550100  RINGING`,
    );
    expect(await l.err.next(/^forwarded/)).toBe(`forwarded evt_${callId}_started to ${forward.url}/in: 200`);
    const [fwd] = await forward.waitFor(1);
    expect(fwd.path).toBe('/in');
    expect(fwd.body.equals(direct.received[0].body)).toBe(true);
    expect(fwd.headers['x-service-event']).toBe('call.started');
    expect(fwd.headers['x-service-event-id']).toBe(`evt_${callId}_started`);
    expect(fwd.headers['x-service-signature-256']).toBe(sign(fwd.body, callSecret));
    expect(fwd.headers['content-type']).toBe('application/json');

    // the forward target goes down: the event is still printed, the failure reported, listen keeps running
    await forward.close();
    await sim.advance(58);
    const ended = await l.out.next(/call\.ended/);
    expect(ended).toContain(
      `call.ended  ${callId.slice(0, 8)}  ${job.from_number} -> +12025550100  COMPLETED 52s hangup`,
    );
    // at most 100 columns (issue 33, point 5: it was about 170, the call id twice)
    expect(ended.length).toBeLessThanOrEqual(100);
    expect(ended).not.toContain(callId);
    expect(await l.err.next(/^could not forward/)).toBe(
      `could not forward evt_${callId}_ended to http://127.0.0.1:${port}/in: ECONNREFUSED`,
    );
    expect(l.proc.exitCode).toBeNull();
    // the listener answered 200 all the same: the service does not retry
    expect(
      (await sim.api('GET', `/_sim/webhook-deliveries?event_id=evt_${callId}_ended`)).json.data.map(
        (d: any) => d.status_code,
      ),
    ).toEqual([200, 200]);

    // back up: the next event is forwarded again
    forward = await started(startReceiver(port));
    const test = await sim.api('POST', `${CALLS}/${callHook}/test`);
    expect(await l.out.next(/\(test\)/)).toMatch(/call\.ended  \(test\)  /);
    expect(await l.err.next(/^forwarded evt_.*: 200$/)).toBe(
      `forwarded ${test.json.data.event_id} to ${forward.url}/in: 200`,
    );

    // a bad or missing signature is answered 400 and reported; nothing is printed or forwarded
    const endedBody = direct.received[1].body.toString();
    const forged = await request(listenUrl.slice(0, -1), 'POST', '/', {
      raw: endedBody.replace('COMPLETED', 'FAILED'),
      headers: { 'x-service-event-id': 'evt_forged', 'x-service-signature-256': sign(endedBody, callSecret) },
    });
    expect(forged.status).toBe(400);
    expect(await l.err.next(/^rejected/)).toBe('rejected a delivery (evt_forged): bad signature; answered 400');
    expect((await request(listenUrl.slice(0, -1), 'POST', '/', { raw: endedBody })).status).toBe(400);
    expect(await l.err.next(/no signature/)).toBe(`rejected a delivery (no event id): no signature; answered 400`);

    // a duplicate event id is acknowledged and dropped
    const dup = await request(listenUrl.slice(0, -1), 'POST', '/', {
      raw: endedBody,
      headers: { 'x-service-signature-256': sign(endedBody, callSecret) },
    });
    expect(dup.status).toBe(200);
    expect(await l.err.next(/^dropped/)).toBe(`dropped a duplicate of evt_${callId}_ended`);
    expect(l.out.all).toHaveLength(3);
    expect(forward.received).toHaveLength(1);

    // Ctrl-C: both webhooks removed, exit 0
    expect(await l.stop('SIGINT')).toBe(0);
    expect(l.err.all.slice(-2)).toEqual([
      `Removed call webhook ${callHook}`,
      expect.stringMatching(/^Removed text webhook /),
    ]);
    expect((await sim.api('GET', CALLS)).json.data.map((w: any) => w.url)).toEqual([`${direct.url}/direct`]);
    expect((await sim.api('GET', TEXTS)).json.data).toEqual([]);
  });

  it('on the embedded simulator: --events sms.received --json prints each text as one JSON object; SIGTERM cleans up', async () => {
    const { env, number, phone } = await embeddedWithNumber();

    const l = listen(['--events', 'sms.received', '--json'], env);
    await l.err.next(/^Ready/);
    expect(l.err.find(/^Registered call webhook/)).toBeUndefined();
    expect((await cli(['webhooks', 'list', '--sms', '--json'], { env })).json.data).toHaveLength(1);
    expect((await cli(['webhooks', 'list', '--json'], { env })).json.data).toHaveLength(0);

    // the embedded CLI delivers before it returns; listen prints one JSON object per line
    const sent = await cli(
      ['sim', 'text', '--from', '+12025550177', '--to', phone, '--body', 'Open on Saturday?', '--json'],
      { env },
    );
    const event = JSON.parse(await l.out.next(/sms\.received/));
    expect(event).toMatchObject({
      id: `evt_${sent.json.data.id}_received`,
      type: 'sms.received',
      test: false,
      data: {
        message_id: sent.json.data.id,
        from: '+12025550177',
        to: phone,
        phone_number_id: number,
        body: 'Open on Saturday?',
      },
    });
    // call events are not subscribed to
    await cli(['quick', 'call', '+12025550100', '--goal', 'x'], { env });
    await cli(['sim', 'advance', '1m'], { env });
    expect(l.out.all).toHaveLength(1);

    expect(await l.stop('SIGTERM')).toBe(0);
    expect((await cli(['webhooks', 'list', '--sms', '--json'], { env })).json.data).toEqual([]);
  });

  it("when its output's reader goes away (listen --json | head -n1) it still removes its webhooks", async () => {
    const sim = await started(startSim());
    const proc = spawn(
      'bash',
      ['-c', `${process.execPath} ${BIN} webhooks listen --json --base-url ${sim.url} --api-key ${sim.key} | head -n1`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH!, HOME: tempDir(), NO_COLOR: '1', VMV_CONFIG_DIR: join(tempDir(), 'cfg') },
      },
    );
    const err = new Lines(proc.stderr!);
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    await err.next(/^Ready/);
    await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100', '+12025550101'], goal: 'x' } });
    await sim.advance(120);
    await exited;
    await sim.flush();
    expect((await sim.api('GET', CALLS)).json.data).toEqual([]);
    expect((await sim.api('GET', TEXTS)).json.data).toEqual([]);
  });

  it('on the embedded simulator: a hostile text is printed escaped (the line) and exact (--json); a damaged journal is said, and its mending', async () => {
    const { dir, env, phone } = await embeddedWithNumber();
    const line = listen(['--events', 'sms.received'], env);
    const json = listen(['--events', 'sms.received', '--json'], env);
    await line.err.next(/^Ready/);
    await json.err.next(/^Ready/);

    const body =
      'Hi \u001b]0;pwned\u0007 \u001b]52;c;ZXZpbA==\u0007 \u001b[2J \u009b2J \u202eevil\u202c \r\u007f\nnext\tcol';
    expect((await cli(['sim', 'text', '--from', '+12025550177', '--to', phone, '--body', body], { env })).code).toBe(0);
    const shown = await line.out.next(/sms\.received/);
    expect(shown).toContain('"Hi \\u001b]0;pwned'); // (the line's 100 columns end in the next escape)
    expect(shown.length).toBeLessThanOrEqual(100);
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const exact = await json.out.next(/sms\.received/);
    expect(exact).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(exact).data.body).toBe(body);
    await json.stop('SIGTERM');

    // the journal damaged under it: the clock cannot run; said once (not every second), then its mending
    const { appendFileSync, statSync, truncateSync } = await import('node:fs');
    const journal = join(dir, 'sim.json.journal');
    const size = statSync(journal).size;
    appendFileSync(journal, '{"damaged\n');
    expect(await line.err.next(/clock/)).toMatch(
      /^The simulator's clock cannot run, so no event is delivered until it can \(tried again every 1s\): The simulator's journal .* is damaged/,
    );
    await new Promise((r) => setTimeout(r, 2500)); // two more failed tries
    truncateSync(journal, size);
    expect(await line.err.next(/clock/)).toBe("The simulator's clock runs again: events that fell due are delivered.");
    expect(line.err.all.filter((l) => /clock/.test(l))).toHaveLength(2);
    expect(await line.stop('SIGINT')).toBe(0);
  });

  it('refuses what it cannot do, before registering anything', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, 'webhooks', 'listen', ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH!, HOME: tempDir(), NO_COLOR: '1' },
      });
    const remote = run(['--base-url', 'https://api.example.com', '--api-key', 'sk_test']);
    expect(remote.status).toBe(2);
    expect(remote.stderr).toContain(
      "--public-url is needed: the service at https://api.example.com cannot reach this machine's loopback address.",
    );
    const events = run(['--events', 'call.started,call.answered']);
    expect(events.status).toBe(2);
    expect(events.stderr).toContain('--events takes call.started, call.ended, sms.received, got "call.answered"');
    expect(run(['--forward-to', 'localhost:3000']).status).toBe(2);
  });
});

describe('the receiver answers only its own hosts and loopback web pages (like sim serve)', () => {
  it("a foreign Host is 421, two Hosts 400, a foreign Origin 403, each reported; deliveries through the tunnel's host are taken, whatever their Content-Type (the signature proves them)", async () => {
    const { startReceiver: startListenReceiver } = await import('../commands/webhooks/receiver.js');
    const io = await bufferIO();
    const receiver = await startListenReceiver({ io, json: true, publicUrl: 'https://abc.tunnel.test/hooks', port: 0 });
    cleanup.push(() => receiver.close());
    const secret = 'whsec_test';
    receiver.secrets.push(secret);
    const url = `http://127.0.0.1:${receiver.port}`;
    const deliver = (headers: Record<string, string>, id: string, type = 'application/json') => {
      const body = JSON.stringify({
        id,
        type: 'call.started',
        created_at: '2026-01-05T09:00:00.000Z',
        test: true,
        data: {},
      });
      const head = {
        host: `127.0.0.1:${receiver.port}`,
        'content-type': type,
        'x-service-signature-256': sign(body, secret),
        'content-length': String(body.length),
        connection: 'close',
        ...headers,
      };
      return rawHttp(
        url,
        `POST / HTTP/1.1\r\n${Object.entries(head)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}\r\n${body}`,
      );
    };

    expect((await deliver({}, 'evt_1')).status).toBe(200);
    expect((await deliver({ host: 'abc.tunnel.test' }, 'evt_2')).status).toBe(200);
    const host = await deliver({ host: 'attacker.example' }, 'evt_3');
    expect(host.status).toBe(421);
    expect(host.text).toContain('"attacker.example"');
    expect((await deliver({ origin: 'https://attacker.example' }, 'evt_4')).status).toBe(403);
    expect((await deliver({ origin: 'null' }, 'evt_5')).status).toBe(403);
    expect((await deliver({}, 'evt_6', 'text/plain')).status).toBe(200);
    expect((await deliver({ origin: 'http://localhost:3000' }, 'evt_7')).status).toBe(200);
    const twice = await rawHttp(
      url,
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: abc.tunnel.test\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(twice.status).toBe(400);
    expect(
      io
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['evt_1', 'evt_2', 'evt_6', 'evt_7']);
    expect(
      io
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('refused a request:'))
        .map((l) => /\(answered (\d+)\)$/.exec(l)![1]),
    ).toEqual(['421', '403', '403', '400']);
  });
});

describe('the receiver under a flood of requests it turns away', () => {
  const receiverModule = import('../commands/webhooks/receiver.js');
  /** A receiver on a free port, and a forged delivery to it (answered 400). */
  async function floodable(summaryMs: number) {
    const io = await bufferIO();
    const receiver = await (await receiverModule).startReceiver({ io, json: true, port: 0, summaryMs });
    receiver.secrets.push('whsec_test');
    const url = `http://127.0.0.1:${receiver.port}`;
    const forge = async (i: number) => {
      const r = await request(url, 'POST', '/', {
        raw: `{"id":"evt_${i}"}`,
        headers: { 'x-service-event-id': `evt_${i}`, 'x-service-signature-256': 'bad' },
      });
      expect(r.status).toBe(400);
    };
    return { io, receiver, forge };
  }
  const rejected = /^rejected a delivery \(evt_\d+\): bad signature; answered 400$/;

  it('1,019 forged deliveries: the first five a line each, the rest one line with their count (here: on close)', async () => {
    const { io, receiver, forge } = await floodable(3_600_000);
    for (let i = 0; i < 1019; i += 50)
      await Promise.all(Array.from({ length: Math.min(50, 1019 - i) }, (_, j) => forge(i + j)));
    expect(io.stderr().trimEnd().split('\n')).toEqual(Array(5).fill(expect.stringMatching(rejected)));
    await receiver.close();
    const lines = io.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[5]).toMatch(
      /^turned away 1014 more requests in the last \d+s \(the last: rejected a delivery \(evt_\d+\): bad signature; answered 400\)$/,
    );
    expect(io.stdout()).toBe('');
  });

  it('past the first five, one line per interval counts what came in it', async () => {
    const { io, receiver, forge } = await floodable(100);
    cleanup.push(() => receiver.close());
    for (let i = 0; i < 8; i++) await forge(i);
    const end = Date.now() + 5000;
    while (!io.stderr().includes('turned away') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const lines = io.stderr().trimEnd().split('\n');
    expect(lines.slice(0, 5)).toEqual(Array(5).fill(expect.stringMatching(rejected)));
    expect(lines[5]).toMatch(/^turned away 3 more requests in the last 1s \(the last: rejected a delivery \(evt_7\)/);
    await forge(8);
    while (io.stderr().split('turned away').length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(io.stderr().trimEnd().split('\n')[6]).toMatch(/^turned away 1 more request in the last 1s/);
  });
});
