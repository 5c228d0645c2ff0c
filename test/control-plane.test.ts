// The /_sim control plane as its document describes it: every route answers what GET
// /_sim/openapi.json declares (the contract check runs on every response here), the document's
// examples match their own schemas, and validation explains each field as the /v1 routes do.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contractChecker } from './contract.js';
import { startSim, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const ROUTES = [
  'GET /_sim/health',
  'POST /_sim/reset',
  'GET /_sim/clock',
  'POST /_sim/clock',
  'POST /_sim/clock/advance',
  'POST /_sim/api-keys',
  'POST /_sim/workspaces',
  'GET /_sim/workspace',
  'PATCH /_sim/workspace',
  'POST /_sim/contacts',
  'POST /_sim/suppressions',
  'POST /_sim/calls',
  'POST /_sim/texts',
  'POST /_sim/emails',
  'GET /_sim/emails/{id}',
  'GET /_sim/audit-log',
  'GET /_sim/outbox',
  'GET /_sim/status',
  'GET /_sim/outbox/{id}',
  'GET /_sim/shared-pool',
  'POST /_sim/shared-pool/fill',
  'POST /_sim/inbound/texts',
];

describe('the control plane document', () => {
  it('describes every route with a summary, responses and examples that match their schemas', async () => {
    const doc = (await sim.api('GET', '/_sim/openapi.json')).json;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ ...doc, $id: 'control.json' });
    const checker = await contractChecker();
    for (const r of ROUTES) {
      const [method, path] = r.split(' ');
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, r).toBeDefined();
      expect(op.summary, r).toBeTruthy();
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        r,
      ).toBe(true);
      expect(op.responses['401'], `${r}: a key that is not valid is refused`).toBeDefined();
      const body = op.requestBody?.content['application/json'];
      if (body) {
        const validate = ajv.compile({
          $ref: `control.json#/paths/${path.replace(/\//g, '~1')}/${method.toLowerCase()}/requestBody/content/application~1json/schema`,
        });
        expect(validate(body.example), `${r} request example: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
      for (const [status, res] of Object.entries<any>(op.responses)) {
        const media = res.content?.['application/json'];
        if (!media) continue;
        const x = {
          method,
          url: path,
          status: Number(status),
          contentType: 'application/json',
          body: JSON.stringify(media.example),
        };
        expect(checker.check(x), `${r} ${status} example`).toEqual([]);
      }
    }
  });
});

describe('control plane routes', () => {
  it('answer every route as documented', async () => {
    expect((await sim.api('GET', '/_sim/health', { key: null })).json).toEqual({
      ok: true,
      now: '2026-01-05T09:00:00.000Z',
    });
    expect((await sim.api('POST', '/_sim/clock', { body: { now: '2026-01-05T10:00:00Z' } })).json.now).toBe(
      '2026-01-05T10:00:00.000Z',
    );
    expect((await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 60 } })).json).toEqual({
      now: '2026-01-05T10:01:00.000Z',
      mode: 'manual',
      next_due_at: null,
      next_job_due_at: null,
    });
    const minted = await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['calls:read', 'calls:read'] } });
    expect(minted.status).toBe(201);
    expect(minted.json.scopes).toEqual(['calls:read']);
    const other = await sim.api('POST', '/_sim/workspaces', { body: {} });
    expect(other.status).toBe(201);
    const ws = await sim.api('PATCH', '/_sim/workspace', {
      body: { auto_recharge: true, plan: { assistant: false }, rate_limits: { quick_emails_per_minute: 0 } },
    });
    expect(ws.json.auto_recharge).toEqual({ enabled: true, amount_usd: 25, threshold_usd: 5, card_declined: false });
    expect(ws.json.plan).toEqual({
      content: true,
      assistant: false,
      video_credits_cents: 2000,
      included_minutes: 100,
      included_texts: 100,
      per_minute_usd: 0.1,
      per_text_usd: 0.02,
    });
    const patched = await sim.api('PATCH', '/_sim/workspace', {
      body: { auto_recharge: { enabled: false, amount_usd: 10, threshold_usd: 1 } },
    });
    expect(patched.json.auto_recharge).toEqual({
      enabled: false,
      amount_usd: 10,
      threshold_usd: 1,
      card_declined: false,
    });
    const contact = await sim.api('POST', '/_sim/contacts', {
      body: {
        name: 'Ada Lovelace',
        phone_number: '+15550001111',
        email: 'ada@example.com',
        tags: ['vip'],
        custom_fields: { plan: 'gold' },
        company: 'Engines',
      },
    });
    expect(contact.status).toBe(201);
    expect(contact.json.data).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      company: 'Engines',
      custom_fields: { plan: 'gold' },
    });
    expect(
      (await sim.api('POST', '/_sim/suppressions', { body: { email: 'x@example.com', reason: 'bounce' } })).status,
    ).toBe(201);
    const again = await sim.api('POST', '/_sim/suppressions', { body: { email: 'X@EXAMPLE.COM' } });
    expect([again.status, again.json.data.reason]).toEqual([200, 'bounce']);
    const call = await sim.api('POST', '/_sim/calls', {
      body: {
        direction: 'outbound',
        from_number: '+15550000001',
        to_number: '+15550001111',
        duration_seconds: 30,
        has_recording: true,
        tags: ['interested'],
        transcript_turns: [
          { speaker: 'agent', text: 'Hi' },
          { speaker: 'person', text: 'Hello', seconds_from_start: 2 },
        ],
      },
    });
    expect(call.json.data).toMatchObject({
      status: 'COMPLETED',
      contact_id: contact.json.data.id,
      transcript: 'AI: Hi\nUser: Hello',
    });
    expect(call.json.data.transcript_turns).toEqual([
      { seconds_from_start: null, speaker: 'agent', text: 'Hi' },
      { seconds_from_start: 2, speaker: 'person', text: 'Hello' },
    ]);
    expect(
      (
        await sim.api('POST', '/_sim/texts', {
          body: { direction: 'inbound', from_number: '+15550001111', to_number: '+15550000001', body: 'hi' },
        })
      ).json.data.sender,
    ).toBe('contact');
    expect(
      (
        await sim.api('POST', '/_sim/emails', {
          body: { direction: 'inbound', from_address: 'ADA@example.com', to: 'sales@acme.example' },
        })
      ).json.data.contact_id,
    ).toBe(contact.json.data.id);
    await sim.api('GET', `/v1/calls/${call.json.data.id}/recording`);
    expect((await sim.api('GET', '/_sim/audit-log')).json.data).toMatchObject([
      { action: 'recording.download', resource_id: call.json.data.id },
    ]);
    expect((await sim.api('GET', '/_sim/shared-pool')).json.data).toHaveLength(8);
    const filled = await sim.api('POST', '/_sim/shared-pool/fill', { body: { kind: 'calls', leave: 3 } });
    expect(filled.json.data[0].today.calls).toBe(12);
    const line = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't1' } })).json;
    const received = await sim.api('POST', '/_sim/inbound/texts', {
      body: { from: '+15550001111', to: line.phone_number, body: 'Hello?' },
    });
    expect(received.status).toBe(201);
    expect(received.json.data).toMatchObject({
      direction: 'inbound',
      from_number: '+15550001111',
      to_number: line.phone_number,
      body: 'Hello?',
      phone_number_id: line.id,
    });
    const reset = await sim.api('POST', '/_sim/reset', {
      body: { clock: 'manual', now: '2026-01-05T09:00:00Z', seed: 7 },
    });
    expect(reset.json.now).toBe('2026-01-05T09:00:00.000Z');
    sim.key = reset.json.api_key;
  });

  it("GET /_sim/emails/{id}: an email received or sent, by its id, as the history lists give it; none, or another workspace's, is 404", async () => {
    const received = (
      await sim.api('POST', '/_sim/emails', {
        body: { direction: 'inbound', from_address: 'ada@example.com', to: 'ops@acme.example', subject: 'Invoice' },
      })
    ).json.data;
    const quick = await sim.api('POST', '/v1/quick/emails', {
      body: { to: ['grace@example.com'], subject: 'Hi', body: 'Hello' },
    });
    expect(quick.status, quick.text).toBe(200);
    const [sent] = (await sim.api('GET', '/v1/emails?email=grace@example.com')).json.data;
    for (const e of [received, sent]) {
      const r = await sim.api('GET', `/_sim/emails/${e.id}`);
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual({ data: e });
    }
    const listed = (await sim.api('GET', '/v1/emails?email=ada@example.com')).json.data;
    expect(listed).toEqual([received]);
    const other = (await sim.api('POST', '/_sim/workspaces', { body: { name: 'Other' } })).json;
    const theirs = await sim.api('GET', `/_sim/emails/${received.id}`, { key: other.api_key });
    expect([theirs.status, theirs.json.error.code]).toEqual([404, 'not_found']);
    expect((await sim.api('GET', '/_sim/emails/nope')).status).toBe(404);
  });

  it('answer their own errors as documented', async () => {
    const other = (await sim.api('POST', '/_sim/workspaces', { body: { name: 'Other' } })).json;
    expect((await sim.api('POST', '/_sim/api-keys', { key: other.api_key, body: { workspace_id: 'x' } })).status).toBe(
      403,
    );
    expect((await sim.api('POST', '/_sim/api-keys', { key: null, body: { workspace_id: 'nope' } })).status).toBe(404);
    await sim.api('POST', '/_sim/contacts', { body: { name: 'A', phone_number: '+15550001111' } });
    expect(
      (await sim.api('POST', '/_sim/contacts', { body: { name: 'B', phone_number: '+15550001111' } })).json.error
        .fields,
    ).toEqual({ phone_number: "is already a contact's number" });
    const inbound = await sim.api('POST', '/_sim/inbound/texts', {
      body: { from: '+15550001111', to: '+15550009999', body: 'hi' },
    });
    expect([inbound.status, inbound.json.error.code]).toEqual([404, 'not_found']);
    expect((await sim.api('GET', '/_sim/workspace', { key: 'sk_sim_nope' })).status).toBe(401);
    expect((await sim.api('POST', '/_sim/clock', { body: { now: '2020-01-01T00:00:00Z' } })).json.error.fields).toEqual(
      { now: 'cannot move the clock backwards' },
    );
    expect(
      (
        await sim.api('POST', '/_sim/calls', {
          body: {
            direction: 'inbound',
            from_number: '+15550001111',
            to_number: '+15550000001',
            created_at: '2030-01-01T00:00:00Z',
          },
        })
      ).json.error.fields,
    ).toEqual({ created_at: "must not be in the simulator's future" });
  });

  it('explain every offending field', async () => {
    const fields = async (method: string, path: string, body: unknown) => {
      const r = await sim.api(method, path, { body });
      expect(r.status).toBe(400);
      return r.json.error.fields;
    };
    expect(await fields('POST', '/_sim/calls', {})).toEqual({
      direction: 'is required',
      from_number: 'is required',
      to_number: 'is required',
    });
    expect(await fields('POST', '/_sim/shared-pool/fill', { leave: '3' })).toEqual({
      kind: 'is required',
      leave: 'must be an integer, got string',
    });
    expect(await fields('POST', '/_sim/reset', { clock: 5, now: 5, seed: -1 })).toEqual({
      clock: 'must be one of: real, manual',
      now: 'must be an ISO 8601 timestamp such as 2026-01-31T09:00:00Z',
      seed: 'must be at least 0',
    });
    expect(
      await fields('PATCH', '/_sim/workspace', {
        auto_recharge: 'yes',
        plan: 5,
        rate_limits: { quick_emails_per_minute: 1.5 },
      }),
    ).toEqual({
      auto_recharge: 'must be true or false, or a JSON object, got string',
      plan: 'must be a JSON object, got number',
      'rate_limits.quick_emails_per_minute': 'must be an integer, got number',
    });
    expect(await fields('PATCH', '/_sim/workspace', { auto_recharge: { enabled: 1, amount_usd: 0, foo: 1 } })).toEqual({
      'auto_recharge.enabled': 'must be true or false, got number',
      'auto_recharge.amount_usd': 'must be at least 0.01',
      'auto_recharge.foo': 'is not a known field',
    });
    expect(await fields('POST', '/_sim/contacts', { name: '', tags: [''], custom_fields: [], email: 'bad' })).toEqual({
      name: 'must not be empty',
      'tags[0]': 'must not be empty',
      custom_fields: 'must be an object, got array',
      email: 'must be an email address such as name@example.com',
    });
    expect(
      await fields('POST', '/_sim/calls', {
        direction: 'inbound',
        from_number: '+15550001111',
        to_number: '+15550000001',
        status: 'completed',
        transcript_turns: [{ speaker: 'bot' }, 3],
      }),
    ).toEqual({
      status: 'must be one of: COMPLETED, VOICEMAIL, FAILED, BUSY, CANCELED, IN_PROGRESS, RINGING, QUEUED, NO_ANSWER',
      'transcript_turns[0].speaker': 'must be one of: agent, person',
      'transcript_turns[0].text': 'is required',
      'transcript_turns[1]': 'must be a JSON object, got number',
    });
    expect(await fields('POST', '/_sim/inbound/texts', { from: 'x', body: 'x'.repeat(1601) })).toEqual({
      from: 'must be an E.164 phone number such as +15551234567',
      to: 'is required',
      body: 'must be at most 1600 characters (got 1601)',
    });
  });
});
