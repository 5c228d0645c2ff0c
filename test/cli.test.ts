// The CLI through main() with captured streams, the same cases on both targets: the embedded
// simulator and a started `vmv sim serve`. Both start seeded identically on a manual clock at T0,
// so their outputs must match byte for byte.
import { describe, expect, it } from 'vitest';
import { T0, useTargets } from './helpers.js';

const { targets, both } = useTargets();

describe('the same commands on both targets', () => {
  it('sim clock shows the manual clock at its start', async () => {
    const r = await both(['sim', 'clock']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`now\t${T0}\nmode\tmanual\nnext due\t-\nnext job step\t-\n`);
  });

  it('sim contact adds contacts; contacts list and get read them', async () => {
    const a = await both([
      'sim',
      'contact',
      '--name',
      'Grace Hopper',
      '--email',
      'grace@navy.example',
      '--phone',
      '+15550002001',
      '--tag',
      'vip',
    ]);
    expect(a.code).toBe(0);
    const id = a.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await both(['sim', 'contact', '--name', 'John Smith', '--email', 'john.smith@example.com']);
    await both(['sim', 'contact', '--name', 'John Doe', '--email', 'john.doe@example.com']);
    const list = await both(['contacts', 'list']);
    expect(
      list.stdout
        .split('\n')
        .map((l) => l.split('\t')[1])
        .filter(Boolean),
    ).toEqual(['John Doe', 'John Smith', 'Grace Hopper']); // newest first
    expect(list.stdout.split('\n')[2].split('\t').slice(0, 4)).toEqual([
      id,
      'Grace Hopper',
      '+15550002001',
      'grace@navy.example',
    ]);
    const get = await both(['contacts', 'get', id, '--json']);
    expect(get.json.data).toMatchObject({ id, name: 'Grace Hopper', tags: ['vip'] });
  });

  it("email send: piped output is the new email's id alone, the summary and recipients go to stderr", async () => {
    const r = await both([
      'email',
      'send',
      '--to',
      'grace hoper',
      '--to',
      'ada@example.com',
      '--subject',
      'Hello',
      '--body',
      'Hi!',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(r.stderr).toMatch(/Sent to 2 recipients for 0\.02 USD/);
    expect(r.stderr).toContain('  grace@navy.example (Grace Hopper): sent\n  ada@example.com: sent\n');
  });

  it('email send --json prints the API body exactly', async () => {
    const r = await both([
      'email',
      'send',
      '--to',
      'ada@example.com',
      '--subject',
      'Again',
      '--body',
      'x',
      '--from-name',
      'Ada',
      '--json',
    ]);
    expect(Object.keys(r.json)).toEqual(['data']);
    expect(r.json.data).toMatchObject({
      kind: 'email',
      status: 'sent',
      from: 'Ada via vmv',
      sent_to: ['ada@example.com'],
      cost_usd: 0.01,
    });
    expect(r.stdout).toBe(JSON.stringify(r.json) + '\n');
  });

  it('email send --body-file - reads the body from standard input', async () => {
    const r = await both(
      ['email', 'send', '--to', 'ada@example.com', '--subject', 'From stdin', '--body-file', '-', '--json'],
      { stdin: 'line one\nline two\n' },
    );
    expect(r.code).toBe(0);
    const hist = await both(['history', 'emails', '--email', 'ada@example.com', '--json']);
    expect(hist.json.data[0]).toMatchObject({ subject: 'From stdin', body: 'line one\nline two\n' });
  });

  it('--idempotency-key replays instead of sending twice', async () => {
    const a = await both([
      'email',
      'send',
      '--to',
      'once@example.com',
      '--subject',
      'Once',
      '--body',
      'x',
      '--idempotency-key',
      'cli-1',
      '--json',
    ]);
    const b = await both([
      'email',
      'send',
      '--to',
      'once@example.com',
      '--subject',
      'Once',
      '--body',
      'x',
      '--idempotency-key',
      'cli-1',
      '--json',
    ]);
    expect(b.stdout).toBe(a.stdout);
    const hist = await both(['history', 'emails', '--email', 'once@example.com', '--json']);
    expect(hist.json.data).toHaveLength(1);
  });

  it('an API error goes to stderr with code, message and each field; exit 1', async () => {
    const r = await both(['email', 'send', '--to', 'John', '--subject', 'x', '--body', 'y']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: A recipient name could be more than one contact');
    expect(r.stderr).toContain('(ambiguous_contact, HTTP 422)');
    expect(r.stderr).toContain('  --to (to[0]): could be 2 contacts: John Smith, John Doe');
    const v = await both(['email', 'send', '--to', 'a@example.com', '--subject', 'x'.repeat(201), '--body', 'y']);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('--subject (subject): must be at most 200 characters (got 201)');
  });

  it('usage errors exit 2 and call nothing', async () => {
    expect((await both(['email', 'send', '--subject', 'x', '--body', 'y'])).code).toBe(2); // --to missing
    const r = await both(['email', 'send', '--to', 'a@example.com', '--subject', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('exactly one of --body or --body-file');
    expect((await both(['history', 'calls', '--limit', '51'])).code).toBe(2);
    expect((await both(['history', 'emails', '--contact', 'x', '--email', 'a@example.com'])).code).toBe(2);
    expect((await both(['contacts', 'list', '--bogus'])).code).toBe(2);
    expect((await both(['no-such-command'])).code).toBe(2);
  });

  it('history people, emails and the wallet reflect what was sent', async () => {
    const people = await both(['history', 'people', '--json']);
    expect(people.json.data.find((p: any) => p.name === 'Grace Hopper')).toMatchObject({ email_count: 1 });
    const emails = await both(['history', 'emails', '--email', 'grace@navy.example']);
    expect(emails.stdout.split('\n')[0].split('\t').slice(1, 7)).toEqual([
      T0,
      'outbound',
      'quick',
      'Acme Sandbox via vmv',
      'grace@navy.example',
      'Hello',
    ]);
    const wallet = await both(['sim', 'wallet']);
    expect(wallet.stdout).toBe('balance\t49.95 USD\nauto-recharge\toff\ncard\tworks\n');
  });

  it('sim advance moves the clock and emails age accordingly', async () => {
    const r = await both(['sim', 'advance', '1h30m']);
    expect(r).toMatchObject({ stdout: '', stderr: 'Clock advanced 5400 s; now 2026-01-05 10:30:00 UTC\n' });
    expect((await both(['sim', 'advance', '2x'])).code).toBe(2);
    const after = await both([
      'history',
      'emails',
      '--email',
      'ada@example.com',
      '--after',
      '2026-01-05T10:00:00Z',
      '--json',
    ]);
    expect(after.json.data).toEqual([]);
  });

  it('sim wallet --set and --auto-recharge change the wallet', async () => {
    const r = await both([
      'sim',
      'wallet',
      '--set',
      '0.01',
      '--auto-recharge',
      'on',
      '--recharge-amount',
      '5',
      '--recharge-threshold',
      '1',
    ]);
    expect(r.stdout).toBe('balance\t0.01 USD\nauto-recharge\ton: 5.00 USD when below 1.00 USD\ncard\tworks\n');
    expect((await both(['sim', 'wallet', '--auto-recharge', 'maybe'])).code).toBe(2);
  });

  it('sim workspace set/show change the plan and limits', async () => {
    const r = await both([
      'sim',
      'workspace',
      'set',
      '--content',
      'off',
      '--video-credits',
      '0',
      '--recordings',
      'off',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('plan\tcontent no, assistant yes, video credits 0 cents');
    expect(r.stdout).toContain('recordings\trefused by compliance settings');
  });

  it('sim suppress makes quick email skip the address', async () => {
    await both(['sim', 'suppress', 'gone@example.com']);
    const r = await both(['email', 'send', '--to', 'gone@example.com', '--subject', 'x', '--body', 'y', '--json']);
    expect(r.json.data.suppressed).toEqual(['gone@example.com']);
  });

  it('history calls and texts lists are empty tables when nothing happened yet', async () => {
    const r = await both(['history', 'calls', '--status', 'completed']);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect((await both(['history', 'texts', '--direction', 'inbound'])).code).toBe(0);
    expect((await both(['history', 'call', 'nope'])).code).toBe(1);
  });
});

describe('per-target behaviour', () => {
  for (const name of ['embedded', 'remote'] as const) {
    describe(name, () => {
      it('a bad API key exits 3 with a hint', async () => {
        const t = targets[name];
        const r = await t.run(['contacts', 'list', '--api-key', 'sk_sim_wrong']);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain('(unauthorized, HTTP 401)');
        expect(r.stderr).toContain('vmv config set api_key');
      });
      it('a scoped key without access exits 3', async () => {
        const t = targets[name];
        const key = (await t.run(['sim', 'key', '--scope', 'calls:read'])).stdout.trim();
        expect(key).toMatch(/^sk_sim_/);
        expect((await t.run(['history', 'calls', '--api-key', key])).code).toBe(0);
        const r = await t.run(['contacts', 'list', '--api-key', key]);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain('lacks the contacts:read scope');
      });
      it('a TTY gets an aligned table with a header', async () => {
        const r = await targets[name].run(['contacts', 'list'], { tty: true });
        const lines = r.stdout.split('\n');
        expect(lines[0]).toMatch(/^CONTACT\s+NAME\s+PHONE\s+EMAIL\s+CALLS\s+TEXTS\s+EMAILS\s+LAST CONTACTED$/);
        expect(lines.find((l) => l.includes('Grace Hopper'))!.indexOf('Grace Hopper')).toBe(lines[0].indexOf('NAME'));
        expect(r.stdout).not.toContain('\t');
        expect(r.stdout).not.toContain('\u001b[');
      });
    });
  }

  it('an unreachable base URL exits 4', async () => {
    const r = await targets.remote.run(['contacts', 'list', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9: ECONNREFUSED/);
  });
});
