// The outbox (issue 24, point 7): GET /_sim/outbox and `vmv sim outbox`, on both targets: every
// email, text and call the workspace sent, newest first, whole, filtered by kind and time, one whole
// by id or a unique prefix of it.
import { describe, expect, it } from 'vitest';
import { T0, useTargets } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });

/** An email to two people, a quick text and a quick call, then five minutes for them to run. */
async function sendSome() {
  await both([
    'email',
    'send',
    '--to',
    'ada@example.com',
    '--to',
    'bob@example.com',
    '--subject',
    'Hello',
    '--body',
    'Line one\nLine two',
  ]);
  await both(['sim', 'advance', '1m']);
  await both(['quick', 'text', '+14155550100', '--goal', 'ask about Tuesday']);
  await both(['sim', 'advance', '1m']);
  await both(['quick', 'call', '+14155550101', '--goal', 'confirm the visit']);
  await both(['sim', 'advance', '5m']);
}

describe('vmv sim outbox', () => {
  it('lists every email (one per recipient), text and call sent, newest first, with whole bodies', async () => {
    await sendSome();
    // an inbound text (a person's reply) is not something the workspace sent
    const all = (await both(['sim', 'outbox', '--json'])).json;
    const kinds = all.data.map((m: any) => m.kind);
    expect(kinds).toEqual(['text', 'call', 'text', 'email', 'email']);
    expect(all.meta.total_results).toBe(5);
    const times = all.data.map((m: any) => m.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const email = all.data.find((m: any) => m.kind === 'email' && m.to === 'ada@example.com');
    expect(email).toMatchObject({ subject: 'Hello', body: 'Line one\nLine two', status: 'sent', created_at: T0 });
    expect(email.record).toMatchObject({ id: email.id, direction: 'outbound', source: 'quick' });
    const call = all.data.find((m: any) => m.kind === 'call');
    expect(call.to).toBe('+14155550101');
    expect(call.body).toBe(call.record.transcript);
    expect(call.body).toMatch(/^User: Hello\?\nAI: /);
    for (const m of all.data) expect(m.record.direction).toBe('outbound');

    const table = await both(['sim', 'outbox']);
    const lines = table.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    // (one send to two recipients: the second's record 1 ms after the first's, as records made in
    // one instant get distinct, increasing created_at: docs/spec-silent.md, Incremental sync)
    expect(lines[3]).toMatch(/^email\t[0-9a-f-]{36}\t2026-01-05T09:00:00.001Z\tbob@example.com\tsent\tHello$/);
  });

  it('filters by kind and by time (a time ago on the simulator clock), and pages like other lists', async () => {
    await sendSome();
    const emails = (await both(['sim', 'outbox', '--kind', 'email', '--json'])).json;
    expect(emails.data.map((m: any) => m.to).sort()).toEqual(['ada@example.com', 'bob@example.com']);
    // 7 minutes of simulated time have passed: 6m30s ago leaves out the email, sent at T0
    const recent = (await both(['sim', 'outbox', '--since', '6m30s', '--json'])).json;
    expect(recent.data.map((m: any) => m.kind)).toEqual(['text', 'call', 'text']);
    const old = (await both(['sim', 'outbox', '--before', '2026-01-05T09:01:00Z', '--json'])).json;
    expect(old.data.map((m: any) => m.kind)).toEqual(['email', 'email']);
    // (a cursor is signed with the world's secret: each target's own)
    for (const t of Object.values(targets)) {
      const page = (await t.run(['sim', 'outbox', '--limit', '2', '--json'])).json;
      expect(page.data).toHaveLength(2);
      const next = (await t.run(['sim', 'outbox', '--limit', '2', '--cursor', page.meta.cursor, '--json'])).json;
      expect(next.data[0].id).toBe((await t.run(['sim', 'outbox', '--json'])).json.data[2].id);
    }
    const asc = (await both(['sim', 'outbox', '--asc', '--all', '--limit', '2', '--json'])).json;
    expect(asc.data.map((m: any) => m.kind)).toEqual(['email', 'email', 'text', 'call', 'text']);
    const bad = await both(['sim', 'outbox', '--kind', 'fax']);
    expect(bad.code).toBe(2);
  });

  it('shows one message whole by its id or a unique prefix; an ambiguous prefix lists the candidates', async () => {
    await sendSome();
    const call = (await both(['sim', 'outbox', '--kind', 'call', '--json'])).json.data[0];
    const whole = await both(['sim', 'outbox', call.id]);
    expect(whole.stdout).toContain(`id\t${call.id}\n`);
    expect(whole.stdout).toContain(`body\t${call.body.replace(/\n/g, '\\n')}\n`);
    const short = await both(['sim', 'outbox', call.id.slice(0, 8)]);
    expect(short.stdout).toBe(whole.stdout);
    const tty = await both(['sim', 'outbox', call.id.slice(0, 8)], { tty: true });
    expect(tty.stdout).toContain(`\n\n${call.body}\n`);
    expect((await both(['sim', 'outbox', call.id, '--json'])).json.data).toEqual(call);

    // forty more emails: two of the ids then start with the same character
    const many = Array.from({ length: 40 }, (_, i) => ({
      direction: 'outbound',
      from_address: 'quick@mail.vmv.example',
      to: `p${i}@example.com`,
      subject: `Note ${i}`,
    }));
    expect((await both(['api', 'POST', '/_sim/emails', '--input', '-'], { stdin: JSON.stringify(many) })).code).toBe(0);
    const ids = (await both(['sim', 'outbox', '--all', '--json'])).json.data.map((m: any) => m.id as string);
    const first = ids.map((i: string) => i[0]);
    const shared = first.find((c: string, i: number) => first.indexOf(c) !== i);
    if (shared === undefined) throw new Error('no two ids share a first character');
    const r = await both(['sim', 'outbox', shared]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"${shared}" is the start of`);
    for (const id of ids.filter((i: string) => i.startsWith(shared))) expect(r.stderr).toContain(id);

    const missing = await both(['sim', 'outbox', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Nothing the workspace sent has the id');
  });

  it('an inbound record is not in the outbox, and its id is not found there', async () => {
    const r = await both([
      'api',
      'POST',
      '/_sim/texts',
      '-f',
      'direction=inbound',
      '-f',
      'from_number=+14155550100',
      '-f',
      'to_number=+14155550199',
      '-f',
      'body=hi',
    ]);
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).data.id;
    expect((await both(['sim', 'outbox', '--json'])).json.data).toEqual([]);
    expect((await both(['sim', 'outbox', id])).code).toBe(1);
  });
});

describe('the first id leads somewhere (issue 33, point 3)', () => {
  it("the id `email send` prints shows the send's messages in `sim outbox ID` and `quick status ID`", async () => {
    const sent = await both([
      'email',
      'send',
      '--to',
      'ada@example.com',
      '--to',
      'bob@example.com',
      '--subject',
      'Hi',
      '--body',
      'x',
    ]);
    const id = sent.stdout.trim();
    for (const args of [
      ['sim', 'outbox', id],
      ['quick', 'status', id],
    ]) {
      const r = await both(args);
      expect(r.code, `vmv ${args.join(' ')}: ${r.stderr}`).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines.map((l) => l.split('\t')[3]).sort()).toEqual(['ada@example.com', 'bob@example.com']);
      const j = await both([...args, '--json']);
      expect(j.json.data.map((m: any) => m.record.quick_email_id)).toEqual([id, id]);
    }
    // a text job's id still shows the job; an unknown id is still a 404
    expect((await both(['quick', 'status', '00000000-0000-4000-8000-000000000000'])).code).toBe(1);
  });

  it("`history emails` without --contact or --email lists the workspace's sent emails", async () => {
    await both(['email', 'send', '--to', 'ada@example.com', '--subject', 'Hi', '--body', 'x']);
    const r = await both(['history', 'emails']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\toutbound\tquick\t[^\t]*\tada@example.com\tHi\n$/);
    expect((await both(['history', 'emails', '--json'])).json.data).toMatchObject([{ to: 'ada@example.com' }]);
    expect((await both(['history', 'emails', '--direction', 'inbound'])).code).toBe(2);
  });
});
