// `vmv webhooks create|list|delete|test`, `vmv sim deliveries` and `vmv sim hosts` on both targets (issues 5 and 14).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../src/webhooks.js';
import { useTargets, type CliResult } from './helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const { targets } = useTargets({ resetEach: true });
let rx: Receiver;
beforeAll(async () => (rx = await startReceiver()));
afterAll(() => rx.close());
beforeEach(() => {
  rx.received.length = 0;
  rx.answer = () => ({ status: 200 });
});

/** Secrets are drawn afresh on each target: everything else must match to the byte. */
// (each target's world has its own secrets, so its deliveries their own signatures)
const masked = (s: string) =>
  s.replace(/whsec_[0-9a-f]{48}/g, 'whsec_<secret>').replace(/(Signature-256\W+)[0-9a-f]{64}/g, '$1<signature>');

async function both(args: string[]): Promise<{ embedded: CliResult; remote: CliResult }> {
  const embedded = await targets.embedded.run(args);
  const remote = await targets.remote.run(args);
  const view = (r: CliResult) => ({ code: r.code, stdout: masked(r.stdout), stderr: masked(r.stderr) });
  expect(view(embedded), `vmv ${args.join(' ')}`).toEqual(view(remote));
  return { embedded, remote };
}

describe('vmv webhooks', () => {
  it('create prints the webhook and its secret once; list never shows it', async () => {
    const { embedded, remote } = await both([
      'webhooks',
      'create',
      '--url',
      `${rx.url}/hooks`,
      '--description',
      'CRM sync',
      '--events',
      'call.ended',
    ]);
    expect(embedded.code).toBe(0);
    const id = /^id\t(\S+)$/m.exec(embedded.stdout)![1];
    expect(embedded.stdout).toBe(
      [
        `id\t${id}`,
        'kind\tcall webhook',
        `url\t${rx.url}/hooks`,
        'events\tcall.ended',
        'phone number\t-',
        'description\tCRM sync',
        'created\t2026-01-05T09:00:00.000Z',
        `secret\t${/whsec_[0-9a-f]{48}/.exec(embedded.stdout)![0]}`,
        '',
      ].join('\n'),
    );
    expect(embedded.stderr).toContain('Keep the secret now: it is never shown again');
    expect(/whsec_\S+/.exec(embedded.stdout)![0]).not.toBe(/whsec_\S+/.exec(remote.stdout)![0]);
    const list = await both(['webhooks', 'list']);
    expect(list.embedded.stdout).toBe(`${id}\t${rx.url}/hooks\tcall.ended\t-\t2026-01-05T09:00:00.000Z\tCRM sync\n`);
    const json = await both(['webhooks', 'list', '--json']);
    expect(json.embedded.json).toEqual({
      data: [
        {
          id,
          url: `${rx.url}/hooks`,
          events: ['call.ended'],
          description: 'CRM sync',
          created_at: '2026-01-05T09:00:00.000Z',
        },
      ],
      meta: { page_size: 20 },
    });
    expect(json.embedded.stdout).not.toContain('whsec_');
  });

  it('--sms creates, lists, tests and deletes text webhooks', async () => {
    const c = await both(['webhooks', 'create', '--sms', '--url', `${rx.url}/sms`, '--json']);
    const { id, secret } = c.embedded.json.data;
    expect((await both(['webhooks', 'list'])).embedded.stdout).toBe('');
    expect((await both(['webhooks', 'list', '--sms'])).embedded.stdout).toBe(
      `${id}\t${rx.url}/sms\t-\t2026-01-05T09:00:00.000Z\n`,
    );
    const t = await both(['webhooks', 'test', id, '--sms']);
    expect(t.embedded.stdout).toMatch(/^evt_[0-9a-f-]{36}_received\n$/);
    expect(t.embedded.stderr).toBe(`Sent a signed test sms.received to ${rx.url}/sms\nDelivered: HTTP 200\n`);
    expect(rx.received).toHaveLength(2);
    expect(verifySignature(rx.received[0].body, rx.received[0].headers['x-service-signature-256'], secret)).toBe(true);
    expect(rx.received[0].body.equals(rx.received[1].body)).toBe(true); // the same event on both targets, to the byte
    expect((await both(['webhooks', 'delete', id, '--yes'])).embedded.code).toBe(1); // not a call webhook
    const d = await both(['webhooks', 'delete', id, '--sms', '--yes']);
    expect(d.embedded).toMatchObject({ code: 0, stdout: '', stderr: `Deleted text webhook ${id}\n` });
    expect((await both(['webhooks', 'list', '--sms'])).embedded.stdout).toBe('');
  });

  it('test reports a failed first attempt; sim deliveries shows every attempt as the clock moves', async () => {
    rx.answer = () => ({ status: 500 });
    const id = (await both(['webhooks', 'create', '--url', `${rx.url}/hooks`, '--json'])).embedded.json.data.id;
    const t = await both(['webhooks', 'test', id]);
    expect(t.embedded.code).toBe(1); // issue 9: a test that could not be delivered fails
    expect(t.embedded.stderr).toContain('Not delivered: HTTP 500; retried 1, 5 and 30 minutes after the first attempt');
    const event = t.embedded.stdout.trim();
    await both(['sim', 'advance', '1h']);
    const log = await both(['sim', 'deliveries']);
    expect(
      log.embedded.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(0, 6)),
    ).toEqual(
      [
        ['09:00', 1],
        ['09:01', 2],
        ['09:05', 3],
        ['09:30', 4],
      ].map(([t, n]) => [`2026-01-05T${t}:00.000Z`, String(n), 'call.ended', event, '500', 'HTTP 500']),
    );
    expect((await both(['sim', 'deliveries', '--event', 'evt_other'])).embedded.stdout).toBe('');
    expect((await both(['sim', 'deliveries', '--json'])).embedded.json.data).toHaveLength(4);
    // resend: the first attempt's bytes once more, answered 200 this time; the table names attempts by id
    rx.answer = () => ({ status: 200 });
    const first = log.embedded.stdout.split('\n')[0].split('\t').at(-1)!;
    expect(first).toMatch(/^att_\d+$/);
    const again = await both(['sim', 'deliveries', 'resend', first]);
    expect(again.embedded).toMatchObject({ code: 0, stderr: 'Resent as attempt 5: HTTP 200\n' });
    expect(again.embedded.stdout).toMatch(/^att_\d+\n$/);
    const unknown = await both(['sim', 'deliveries', 'resend', 'att_0']);
    expect(unknown.embedded.code).toBe(1);
    expect(unknown.embedded.stderr).toContain('No delivery attempt att_0');
  });

  it('a quick call on either target delivers its events (the embedded CLI before it exits; the server by the next control-plane reply)', async () => {
    await both(['webhooks', 'create', '--url', `${rx.url}/hooks`]);
    await both(['quick', 'call', '+12025550100', '--goal', 'x']);
    await both(['sim', 'clock']); // a control-plane request waits for the server's deliveries
    expect(rx.received.map((r) => r.json.type)).toEqual(['call.started', 'call.started']);
    await both(['sim', 'advance', '58']);
    expect(rx.received.map((r) => r.json.type)).toEqual(['call.started', 'call.started', 'call.ended', 'call.ended']);
    expect(rx.received[2].body.equals(rx.received[3].body)).toBe(true);
  });

  it('usage and API errors', async () => {
    expect((await both(['webhooks', 'create'])).embedded.code).toBe(2); // no --url
    expect(
      (await both(['webhooks', 'create', '--sms', '--url', 'https://example.com', '--events', 'call.ended'])).embedded
        .code,
    ).toBe(2);
    expect(
      (await both(['webhooks', 'create', '--url', 'https://example.com', '--phone-number-id', 'x'])).embedded.code,
    ).toBe(2);
    const bad = await both(['webhooks', 'create', '--url', 'http://example.com/hooks']);
    expect(bad.embedded.code).toBe(1);
    expect(bad.embedded.stderr).toContain(
      '--url (url): must use https; plain http is accepted only for 127.0.0.0/8, localhost and [::1]',
    );
    const events = await both([
      'webhooks',
      'create',
      '--url',
      'https://example.com',
      '--events',
      'call.started,call.answered',
    ]);
    expect(events.embedded.code).toBe(2); // checked before any request (issue 9)
    expect(events.embedded.stderr).toContain('--events takes one of call.started, call.ended; got "call.answered"');
    expect((await both(['webhooks', 'test', 'nope'])).embedded.code).toBe(1);
  });

  it('targets that are not public (issue 14, item 6): refused at creation, and a name the hosts table resolves privately is refused at delivery', async () => {
    const literal = await both(['webhooks', 'create', '--url', 'https://192.168.1.20/hooks']);
    expect(literal.embedded.code).toBe(1);
    expect(literal.embedded.stderr).toContain(
      '--url (url): must not point at 192.168.1.20, a private address (192.168.0.0/16): webhook targets must be public',
    );
    const set = await both(['sim', 'hosts', 'set', 'Hooks.Example.TEST', '127.0.0.1', '10.9.8.7']);
    expect(set.embedded).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'hooks.example.test resolves to 127.0.0.1, 10.9.8.7\n',
    });
    expect((await both(['sim', 'hosts', 'list'])).embedded.stdout).toBe('hooks.example.test\t127.0.0.1 10.9.8.7\n');
    const id = (await both(['webhooks', 'create', '--url', `https://hooks.example.test:${rx.port}/hooks`, '--json']))
      .embedded.json.data.id;
    const t = await both(['webhooks', 'test', id]);
    expect(t.embedded.code).toBe(1);
    expect(t.embedded.stderr).toContain(
      'Not delivered: refused: hooks.example.test resolves to 10.9.8.7, a private address (10.0.0.0/8); retried 1, 5 and 30 minutes',
    );
    expect(rx.received).toHaveLength(0);
    expect(
      (await both(['sim', 'deliveries', '--json'])).embedded.json.data.map((d: { error: string }) => d.error),
    ).toEqual(['refused: hooks.example.test resolves to 10.9.8.7, a private address (10.0.0.0/8)']);
    const localhost = await both(['sim', 'hosts', 'set', 'localhost', '10.0.0.1']);
    expect(localhost.embedded.code).toBe(1);
    expect(localhost.embedded.stderr).toContain('always means this machine and cannot be mapped');
    expect((await both(['sim', 'hosts', 'unset', 'hooks.example.test'])).embedded).toMatchObject({
      code: 0,
      stderr: 'hooks.example.test is resolved by the system again\n',
    });
    expect((await both(['sim', 'hosts', 'list', '--json'])).embedded.json).toEqual({ data: [] });
    expect((await both(['sim', 'hosts', 'unset', 'hooks.example.test'])).embedded.code).toBe(1);
  });
});
