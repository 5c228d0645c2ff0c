// Phone numbers (list, search, release), voice calls (caller-ID verification, hangup), and the
// inbound behaviour the configuration drives (issue 4, parts 2-4), over HTTP on a manual clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, T0, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const addNumber = async (stack: 't1' | 't2' = 't2', phone_number?: string) =>
  (await sim.api('POST', '/_sim/phone-numbers', { body: { stack, phone_number } })).json as {
    id: number;
    phone_number: string;
  };
const patch = (id: number, body: unknown) => sim.api('PATCH', `/v1/phone-numbers/${id}/config`, { body });
const call = async (id: string) => (await sim.api('GET', `/v1/calls/${id}`)).json.data;
const inbound = (body: Record<string, unknown>) =>
  sim.api('POST', '/_sim/inbound/calls', { body: { from: '+12025559000', ...body } });
const CALLER = '+12025559000';
/** T0 is 09:00 UTC: 09:00 in London (office hours) and 04:00 in New York (after hours). */
const IN_HOURS = 'Europe/London';

describe('GET /v1/phone-numbers', () => {
  it("lists the workspace's ready numbers with integer ids in the list envelope", async () => {
    const a = await addNumber('t1');
    const b = await addNumber('t2');
    const r = (await sim.api('GET', '/v1/phone-numbers')).json;
    expect(r.data.map((n: any) => n.id)).toEqual([b.id, a.id]);
    expect(r.data[1]).toMatchObject({
      id: a.id,
      phone_number: a.phone_number,
      stack: 't1',
      status: 'ready',
      is_active: true,
    });
    expect(r.meta).toMatchObject({ page_size: 20, total_results: 2 });
    expect((await sim.api('GET', '/v1/phone-numbers?limit=1')).json.meta.cursor).toBeDefined();
  });
});

describe('GET /v1/phone-numbers/search', () => {
  it('returns up to limit (default 20) numbers of the simulated inventory, deterministically', async () => {
    const r = await sim.api('GET', '/v1/phone-numbers/search?area_code=415');
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(12); // the area code's stock
    expect(r.json.data[0]).toEqual({
      phone_number: expect.stringMatching(/^\+1415\d{7}$/),
      locality: 'San Francisco',
      region: 'CA',
      features: ['voice', 'sms', 'mms'],
    });
    expect(r.json.meta).toEqual({ page_size: 20 });
    expect((await sim.api('GET', '/v1/phone-numbers/search?area_code=415')).json).toEqual(r.json);
    const all = await sim.api('GET', '/v1/phone-numbers/search?limit=50');
    expect(all.json.data).toHaveLength(50);
    expect((await sim.api('GET', '/v1/phone-numbers/search?country=ca&limit=3')).json.data[0].region).toMatch(
      /ON|QC|BC|AB/,
    );
    const free = await sim.api('GET', '/v1/phone-numbers/search?type=tollFree&area_code=800&limit=2');
    expect(free.json.data[0]).toMatchObject({
      phone_number: expect.stringMatching(/^\+1800/),
      locality: 'Toll-free',
      features: ['voice', 'sms'],
    });
    expect((await sim.api('GET', '/v1/phone-numbers/search?area_code=999')).json.data).toEqual([]);
  });
  it('checks each query constraint: 2-letter country, 3-digit area code, limit 1-50, type', async () => {
    const bad = async (q: string, field: string) => {
      const r = await sim.api('GET', `/v1/phone-numbers/search?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.fields[field], q).toBeDefined();
    };
    await bad('country=USA', 'country');
    await bad('country=FR', 'country');
    await bad('area_code=41', 'area_code');
    await bad('area_code=4155', 'area_code');
    await bad('limit=0', 'limit');
    await bad('limit=51', 'limit');
    await bad('type=landline', 'type');
    await bad('type=tollFree&area_code=415', 'area_code');
    await bad('contains=555', 'contains');
  });
  it('a number in use is not offered', async () => {
    const first = (await sim.api('GET', '/v1/phone-numbers/search?area_code=212&limit=1')).json.data[0].phone_number;
    await addNumber('t1', first);
    const next = (await sim.api('GET', '/v1/phone-numbers/search?area_code=212')).json.data.map(
      (n: any) => n.phone_number,
    );
    expect(next).not.toContain(first);
    expect(next).toHaveLength(11);
  });
});

describe('DELETE /v1/phone-numbers/{id}', () => {
  it('releases the number, deletes its call data and recordings, and removes the record', async () => {
    const n = await addNumber();
    const other = await addNumber();
    const c1 = (await inbound({ to: n.phone_number })).json.data;
    const c2 = (await inbound({ to: other.phone_number })).json.data;
    await sim.advance(120);
    expect((await sim.api('GET', `/v1/calls/${c1.id}/recording`)).status).toBe(200);
    const r = await sim.api('DELETE', `/v1/phone-numbers/${n.id}`);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({
      id: n.id,
      phone_number: n.phone_number,
      released: true,
      deleted_call_count: 1,
    });
    expect((await sim.api('GET', `/v1/calls/${c1.id}`)).status).toBe(404);
    expect((await sim.api('GET', `/v1/calls/${c1.id}/recording`)).status).toBe(404);
    expect((await sim.api('GET', `/v1/calls/${c2.id}`)).status).toBe(200);
    expect((await sim.api('GET', `/v1/phone-numbers/${n.id}/config`)).status).toBe(404);
    expect((await sim.api('GET', '/v1/phone-numbers')).json.data.map((x: any) => x.id)).toEqual([other.id]);
    expect((await inbound({ to: n.phone_number })).status).toBe(404);
    expect((await sim.api('DELETE', `/v1/phone-numbers/${n.id}`)).status).toBe(404);
  });
  it('an AI number released while still provisioning gets its line refunded', async () => {
    const id = (await sim.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415' } })).json.data.id;
    expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(45);
    expect((await sim.api('DELETE', `/v1/phone-numbers/${id}`)).status).toBe(200);
    expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(50);
    await sim.advance(120);
    expect((await sim.api('GET', '/v1/phone-numbers')).json.data).toEqual([]);
  });
});

describe('voice calls', () => {
  it('a caller ID that is not verified is 422 caller_id_not_verified', async () => {
    const r = await sim.api('POST', '/v1/voice/calls', {
      body: { caller_id: '+12025551111', destination: '+12025550100' },
    });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('caller_id_not_verified');
  });
  it("a verified caller ID places the call, masked as the caller; it follows the destination's scenario", async () => {
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    const r = await sim.api('POST', '/v1/voice/calls', {
      body: { caller_id: '+12025551111', destination: '+12025550100', metadata: { ticket: 42 } },
    });
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({
      direction: 'outbound',
      status: 'RINGING',
      from_number: '+12025551111',
      to_number: '+12025550100',
      metadata: { ticket: 42 },
      created_at: T0,
    });
    const id = r.json.data.id;
    await sim.advance(6);
    expect((await call(id)).status).toBe('IN_PROGRESS');
    await sim.advance(52 + 5);
    expect(await call(id)).toMatchObject({
      status: 'COMPLETED',
      duration_seconds: 52,
      has_recording: true,
      tags: ['interested'],
    });
    expect(
      (await sim.api('GET', `/v1/history/calls?phone_number=${encodeURIComponent('+12025550100')}`)).json.data,
    ).toHaveLength(1);
  });
  it("the workspace's own numbers are verified caller IDs; record false leaves no recording", async () => {
    const n = await addNumber();
    const r = await sim.api('POST', '/v1/voice/calls', {
      body: { caller_id: n.phone_number, destination: '+12025550100', record: false },
    });
    expect(r.status).toBe(201);
    expect(r.json.data.phone_number_id).toBe(n.id);
    await sim.advance(60);
    expect((await call(r.json.data.id)).has_recording).toBe(false);
  });
  it('busy, rings out and fails as the scenario numbers say', async () => {
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    const ids: string[] = [];
    for (const d of ['+12025550104', '+12025550102', '+12025550106', '+12025550103'])
      ids.push(
        (await sim.api('POST', '/v1/voice/calls', { body: { caller_id: '+12025551111', destination: d } })).json.data
          .id,
      );
    await sim.advance(60);
    expect(await Promise.all(ids.map(async (i) => (await call(i)).status))).toEqual([
      'BUSY',
      'NO_ANSWER',
      'FAILED',
      'VOICEMAIL',
    ]);
  });
  it('validation: caller_id and destination are required E.164; metadata is an object', async () => {
    const r = await sim.api('POST', '/v1/voice/calls', { body: { destination: '123', metadata: [] } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.error.fields).sort()).toEqual(['caller_id', 'destination', 'metadata']);
  });
});

describe('hangup', () => {
  const place = async (destination: string) => {
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    return (await sim.api('POST', '/v1/voice/calls', { body: { caller_id: '+12025551111', destination } })).json.data
      .id as string;
  };
  it('a ringing call ends canceled', async () => {
    const id = await place('+12025550100');
    const r = await sim.api('POST', `/v1/voice/calls/${id}/hangup`);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ status: 'CANCELED', end_reason: 'hangup' });
    await sim.advance(120);
    expect((await call(id)).status).toBe('CANCELED'); // nothing rings on
  });
  it('an in-progress call ends completed with the time so far', async () => {
    const id = await place('+12025550100');
    await sim.advance(6 + 20);
    const r = await sim.api('POST', `/v1/voice/calls/${id}/hangup`);
    expect(r.json.data).toMatchObject({ status: 'COMPLETED', duration_seconds: 20, end_reason: 'hangup' });
    expect(r.json.data.transcript_turns.every((t: any) => t.seconds_from_start <= 20)).toBe(true);
    await sim.advance(10);
    expect(await call(id)).toMatchObject({ summary: 'The call was hung up after 20 s.', tags: [] });
  });
  it('only a ringing or in-progress call: otherwise 409; unknown 404', async () => {
    const id = await place('+12025550104');
    await sim.advance(5);
    const r = await sim.api('POST', `/v1/voice/calls/${id}/hangup`);
    expect(r.status).toBe(409);
    expect(r.json.error.message).toMatch(/BUSY/);
    expect((await sim.api('POST', '/v1/voice/calls/nope/hangup')).status).toBe(404);
  });
  // issue 23, point 9: the spec's hangup ends any ringing or in-progress call, a quick job's too
  const quickJob = async (to: string, body: Record<string, unknown> = {}) =>
    (await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: [to], goal: 'confirm Tuesday', ...body } })).json
      .data.id as string;
  const jobRead = async (id: string) => (await sim.api('GET', `/v1/quick/actions/${id}`)).json.data;
  const wallet = async () => (await sim.api('GET', '/_sim/workspace')).json.wallet_usd as number;
  it("a quick job's ringing call ends CANCELED; its target records it, canceled, and is not dialled again", async () => {
    const job = await quickJob('+12025550102', { retry_attempts: 2 }); // 0102 rings out: it would be retried
    const qcall = (await jobRead(job)).targets[0].last_call_id;
    const r = await sim.api('POST', `/v1/voice/calls/${qcall}/hangup`);
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ id: qcall, status: 'CANCELED', end_reason: 'hangup' });
    const j = await jobRead(job);
    expect(j.targets[0]).toMatchObject({ status: 'canceled', end_reason: 'canceled', attempts: 1 });
    expect(j.targets[0]).not.toHaveProperty('live_call_status');
    expect(j).toMatchObject({ status: 'completed', counts: { canceled: 1 } });
    await sim.advance(3600);
    expect((await jobRead(job)).targets[0].attempts).toBe(1);
    expect((await sim.api('GET', '/v1/calls')).json.data).toHaveLength(1);
  });
  it("a quick job's connected call ends COMPLETED with the time so far, billed by the second; its target answered", async () => {
    const before = await wallet();
    const job = await quickJob('+12025550100'); // answers after 6 s, would talk 52 s and meet the goal
    const qcall = (await jobRead(job)).targets[0].last_call_id;
    await sim.advance(6 + 30);
    expect((await jobRead(job)).targets[0].live_call_status).toBe('in_progress');
    const r = await sim.api('POST', `/v1/voice/calls/${qcall}/hangup`);
    expect(r.json.data).toMatchObject({ status: 'COMPLETED', duration_seconds: 30, end_reason: 'hangup' });
    expect(r.json.data.transcript_turns.every((t: any) => t.seconds_from_start <= 30)).toBe(true);
    expect(r.json.data.transcript_turns.length).toBeGreaterThan(0);
    const j = await jobRead(job);
    expect(j.targets[0]).toMatchObject({ status: 'completed', end_reason: 'answered', goal_achieved: false });
    expect(j.cost_usd).toBe(0.3); // 0.20 placed + 30 s at 0.20 a minute
    expect(await wallet()).toBeCloseTo(before - 0.3, 2);
    await sim.advance(60);
    expect((await jobRead(job)).targets[0].summary).toEqual(expect.any(String));
    expect((await call(qcall)).status).toBe('COMPLETED');
    // ended: a second hangup is 409
    expect((await sim.api('POST', `/v1/voice/calls/${qcall}/hangup`)).status).toBe(409);
  });
  it("a quick job's call hung up while the agent leaves a voicemail ends VOICEMAIL; its target no_answer/voicemail, not retried", async () => {
    const job = await quickJob('+12025550103', { voicemail_enabled: true, retry_attempts: 2 }); // voicemail after 20 s
    const qcall = (await jobRead(job)).targets[0].last_call_id;
    await sim.advance(20 + 2);
    expect((await jobRead(job)).targets[0].live_call_status).toBe('voicemail');
    const r = await sim.api('POST', `/v1/voice/calls/${qcall}/hangup`);
    expect(r.json.data).toMatchObject({ status: 'VOICEMAIL', end_reason: 'hangup', duration_seconds: 2 });
    expect((await jobRead(job)).targets[0]).toMatchObject({
      status: 'no_answer',
      end_reason: 'voicemail',
      attempts: 1,
    });
    await sim.advance(3600);
    expect((await jobRead(job)).targets[0].attempts).toBe(1);
  });
});

describe('inbound calls, driven by the configuration', () => {
  const finish = async (r: any, seconds = 600) => {
    await sim.advance(seconds);
    return call(r.json.data.id);
  };

  it("the AI agent answers with the number's greeting; every setting of call_settings applies; history has the record", async () => {
    const n = await addNumber();
    await patch(n.id, { voice: { greeting_message: 'Acme, how can I help?' } });
    const r = await inbound({ to: n.phone_number, says: 'Do you open on Saturday?' });
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({
      direction: 'inbound',
      status: 'RINGING',
      from_number: CALLER,
      to_number: n.phone_number,
      phone_number_id: n.id,
    });
    expect(r.json.routing).toMatchObject({ handled_by: 'ai' });
    const c = await finish(r);
    expect(c).toMatchObject({ status: 'COMPLETED', has_recording: true, tags: ['interested'] });
    expect(c.transcript_turns[0]).toEqual({ speaker: 'agent', text: 'Acme, how can I help?', seconds_from_start: 0 });
    expect(c.transcript_turns[1]).toMatchObject({ speaker: 'person', text: 'Do you open on Saturday?' });
    expect(c.summary).toMatch(/Saturday/);
    expect(
      (await sim.api('GET', `/v1/history/calls?phone_number=${encodeURIComponent(CALLER)}`)).json.data,
    ).toHaveLength(1);
    // recording, transcription and summaries off
    await patch(n.id, {
      call_settings: {
        recording_enabled: false,
        transcription_enabled: false,
        summaries_enabled: false,
        max_call_length_seconds: 30,
      },
    });
    const off = await finish(await inbound({ to: n.phone_number }));
    expect(off).toMatchObject({
      has_recording: false,
      transcript: '',
      transcript_turns: [],
      summary: '',
      tags: [],
      duration_seconds: 30,
    });
  });

  it('is_active false: the number does not answer', async () => {
    const n = await addNumber();
    await patch(n.id, { is_active: false });
    const r = await inbound({ to: n.phone_number });
    expect(r.json.routing.handled_by).toBe('nobody');
    const c = await finish(r);
    expect(c).toMatchObject({ status: 'NO_ANSWER', duration_seconds: 0, has_recording: false });
  });

  it('an AI number created without handle_calls does not answer', async () => {
    const id = (await sim.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415', handle_calls: false } })).json
      .data.id;
    await sim.advance(60);
    const phone = (await sim.api('GET', `/v1/quick/ai-numbers/${id}`)).json.data.phone_number;
    expect((await finish(await inbound({ to: phone }))).status).toBe('NO_ANSWER');
  });

  it('changes apply from the next call', async () => {
    const n = await addNumber();
    const first = await inbound({ to: n.phone_number });
    await patch(n.id, { is_active: false });
    expect((await finish(first)).status).toBe('COMPLETED');
    expect((await finish(await inbound({ to: n.phone_number }))).status).toBe('NO_ANSWER');
  });

  describe('the phone menu answers instead of the AI', () => {
    const menu = (options: unknown[], extra: Record<string, unknown> = {}) => ({
      ivr: {
        enabled: true,
        greeting: 'Welcome to Acme.',
        timeout_seconds: 5,
        max_attempts: 2,
        fallback: { type: 'hangup' },
        menus: [{ name: 'Main', options }],
        ...extra,
      },
    });
    it('routes by the pressed key to a transfer', async () => {
      const n = await addNumber();
      await patch(
        n.id,
        menu([
          { key: '1', label: 'sales', action: { type: 'transfer', phone_number: '+12025550100' } },
          { key: '2', label: 'the assistant', action: { type: 'ai_agent' } },
        ]),
      );
      const r = await inbound({ to: n.phone_number, digits: '1' });
      expect(r.json.routing).toMatchObject({
        handled_by: 'ivr',
        transferred_to: '+12025550100',
        end_reason: 'transferred',
      });
      const c = await finish(r);
      expect(c).toMatchObject({ status: 'COMPLETED', end_reason: 'transferred', tags: ['transferred'] });
      expect(c.transcript_turns[0].text).toMatch(/^Welcome to Acme\. Press 1 for sales, press 2 for the assistant\.$/);
      expect((await inbound({ to: n.phone_number, digits: '2' })).json.routing.handled_by).toBe('ai');
    });
    it("a transfer nobody answers goes to the option's fallback number", async () => {
      const n = await addNumber();
      await patch(
        n.id,
        menu([
          {
            key: '1',
            label: 'sales',
            action: { type: 'transfer', phone_number: '+12025550102', fallback_phone_number: '+12025550101' },
          },
        ]),
      );
      expect((await inbound({ to: n.phone_number, digits: '1' })).json.routing.transferred_to).toBe('+12025550101');
    });
    it('no key pressed: the menu times out max_attempts times, then its fallback applies', async () => {
      const n = await addNumber();
      await patch(n.id, menu([{ key: '1', label: 'sales', action: { type: 'hangup' } }]));
      const r = await inbound({ to: n.phone_number });
      expect(r.json.routing).toMatchObject({ handled_by: 'ivr', end_reason: 'ivr_fallback' });
      const c = await finish(r);
      expect(c.transcript_turns.filter((t: any) => t.speaker === 'agent' && t.text.startsWith('Welcome'))).toHaveLength(
        2,
      );
      expect(c.duration_seconds).toBeGreaterThanOrEqual(2 * 5); // two timeouts of 5 s
    });
    it('invalid keys use up the attempts; fallbacks voicemail, ai_agent and transfer', async () => {
      const n = await addNumber();
      await patch(
        n.id,
        menu([{ key: '1', label: 'sales', action: { type: 'hangup' } }], { fallback: { type: 'voicemail' } }),
      );
      expect((await inbound({ to: n.phone_number, digits: '79' })).json.routing).toMatchObject({ status: 'VOICEMAIL' });
      await patch(n.id, { ivr: { fallback: { type: 'ai_agent' } } });
      expect((await inbound({ to: n.phone_number, digits: '7' })).json.routing.handled_by).toBe('ai');
      await patch(n.id, { ivr: { fallback: { type: 'transfer', phone_number: '+12025550100' } } });
      expect((await inbound({ to: n.phone_number })).json.routing.transferred_to).toBe('+12025550100');
    });
  });

  describe('forwarding', () => {
    it('AI answers everything by default', async () => {
      const n = await addNumber();
      expect((await inbound({ to: n.phone_number })).json.routing.handled_by).toBe('ai');
    });
    it('call-me-first with a single number: the owner answers, or the AI after the ring timeout', async () => {
      const n = await addNumber();
      await patch(n.id, {
        forwarding: { mode: 'call_me_first', ring_strategy: 'single', forward_to_number: '+12025550100' },
      });
      const r = await inbound({ to: n.phone_number });
      expect(r.json.routing).toMatchObject({
        handled_by: 'owner',
        transferred_to: '+12025550100',
        end_reason: 'forwarded',
      });
      expect((await finish(r)).has_recording).toBe(false);
      await patch(n.id, { forwarding: { forward_to_number: '+12025550102', ring_timeout_seconds: 15 } });
      const ai = await inbound({ to: n.phone_number });
      expect(ai.json.routing.handled_by).toBe('ai');
      await sim.advance(2 + 15 - 1);
      expect((await call(ai.json.data.id)).status).toBe('RINGING');
      await sim.advance(1);
      expect((await call(ai.json.data.id)).status).toBe('IN_PROGRESS');
    });
    it('call-me-first with a ring chain: each number in turn; the first that answers takes it', async () => {
      const n = await addNumber();
      await patch(n.id, {
        forwarding: {
          mode: 'call_me_first',
          ring_strategy: 'sequential',
          sequential_targets: [
            { phone_number: '+12025550102' },
            { phone_number: '+12025550104' },
            { phone_number: '+12025550107' },
          ],
        },
      });
      expect((await inbound({ to: n.phone_number })).json.routing.transferred_to).toBe('+12025550107');
      await patch(n.id, { forwarding: { sequential_targets: [{ phone_number: '+12025550102' }] } });
      expect((await inbound({ to: n.phone_number })).json.routing.handled_by).toBe('ai');
    });
    it('call-me-first needs its number(s)', async () => {
      const n = await addNumber();
      expect(
        (await patch(n.id, { forwarding: { mode: 'call_me_first' } })).json.error.fields[
          'forwarding.forward_to_number'
        ],
      ).toBeDefined();
    });
  });

  describe("transfer rules and office hours (in the number's timezone)", () => {
    it('human_requested transfers when the caller asks for a person', async () => {
      const n = await addNumber();
      await patch(n.id, {
        timezone: IN_HOURS,
        transfers: { rules: [{ condition: 'human_requested', action: 'transfer', target_number: '+12025550100' }] },
      });
      expect((await inbound({ to: n.phone_number, says: 'Can I talk to a real person?' })).json.routing).toMatchObject({
        transferred_to: '+12025550100',
        end_reason: 'transferred',
      });
      expect(
        (await inbound({ to: n.phone_number, says: 'What are your prices?' })).json.routing.transferred_to,
      ).toBeNull();
    });
    it('office_hours_only keeps transfers to office hours', async () => {
      const n = await addNumber();
      await patch(n.id, {
        timezone: 'America/New_York',
        transfers: {
          office_hours_only: true,
          primary_transfer_number: '+12025550100',
          rules: [{ condition: 'human_requested', action: 'transfer' }],
        },
      });
      const night = await inbound({ to: n.phone_number, says: 'I want a human' });
      expect(night.json.routing).toMatchObject({ handled_by: 'ai', transferred_to: null });
      expect((await finish(night)).transcript).toMatch(/not available right now/);
      await patch(n.id, { timezone: IN_HOURS });
      expect((await inbound({ to: n.phone_number, says: 'I want a human' })).json.routing.transferred_to).toBe(
        '+12025550100',
      );
    });
    it("after_hours applies outside office hours; the lowest priority value wins; custom conditions match the caller's words", async () => {
      const n = await addNumber();
      await patch(n.id, {
        timezone: 'America/New_York',
        transfers: {
          rules: [
            {
              condition: 'custom',
              custom_condition: 'caller mentions billing',
              action: 'transfer',
              target_number: '+12025550101',
              priority: 1,
            },
            { condition: 'after_hours', action: 'voicemail', priority: 2 },
          ],
        },
      });
      expect(
        (await inbound({ to: n.phone_number, says: 'I have a billing question' })).json.routing.transferred_to,
      ).toBe('+12025550101');
      expect((await inbound({ to: n.phone_number, says: 'Hello' })).json.routing.status).toBe('VOICEMAIL');
      await sim.advance(6 * 3600); // 10:00 in New York: in office hours
      expect((await inbound({ to: n.phone_number, says: 'Hello' })).json.routing).toMatchObject({
        status: 'COMPLETED',
        transferred_to: null,
      });
    });
    it('the primary transfer number takes a request for a person when no rule matches', async () => {
      const n = await addNumber();
      await patch(n.id, { transfers: { primary_transfer_number: '+12025550100' } });
      expect((await inbound({ to: n.phone_number, says: 'Let me speak to someone' })).json.routing.transferred_to).toBe(
        '+12025550100',
      );
    });
  });

  it('calls to a number nobody has are 404; bad bodies 400', async () => {
    expect((await inbound({ to: '+19998887777' })).status).toBe(404);
    const r = await sim.api('POST', '/_sim/inbound/calls', { body: { from: 'x', to: '+1', digits: 'ab' } });
    expect(Object.keys(r.json.error.fields).sort()).toEqual(['digits', 'from', 'to']);
  });
});

describe('inbound texts, driven by the SMS settings', () => {
  const text = (to: string, body: string, from = '+12025558000') =>
    sim.api('POST', '/_sim/inbound/texts', { body: { from, to, body } });
  const thread = async (from = '+12025558000') =>
    (await sim.api('GET', `/v1/messages?order=asc&phone_number=${encodeURIComponent(from)}`)).json.data;

  it('auto-reply off: recorded, not answered; a first-time texter gets a contact named after their number', async () => {
    const n = await addNumber();
    expect((await text(n.phone_number, 'Hi')).status).toBe(201);
    await sim.advance(600);
    expect((await thread()).map((t: any) => t.direction)).toEqual(['inbound']);
    const contact = (await sim.api('GET', '/v1/contacts')).json.data[0];
    expect(contact).toMatchObject({ name: '+12025558000', phone_number: '+12025558000', text_count: 1 });
    expect((await sim.api('GET', `/v1/contacts/${contact.contact_id}`)).json.data.first_inbound_text_at).toBe(T0);
  });
  it('auto-reply answers after the reply delay', async () => {
    const n = await addNumber();
    await patch(n.id, { sms: { auto_reply_enabled: true, reply_delay_seconds: 10 } });
    await text(n.phone_number, 'Hi');
    await sim.advance(9);
    expect(await thread()).toHaveLength(1);
    await sim.advance(1);
    const t = await thread();
    expect(t[1]).toMatchObject({
      direction: 'outbound',
      sender: 'ai_agent',
      from_number: n.phone_number,
      phone_number_id: n.id,
    });
  });
  it('a stop word opts the texter out: no reply then or later', async () => {
    const n = await addNumber();
    await patch(n.id, { sms: { auto_reply_enabled: true, reply_delay_seconds: 0, stop_words: ['HALT'] } });
    await text(n.phone_number, 'halt');
    await text(n.phone_number, 'hello?');
    await sim.advance(60);
    expect((await thread()).map((t: any) => t.direction)).toEqual(['inbound', 'inbound']);
  });
  it("max_replies_per_contact caps the agent's replies", async () => {
    const n = await addNumber();
    await patch(n.id, { sms: { auto_reply_enabled: true, reply_delay_seconds: 0, max_replies_per_contact: 2 } });
    for (let i = 0; i < 3; i++) {
      await text(n.phone_number, `message ${i}`);
      await sim.advance(1);
    }
    expect((await thread()).filter((t: any) => t.sender === 'ai_agent')).toHaveLength(2);
  });
  it('stop_after_replies: once someone on the team has replied, the agent stays quiet', async () => {
    const n = await addNumber();
    await patch(n.id, { sms: { auto_reply_enabled: true, reply_delay_seconds: 0, stop_after_replies: true } });
    await text(n.phone_number, 'first');
    await sim.advance(1);
    await sim.api('POST', '/_sim/texts', {
      body: {
        direction: 'outbound',
        sender: 'business',
        from_number: n.phone_number,
        to_number: '+12025558000',
        body: 'Hi, Sam here.',
      },
    });
    await text(n.phone_number, 'second');
    await sim.advance(60);
    expect((await thread()).map((t: any) => t.sender)).toEqual(['contact', 'ai_agent', 'business', 'contact']);
  });
  it('SMS referrals refer the texter to another number when their condition holds', async () => {
    const n = await addNumber();
    await patch(n.id, {
      sms: { auto_reply_enabled: true, reply_delay_seconds: 0 },
      sms_referrals: [
        {
          refer_to_number: '+12025550111',
          when: 'keyword',
          keyword: 'price',
          message: 'For prices, text +12025550111.',
        },
      ],
    });
    await text(n.phone_number, 'What is the price?');
    await sim.advance(1);
    expect((await thread())[1].body).toBe('For prices, text +12025550111.');
    await text(n.phone_number, 'Thanks');
    await sim.advance(1);
    expect((await thread())[3].body).not.toMatch(/prices/);
  });
});
