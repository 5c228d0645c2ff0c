// `vmv quick` and `vmv sim text|pool` on both targets (issue 3, part 7).
import { describe, expect, it } from 'vitest';
import { useTargets, type CliResult, type Target } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });

/** Runs a waiting command while advancing the simulator clock a minute at a time until it returns. */
async function whileAdvancing(
  t: Target,
  args: string[],
  opts: { tty?: boolean; step?: number } = {},
): Promise<CliResult> {
  let done = false;
  const p = t.run(args, opts).finally(() => (done = true));
  for (let i = 0; i < 5000 && !done; i++) {
    await t.run(['sim', 'advance', String(opts.step ?? 60)]);
    await new Promise((r) => setImmediate(r));
  }
  return p;
}

describe('the same quick commands on both targets', () => {
  it('quick call prints the job id; status shows targets moving on the clock; cancel stops it', async () => {
    const r = await both([
      'quick',
      'call',
      '+12025550100',
      '+12025550102',
      '--goal',
      'Confirm Tuesday',
      '--retry-attempts',
      '1',
    ]);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toContain(`vmv quick status ${id} --watch`);
    const s1 = await both(['quick', 'status', id]);
    expect(s1.stdout).toContain('status\trunning');
    expect(s1.stdout).toMatch(/\+12025550100\t\+1415555015\d\tin_progress\tringing\t1\t0\t0\tno\t-/);
    await both(['sim', 'advance', '70']);
    const s2 = await both(['quick', 'status', id]);
    expect(s2.stdout).toMatch(/\+12025550100\t\+1415555015\d\tcompleted\t-\t1\t0\t0\tyes\tgoal_achieved/);
    expect(s2.stdout).toMatch(/\+12025550102\t\+1415555015\d\tpending\t-\t1/);
    const c = await both(['quick', 'cancel', id]);
    expect(c.stdout).toContain('status\tcanceled');
    expect((await both(['quick', 'status', id, '--json'])).json.data.counts).toMatchObject({
      completed: 1,
      canceled: 1,
    });
  });

  it('quick text, then the recipient texts STOP with sim text', async () => {
    const id = (await both(['quick', 'text', '+12025550102', '--goal', 'Book a visit'])).stdout.trim();
    const from = (await both(['quick', 'status', id, '--json'])).json.data.targets[0].from_number;
    const sent = await both(['sim', 'text', '--from', '+12025550102', '--to', from, '--body', 'STOP']);
    expect(sent.code).toBe(0);
    const s = await both(['quick', 'status', id, '--json']);
    expect(s.json.data.targets[0]).toMatchObject({ status: 'opted_out', end_reason: 'opted_out' });
    const thread = await both(['history', 'texts', '--phone', '+12025550102']);
    expect(
      thread.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[2]),
    ).toEqual(['inbound', 'outbound']);
  });

  it('quick number provisions; quick status shows it by its integer id', async () => {
    const r = await both(['quick', 'number', '--area-code', '415', '--business-name', 'Acme Dental', '--handle-texts']);
    const id = r.stdout.trim();
    expect(id).toMatch(/^\d+$/);
    expect((await both(['quick', 'status', id])).stdout).toContain('status\tprovisioning');
    await both(['sim', 'advance', '1m']);
    const s = await both(['quick', 'status', id]);
    expect(s.stdout).toContain('status\tready');
    expect(s.stdout).toMatch(/number\t\+1415\d{7}/);
    expect((await both(['quick', 'number', '--area-code', '41'])).code).toBe(2); // checked before any request (issue 9)
  });

  it("quick status shows an AI number's line and agent; a month the wallet cannot pay suspends it; a top-up resumes it", async () => {
    const id = (
      await both(['quick', 'number', '--area-code', '415', '--name', 'Robin', '--greeting', 'Robin here.'])
    ).stdout.trim();
    await both(['sim', 'advance', '1m']);
    const s = await both(['quick', 'status', id]);
    expect(s.stdout).toContain('line\t5.00 USD a month, next charged 2026-02-05T09:00:00.000Z\n');
    expect(s.stdout).toContain('agent\tRobin\nvoice\tava (en-US)\ngreeting\tRobin here.\n');
    const w = await both(['sim', 'wallet', '--set', '0', '--auto-recharge', 'on', '--card-declined', 'on']);
    expect(w.stdout).toBe(
      'balance\t0.00 USD\nauto-recharge\ton: 25.00 USD when below 5.00 USD\ncard\tdeclined: every top-up fails\n',
    );
    await both(['sim', 'advance', '31d']);
    expect((await both(['quick', 'status', id])).stdout).toContain(
      'line\tsuspended: the month due 2026-02-05T09:00:00.000Z is unpaid (top up the wallet to resume)\n',
    );
    expect((await both(['numbers', 'list'])).stdout).toMatch(
      new RegExp(`^${id}\\t\\+1415\\d{7}\\tRobin\\tt2\\tsuspended\\t`),
    );
    expect((await both(['sim', 'wallet', '--card-declined', 'off'])).stdout).toBe(
      'balance\t20.00 USD\nauto-recharge\ton: 25.00 USD when below 5.00 USD\ncard\tworks\n',
    );
    // the card's state shows with auto-recharge off too, and in sim workspace show
    expect((await both(['sim', 'wallet', '--auto-recharge', 'off', '--card-declined', 'on'])).stdout).toBe(
      'balance\t20.00 USD\nauto-recharge\toff\ncard\tdeclined: every top-up fails\n',
    );
    expect((await both(['sim', 'workspace', 'show'])).stdout).toContain(
      'wallet\t20.00 USD\nauto-recharge\toff\ncard\tdeclined: every top-up fails\n',
    );
    await both(['sim', 'wallet', '--auto-recharge', 'on', '--card-declined', 'off']);
    const json = (await both(['quick', 'status', id, '--json'])).json.data;
    expect(json).toMatchObject({ suspended: false, next_charge_at: '2026-03-05T09:01:00.000Z' });
    expect((await both(['sim', 'wallet', '--card-declined', 'maybe'])).code).toBe(2);
  });

  it("sim workspace set changes the plan's rates; show has them and this month's usage", async () => {
    const r = await both([
      'sim',
      'workspace',
      'set',
      '--included-minutes',
      '0',
      '--included-texts',
      '10',
      '--per-minute',
      '0.25',
      '--per-text',
      '0.03',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'call rates\t0 minutes a month included, then 0.25 USD a minute\ntext rates\t10 texts a month included, then 0.03 USD a text\n',
    );
    expect(r.stdout).toContain(
      'this month\t2026-01-05T09:00:00.000Z to 2026-02-05T09:00:00.000Z\nminutes\t0 used, 0 left\ntexts\t0 used, 10 left\n',
    );
    await both(['sim', 'wallet', '--set', '0']);
    expect((await both(['sim', 'workspace', 'show'])).stdout).toContain(
      'minutes\t0 used, 0 left (paused: the wallet cannot pay one)\n',
    );
    const bad = await both(['sim', 'workspace', 'set', '--per-minute', '0.015']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--per-minute (plan.per_minute_usd): must be a whole number of cents, such as 0.05');
    // the wallet's amounts too name their flags
    const wallet = await both([
      'sim',
      'wallet',
      '--set',
      '0.015',
      '--recharge-amount',
      '10.001',
      '--recharge-threshold',
      '1',
    ]);
    expect(wallet.code).toBe(1);
    expect(wallet.stderr).toContain('--set (wallet_usd): must be a whole number of cents, such as 0.05');
    expect(wallet.stderr).toContain(
      '--recharge-amount (auto_recharge.amount_usd): must be a whole number of cents, such as 0.05',
    );
    expect(wallet.stderr).not.toContain('recharge-threshold');
    expect((await both(['sim', 'workspace', 'set', '--included-minutes', '-1'])).code).toBe(2);
  });

  it('sim pool shows the pool; a full pool makes quick call fail with the 409 message', async () => {
    const p = await both(['sim', 'pool']);
    expect(p.stdout.split('\n')[0]).toBe('+14155550150\tnew\t2\t0/15\t0/500');
    await both(['sim', 'pool', '--fill', 'calls']);
    const r = await both(['quick', 'call', '+12025550100', '--goal', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Every shared calling number has reached its daily volume limit (shared_pool_exhausted, HTTP 409)',
    );
    expect((await both(['sim', 'pool', '--leave', '1'])).code).toBe(2);
  });

  it('usage errors exit 2', async () => {
    expect((await both(['quick', 'call', '+12025550100'])).code).toBe(2); // no --goal
    expect((await both(['quick', 'call', '--goal', 'x'])).code).toBe(2); // no numbers
    expect((await both(['quick', 'call', '+12025550100', '--goal', 'x', '--retry-attempts', 'lots'])).code).toBe(2);
    const bad = await both(['quick', 'call', '12025550100', '--goal', 'x']);
    expect(bad.code).toBe(2); // checked before any request (issue 9)
    expect(bad.stderr).toContain('<numbers...> must be an E.164 phone number');
  });
});

describe('waiting', () => {
  for (const name of ['embedded', 'remote'] as const) {
    describe(name, () => {
      it('quick call --wait follows the job to its end and prints it; exit 0', async () => {
        const r = await whileAdvancing(targets[name], [
          'quick',
          'call',
          '+12025550100',
          '+12025550104',
          '--goal',
          'x',
          '--retry-attempts',
          '0',
          '--wait',
        ]);
        expect(r.code).toBe(0); // no answer is an outcome, not a failure (docs/scripting.md: exit 5)
        expect(r.stderr).toContain('the simulator clock is manual');
        expect(r.stdout).toContain('status\tcompleted');
        expect(r.stdout).toMatch(/\+12025550104\t\+1415555015\d\tno_answer/);
      });
      it('--wait exits 5 when a target failed; --json prints the final job body', async () => {
        const r = await whileAdvancing(targets[name], [
          'quick',
          'call',
          '+12025550106',
          '--goal',
          'x',
          '--wait',
          '--json',
        ]);
        expect(r.code).toBe(5);
        expect(r.json.data).toMatchObject({ status: 'completed', counts: { failed: 1 } });
        expect(r.stderr).toContain('1 of 1 targets failed');
      });
      it('quick text --wait ends when the thread does', async () => {
        const r = await whileAdvancing(targets[name], [
          'quick',
          'text',
          '+12025550100',
          '--goal',
          'x',
          '--wait',
          '--json',
        ]);
        expect(r.code).toBe(0);
        expect(r.json.data.targets[0]).toMatchObject({ status: 'completed', goal_achieved: true });
      });
      it('quick status --watch prints one line per change when piped', async () => {
        const id = (
          await targets[name].run([
            'quick',
            'call',
            '+12025550102',
            '--goal',
            'x',
            '--retry-attempts',
            '1',
            '--retry-delay-minutes',
            '2',
          ])
        ).stdout.trim();
        const r = await whileAdvancing(targets[name], ['quick', 'status', id, '--watch']);
        expect(r.code).toBe(0);
        const lines = r.stdout.trim().split('\n');
        expect(lines.length).toBeGreaterThan(1);
        for (const l of lines)
          expect(l).toMatch(/^target\t\+12025550102\t\+1415555015\d\t(in_progress|pending|no_answer)\t/);
        expect(lines.at(-1)).toMatch(/\tno_answer\t-\t2\t.*max_attempts$/);
        expect(new Set(lines).size).toBe(lines.length); // only changes
      });
      it('on a terminal --wait redraws a live table in place', async () => {
        const r = await whileAdvancing(targets[name], ['quick', 'call', '+12025550100', '--goal', 'x', '--wait'], {
          tty: true,
          step: 1,
        });
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/\u001b\[\d+A\u001b\[0J/);
        expect(r.stdout).toContain('TO');
        expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/completed .*goal_achieved/);
      });
      it('quick number --wait waits for ready and prints the number', async () => {
        const r = await whileAdvancing(targets[name], ['quick', 'number', '--area-code', '212', '--wait']);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/number\t\+1212\d{7}/);
        const failed = await whileAdvancing(targets[name], ['quick', 'number', '--area-code', '555', '--wait']);
        expect(failed.code).toBe(5);
      });
    });
  }
});
