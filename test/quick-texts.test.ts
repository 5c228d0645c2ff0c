// Quick AI texts and AI numbers (issue 3) on a manual clock over HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const N = (suffix: string) => `+1202555${suffix}`;
const create = (body: Record<string, unknown>) =>
  sim.api('POST', '/v1/quick/ai-texts', { body: { goal: 'Confirm the Tuesday 3pm appointment', ...body } });
const job = async (id: string) => (await sim.api('GET', `/v1/quick/actions/${id}`)).json.data;
const wallet = async () => (await sim.api('GET', '/_sim/workspace')).json.wallet_usd as number;
const texts = async (phone?: string) =>
  (await sim.api('GET', `/v1/messages?order=asc&limit=100${phone ? `&phone_number=${encodeURIComponent(phone)}` : ''}`))
    .json.data;
const inbound = (from: string, to: string, body: string) =>
  sim.api('POST', '/_sim/inbound/texts', { body: { from, to, body } });

describe('quick texts', () => {
  it('0100: the opener (with opt-out language for a new recipient), a reply agreeing, the goal achieved', async () => {
    const r = await create({ to_numbers: [N('0100')] });
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({ kind: 'ai_text', status: 'running', target_count: 1 });
    expect(r.json.data.pricing).toMatchObject({ per_message_usd: 0.05 });
    const id = r.json.data.id;
    let t = (await job(id)).targets[0];
    expect(t).toMatchObject({ status: 'in_progress', messages_sent: 1, messages_received: 0, attempts: 1 });
    let thread = await texts(N('0100'));
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({
      direction: 'outbound',
      sender: 'ai_agent',
      from_number: t.from_number,
      status: 'delivered',
      quick_action_id: id,
    });
    expect(thread[0]).not.toHaveProperty('phone_number_id'); // a shared number: left out, not null (issue 23, point 1)
    expect(thread[0].body).toBe(
      "Hi! I'm reaching out to confirm the Tuesday 3pm appointment. Would that work for you? Reply STOP to opt out.",
    );
    expect(await wallet()).toBe(49.95);
    await sim.advance(120);
    thread = await texts(N('0100'));
    expect(thread[1]).toMatchObject({
      direction: 'inbound',
      sender: 'contact',
      body: 'Yes, that works for me!',
      from_number: N('0100'),
      to_number: t.from_number,
    });
    await sim.advance(30);
    const j = await job(id);
    t = j.targets[0];
    expect(t).toMatchObject({
      status: 'completed',
      goal_achieved: true,
      end_reason: 'goal_achieved',
      messages_sent: 2,
      messages_received: 1,
    });
    expect(j.status).toBe('completed');
    expect((await texts(N('0100')))[2]).toMatchObject({ direction: 'outbound', sender: 'ai_agent' });
    expect(await wallet()).toBe(49.9); // replies are free
  });

  it('first_message is sent as written, {{CONTACT_NAME}} from the contact on file; no opt-out text for a known recipient', async () => {
    await sim.api('POST', '/_sim/contacts', { body: { name: 'Ada Lovelace', phone_number: N('0102') } });
    await create({ to_numbers: [N('0102')], first_message: 'Hi {{CONTACT_NAME}}, still on for Tuesday?' });
    expect((await texts(N('0102')))[0].body).toBe('Hi Ada Lovelace, still on for Tuesday? Reply STOP to opt out.');
    await create({ to_numbers: [N('0102')], first_message: 'Hi again {{CONTACT_NAME}}!' });
    expect((await texts(N('0102')))[1].body).toBe('Hi again Ada Lovelace!');
  });

  it('0101 replies declining: the thread ends answered, goal not achieved', async () => {
    const id = (await create({ to_numbers: [N('0101')] })).json.data.id;
    await sim.advance(90 + 30);
    expect((await job(id)).targets[0]).toMatchObject({
      status: 'completed',
      goal_achieved: false,
      end_reason: 'answered',
      messages_sent: 2,
      messages_received: 1,
    });
  });

  it('0102 never replies: the thread ends after conversation_timeout_hours of quiet', async () => {
    const id = (await create({ to_numbers: [N('0102')], conversation_timeout_hours: 2 })).json.data.id;
    await sim.advance(2 * 3600 - 1);
    expect((await job(id)).targets[0].status).toBe('in_progress');
    await sim.advance(1);
    expect((await job(id)).targets[0]).toMatchObject({
      status: 'no_answer',
      end_reason: 'max_attempts',
      messages_sent: 1,
    });
  });

  it('the default quiet timeout is 24 hours', async () => {
    const id = (await create({ to_numbers: [N('0103')] })).json.data.id;
    await sim.advance(24 * 3600 - 1);
    expect((await job(id)).targets[0].status).toBe('in_progress');
    await sim.advance(1);
    expect((await job(id)).targets[0].status).toBe('no_answer');
  });

  it('0105 replies agreeing after a long pause: in time with the default timeout, too late with a short one', async () => {
    const a = (await create({ to_numbers: [N('0105')] })).json.data.id;
    const b = (await create({ to_numbers: ['+12025550205'], first_message: 'x' })).json.data.id; // any other number: agrees
    await sim.advance(20 * 3600 + 30);
    expect((await job(a)).targets[0]).toMatchObject({ status: 'completed', goal_achieved: true });
    expect((await job(b)).targets[0]).toMatchObject({ status: 'completed', goal_achieved: true });
    await sim.reset();
    const c = (await create({ to_numbers: [N('0105')], conversation_timeout_hours: 12 })).json.data.id;
    await sim.advance(21 * 3600);
    expect((await job(c)).targets[0]).toMatchObject({ status: 'no_answer', messages_received: 0 });
  });

  it("0106: delivery fails with the provider's error text", async () => {
    const id = (await create({ to_numbers: [N('0106')] })).json.data.id;
    const t = (await job(id)).targets[0];
    expect(t.status).toBe('failed');
    expect(t.end_reason).toMatch(/^30007/);
    expect((await texts(N('0106')))[0].status).toBe('failed');
  });

  it('0107 replies STOP: opted out at once, the thread ends, and later jobs do not text the number', async () => {
    const id = (await create({ to_numbers: [N('0107')] })).json.data.id;
    await sim.advance(60);
    expect((await job(id)).targets[0]).toMatchObject({
      status: 'opted_out',
      end_reason: 'opted_out',
      messages_sent: 1,
      messages_received: 1,
    });
    await sim.advance(3600);
    expect(await texts(N('0107'))).toHaveLength(2); // no answer to STOP
    const again = (await create({ to_numbers: [N('0107')] })).json.data.id;
    expect((await job(again)).targets[0]).toMatchObject({ status: 'opted_out', messages_sent: 0 });
    expect(await texts(N('0107'))).toHaveLength(2);
    const contact = (await sim.api('GET', '/v1/contacts')).json.data.find((p: any) => p.phone_number === N('0107'));
    expect((await sim.api('GET', `/v1/contacts/${contact.contact_id}`)).json.data.consent.sms_opted_in).toBe(false);
  });

  it('texting as the recipient: each reply is answered until the goal; max_messages caps what is sent', async () => {
    const id = (await create({ to_numbers: [N('0102')], max_messages: 3 })).json.data.id;
    const from = (await job(id)).targets[0].from_number;
    expect((await inbound(N('0102'), from, 'Who is this?')).status).toBe(201);
    await sim.advance(30);
    let t = (await job(id)).targets[0];
    expect(t).toMatchObject({ status: 'in_progress', messages_sent: 2, messages_received: 1 });
    expect((await texts(N('0102')))[2].body).toMatch(/^Thanks for your reply! Just to check/);
    await inbound(N('0102'), from, 'Hmm, what time again?');
    await sim.advance(30);
    t = (await job(id)).targets[0];
    expect(t).toMatchObject({
      status: 'completed',
      end_reason: 'max_messages',
      messages_sent: 3,
      messages_received: 2,
    });
    await inbound(N('0102'), from, 'Sure');
    await sim.advance(30);
    // after the thread ended a text is recorded, not answered, and the target's final state stands
    expect((await job(id)).targets[0]).toMatchObject({
      status: 'completed',
      end_reason: 'max_messages',
      messages_sent: 3,
      messages_received: 2,
    });
    expect(await texts(N('0102'))).toHaveLength(6);
  });

  it('quiet after replying ends the thread answered', async () => {
    const id = (await create({ to_numbers: [N('0102')], conversation_timeout_hours: 1 })).json.data.id;
    const from = (await job(id)).targets[0].from_number;
    await inbound(N('0102'), from, 'Maybe?');
    await sim.advance(30 + 3600);
    expect((await job(id)).targets[0]).toMatchObject({
      status: 'completed',
      end_reason: 'answered',
      goal_achieved: false,
    });
  });

  it('cancel stops remaining replies: targets end canceled, nothing more is sent', async () => {
    const id = (await create({ to_numbers: [N('0100'), N('0101')] })).json.data.id;
    const r = await sim.api('POST', `/v1/quick/actions/${id}/cancel`, { body: {} });
    expect(r.json.data).toMatchObject({ status: 'canceled', counts: { canceled: 2 } });
    await sim.advance(3600);
    expect(await texts()).toHaveLength(2); // the two openers only
  });

  it('a wallet that runs out stops the thread without going below zero', async () => {
    await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 0.05 } });
    const id = (await create({ to_numbers: [N('0102'), N('0103')] })).json.data.id;
    const j = await job(id);
    expect(j.targets[0].status).toBe('in_progress');
    expect(j.targets[1]).toMatchObject({ status: 'failed', end_reason: expect.stringMatching(/^Account paused/) });
    expect(await wallet()).toBe(0);
  });

  it('a full texting pool is 409; validation is 400', async () => {
    await sim.api('POST', '/_sim/shared-pool/fill', { body: { kind: 'texts' } });
    const r = await create({ to_numbers: [N('0100')] });
    expect(r.status).toBe(409);
    expect(r.json.error.message).toBe('Every shared texting number has reached its daily volume limit');
    expect((await create({ to_numbers: [N('0100')], max_messages: 0 })).json.error.fields.max_messages).toBeDefined();
    expect((await create({ to_numbers: ['12'] })).json.error.fields['to_numbers[0]']).toBeDefined();
    expect(
      (await sim.api('POST', '/v1/quick/ai-texts', { body: { to_numbers: [N('0100')] } })).json.error.fields.goal,
    ).toBe('is required');
  });

  it("each outbound message counts against its shared number's 500 a day", async () => {
    await create({ to_numbers: [N('0100')] });
    await sim.advance(150);
    const pool = (await sim.api('GET', '/_sim/shared-pool')).json.data;
    expect(pool.reduce((n: number, x: any) => n + x.today.texts, 0)).toBe(2);
  });

  it('history shows every text, and people folds the recipient into a contact', async () => {
    await create({ to_numbers: [N('0100')] });
    await sim.advance(150);
    const people = (await sim.api('GET', '/v1/history/people')).json.data;
    expect(people).toHaveLength(1);
    expect(people[0]).toMatchObject({ phone_number: N('0100'), text_count: 3 });
    expect(people[0].contact_id).not.toBeNull();
    expect((await sim.api('GET', `/v1/history/texts?contact_id=${people[0].contact_id}`)).json.data).toHaveLength(3);
  });

  it('texting a number nobody simulates is 404', async () => {
    const r = await inbound(N('0100'), '+19995550000', 'hello?');
    expect(r.status).toBe(404);
  });
});

describe('AI numbers', () => {
  const buy = (body: Record<string, unknown>) => sim.api('POST', '/v1/quick/ai-numbers', { body });

  it('are created provisioning with no number, then ready in the requested area code and listed with an integer id', async () => {
    const r = await buy({ area_code: '415', business_name: 'Acme Dental', handle_texts: true });
    expect(r.status).toBe(201);
    const n = r.json.data;
    expect(n).toMatchObject({
      status: 'provisioning',
      phone_number: null,
      handles_calls: true,
      handles_texts: true,
      sms_registered: false,
    });
    expect(Number.isInteger(n.id)).toBe(true);
    expect(Object.keys(n.agent).sort()).toEqual(['greeting', 'id', 'language', 'name', 'prompt', 'voice']);
    expect(n.agent.greeting).toMatch(/Acme Dental/);
    expect((await sim.api('GET', '/v1/phone-numbers')).json.data).toEqual([]);
    await sim.advance(60);
    const ready = (await sim.api('GET', `/v1/quick/ai-numbers/${n.id}`)).json.data;
    expect(ready.status).toBe('ready');
    expect(ready.phone_number).toMatch(/^\+1415[2-9]\d{6}$/);
    const list = (await sim.api('GET', '/v1/phone-numbers')).json;
    expect(list.data).toEqual([
      expect.objectContaining({ id: n.id, phone_number: ready.phone_number, status: 'ready' }),
    ]);
    expect(await wallet()).toBe(45); // 5 USD for the line's month
  });

  it('area code 555 cannot be wired: failed, and the line is refunded', async () => {
    const n = (await buy({ area_code: '555' })).json.data;
    await sim.advance(60);
    expect((await sim.api('GET', `/v1/quick/ai-numbers/${n.id}`)).json.data).toMatchObject({
      status: 'failed',
      phone_number: null,
    });
    expect(await wallet()).toBe(50);
  });

  it('bad area codes are 400; unknown ids 404; non-integer ids 400', async () => {
    for (const area_code of ['41', '4155', '015', '115', 415, 'abc']) {
      const r = await buy({ area_code });
      expect(r.status, String(area_code)).toBe(400);
      expect(r.json.error.fields.area_code).toBeDefined();
    }
    expect((await buy({})).json.error.fields.area_code).toBe('is required');
    expect((await buy({ area_code: '415', handle_texts: 'yes' })).json.error.fields.handle_texts).toBeDefined();
    expect((await sim.api('GET', '/v1/quick/ai-numbers/99999')).status).toBe(404);
    expect((await sim.api('GET', '/v1/quick/ai-numbers/abc')).status).toBe(400);
  });

  it('explains a bad id and bad fields in the words they always had', async () => {
    for (const id of ['abc', '1.5', '-1', '1234567890123456', '123456789012345678901234']) {
      expect((await sim.api('GET', `/v1/quick/ai-numbers/${id}`)).json.error.fields, id).toEqual({
        id: 'must be an integer',
      });
    }
    expect((await buy({ area_code: '123', name: '', handle_calls: null, other: 1 })).json.error.fields).toEqual({
      area_code: 'must be a 3-digit North American area code such as 415 (first digit 2-9)',
      name: 'must not be empty',
      handle_calls: 'must be true or false, got null',
      other: 'is not a known field',
    });
  });

  it('with handle_texts its agent answers inbound texts; a first-time texter gets a contact named after their number', async () => {
    const n = (await buy({ area_code: '415', business_name: 'Acme Dental', handle_texts: true })).json.data;
    await sim.advance(60);
    const phone = (await sim.api('GET', `/v1/quick/ai-numbers/${n.id}`)).json.data.phone_number;
    expect((await inbound('+12025559876', phone, 'Are you open Saturday?')).status).toBe(201);
    await sim.advance(20);
    const thread = await texts('+12025559876');
    expect(thread.map((t: any) => [t.direction, t.sender])).toEqual([
      ['inbound', 'contact'],
      ['outbound', 'ai_agent'],
    ]);
    expect(thread[1].body).toMatch(/Acme Dental/);
    const people = (await sim.api('GET', '/v1/contacts')).json.data;
    expect(people[0]).toMatchObject({ name: '+12025559876', phone_number: '+12025559876' });
  });

  it('without handle_texts the text is recorded and not answered', async () => {
    const n = (await buy({ area_code: '212' })).json.data;
    await sim.advance(60);
    const phone = (await sim.api('GET', `/v1/quick/ai-numbers/${n.id}`)).json.data.phone_number;
    await inbound('+12025559876', phone, 'Hello?');
    await sim.advance(600);
    expect(await texts('+12025559876')).toHaveLength(1);
  });
});
