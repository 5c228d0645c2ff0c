// Phone numbers checked for real (issue 24, point 3; issue 23, point 12): the CLI refuses a number
// that cannot exist (exit 2 naming the flag) and offers a national number in E.164; the simulator's
// carrier fails a call or text to such a number with its reason, charging nothing; and the two
// agree, number by number, because both ask src/phone.ts.
import { describe, expect, it } from 'vitest';
import { numberProblem } from '../src/phone.js';
import { freshEnv, cli, useTargets } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });

/** Numbers that can exist (the simulator's scenarios among them) and numbers that cannot. */
const POSSIBLE = ['+14155550100', '+12025550102', '+442071838750', '+33612345678', '+15005550006'];
const IMPOSSIBLE = ['+1415555', '+11234567890', '+19999999999', '+141555501001234', '+999123'];

describe('the CLI', () => {
  it('takes a number that can exist and starts the job', async () => {
    const r = await both(['quick', 'call', '+14155550100', '--goal', 'confirm']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a number that cannot exist, naming the flag, before anything is sent', async () => {
    const r = await both(['quick', 'call', '+1415555', '--goal', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: <numbers...>: +1415555 is not a phone number that can exist: it has too few digits for its country.',
    );
    const t = await both(['quick', 'text', '+14155550100', '+11234567890', '--goal', 'x']);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('+11234567890 is not a phone number that can exist: it matches no number range');
    const c = await both(['calls', 'place', '--caller-id', '+14155550123', '--to', '+1415555']);
    expect(c.stderr).toContain('--to: +1415555 is not a phone number that can exist');
    // nothing was sent: no job, no charge
    expect((await both(['sim', 'outbox', '--json'])).json.data).toEqual([]);
    expect((await both(['sim', 'wallet', '--json'])).json.wallet_usd).toBe(50);
  });

  it('offers a national number in E.164, in the default_country setting', async () => {
    const r = await both(['quick', 'call', '4155550100', '--goal', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('got "4155550100" (did you mean +14155550100?)');
    expect(r.stderr).toContain('read as a number of US');
    const dashed = await both(['history', 'calls', '--phone', '(415) 555-0100x']);
    expect(dashed.code).toBe(2);
    const uk = await cli(['quick', 'call', '020 7183 8750', '--goal', 'x'], {
      env: { ...freshEnv(), VMV_DEFAULT_COUNTRY: 'GB' },
    });
    expect(uk.stderr).toContain('(did you mean +442071838750?)');
    const env = freshEnv();
    expect((await cli(['config', 'set', 'default_country', 'gb'], { env })).code).toBe(0);
    expect((await cli(['config', 'get', 'default_country'], { env })).stdout).toBe('GB\n');
    expect((await cli(['quick', 'call', '07911 123456', '--goal', 'x'], { env })).stderr).toContain(
      '(did you mean +447911123456?)',
    );
    const bad = await cli(['config', 'set', 'default_country', 'XX'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('a two-letter country code such as US or GB');
    // something that is no number at all has no suggestion
    const none = await both(['quick', 'call', 'hello', '--goal', 'x']);
    expect(none.stderr).not.toContain('did you mean');
  });

  it('leaves numbers it only filters or records by (history --phone, sim contact) to their form', async () => {
    const r = await both(['sim', 'contact', '--name', 'Grace', '--phone', '+15550002001']);
    expect(r.code).toBe(0);
  });
});

describe('the simulator, as the carrier', () => {
  it('fails a quick call to a number that cannot exist with the carrier reason, charging nothing, no retry', async () => {
    const r = await both(['api', 'POST', '/v1/quick/ai-calls', '-f', 'to_numbers[]=+1415555', '-f', 'goal=x']);
    expect(r.code).toBe(0);
    const job = JSON.parse(r.stdout).data;
    // running at creation, as every job is; it ends a moment later on the clock
    expect((await both(['quick', 'status', job.id, '--json'])).json.data).toMatchObject({ status: 'running' });
    await both(['sim', 'advance', '1s']);
    const s = (await both(['quick', 'status', job.id, '--json'])).json.data;
    expect(s).toMatchObject({ status: 'completed', cost_usd: 0 });
    expect(s.targets[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      end_reason: 'SIP 484 Address Incomplete: +1415555 has too few digits for its country (simulated)',
    });
    const call = (await both(['history', 'call', s.targets[0].last_call_id, '--json'])).json.data;
    expect(call).toMatchObject({ status: 'FAILED', duration_seconds: null, end_reason: s.targets[0].end_reason });
    expect((await both(['sim', 'wallet', '--json'])).json.wallet_usd).toBe(50);
  });

  it('fails a quick text unsent, free, and a voice call at once', async () => {
    const r = await both(['api', 'POST', '/v1/quick/ai-texts', '-f', 'to_numbers[]=+11234567890', '-f', 'goal=x']);
    const id = JSON.parse(r.stdout).data.id;
    const s = (await both(['quick', 'status', id, '--json'])).json.data;
    expect(s.targets[0].end_reason).toBe(
      '30005 Unknown destination handset: +11234567890 matches no number range of its country (simulated)',
    );
    expect(s.cost_usd).toBe(0);
    const text = (await both(['sim', 'outbox', '--kind', 'text', '--json'])).json.data[0];
    expect(text).toMatchObject({ to: '+11234567890', status: 'failed' });

    await both(['sim', 'caller-id', '+14155550123']);
    const v = await both([
      'api',
      'POST',
      '/v1/voice/calls',
      '-f',
      'caller_id=+14155550123',
      '-f',
      'destination=+1415555',
    ]);
    const callId = JSON.parse(v.stdout).data.id;
    await both(['sim', 'advance', '1s']);
    expect((await both(['history', 'call', callId, '--json'])).json.data).toMatchObject({
      status: 'FAILED',
      end_reason: expect.stringMatching(/^SIP 484 Address Incomplete: \+1415555 /),
    });
  });

  it('agrees with the CLI number by number', async () => {
    const t = targets.embedded;
    for (const n of [...POSSIBLE, ...IMPOSSIBLE]) {
      const local = await t.run(['quick', 'call', n, '--goal', 'x']);
      const sent = await t.run(['api', 'POST', '/v1/quick/ai-calls', '-f', `to_numbers[]=${n}`, '-f', 'goal=x']);
      const job = JSON.parse(sent.stdout).data;
      const target = (await t.run(['quick', 'status', job.id, '--json'])).json.data.targets[0];
      const carrierRefused = /^SIP 4\d\d /.test(target.end_reason ?? '');
      expect({ n, cli: local.code === 2, carrier: carrierRefused }).toEqual({
        n,
        cli: numberProblem(n) !== null,
        carrier: numberProblem(n) !== null,
      });
    }
  });
});
