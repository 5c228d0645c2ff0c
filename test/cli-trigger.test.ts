// `vmv sim trigger EVENT` (issue 24, point 8): each event set off by a real simulated call or text
// on a workspace number reaches a `vmv webhooks listen` receiver, signed (listen checks every
// signature and prints only what passes), through the normal path, on both targets.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, startSim, T0, tempDir, type Sim } from './helpers.js';

/** `vmv webhooks listen --json` in a child process: its stdout lines as they come. */
function listen(env: Record<string, string>) {
  const proc: ChildProcess = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH!, HOME: tempDir(), NO_COLOR: '1', ...env },
  });
  const out: any[] = [];
  const err: string[] = [];
  createInterface({ input: proc.stdout! }).on('line', (l) => out.push(JSON.parse(l)));
  createInterface({ input: proc.stderr! }).on('line', (l) => err.push(l));
  const until = async (ok: () => boolean, what: string) => {
    for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
    if (!ok()) throw new Error(`${what} never came: ${err.join('\n')}`);
  };
  return {
    out,
    ready: () => until(() => err.some((l) => l.startsWith('Ready')), 'Ready'),
    event: async (type: string, n: number) => {
      await until(() => out.filter((e) => e.type === type).length >= n, type);
      return out.filter((e) => e.type === type)[n - 1];
    },
    stop: () => new Promise((r) => (proc.once('exit', r), proc.kill('SIGINT'))),
  };
}

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());

describe.each(['embedded', 'remote'] as const)('vmv sim trigger on the %s target', (target) => {
  it('sets off call.started, call.ended and sms.received, each reaching webhooks listen, signed', async () => {
    const dir = tempDir();
    const env: Record<string, string> =
      target === 'remote'
        ? { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key, VMV_CONFIG_DIR: join(dir, 'cfg') }
        : { VMV_SIM_DATA: join(dir, 'sim.json'), VMV_CONFIG_DIR: join(dir, 'cfg') };
    const reset = await cli(['sim', 'reset', '--clock', 'manual', '--now', T0, '--json'], { env });
    if (target === 'remote') env.VMV_API_KEY = reset.json.api_key;
    const l = listen(env);
    await l.ready();

    // call.started: a call to the workspace's number (added, since it has none), ringing
    const started = await cli(['sim', 'trigger', 'call.started', '--from', '+14155550199'], { env });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toMatch(/^The workspace had no ready number: added (\+1\d{10}) \(number (\d+)\)\.\n/);
    const number = Number(/\(number (\d+)\)/.exec(started.stderr)![1]);
    const callId = started.stdout.trim();
    expect(await l.event('call.started', 1)).toMatchObject({
      id: `evt_${callId}_started`,
      test: false,
      data: { call: { id: callId, direction: 'inbound', status: 'RINGING', from_number: '+14155550199' } },
    });

    // call.ended: another call, the clock moved to its end; its start and end both arrive
    const ended = await cli(
      ['sim', 'trigger', 'call.ended', '--phone-number-id', String(number), '--says', 'Do you open Sundays?'],
      { env },
    );
    expect(ended.code, ended.stderr).toBe(0);
    const endedId = ended.stdout.trim();
    expect(ended.stderr).toContain('the clock moved to its end');
    // (moving the clock ended the first call too: it rang out first)
    await l.event('call.ended', 2);
    const e = l.out.find((x) => x.type === 'call.ended' && x.data.call.id === endedId);
    expect(e).toMatchObject({ id: `evt_${endedId}_ended`, data: { call: { id: endedId } } });
    expect(e.data.transcript).toContain('Do you open Sundays?');
    expect((await l.event('call.started', 2)).data.call.id).toBe(endedId);

    // sms.received: a text to the number
    const text = await cli(['sim', 'trigger', 'sms.received', '--says', 'Is Tuesday free?'], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(await l.event('sms.received', 1)).toMatchObject({
      id: `evt_${text.stdout.trim()}_received`,
      data: { message_id: text.stdout.trim(), from: '+14155550100', phone_number_id: number, body: 'Is Tuesday free?' },
    });

    // every delivery was to the listener and answered 200 (the normal path, with its log)
    const log = (await cli(['sim', 'deliveries', '--json'], { env })).json.data;
    expect(log.map((d: any) => d.status_code)).toEqual(log.map(() => 200));
    expect(log.map((d: any) => d.type).sort()).toEqual([
      'call.ended',
      'call.ended',
      'call.started',
      'call.started',
      'sms.received',
    ]);
    await l.stop();

    // a number that is not the workspace's is refused before anything happens
    const none = await cli(['sim', 'trigger', 'call.started', '--phone-number-id', '999999'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('The workspace has no number 999999.');
  });
});
