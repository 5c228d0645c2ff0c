// Webhooks (issue 5) over HTTP on a manual clock: registration, signed call and text events,
// retries on the simulator clock, redirects, filters, test sends and the delivery log.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postOnce, verifySignature } from '../src/webhooks.js';
import { startSim, T0, type Sim } from './helpers.js';
import { pythonVerifies, startReceiver, type Receiver } from './receiver.js';

let sim: Sim;
let rx: Receiver;
beforeAll(async () => {
  sim = await startSim();
  rx = await startReceiver();
});
afterAll(async () => {
  await sim.stop();
  await rx.close();
});
beforeEach(async () => {
  await sim.reset();
  rx.received.length = 0;
  rx.answer = () => ({ status: 200 });
});

const CALLS = '/v1/voice/calls/webhooks';
const TEXTS = '/v1/sms/webhooks';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const register = async (body: Record<string, unknown>, path = CALLS) => {
  const r = await sim.api('POST', path, { body: { url: `${rx.url}/hooks`, ...body } });
  expect(r.status, r.text).toBe(201);
  return r.json.data as { id: string; secret: string };
};
const quickCall = async (to = '+12025550100') => {
  const r = await sim.api('POST', '/v1/quick/ai-calls', {
    body: { to_numbers: [to], goal: 'Confirm Tuesday', contact_name: 'Ada Lovelace' },
  });
  expect(r.status, r.text).toBe(201);
  await sim.flush(); // API replies never wait for deliveries; a control-plane request does
  return (await sim.api('GET', `/v1/quick/actions/${r.json.data.id}`)).json.data.targets[0].last_call_id as string;
};
/** The delivery log, each attempt without its id and request (the tests of those are "the request as sent, and resend"). */
const log = async (query = '') =>
  ((await sim.api('GET', `/_sim/webhook-deliveries${query}`)).json.data as any[]).map(
    ({ id: _i, webhook_id: _w, request: _r, resend_of: _s, ...d }) => d,
  );
/** An AI number of the workspace, ready (provisioning takes a simulated minute). */
const aiNumber = async (area = '415') => {
  const r = await sim.api('POST', '/v1/quick/ai-numbers', { body: { area_code: area, handle_texts: true } });
  await sim.advance(60);
  return (await sim.api('GET', `/v1/quick/ai-numbers/${r.json.data.id}`)).json.data as {
    id: number;
    phone_number: string;
  };
};
const textTo = (to: string, from = '+12025550177', body = 'Do you open on Saturdays?') =>
  sim.api('POST', '/_sim/inbound/texts', { body: { from, to, body } });

describe('registration', () => {
  it('a call webhook: 201 with the secret once; events default to both; the list never shows the secret', async () => {
    const r = await sim.api('POST', CALLS, { body: { url: 'https://example.com/hooks', description: 'CRM sync' } });
    expect(r.status).toBe(201);
    expect(r.json.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://example.com/hooks',
      events: ['call.started', 'call.ended'],
      // for every number: phone_number_id (an integer in the spec) is left out, not null (issue 23, point 1)
      description: 'CRM sync',
      created_at: T0,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/),
    });
    expect(r.json.data).not.toHaveProperty('phone_number_id');
    const list = await sim.api('GET', CALLS);
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ data: [{ ...r.json.data, secret: undefined }], meta: { page_size: 20 } });
    expect(list.text).not.toContain('whsec_');
    expect(list.text).not.toContain('secret');
  });

  it('secrets are drawn afresh: two webhooks, two secrets, and never the same after a reset', async () => {
    const a = await register({});
    const b = await register({});
    expect(a.secret).not.toBe(b.secret);
    await sim.reset();
    const c = await register({});
    expect(c.id).toBe(a.id); // ids are simulation: seeded
    expect(c.secret).not.toBe(a.secret); // secrets are credentials
  });

  it('a text webhook: url and phone_number_id; listed and deleted like call webhooks', async () => {
    const n = await aiNumber();
    const r = await sim.api('POST', TEXTS, { body: { url: 'https://example.com/sms', phone_number_id: n.id } });
    expect(r.status).toBe(201);
    expect(r.json.data).toEqual({
      id: expect.any(String),
      url: 'https://example.com/sms',
      phone_number_id: n.id,
      created_at: at(60),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect((await sim.api('GET', TEXTS)).json.data).toEqual([
      { id: r.json.data.id, url: 'https://example.com/sms', phone_number_id: n.id, created_at: at(60) },
    ]);
    expect((await sim.api('GET', CALLS)).json.data).toEqual([]);
    const del = await sim.api('DELETE', `${TEXTS}/${r.json.data.id}`);
    expect(del.json).toEqual({ data: { id: r.json.data.id, deleted: true } });
    expect((await sim.api('DELETE', `${TEXTS}/${r.json.data.id}`)).status).toBe(404);
    expect(
      (await sim.api('POST', TEXTS, { body: { url: 'https://example.com/sms', events: ['sms.received'] } })).json.error
        .fields,
    ).toEqual({ events: 'is not a known field' });
  });

  it('the url must be http(s): https anywhere, http only on loopback hosts', async () => {
    for (const url of [
      'https://example.com/h',
      'http://127.0.0.1:9/h',
      'http://127.4.5.6/h',
      'http://localhost:8080/h',
      'http://[::1]:3000/h',
      'HTTPS://EXAMPLE.COM',
    ])
      expect((await sim.api('POST', CALLS, { body: { url } })).status, url).toBe(201);
    for (const url of [
      'http://example.com/h',
      'http://10.0.0.1/h',
      'http://127.0.0.1.example.com/h',
      'ftp://example.com/h',
      'example.com/hooks',
      '/hooks',
      '',
      'https://user:pw@example.com/',
      42,
    ]) {
      const r = await sim.api('POST', CALLS, { body: { url } });
      expect(r.status, String(url)).toBe(400);
      expect(Object.keys(r.json.error.fields)).toEqual(['url']);
    }
    // the URL parser drops tabs and line breaks anywhere: such a URL is refused, not stored as sent
    for (const url of ['http://loc\nalhost/h', 'https://exa\tmple.com/h', 'https://example.com/h\r\nX-Evil: 1'])
      expect((await sim.api('POST', CALLS, { body: { url } })).json.error.fields, JSON.stringify(url)).toEqual({
        url: 'must not contain control characters (tabs, line breaks)',
      });
    expect((await sim.api('POST', CALLS, { body: {} })).json.error.fields).toEqual({ url: 'is required' });
    expect((await sim.api('POST', TEXTS, { body: { url: 'http://example.com/' } })).json.error.fields.url).toContain(
      'https',
    );
  });

  it('events, phone_number_id and description are checked; unknown fields are 400', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await sim.api('POST', CALLS, { body: { url: 'https://example.com/', ...body } });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.fields[field], JSON.stringify(r.json.error.fields)).toBeDefined();
    };
    await bad({ events: [] }, 'events');
    await bad({ events: ['call.answered'] }, 'events[0]');
    await bad({ events: ['sms.received'] }, 'events[0]');
    await bad({ events: 'call.ended' }, 'events');
    await bad({ phone_number_id: '1001' }, 'phone_number_id');
    await bad({ phone_number_id: 1001 }, 'phone_number_id'); // no such number in this workspace
    await bad({ description: 'x'.repeat(501) }, 'description');
    await bad({ secret: 'whsec_mine' }, 'secret');
    const r = await sim.api('POST', CALLS, {
      body: { url: 'https://example.com/', events: ['call.ended', 'call.ended'] },
    });
    expect(r.json.data.events).toEqual(['call.ended']);
  });

  it('at most 25 call webhooks per workspace: the 26th is 409; another workspace has its own 25', async () => {
    for (let i = 0; i < 25; i++) await register({});
    const r = await sim.api('POST', CALLS, { body: { url: 'https://example.com/' } });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('webhook_limit_exceeded');
    expect((await sim.api('GET', `${CALLS}?limit=100`)).json.data).toHaveLength(25);
    const other = (await sim.api('POST', '/_sim/workspaces', { body: {} })).json.api_key;
    expect((await sim.api('POST', CALLS, { body: { url: 'https://example.com/' }, key: other })).status).toBe(201);
    const first = (await sim.api('GET', `${CALLS}?limit=1&order=asc`)).json;
    expect(first.meta.cursor).toBeDefined();
    await sim.api('DELETE', `${CALLS}/${first.data[0].id}`);
    expect((await sim.api('POST', CALLS, { body: { url: 'https://example.com/' } })).status).toBe(201);
  });

  it('needs a full-access key; another workspace sees, deletes and tests none of them', async () => {
    const w = await register({});
    const scoped = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['calls:read', 'sms:read'] } })).json.key;
    for (const [m, p] of [
      ['POST', CALLS],
      ['GET', CALLS],
      ['DELETE', `${CALLS}/${w.id}`],
      ['POST', `${CALLS}/${w.id}/test`],
      ['POST', TEXTS],
      ['GET', TEXTS],
    ] as const)
      expect(
        (await sim.api(m, p, { key: scoped, body: m === 'GET' ? undefined : { url: 'https://example.com/' } })).status,
        `${m} ${p}`,
      ).toBe(403);
    const other = (await sim.api('POST', '/_sim/workspaces', { body: {} })).json.api_key;
    expect((await sim.api('GET', CALLS, { key: other })).json.data).toEqual([]);
    expect((await sim.api('DELETE', `${CALLS}/${w.id}`, { key: other })).status).toBe(404);
    expect((await sim.api('POST', `${CALLS}/${w.id}/test`, { key: other })).status).toBe(404);
    expect((await sim.api('GET', CALLS, { key: null })).status).toBe(401);
  });

  it('Idempotency-Key replays the creation (secret included) instead of registering twice', async () => {
    const h = { 'idempotency-key': 'a6c1a8c2-0d43-4a8a-8a54-6a3d1d2a9c11' };
    const a = await sim.api('POST', CALLS, { body: { url: 'https://example.com/' }, headers: h });
    const b = await sim.api('POST', CALLS, { body: { url: 'https://example.com/' }, headers: h });
    expect(b.headers.get('idempotency-replay')).toBe('true');
    expect(b.text).toBe(a.text);
    expect((await sim.api('GET', CALLS)).json.data).toHaveLength(1);
  });
});

describe('call events', () => {
  it("a quick call delivers call.started, then call.ended, signed (checked here and by python3's hmac)", async () => {
    const { secret } = await register({});
    const callId = await quickCall();
    // the first delivery is immediate: it has arrived when the request that made the call replies
    expect(rx.received).toHaveLength(1);
    await sim.advance(58); // rings 6 s, talks 52 s
    expect(rx.received).toHaveLength(2);
    const [started, ended] = rx.received;
    for (const [r, type, suffix] of [
      [started, 'call.started', 'started'],
      [ended, 'call.ended', 'ended'],
    ] as const) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/hooks');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-service-event']).toBe(type);
      expect(r.headers['x-service-event-id']).toBe(`evt_${callId}_${suffix}`);
      const sig = r.headers['x-service-signature-256'] as string;
      expect(sig).toBe(createHmac('sha256', secret).update(r.body).digest('hex'));
      expect(verifySignature(r.body, sig, secret)).toBe(true);
      expect(pythonVerifies(r.body, sig, secret)).toBe(true);
      expect(
        pythonVerifies(
          r.body,
          sig,
          secret.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
        ),
      ).toBe(false);
      expect(Object.keys(r.json)).toEqual(['id', 'type', 'created_at', 'test', 'data']);
    }
    const contact = started.json.data.contact;
    expect(contact).toEqual({
      id: expect.any(String),
      name: 'Ada Lovelace',
      phone_number: '+12025550100',
      email: null,
    });
    expect(started.json).toEqual({
      id: `evt_${callId}_started`,
      type: 'call.started',
      created_at: T0,
      test: false,
      data: {
        call: {
          id: callId,
          direction: 'outbound',
          status: 'RINGING',
          from_number: expect.stringMatching(/^\+1415555015\d$/),
          to_number: '+12025550100',
          // a shared number is no number of the account: the key is left out, never null (issue 23, point 1)
          started_at: null,
          ended_at: null,
          duration_seconds: null,
        },
        contact,
      },
    });
    const record = (await sim.api('GET', `/v1/calls/${callId}`)).json.data;
    expect(ended.json).toEqual({
      id: `evt_${callId}_ended`,
      type: 'call.ended',
      created_at: at(58),
      test: false,
      data: {
        call: {
          ...started.json.data.call,
          status: 'COMPLETED',
          started_at: at(6),
          ended_at: at(58),
          duration_seconds: 52,
          end_reason: 'hangup',
        },
        contact,
        transcript: record.transcript,
        transcript_turns: record.transcript_turns,
      },
    });
    expect(ended.json.data.transcript).toMatch(/^User: Hello\?\nAI: /);
    // the recording, summary and tags are not included
    expect(ended.body.toString()).not.toMatch(/summary|tags|recording/);
    expect(await log()).toEqual([
      {
        event_id: `evt_${callId}_started`,
        type: 'call.started',
        url: `${rx.url}/hooks`,
        attempt: 1,
        status_code: 200,
        error: null,
        at: T0,
      },
      {
        event_id: `evt_${callId}_ended`,
        type: 'call.ended',
        url: `${rx.url}/hooks`,
        attempt: 1,
        status_code: 200,
        error: null,
        at: at(58),
      },
    ]);
  });

  it('every attempt of a call gets its events: a busy line retried, and a call canceled while ringing', async () => {
    await register({});
    const r = await sim.api('POST', '/v1/quick/ai-calls', {
      body: { to_numbers: ['+12025550104', '+12025550102'], goal: 'x', retry_attempts: 1, retry_delay_minutes: 1 },
    });
    await sim.advance(2 + 60);
    const types = rx.received.map((x) => `${x.json.type} ${x.json.data.call.to_number} ${x.json.data.call.status}`);
    expect(types).toEqual([
      'call.started +12025550104 RINGING',
      'call.started +12025550102 RINGING',
      'call.ended +12025550104 BUSY',
      'call.ended +12025550102 NO_ANSWER',
      'call.started +12025550104 RINGING',
    ]);
    await sim.api('POST', `/v1/quick/actions/${r.json.data.id}/cancel`, { body: {} });
    await sim.flush();
    expect(
      rx.received.slice(5).map((x) => `${x.json.type} ${x.json.data.call.status} ${x.json.data.call.end_reason}`),
    ).toEqual(['call.ended CANCELED canceled']);
    // a call that never connected: started when it was placed, ended when it gave up, 0 s (issue 14, item 4)
    const busy = rx.received[2].json.data.call;
    expect(busy).toMatchObject({ duration_seconds: 0, end_reason: 'busy' });
    expect(busy.started_at).toBe(rx.received[0].json.created_at);
    expect(Date.parse(busy.ended_at)).toBeGreaterThan(Date.parse(busy.started_at));
    for (const e of rx.received.filter((x) => x.json.type === 'call.ended'))
      for (const k of ['started_at', 'ended_at', 'duration_seconds'])
        expect(e.json.data.call[k], `${e.json.data.call.status} ${k}`).not.toBeNull();
    expect(rx.received[2].json.data).toMatchObject({ transcript: '', transcript_turns: [] });
  });

  it('events: a webhook gets only the types it subscribes to', async () => {
    await register({ events: ['call.ended'] });
    const callId = await quickCall();
    expect(rx.received).toHaveLength(0);
    await sim.advance(58);
    expect(rx.received.map((r) => r.json.id)).toEqual([`evt_${callId}_ended`]);
  });

  it("phone_number_id: a filtered call webhook does not get calls from shared numbers; another workspace's call reaches no one here", async () => {
    const n = await aiNumber();
    await register({ phone_number_id: n.id });
    await quickCall();
    await sim.advance(60);
    const other = (await sim.api('POST', '/_sim/workspaces', { body: {} })).json.api_key;
    await register({});
    await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100'], goal: 'x' }, key: other });
    await sim.advance(60);
    expect(rx.received).toHaveLength(0);
    expect(await log()).toEqual([]);
  });
});

describe('sms.received', () => {
  it("a text to an AI number arrives signed, with the number's id and the (new) contact", async () => {
    const n = await aiNumber();
    const { secret } = await register({}, TEXTS);
    const sent = await textTo(n.phone_number);
    expect(sent.status).toBe(201);
    expect(rx.received).toHaveLength(1);
    const [r] = rx.received;
    const messageId = sent.json.data.id;
    expect(r.headers['x-service-event']).toBe('sms.received');
    expect(r.headers['x-service-event-id']).toBe(`evt_${messageId}_received`);
    expect(verifySignature(r.body, r.headers['x-service-signature-256'], secret)).toBe(true);
    expect(pythonVerifies(r.body, r.headers['x-service-signature-256'] as string, secret)).toBe(true);
    expect(r.json).toEqual({
      id: `evt_${messageId}_received`,
      type: 'sms.received',
      created_at: at(60),
      test: false,
      data: {
        message_id: messageId,
        from: '+12025550177',
        to: n.phone_number,
        phone_number_id: n.id,
        body: 'Do you open on Saturdays?',
        received_at: at(60),
        contact: { id: expect.any(String), name: '+12025550177', phone_number: '+12025550177', email: null },
      },
    });
    // the agent's answer is outbound: no event
    await sim.advance(60);
    expect(rx.received).toHaveLength(1);
  });

  it('a reply on a quick text thread (a shared number) arrives without phone_number_id; the scripted reply too', async () => {
    await register({}, TEXTS);
    const job = (
      await sim.api('POST', '/v1/quick/ai-texts', { body: { to_numbers: ['+12025550100'], goal: 'Book a visit' } })
    ).json.data;
    expect(rx.received).toHaveLength(0); // the opener is outbound
    await sim.advance(120); // 0100 replies after 2 minutes
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].json.data).toMatchObject({ from: '+12025550100', to: job.from_number });
    expect(rx.received[0].json.data).not.toHaveProperty('phone_number_id'); // (issue 23, point 1)
    await textTo(job.from_number, '+12025550100', 'One more thing');
    expect(rx.received.map((r) => r.json.data.body)).toEqual([expect.any(String), 'One more thing']);
  });

  it('phone_number_id filters text webhooks by the number texted', async () => {
    const a = await aiNumber('415');
    const b = await aiNumber('212');
    await register({ phone_number_id: b.id }, TEXTS);
    await textTo(a.phone_number);
    expect(rx.received).toHaveLength(0);
    await textTo(b.phone_number);
    expect(rx.received.map((r) => r.json.data.to)).toEqual([b.phone_number]);
  });
});

describe('the request as sent, and resend', () => {
  it('the log keeps each attempt whole: the bytes and headers the receiver got, signed with the secret', async () => {
    const hook = await register({ events: ['call.ended'] });
    const callId = await quickCall();
    await sim.advance(120);
    const [d] = (await sim.api('GET', `/_sim/webhook-deliveries?event_id=evt_${callId}_ended`)).json.data;
    const got = rx.received.find((r) => r.json.id === `evt_${callId}_ended`)!;
    expect(d).toMatchObject({ id: expect.stringMatching(/^att_\d+$/), webhook_id: hook.id, resend_of: null });
    expect(d.request.method).toBe('POST');
    expect(d.request.body).toBe(got.body.toString());
    for (const [k, v] of Object.entries(d.request.headers as Record<string, string>))
      expect(got.headers[k.toLowerCase()], k).toBe(v);
    expect(verifySignature(d.request.body, d.request.headers['X-Service-Signature-256'], hook.secret)).toBe(true);
  });

  it('resend sends the same bytes once more as a new attempt, not retried when it fails; unknown ids are 404', async () => {
    await register({ events: ['call.started'] });
    const callId = await quickCall();
    const [first] = (await sim.api('GET', '/_sim/webhook-deliveries')).json.data;
    rx.answer = () => ({ status: 503 });
    const r = await sim.api('POST', `/_sim/webhook-deliveries/${first.id}/resend`, { body: {} });
    expect(r.status, r.text).toBe(202);
    expect(r.json.data).toEqual({
      resend_of: first.id,
      webhook_id: first.webhook_id,
      event_id: `evt_${callId}_started`,
      attempt: 2,
    });
    // the control plane's reply waited for the attempt
    const all = (await sim.api('GET', '/_sim/webhook-deliveries')).json.data;
    expect(all.map((d: any) => [d.attempt, d.status_code, d.resend_of])).toEqual([
      [1, 200, null],
      [2, 503, first.id],
    ]);
    expect(rx.received.map((x) => x.body.toString())).toEqual([first.request.body, first.request.body]);
    await sim.advance(3600);
    expect(rx.received).toHaveLength(2);
    const missing = await sim.api('POST', '/_sim/webhook-deliveries/att_999999/resend', { body: {} });
    expect(missing.status).toBe(404);
  });

  it('resending to a deleted webhook is 409: there is nowhere to send it', async () => {
    const hook = await register({ events: ['call.started'] });
    await quickCall();
    const [first] = (await sim.api('GET', '/_sim/webhook-deliveries')).json.data;
    expect((await sim.api('DELETE', `${CALLS}/${hook.id}`)).status).toBe(200);
    const r = await sim.api('POST', `/_sim/webhook-deliveries/${first.id}/resend`, { body: {} });
    expect(r.status).toBe(409);
    expect(r.json.error.message).toContain('deleted');
  });
});

describe('retries', () => {
  it('a receiver answering 500 gets exactly 4 attempts, at +0, +1, +5 and +30 minutes, and no fifth', async () => {
    rx.answer = () => ({ status: 500 });
    await register({ events: ['call.started'] });
    const callId = await quickCall();
    expect(rx.received).toHaveLength(1);
    await sim.advance(59);
    expect(rx.received).toHaveLength(1);
    await sim.advance(1);
    expect(rx.received).toHaveLength(2);
    await sim.advance(4 * 60);
    expect(rx.received).toHaveLength(3);
    await sim.advance(25 * 60);
    expect(rx.received).toHaveLength(4);
    await sim.advance(7 * 86400);
    expect(rx.received).toHaveLength(4);
    // every attempt sends the same bytes, signed alike
    expect(new Set(rx.received.map((r) => r.body.toString())).size).toBe(1);
    expect(new Set(rx.received.map((r) => r.headers['x-service-signature-256'])).size).toBe(1);
    const id = `evt_${callId}_started`;
    expect(await log()).toEqual(
      [0, 1, 5, 30].map((m, i) => ({
        event_id: id,
        type: 'call.started',
        url: `${rx.url}/hooks`,
        attempt: i + 1,
        status_code: 500,
        error: 'HTTP 500',
        at: at(m * 60),
      })),
    );
    expect((await sim.api('GET', '/_sim/clock')).json.next_due_at).toBeNull();
  });

  it('one long advance makes every attempt that fell due, each logged at its own time', async () => {
    rx.answer = () => ({ status: 503 });
    await register({ events: ['call.started'] });
    await quickCall();
    await sim.advance(3600);
    expect(rx.received).toHaveLength(4);
    expect((await log()).map((d) => [d.attempt, d.at, d.status_code])).toEqual([
      [1, at(0), 503],
      [2, at(60), 503],
      [3, at(300), 503],
      [4, at(1800), 503],
    ]);
  });

  it('a success ends the retries', async () => {
    rx.answer = () => ({ status: rx.received.length <= 2 ? 500 : 204 });
    await register({ events: ['call.started'] });
    await quickCall();
    await sim.advance(3600);
    expect((await log()).map((d) => [d.attempt, d.status_code, d.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 204, null],
    ]);
  });

  it('a redirect is not followed and counts as a failure', async () => {
    const elsewhere = await startReceiver();
    try {
      rx.answer = () => ({ status: 302, headers: { location: `${elsewhere.url}/moved` } });
      await register({ events: ['call.started'] });
      await quickCall();
      await sim.advance(60);
      expect(rx.received).toHaveLength(2);
      expect(elsewhere.received).toHaveLength(0);
      expect((await log())[0]).toMatchObject({
        attempt: 1,
        status_code: 302,
        error: `redirect to ${elsewhere.url}/moved not followed`,
      });
    } finally {
      await elsewhere.close();
    }
  });

  it('a receiver that cannot be reached is retried; its attempts log no status', async () => {
    const gone = await startReceiver();
    const url = `${gone.url}/hooks`;
    await gone.close();
    await register({ url, events: ['call.started'] });
    await quickCall();
    await sim.advance(60);
    expect((await log()).map((d) => [d.attempt, d.status_code, d.error])).toEqual([
      [1, null, 'ECONNREFUSED'],
      [2, null, 'ECONNREFUSED'],
    ]);
  });

  it('an attempt without a response in time fails (10 s for the simulator; shortened here)', async () => {
    const silent = createServer(() => {}); // takes the request and never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const r = await postOnce(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, '{}', {}, 200);
      expect(r).toEqual({ status: null, error: 'no response within 0.2 s' });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('deleting a webhook drops its pending retries', async () => {
    rx.answer = () => ({ status: 500 });
    const w = await register({ events: ['call.started'] });
    await quickCall();
    await sim.api('DELETE', `${CALLS}/${w.id}`);
    await sim.advance(3600);
    expect(rx.received).toHaveLength(1);
  });

  it('the delivery log is per workspace, and can be narrowed to one event', async () => {
    await register({});
    const callId = await quickCall();
    await sim.advance(60);
    expect(await log(`?event_id=evt_${callId}_ended`)).toHaveLength(1);
    const other = (await sim.api('POST', '/_sim/workspaces', { body: {} })).json.api_key;
    expect((await sim.api('GET', '/_sim/webhook-deliveries', { key: other })).json.data).toEqual([]);
    expect((await sim.api('GET', '/_sim/webhook-deliveries?limit=5')).status).toBe(400);
  });
});

describe("the library's verifySignature", () => {
  it('is exported by the built package, checks the raw body exactly, and refuses malformed headers', async () => {
    const lib = '../dist/index.js'; // the package's "exports" entry, as users import it
    const { verifySignature: verify } = (await import(lib)) as { verifySignature: typeof verifySignature };
    const body = Buffer.from('{"id":"evt_1","type":"call.started"}');
    const secret = 'whsec_0123';
    const sig = createHmac('sha256', secret).update(body).digest('hex');
    expect(verify(body, sig, secret)).toBe(true);
    expect(verify(body.toString(), sig.toUpperCase(), secret)).toBe(true);
    expect(verify(body, [sig], secret)).toBe(true);
    expect(verify(Buffer.from('{"id": "evt_1","type":"call.started"}'), sig, secret)).toBe(false); // re-serialised JSON is another body
    expect(verify(body, sig, 'whsec_0124')).toBe(false);
    for (const bad of [undefined, null, '', 'sha256=' + sig, sig.slice(0, 63), sig + '0', 'z'.repeat(64)])
      expect(verify(body, bad as string, secret)).toBe(false);
  });
});

describe('test sends', () => {
  it('a call webhook test sends a signed call.ended sample with test true', async () => {
    const w = await register({});
    const r = await sim.api('POST', `${CALLS}/${w.id}/test`);
    expect(r.status).toBe(200);
    expect(rx.received).toHaveLength(1);
    const [got] = rx.received;
    expect(r.json.data).toEqual({ event_id: got.json.id, type: 'call.ended', test: true, url: `${rx.url}/hooks` });
    expect(got.headers['x-service-event']).toBe('call.ended');
    expect(verifySignature(got.body, got.headers['x-service-signature-256'], w.secret)).toBe(true);
    expect(pythonVerifies(got.body, got.headers['x-service-signature-256'] as string, w.secret)).toBe(true);
    expect(got.json).toMatchObject({
      type: 'call.ended',
      test: true,
      created_at: T0,
      data: { call: { status: 'COMPLETED', duration_seconds: 12 }, transcript: expect.stringMatching(/^AI: /) },
    });
    expect(got.json.id).toBe(`evt_${got.json.data.call.id}_ended`);
    expect(Object.keys(got.json.data)).toEqual(['call', 'contact', 'transcript', 'transcript_turns']);
    expect(await log()).toEqual([
      {
        event_id: got.json.id,
        type: 'call.ended',
        url: `${rx.url}/hooks`,
        attempt: 1,
        status_code: 200,
        error: null,
        at: T0,
      },
    ]);
  });

  it('call.started when that is the only subscribed event; the number filter shows in the sample', async () => {
    const n = await aiNumber();
    const w = await register({ events: ['call.started'], phone_number_id: n.id });
    await sim.api('POST', `${CALLS}/${w.id}/test`);
    expect(rx.received[0].json).toMatchObject({
      type: 'call.started',
      test: true,
      data: {
        call: {
          status: 'RINGING',
          started_at: null,
          ended_at: null,
          duration_seconds: null,
          phone_number_id: n.id,
          from_number: n.phone_number,
        },
      },
    });
  });

  it('a text webhook test sends a signed sms.received sample on a real number of the workspace (issue 23, point 1)', async () => {
    await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } });
    await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't1' } });
    const w = await register({}, TEXTS);
    const first = (await sim.api('GET', '/v1/phone-numbers')).json.data.sort((a: any, b: any) => a.id - b.id)[0];
    const r = await sim.api('POST', `${TEXTS}/${w.id}/test`, { body: {} });
    expect(r.json.data.type).toBe('sms.received');
    const [got] = rx.received;
    expect(verifySignature(got.body, got.headers['x-service-signature-256'], w.secret)).toBe(true);
    expect(Number.isInteger(first?.id)).toBe(true);
    expect(got.json).toMatchObject({
      type: 'sms.received',
      test: true,
      data: {
        message_id: expect.any(String),
        phone_number_id: first.id,
        to: first.phone_number,
        contact: { name: 'Sample Contact' },
      },
    });
    expect(got.json.id).toBe(`evt_${got.json.data.message_id}_received`);
    expect((await sim.api('POST', `${TEXTS}/nope/test`)).status).toBe(404);
    expect((await sim.api('POST', `${TEXTS}/${w.id}/test`, { body: { type: 'x' } })).status).toBe(400);
  });

  it("in a workspace with no number, a sample keeps the spec's shape: phone_number_id 0 (issue 32, point 3)", async () => {
    expect((await sim.api('GET', '/v1/phone-numbers')).json.data).toEqual([]);
    const calls = await register({});
    await sim.api('POST', `${CALLS}/${calls.id}/test`);
    const texts = await register({}, TEXTS);
    await sim.api('POST', `${TEXTS}/${texts.id}/test`, { body: {} });
    const [call, text] = rx.received.map((r) => r.json);
    expect(call).toMatchObject({ type: 'call.ended', test: true, data: { call: { phone_number_id: 0 } } });
    expect(text).toMatchObject({ type: 'sms.received', test: true, data: { phone_number_id: 0 } });
  });

  it('a test send to a failing receiver is retried like any delivery', async () => {
    rx.answer = () => ({ status: 500 });
    const w = await register({});
    await sim.api('POST', `${CALLS}/${w.id}/test`);
    await sim.advance(3600);
    expect(rx.received.every((r) => r.json.test === true)).toBe(true);
    expect(rx.received).toHaveLength(4);
  });
});

describe('on a real clock', () => {
  it('the server delivers what falls due by itself, without any request (a busy line ends 2 s after dialing)', async () => {
    const real = await startSim({ clock: 'real' });
    try {
      await real.api('POST', CALLS, { body: { url: `${rx.url}/real` } });
      await real.api('POST', '/v1/quick/ai-calls', {
        body: { to_numbers: ['+12025550104'], goal: 'x', retry_attempts: 0 },
      });
      const got = await rx.waitFor(2);
      expect(got.map((r) => `${r.json.type} ${r.json.data.call.status}`)).toEqual([
        'call.started RINGING',
        'call.ended BUSY',
      ]);
    } finally {
      await real.stop();
    }
  });
});

describe('an API reply never waits for a receiver', () => {
  it('a receiver that never answers does not hold up the request that caused its event', async () => {
    const { createServer } = await import('node:http');
    const hang = createServer(() => {}); // accepts, never answers
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = hang.address() as AddressInfo;
      expect((await sim.api('POST', CALLS, { body: { url: `http://127.0.0.1:${port}/h` } })).status).toBe(201);
      const started = Date.now();
      const r = await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100'], goal: 'x' } });
      expect(r.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(5000); // well under the 10 s delivery timeout
    } finally {
      hang.closeAllConnections();
      hang.close();
    }
  });
});

describe('events for every kind of call (after the merge with voice calls and inbound calls)', () => {
  it('a voice call from a verified caller ID delivers call.started then call.ended, signed', async () => {
    const hook = await register({});
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    const call = (
      await sim.api('POST', '/v1/voice/calls', { body: { caller_id: '+12025551111', destination: '+12025550100' } })
    ).json.data;
    await sim.advance(120);
    await sim.flush();
    const mine = rx.received.filter((e) => JSON.parse(e.body.toString()).data.call.id === call.id);
    expect(mine.map((e) => e.headers['x-service-event'])).toEqual(['call.started', 'call.ended']);
    for (const e of mine)
      expect(verifySignature(e.body.toString(), e.headers['x-service-signature-256'] as string, hook.secret)).toBe(
        true,
      );
    expect(JSON.parse(mine[1].body.toString()).data.call).toMatchObject({
      direction: 'outbound',
      status: 'COMPLETED',
      duration_seconds: 52,
    });
  });

  it('an inbound call to a number delivers both events with its phone_number_id; transcript null when transcription is off', async () => {
    await register({});
    const n = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json;
    await sim.api('PATCH', `/v1/phone-numbers/${n.id}/config`, {
      body: { call_settings: { transcription_enabled: false } },
    });
    await sim.api('POST', '/_sim/inbound/calls', { body: { from: '+12025559000', to: n.phone_number } });
    await sim.advance(300);
    const events = rx.received.map((e) => JSON.parse(e.body.toString()));
    expect(events.map((e) => e.type)).toEqual(['call.started', 'call.ended']);
    expect(events[0].data.call).toMatchObject({
      direction: 'inbound',
      phone_number_id: n.id,
      status: 'RINGING',
      started_at: null,
    });
    expect(events[1].data.transcript).toBeNull();
    expect(events[1].data.transcript_turns).toEqual([]);
    expect(events[1].data.call.status).toBe('COMPLETED');
  });

  it('a voice call placed from a number without transcription has neither transcript nor turns', async () => {
    await register({});
    const n = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json;
    await sim.api('PATCH', `/v1/phone-numbers/${n.id}/config`, {
      body: { call_settings: { transcription_enabled: false } },
    });
    const call = (
      await sim.api('POST', '/v1/voice/calls', { body: { caller_id: n.phone_number, destination: '+12025550100' } })
    ).json.data;
    await sim.advance(120);
    const ended = rx.received.map((e) => JSON.parse(e.body.toString())).find((e) => e.type === 'call.ended');
    expect(ended.data).toMatchObject({ transcript: null, transcript_turns: [] });
    expect((await sim.api('GET', `/v1/calls/${call.id}`)).json.data).toMatchObject({
      transcript: '',
      transcript_turns: [],
    });
  });

  it('verifySignature is false, not a crash, without a secret; a URL with spaces around it is refused', async () => {
    expect(verifySignature('{}', 'a'.repeat(64), undefined as unknown as string)).toBe(false);
    expect(verifySignature('{}', 'a'.repeat(64), '')).toBe(false);
    const r = await sim.api('POST', CALLS, { body: { url: ' https://example.com/hooks ' } });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.url).toMatch(/spaces/);
  });
});

describe('where deliveries may go (issue 14, item 6): public addresses, and this machine for local receivers', () => {
  /** A TCP listener on 127.0.0.1 that counts the connections made to it (and closes them): whether a delivery reached it at all. */
  const tcpCounter = async () => {
    const { createServer: tcp } = await import('node:net');
    const counter = { connections: 0, port: 0, close: () => new Promise<void>((r) => server.close(() => r())) };
    const server = tcp((socket) => {
      counter.connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    counter.port = (server.address() as AddressInfo).port;
    return counter;
  };
  const setHost = (name: string, addresses: string[]) => sim.api('PUT', `/_sim/hosts/${name}`, { body: { addresses } });

  // each range, in each spelling a URL can give it: the rule named in fields.url
  const REFUSED: [url: string, rule: string][] = [
    ['https://10.1.2.3/h', 'a private address (10.0.0.0/8)'],
    ['https://172.16.0.1/h', 'a private address (172.16.0.0/12)'],
    ['https://172.31.255.255/h', 'a private address (172.16.0.0/12)'],
    ['https://192.168.1.20:8443/h', 'a private address (192.168.0.0/16)'],
    ['https://169.254.169.254/latest/meta-data', 'a link-local address (169.254.0.0/16)'],
    ['https://100.64.0.1/h', 'a shared (carrier-grade NAT) address (100.64.0.0/10)'],
    ['https://100.127.255.254/h', 'a shared (carrier-grade NAT) address (100.64.0.0/10)'],
    ['https://0.0.0.0/h', 'an unspecified address (0.0.0.0/8)'],
    ['https://0.1.2.3/h', 'an unspecified address (0.0.0.0/8)'],
    ['https://224.0.0.251/h', 'a multicast address (224.0.0.0/4)'],
    ['https://239.255.255.250/h', 'a multicast address (224.0.0.0/4)'],
    ['https://240.0.0.1/h', 'a reserved address (240.0.0.0/4)'],
    ['https://255.255.255.255/h', 'the broadcast address (255.255.255.255/32)'],
    ['https://192.0.2.10/h', 'a documentation address (192.0.2.0/24)'],
    ['https://198.18.0.1/h', 'a benchmarking address (198.18.0.0/15)'],
    ['https://[fc00::1]/h', 'a unique local (private) address (fc00::/7)'],
    ['https://[fd12:3456:789a::1]/h', 'a unique local (private) address (fc00::/7)'],
    ['https://[fe80::1]/h', 'a link-local address (fe80::/10)'],
    ['https://[febf:ffff::1]/h', 'a link-local address (fe80::/10)'],
    ['https://[ff02::1]/h', 'a multicast address (ff00::/8)'],
    ['https://[::]/h', 'the unspecified address (::/128)'],
    ['https://[0:0:0:0:0:0:0:0]/h', 'the unspecified address (::/128)'],
    ['https://[2001:db8::1]/h', 'a documentation address (2001:db8::/32)'],
    ['https://[fbff::1]/h', 'an address outside IPv6 global unicast (2000::/3)'],
    ['https://[4000::1]/h', 'an address outside IPv6 global unicast (2000::/3)'],
    // IPv4 inside IPv6: mapped, compatible, NAT64, 6to4
    ['https://[::ffff:10.0.0.1]/h', 'a private address (10.0.0.0/8)'],
    ['https://[::ffff:a9fe:a9fe]/h', 'a link-local address (169.254.0.0/16)'],
    ['https://[::ffff:0.0.0.0]/h', 'an unspecified address (0.0.0.0/8)'],
    ['https://[::10.0.0.1]/h', 'a deprecated IPv4-compatible address (::/96)'],
    ['https://[64:ff9b::192.168.0.1]/h', 'a private address (192.168.0.0/16) in NAT64 form (64:ff9b::/96)'],
    ['https://[64:ff9b::127.0.0.1]/h', 'a loopback address (127.0.0.0/8) in NAT64 form (64:ff9b::/96)'],
    ['https://[2002:a9fe:a9fe::1]/h', 'a link-local address (169.254.0.0/16) in 6to4 form (2002::/16)'],
    // odd IPv4 spellings the URL parser turns into the address they mean
    ['https://167772161/h', 'a private address (10.0.0.0/8)'],
    ['https://0xA9.0xFE.0xA9.0xFE/h', 'a link-local address (169.254.0.0/16)'],
    ['https://0300.0250.0.1/h', 'a private address (192.168.0.0/16)'],
    ['https://10.1/h', 'a private address (10.0.0.0/8)'],
    ['https://192.168.1.1./h', 'a private address (192.168.0.0/16)'],
    ['http://0/h', 'an unspecified address (0.0.0.0/8)'],
    ['http://10.0.0.1:8080/h', 'a private address (10.0.0.0/8)'],
  ];

  it('registering a URL at an address that is not public is 400, the rule named on fields.url (call and text webhooks)', async () => {
    for (const [url, rule] of REFUSED) {
      for (const path of [CALLS, TEXTS]) {
        const r = await sim.api('POST', path, { body: { url } });
        expect(r.status, `${path} ${url}`).toBe(400);
        expect(r.json.error.code).toBe('validation_error');
        expect(Object.keys(r.json.error.fields), url).toEqual(['url']);
        expect(r.json.error.fields.url, url).toMatch(/^must not point at \S+, /);
        expect(r.json.error.fields.url, url).toContain(
          `, ${rule}: webhook targets must be public (loopback is allowed for local receivers)`,
        );
      }
    }
    expect(
      (await sim.api('POST', CALLS, { body: { url: 'https://[::ffff:10.0.0.1]/h' } })).json.error.fields.url,
    ).toMatch(/^must not point at ::ffff:a00:1, /);
    expect((await sim.api('GET', CALLS)).json.data).toEqual([]);
    expect((await sim.api('GET', TEXTS)).json.data).toEqual([]);
  });

  it('plain http is refused off this machine, naming the rule; https to a public address or name, and loopback over http or https, are accepted', async () => {
    for (const url of [
      'http://example.com/h',
      'http://8.8.8.8/h',
      'http://[2606:4700:4700::1111]/h',
      'http://localhost.example.com/h',
    ]) {
      const r = await sim.api('POST', CALLS, { body: { url } });
      expect(r.status, url).toBe(400);
      expect(r.json.error.fields, url).toEqual({
        url: 'must use https; plain http is accepted only for 127.0.0.0/8, localhost and [::1]',
      });
    }
    const accepted = [
      'https://example.com/h',
      'https://8.8.8.8/h',
      'https://[2606:4700:4700::1111]/h',
      // the neighbours of refused ranges
      'https://172.32.0.1/h',
      'https://172.15.255.255/h',
      'https://100.128.0.1/h',
      'https://100.63.255.255/h',
      'https://223.255.255.255/h',
      'https://[2000::1]/h',
      'https://[2a00:1450:4001::1]/h',
      'https://[64:ff9b::8.8.8.8]/h',
      'https://[::ffff:8.8.8.8]/h',
      // this machine
      'http://127.0.0.1:3000/h',
      'http://127.255.255.254/h',
      'http://localhost:8080/h',
      'http://[::1]:3000/h',
      'http://2130706433/h',
      'http://0x7f.1/h',
      'https://127.0.0.1/h',
      'https://localhost/h',
      'https://[::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      // loopback however it is written: a final dot, IPv4 inside IPv6
      'http://localhost./h',
      'http://127.0.0.1./h',
      'http://[::ffff:7f00:1]/h',
      'http://[::ffff:127.9.9.9]/h',
    ];
    for (const url of accepted) {
      for (const path of [CALLS, TEXTS]) {
        const r = await sim.api('POST', path, { body: { url } });
        expect(r.status, `${path} ${url}`).toBe(201);
        expect((await sim.api('DELETE', `${path}/${r.json.data.id}`)).status).toBeLessThan(300); // a workspace holds at most 25
      }
    }
  });

  it('a name resolving to a private address at delivery time: the attempt is logged as refused and no connection is made', async () => {
    const port = await tcpCounter();
    try {
      // one address of this machine, one private: every address is judged, and one refused address refuses the name
      expect((await setHost('hooks.example.test', ['127.0.0.1', '10.20.30.40'])).status).toBe(200);
      const w = await register({ url: `https://hooks.example.test:${port.port}/hooks` });
      const t = await sim.api('POST', `${CALLS}/${w.id}/test`);
      expect(t.status).toBe(200);
      expect(await log()).toEqual([
        {
          event_id: t.json.data.event_id,
          type: 'call.ended',
          url: `https://hooks.example.test:${port.port}/hooks`,
          attempt: 1,
          status_code: null,
          error: 'refused: hooks.example.test resolves to 10.20.30.40, a private address (10.0.0.0/8)',
          at: T0,
        },
      ]);
      expect(port.connections).toBe(0);
      // the same name resolving to this machine only: the attempt connects, to the address the table gives (TLS then fails: a counter is no https server)
      await setHost('hooks.example.test', ['127.0.0.1']);
      await sim.api('POST', `${CALLS}/${w.id}/test`);
      expect(port.connections).toBe(1);
      const second = (await log()).at(-1);
      expect(second.error).not.toMatch(/^refused/);
      expect(second.status_code).toBeNull();
    } finally {
      await port.close();
    }
  });

  it('a refused attempt is retried like a failed one, each retry judged afresh: a name put right meanwhile gets the event', async () => {
    const port = await tcpCounter();
    try {
      await setHost('hooks.example.test', ['fd00::7']);
      await register({ url: `https://hooks.example.test:${port.port}/`, events: ['call.started'] });
      await quickCall();
      await sim.advance(5 * 60); // attempts 1 (+0), 2 (+1 min), 3 (+5 min)
      expect((await log()).map((d) => [d.attempt, d.status_code, d.error])).toEqual(
        [1, 2, 3].map((n) => [
          n,
          null,
          'refused: hooks.example.test resolves to fd00::7, a unique local (private) address (fc00::/7)',
        ]),
      );
      expect(port.connections).toBe(0);
      await setHost('hooks.example.test', ['127.0.0.1']);
      await sim.advance(25 * 60); // attempt 4 (+30 min), the last
      expect(port.connections).toBe(1);
      expect((await log()).map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
      expect((await log())[3].error).not.toMatch(/^refused/);
    } finally {
      await port.close();
    }
  });

  it('a name in the hosts table is judged by the table, every IPv4 and IPv6 form alike; an event to a loopback name is delivered', async () => {
    for (const [address, rule] of [
      ['192.168.7.7', '192.168.0.0/16'],
      ['::ffff:172.20.0.1', '172.16.0.0/12'],
      ['169.254.1.1', '169.254.0.0/16'],
      ['fe80::9', 'fe80::/10'],
      ['0.0.0.0', '0.0.0.0/8'],
      ['::', '::/128'],
    ] as const) {
      await setHost('api.partner.test', [address]);
      const w = await register({ url: 'https://api.partner.test/hooks' }, TEXTS);
      await sim.api('POST', `${TEXTS}/${w.id}/test`);
      const last = (await log()).at(-1);
      expect(last.error, address).toContain(`refused: api.partner.test resolves to ${address}, `);
      expect(last.error, address).toContain(`(${rule})`);
      await sim.api('DELETE', `${TEXTS}/${w.id}`);
    }
    // localhost is this machine: plain http to it delivers
    const w = await register({ url: `http://localhost:${rx.port}/local` }, TEXTS);
    await sim.api('POST', `${TEXTS}/${w.id}/test`);
    expect(rx.received.map((r) => r.path)).toEqual(['/local']);
    expect((await log()).at(-1)).toMatchObject({ status_code: 200, error: null });
  });

  it('the hosts table: set (names as URLs give them), list by name, replace, remove; bad names and addresses are 400; a reset empties it', async () => {
    expect((await sim.api('GET', '/_sim/hosts')).json).toEqual({ data: [] });
    const put = await setHost('Hooks.Example.TEST.', ['203.0.113.7', '2001:db8::7', '203.0.113.7']);
    expect(put.json).toEqual({ data: { name: 'hooks.example.test', addresses: ['203.0.113.7', '2001:db8::7'] } });
    await setHost('a.example.test', ['198.51.100.1']);
    await setHost('hooks.example.test', ['8.8.8.8']);
    expect((await sim.api('GET', '/_sim/hosts')).json.data).toEqual([
      { name: 'a.example.test', addresses: ['198.51.100.1'] },
      { name: 'hooks.example.test', addresses: ['8.8.8.8'] },
    ]);
    expect((await setHost('bücher.example', ['8.8.4.4'])).json.data.name).toBe('xn--bcher-kva.example');
    expect((await sim.api('DELETE', '/_sim/hosts/HOOKS.example.test')).status).toBe(204);
    expect((await sim.api('DELETE', '/_sim/hosts/hooks.example.test')).status).toBe(404);
    const bad = async (name: string, body: unknown, fields: Record<string, string>) => {
      const r = await sim.api('PUT', `/_sim/hosts/${encodeURIComponent(name)}`, { body });
      expect(r.status, name).toBe(400);
      expect(r.json.error.fields, name).toEqual(fields);
    };
    await bad('localhost', { addresses: ['10.0.0.1'] }, { name: 'always means this machine and cannot be mapped' });
    await bad('LocalHost.', { addresses: ['10.0.0.1'] }, { name: 'always means this machine and cannot be mapped' });
    await bad(
      '10.0.0.1',
      { addresses: ['8.8.8.8'] },
      { name: 'is an address, not a name: a URL with an address is judged by that address' },
    );
    await bad('[::1]', { addresses: ['8.8.8.8'] }, { name: 'must be a host name such as hooks.example.com' });
    for (const name of ['a b.test', 'user@a.test', 'a.test:443', 'foo.123'])
      await bad(name, { addresses: ['8.8.8.8'] }, { name: 'must be a host name such as hooks.example.com' });
    // a slash, even escaped (%2F), never reaches a route: the door has one spelling of a path (issue 31)
    const slash = await sim.api('PUT', `/_sim/hosts/${encodeURIComponent('a/b.test')}`, {
      body: { addresses: ['8.8.8.8'] },
    });
    expect([slash.status, slash.json.error.code]).toEqual([400, 'bad_request']);
    await bad('x'.repeat(254), { addresses: ['8.8.8.8'] }, { name: 'must be at most 253 characters (got 254)' });
    const ADDRESS = 'must be an IPv4 or IPv6 address such as 93.184.215.14 or 2606:2800:21f:cb07::1';
    await bad(
      'ok.test',
      { addresses: ['010.0.0.1', 'fe80::1%eth0', 'example.com', '1.2.3'] },
      { 'addresses[0]': ADDRESS, 'addresses[1]': ADDRESS, 'addresses[2]': ADDRESS, 'addresses[3]': ADDRESS },
    );
    await bad('ok.test', { addresses: [] }, { addresses: 'must have at least one item' });
    await bad('ok.test', {}, { addresses: 'is required' });
    await bad(
      'ok.test',
      { addresses: Array.from({ length: 17 }, (_, i) => `8.8.8.${i}`) },
      { addresses: 'must have at most 16 items (got 17)' },
    );
    await sim.reset();
    expect((await sim.api('GET', '/_sim/hosts')).json).toEqual({ data: [] });
  });

  it('the hosts table holds at most 1000 names: one more is 409, a name already in it can still change', async () => {
    for (let i = 0; i < 1000; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          sim.api('PUT', `/_sim/hosts/h${i + j}.test`, { body: { addresses: ['8.8.8.8'] } }),
        ),
      );
    const over = await sim.api('PUT', '/_sim/hosts/one-more.test', { body: { addresses: ['8.8.8.8'] } });
    expect(over.status).toBe(409);
    expect(over.json.error).toMatchObject({
      code: 'hosts_limit_exceeded',
      message: expect.stringContaining('at most 1000 names'),
    });
    expect((await sim.api('PUT', '/_sim/hosts/h7.test', { body: { addresses: ['1.1.1.1'] } })).status).toBe(200);
    expect((await sim.api('GET', '/_sim/hosts')).json.data).toHaveLength(1000);
  }, 120_000); // 1,001 saved writes: about 20 s under a load of 12 on 2 cores
});
