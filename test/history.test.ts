// Conversation history and contacts (spec Part 4): both route families, every filter rule, people
// folded by contact, and recordings, on records seeded through the control plane.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, T0, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const OUR = '+15550001000';
const ADA = '+15550002001';
const BOB = '+15550002002';
const STRANGER = '+15550002999';

async function seed() {
  const ada = (
    await sim.api('POST', '/_sim/contacts', {
      body: { name: 'Ada Lovelace', phone_number: ADA, email: 'ada@example.com' },
    })
  ).json.data;
  const bob = (await sim.api('POST', '/_sim/contacts', { body: { name: 'Bob Byte', phone_number: BOB } })).json.data;
  const call = async (body: Record<string, unknown>) => (await sim.api('POST', '/_sim/calls', { body })).json.data;
  const text = async (body: Record<string, unknown>) => (await sim.api('POST', '/_sim/texts', { body })).json.data;
  const c1 = await call({
    direction: 'outbound',
    from_number: OUR,
    to_number: ADA,
    status: 'COMPLETED',
    duration_seconds: 65,
    has_recording: true,
    summary: 'Booked a demo.',
    tags: ['booking_requested'],
    transcript_turns: [
      { speaker: 'agent', text: 'Hi Ada', seconds_from_start: 0 },
      { speaker: 'person', text: 'Hello', seconds_from_start: 1.5 },
    ],
  });
  await sim.advance(60);
  const c2 = await call({ direction: 'inbound', from_number: BOB, to_number: OUR, status: 'VOICEMAIL' });
  await sim.advance(60);
  const c3 = await call({ direction: 'outbound', from_number: OUR, to_number: STRANGER, status: 'BUSY' });
  await sim.advance(60);
  const t1 = await text({
    direction: 'outbound',
    from_number: OUR,
    to_number: ADA,
    body: 'Hello Ada',
    sender: 'ai_agent',
  });
  await sim.advance(60);
  const t2 = await text({ direction: 'inbound', from_number: ADA, to_number: OUR, body: 'Hi back' });
  await sim.advance(60);
  const t3 = await text({ direction: 'inbound', from_number: STRANGER, to_number: OUR, body: 'Who is this?' });
  await sim.advance(60);
  await sim.api('POST', '/v1/quick/emails', { body: { to: ['Ada Lovelace'], subject: 'Notes', body: 'Attached.' } });
  await sim.advance(60);
  await sim.api('POST', '/_sim/emails', {
    body: { direction: 'inbound', from_address: 'ADA@example.com', to: 'sales@acme.example', subject: 'Re: Notes' },
  });
  return { ada, bob, c1, c2, c3, t1, t2, t3 };
}

const ids = (r: any) => r.json.data.map((x: any) => x.id);

describe('people and contacts lists', () => {
  it('/v1/history/people and /v1/contacts are the same: people folded by contact, most recent first', async () => {
    const { ada, bob } = await seed();
    const a = await sim.api('GET', '/v1/history/people');
    const b = await sim.api('GET', '/v1/contacts');
    expect(a.status).toBe(200);
    expect(b.json).toEqual(a.json);
    const people = a.json.data;
    expect(people.map((p: any) => p.name)).toEqual(['Ada Lovelace', STRANGER, 'Bob Byte']);
    expect(people[0]).toEqual({
      contact_id: ada.id,
      name: 'Ada Lovelace',
      phone_number: ADA,
      email: 'ada@example.com',
      call_count: 1,
      text_count: 2,
      email_count: 2,
      first_contacted_at: T0,
      last_contacted_at: '2026-01-05T09:07:00.000Z',
    });
    expect(people[1]).toMatchObject({
      contact_id: null,
      phone_number: STRANGER,
      call_count: 1,
      text_count: 1,
      email_count: 0,
    });
    expect(people[2]).toMatchObject({ contact_id: bob.id, call_count: 1, text_count: 0 });
    expect(a.json.meta).toMatchObject({ page_size: 20, total_results: 3 });
  });
  it('a contact never reached is listed, first and last contacted at its created_at, in that place of the order (issue 32, point 3)', async () => {
    await seed();
    await sim.advance(3600);
    const never = (await sim.api('POST', '/_sim/contacts', { body: { name: 'Nora', email: 'nora@example.com' } })).json
      .data;
    await sim.advance(60);
    await sim.api('POST', '/_sim/texts', {
      body: { direction: 'outbound', from_number: OUR, to_number: BOB, body: 'Still on for Friday?' },
    });
    const list = (await sim.api('GET', '/v1/contacts')).json.data;
    // most recent first by last_contacted_at: Bob (just now), Nora (created an hour after the seed), then the seed's
    expect(list.map((p: any) => p.name)).toEqual(['Bob Byte', 'Nora', 'Ada Lovelace', STRANGER]);
    // every field of the spec's type, none missing or null: the empty string for an address the person lacks
    expect(list[1]).toEqual({
      contact_id: never.id,
      name: 'Nora',
      phone_number: '',
      email: 'nora@example.com',
      call_count: 0,
      text_count: 0,
      email_count: 0,
      first_contacted_at: never.created_at,
      last_contacted_at: never.created_at,
    });
    expect(list[3]).toMatchObject({ contact_id: null, name: STRANGER, phone_number: STRANGER, email: '' });
    for (const p of list) {
      for (const k of ['name', 'phone_number', 'email']) expect(typeof p[k], `${p.name} ${k}`).toBe('string');
      for (const k of ['first_contacted_at', 'last_contacted_at'])
        expect(p[k], `${p.name} ${k}`).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    expect((await sim.api('GET', '/v1/history/people')).json).toEqual((await sim.api('GET', '/v1/contacts')).json);
    // reached now: its first and last contact are that text's, and it leads; paging keeps the order
    await sim.advance(60);
    const mail = await sim.api('POST', '/_sim/emails', {
      body: { direction: 'inbound', from_address: 'nora@example.com', to: 'sales@acme.example', subject: 'Hello' },
    });
    expect(mail.status, mail.text).toBe(201);
    const p1 = await sim.api('GET', '/v1/history/people?limit=2');
    expect(p1.json.data[0]).toMatchObject({
      name: 'Nora',
      email_count: 1,
      first_contacted_at: mail.json.data.created_at,
      last_contacted_at: mail.json.data.created_at,
    });
    const p2 = await sim.api('GET', `/v1/history/people?limit=2&cursor=${encodeURIComponent(p1.json.meta.cursor)}`);
    expect([...p1.json.data, ...p2.json.data].map((p: any) => p.name)).toEqual([
      'Nora',
      'Bob Byte',
      'Ada Lovelace',
      STRANGER,
    ]);
  });
  it('a number that belongs to a contact is folded into that contact even when the record came first', async () => {
    await sim.api('POST', '/_sim/texts', {
      body: { direction: 'inbound', from_number: '+15557777777', to_number: OUR, body: 'hi' },
    });
    const c = (
      await sim.api('POST', '/_sim/contacts', { body: { name: 'Late Contact', phone_number: '+15557777777' } })
    ).json.data;
    const people = (await sim.api('GET', '/v1/history/people')).json.data;
    expect(people).toHaveLength(1);
    expect(people[0]).toMatchObject({ contact_id: c.id, text_count: 1 });
  });
  it('the people list pages with limit and cursor, and rejects order', async () => {
    await seed();
    const p1 = await sim.api('GET', '/v1/contacts?limit=2');
    expect(p1.json.data).toHaveLength(2);
    const p2 = await sim.api('GET', `/v1/contacts?limit=2&cursor=${encodeURIComponent(p1.json.meta.cursor)}`);
    expect(p2.json.data.map((p: any) => p.name)).toEqual(['Bob Byte']);
    expect((await sim.api('GET', '/v1/contacts?order=asc')).status).toBe(400);
  });
  it('GET /v1/contacts/{id} returns the full record; unknown id → 404', async () => {
    const { ada } = await seed();
    const r = await sim.api('GET', `/v1/contacts/${ada.id}`);
    expect(r.status).toBe(200);
    const keys = [
      'id',
      'name',
      'first_name',
      'last_name',
      'phone_number',
      'email',
      'company',
      'job_title',
      'location',
      'preferred_language',
      'notes',
      'industry',
      'date_of_birth',
      'subscription_plan',
      'purchase_history',
      'product_preferences',
      'tags',
      'custom_fields',
      'consent',
      'first_inbound_call_at',
      'first_inbound_text_at',
      'first_inbound_email_at',
      'crm',
      'created_at',
      'updated_at',
    ];
    expect(Object.keys(r.json.data).sort()).toEqual(keys.sort());
    expect(r.json.data).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      tags: [],
      custom_fields: {},
      crm: null,
    });
    expect(Object.keys(r.json.data.consent).sort()).toEqual([
      'email_opted_in',
      'email_subscribed',
      'sms_opted_in',
      'voice_opted_in',
    ]);
    expect((await sim.api('GET', '/v1/contacts/nope')).status).toBe(404);
  });
});

describe('calls', () => {
  it('GET /v1/calls without a person returns the whole account, newest first', async () => {
    const { c1, c2, c3 } = await seed();
    const r = await sim.api('GET', '/v1/calls');
    expect(ids(r)).toEqual([c3.id, c2.id, c1.id]);
    expect(r.json.meta.total_results).toBe(3);
  });
  it('/v1/history/calls names exactly one of contact_id or phone_number, else 400', async () => {
    const { ada, c1 } = await seed();
    expect((await sim.api('GET', '/v1/history/calls')).status).toBe(400);
    const both = await sim.api('GET', `/v1/history/calls?contact_id=${ada.id}&phone_number=${encodeURIComponent(ADA)}`);
    expect(both.status).toBe(400);
    expect(both.json.error.fields.contact_id).toMatch(/not both/);
    expect(ids(await sim.api('GET', `/v1/history/calls?contact_id=${ada.id}`))).toEqual([c1.id]);
    expect(ids(await sim.api('GET', `/v1/history/calls?phone_number=${encodeURIComponent(ADA)}`))).toEqual([c1.id]);
    expect((await sim.api('GET', '/v1/history/calls?phone_number=5550002001')).json.error.fields.phone_number).toMatch(
      /E\.164/,
    );
    expect((await sim.api('GET', '/v1/history/calls?contact_id=no-such')).status).toBe(404);
  });
  it('/v1/calls accepts direction, created_after, created_before and one person', async () => {
    const { bob, c1, c2, c3 } = await seed();
    expect(ids(await sim.api('GET', '/v1/calls?direction=inbound'))).toEqual([c2.id]);
    expect(ids(await sim.api('GET', '/v1/calls?direction=outbound'))).toEqual([c3.id, c1.id]);
    expect(ids(await sim.api('GET', `/v1/calls?created_after=${T0}`))).toEqual([c3.id, c2.id]);
    expect(ids(await sim.api('GET', '/v1/calls?created_before=2026-01-05T09:02:00Z'))).toEqual([c2.id, c1.id]);
    expect(ids(await sim.api('GET', `/v1/calls?contact_id=${bob.id}`))).toEqual([c2.id]);
    expect((await sim.api('GET', '/v1/calls?direction=sideways')).json.error.fields.direction).toBeDefined();
    expect((await sim.api('GET', '/v1/calls?created_after=yesterday')).json.error.fields.created_after).toBeDefined();
  });
  it("the status filter's lower-case values match upper-case record statuses", async () => {
    const { c1, c2, c3 } = await seed();
    expect(ids(await sim.api('GET', '/v1/calls?status=completed'))).toEqual([c1.id]);
    expect(ids(await sim.api('GET', '/v1/calls?status=voicemail'))).toEqual([c2.id]);
    expect(ids(await sim.api('GET', '/v1/calls?status=busy'))).toEqual([c3.id]);
    expect(ids(await sim.api('GET', '/v1/calls?status=ringing'))).toEqual([]);
    expect((await sim.api('GET', '/v1/calls?status=COMPLETED')).status).toBe(400);
  });
  it('a call record carries the Part 2 fields; both routes return it', async () => {
    const { c1 } = await seed();
    const a = (await sim.api('GET', `/v1/calls/${c1.id}`)).json.data;
    const b = (await sim.api('GET', `/v1/history/calls/${c1.id}`)).json.data;
    expect(b).toEqual(a);
    expect(a).toMatchObject({
      id: c1.id,
      direction: 'outbound',
      status: 'COMPLETED',
      from_number: OUR,
      to_number: ADA,
      duration_seconds: 65,
      summary: 'Booked a demo.',
      transcript: 'AI: Hi Ada\nUser: Hello',
      tags: ['booking_requested'],
      has_recording: true,
      recording_url: `/v1/calls/${c1.id}/recording`,
      created_at: T0,
      transcript_turns: [
        { speaker: 'agent', text: 'Hi Ada', seconds_from_start: 0 },
        { speaker: 'person', text: 'Hello', seconds_from_start: 1.5 },
      ],
    });
    expect((await sim.api('GET', '/v1/calls/not-a-call')).status).toBe(404);
  });
});

describe('call recordings', () => {
  it('return raw, playable audio that is never cached, on both routes, and each download is audited', async () => {
    const { c1 } = await seed();
    for (const path of [`/v1/calls/${c1.id}/recording`, `/v1/history/calls/${c1.id}/recording`]) {
      const r = await sim.api('GET', path);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('audio/wav');
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.bytes.subarray(0, 4).toString()).toBe('RIFF');
      expect(r.bytes.subarray(8, 12).toString()).toBe('WAVE');
      const rate = r.bytes.readUInt32LE(24);
      const dataBytes = r.bytes.readUInt32LE(40);
      expect(dataBytes / (rate * 2)).toBeGreaterThanOrEqual(2); // a few seconds of 16-bit mono
      expect(r.bytes.length).toBe(44 + dataBytes);
    }
    const log = (await sim.api('GET', '/_sim/audit-log')).json.data;
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ action: 'recording.download', resource_id: c1.id, at: '2026-01-05T09:07:00.000Z' });
  });
  it('404 when the call has no recording, when compliance settings turned recording off, or when the call is not in the workspace', async () => {
    const { c1, c2 } = await seed();
    expect((await sim.api('GET', `/v1/calls/${c2.id}/recording`)).status).toBe(404);
    const other = (await sim.api('POST', '/_sim/workspaces', { body: {} })).json.api_key;
    expect((await sim.api('GET', `/v1/calls/${c1.id}/recording`, { key: other })).status).toBe(404);
    await sim.api('PATCH', '/_sim/workspace', { body: { recordings_disabled: true } });
    const r = await sim.api('GET', `/v1/calls/${c1.id}/recording`);
    expect(r.status).toBe(404);
    expect(r.json.error.message).toMatch(/compliance/);
    expect((await sim.api('GET', '/_sim/audit-log')).json.data).toEqual([]);
  });
});

describe('texts', () => {
  it('/v1/messages returns the account newest first; replies show as inbound; sender is kept', async () => {
    const { t1, t2, t3 } = await seed();
    const r = await sim.api('GET', '/v1/messages');
    expect(ids(r)).toEqual([t3.id, t2.id, t1.id]);
    expect(r.json.data[1]).toMatchObject({ direction: 'inbound', sender: 'contact', body: 'Hi back' });
    expect(r.json.data[2]).toMatchObject({ direction: 'outbound', sender: 'ai_agent' });
  });
  it('/v1/history/texts needs exactly one of contact_id or phone_number; filters apply', async () => {
    const { ada, t1, t2, t3 } = await seed();
    expect((await sim.api('GET', '/v1/history/texts')).status).toBe(400);
    expect(ids(await sim.api('GET', `/v1/history/texts?contact_id=${ada.id}`))).toEqual([t2.id, t1.id]);
    expect(ids(await sim.api('GET', `/v1/history/texts?phone_number=${encodeURIComponent(STRANGER)}`))).toEqual([
      t3.id,
    ]);
    expect(ids(await sim.api('GET', `/v1/messages?contact_id=${ada.id}&direction=inbound`))).toEqual([t2.id]);
    expect((await sim.api('GET', '/v1/messages?status=completed')).status).toBe(400); // status is a calls filter
  });
});

describe('emails', () => {
  it('GET /v1/emails always needs contact_id or email', async () => {
    await seed();
    const r = await sim.api('GET', '/v1/emails');
    expect(r.status).toBe(400);
    expect(r.json.error.fields.contact_id).toBeDefined();
    expect((await sim.api('GET', '/v1/history/emails')).status).toBe(400);
  });
  it('by contact or address, both directions, quick emails included, newest first', async () => {
    const { ada } = await seed();
    const r = await sim.api('GET', `/v1/emails?contact_id=${ada.id}`);
    expect(r.json.data.map((e: any) => [e.direction, e.source])).toEqual([
      ['inbound', 'inbox'],
      ['outbound', 'quick'],
    ]);
    expect((await sim.api('GET', '/v1/history/emails?email=ada@example.com')).json.data).toEqual(r.json.data);
    expect((await sim.api('GET', '/v1/emails?email=ada@example.com&direction=outbound')).json.data).toHaveLength(1);
  });
});

describe('reads are free', () => {
  it('no read changes the wallet', async () => {
    await seed();
    const before = (await sim.api('GET', '/_sim/workspace')).json.wallet_usd;
    for (const p of ['/v1/contacts', '/v1/calls', '/v1/messages', '/v1/emails?email=ada@example.com'])
      await sim.api('GET', p);
    expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(before);
  });
});

describe('a contact changed by traffic (issue 23, point 5)', () => {
  it('updated_at moves when inbound traffic sets first_inbound_call_at, first_inbound_text_at or consent', async () => {
    const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
    const number = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json.phone_number;
    const ada = (await sim.api('POST', '/_sim/contacts', { body: { name: 'Ada Lovelace', phone_number: ADA } })).json
      .data;
    expect(ada).toMatchObject({ created_at: at(0), updated_at: at(0), first_inbound_call_at: null });
    const read = async () => (await sim.api('GET', `/v1/contacts/${ada.id}`)).json.data;
    await sim.advance(60);
    expect((await sim.api('POST', '/_sim/inbound/calls', { body: { from: ADA, to: number } })).status).toBe(201);
    expect(await read()).toMatchObject({ first_inbound_call_at: at(60), updated_at: at(60), created_at: at(0) });
    await sim.advance(60);
    const text = await sim.api('POST', '/_sim/inbound/texts', { body: { from: ADA, to: number, body: 'Hi' } });
    expect(text.status).toBe(201);
    const after = await read();
    expect(after).toMatchObject({ first_inbound_call_at: at(60), first_inbound_text_at: text.json.data.created_at });
    expect(after.updated_at).toBe(text.json.data.created_at);
    // a second call or text sets nothing: the record, and its updated_at, stay as they were
    await sim.advance(600);
    await sim.api('POST', '/_sim/inbound/calls', { body: { from: ADA, to: number } });
    expect((await read()).updated_at).toBe(after.updated_at);
  });
  it("in one instant: first_inbound_call_at is the call's created_at; a STOP after a first text never moves updated_at back", async () => {
    const number = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json.phone_number;
    const add = async (phone_number: string) =>
      (await sim.api('POST', '/_sim/contacts', { body: { name: phone_number, phone_number } })).json.data.id;
    const [bob, ada] = [await add(BOB), await add(ADA)];
    const read = async (id: string) => (await sim.api('GET', `/v1/contacts/${id}`)).json.data;
    await sim.advance(60);
    // a call and a text from someone else first: the next records of this instant are 1 ms on
    await sim.api('POST', '/_sim/inbound/calls', { body: { from: STRANGER, to: number } });
    await sim.api('POST', '/_sim/inbound/texts', { body: { from: STRANGER, to: number, body: 'Hello' } });
    const call = (await sim.api('POST', '/_sim/inbound/calls', { body: { from: BOB, to: number } })).json;
    const created = call.data.created_at;
    expect((await read(bob)).first_inbound_call_at).toBe(created);
    const hi = (await sim.api('POST', '/_sim/inbound/texts', { body: { from: ADA, to: number, body: 'Hi' } })).json
      .data;
    expect((await read(ada)).updated_at).toBe(hi.created_at);
    await sim.api('POST', '/_sim/inbound/texts', { body: { from: ADA, to: number, body: 'STOP' } });
    const stopped = await read(ada);
    expect(stopped.consent.sms_opted_in).toBe(false);
    expect(Date.parse(stopped.updated_at)).toBeGreaterThanOrEqual(Date.parse(hi.created_at));
  });
});

describe("a contact's first_inbound_call_at, first_inbound_text_at and first_inbound_email_at (spec Part 2, Contact)", () => {
  const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
  const read = async (id: string) => (await sim.api('GET', `/v1/contacts/${id}`)).json.data;
  it('inbound history added through the control plane sets them: the earliest inbound record of each kind, never an outbound one', async () => {
    await sim.advance(3600);
    const ada = (
      await sim.api('POST', '/_sim/contacts', {
        body: { name: 'Ada Lovelace', phone_number: ADA, email: 'ada@example.com' },
      })
    ).json.data;
    const add = (kind: string, body: Record<string, unknown>) => sim.api('POST', `/_sim/${kind}`, { body });
    // outbound records are not inbound ones
    await add('calls', { direction: 'outbound', from_number: OUR, to_number: ADA });
    await add('texts', { direction: 'outbound', from_number: OUR, to_number: ADA, body: 'Hi' });
    await add('emails', { direction: 'outbound', from_address: 'sales@acme.example', to: 'ada@example.com' });
    expect(await read(ada.id)).toMatchObject({
      first_inbound_call_at: null,
      first_inbound_text_at: null,
      first_inbound_email_at: null,
    });
    const email = await add('emails', { direction: 'inbound', from_address: 'ADA@example.com', to: 'a@acme.example' });
    expect(email.status).toBe(201);
    await add('calls', { direction: 'inbound', from_number: ADA, to_number: OUR, created_at: at(600) });
    await add('texts', { direction: 'inbound', from_number: ADA, to_number: OUR, body: 'Hello', created_at: at(1200) });
    const first = await read(ada.id);
    expect(first).toMatchObject({
      first_inbound_email_at: email.json.data.created_at,
      first_inbound_call_at: at(600),
      first_inbound_text_at: at(1200),
      updated_at: at(3600),
    });
    // history from before moves them back; a later record does not move them on
    await add('emails', {
      direction: 'inbound',
      from_address: 'ada@example.com',
      to: 'a@acme.example',
      created_at: at(60),
    });
    await add('calls', { direction: 'inbound', from_number: ADA, to_number: OUR });
    expect(await read(ada.id)).toMatchObject({ first_inbound_email_at: at(60), first_inbound_call_at: at(600) });
  });
  it('a contact added after its inbound calls, texts and emails starts with their times', async () => {
    await sim.api('POST', '/_sim/calls', { body: { direction: 'inbound', from_number: BOB, to_number: OUR } });
    await sim.advance(60);
    await sim.api('POST', '/_sim/texts', {
      body: { direction: 'inbound', from_number: BOB, to_number: OUR, body: 'Yo' },
    });
    await sim.advance(60);
    await sim.api('POST', '/_sim/emails', {
      body: { direction: 'inbound', from_address: 'bob@example.com', to: 'a@acme.example' },
    });
    await sim.advance(60);
    const bob = (
      await sim.api('POST', '/_sim/contacts', {
        body: { name: 'Bob Byte', phone_number: BOB, email: 'Bob@Example.com' },
      })
    ).json.data;
    const want = { first_inbound_call_at: at(0), first_inbound_text_at: at(60), first_inbound_email_at: at(120) };
    expect(bob).toMatchObject({ ...want, created_at: at(180), updated_at: at(180) });
    expect(await read(bob.id)).toMatchObject(want);
  });
});

describe('consent.email_subscribed follows the suppression list (spec Part 2, Contact)', () => {
  const read = async (id: string) => (await sim.api('GET', `/v1/contacts/${id}`)).json.data;
  const contact = async (name: string, email: string) =>
    (await sim.api('POST', '/_sim/contacts', { body: { name, email } })).json.data;
  it("is false once the contact's address is unsubscribed or reported as spam; a bounce leaves it subscribed", async () => {
    const ada = await contact('Ada', 'ada@example.com');
    const bob = await contact('Bob', 'bob@example.com');
    const cy = await contact('Cy', 'cy@example.com');
    expect(ada.consent.email_subscribed).toBe(true);
    await sim.advance(60);
    await sim.api('POST', '/_sim/suppressions', { body: { email: 'ADA@example.com' } });
    await sim.api('POST', '/_sim/suppressions', { body: { email: 'bob@example.com', reason: 'bounce' } });
    await sim.api('POST', '/_sim/suppressions', { body: { email: 'cy@example.com', reason: 'complaint' } });
    const after = await read(ada.id);
    expect(after.consent).toEqual({ ...ada.consent, email_subscribed: false });
    expect(after.updated_at).toBe(new Date(Date.parse(T0) + 60_000).toISOString());
    expect((await read(bob.id)).consent.email_subscribed).toBe(true);
    expect((await read(cy.id)).consent.email_subscribed).toBe(false);
  });
  it('a contact added with an address already unsubscribed starts unsubscribed', async () => {
    await sim.api('POST', '/_sim/suppressions', { body: { email: 'dee@example.com' } });
    const dee = await contact('Dee', 'Dee@Example.com');
    expect(dee.consent.email_subscribed).toBe(false);
    expect((await read(dee.id)).consent.email_subscribed).toBe(false);
  });
});

describe('incremental sync on a manual clock (issue 23, point 8)', () => {
  /** Every record created after `after`, page by page (newest first, as a client would take them). */
  async function pollSince(path: string, after: string | null): Promise<any[]> {
    const out: any[] = [];
    const q = after ? `&created_after=${encodeURIComponent(after)}` : '';
    let page = (await sim.api('GET', `${path}?limit=7${q}`)).json;
    out.push(...page.data);
    while (page.meta.cursor)
      out.push(...(page = (await sim.api('GET', `${path}?limit=7${q}&cursor=${page.meta.cursor}`)).json).data);
    return out;
  }

  it('records made in one instant have distinct, increasing created_at, so polling with the newest seen never misses or repeats one while records keep arriving', async () => {
    const seen = { calls: new Map<string, string>(), messages: new Map<string, string>() };
    const newest: Record<'calls' | 'messages', string | null> = { calls: null, messages: null };
    const poll = async () => {
      for (const list of ['calls', 'messages'] as const) {
        const got = await pollSince(`/v1/${list}`, newest[list]);
        for (const r of got) {
          expect(seen[list].has(r.id), `${list} ${r.id} seen twice`).toBe(false);
          seen[list].set(r.id, r.created_at);
          if (!newest[list] || r.created_at > newest[list]!) newest[list] = r.created_at;
        }
      }
    };
    let n = 0;
    const fixtureCalls = (k: number) =>
      Array.from({ length: k }, () => ({ direction: 'inbound', from_number: `+1555000${4000 + n++}`, to_number: OUR }));
    for (let round = 0; round < 12; round++) {
      // in the same instant: fixtures one by one and in bulk, a quick call job dialing three numbers, texts
      await sim.api('POST', '/_sim/calls', { body: fixtureCalls(1)[0] });
      await poll();
      await sim.api('POST', '/_sim/calls', { body: fixtureCalls(3) });
      await sim.api('POST', '/_sim/texts', {
        body: { direction: 'inbound', from_number: `+1555000${5000 + round}`, to_number: OUR, body: 'hi' },
      });
      await poll();
      if (round % 3 === 0) {
        const job = await sim.api('POST', '/v1/quick/ai-calls', {
          body: {
            to_numbers: [`+1202555${String(1000 + round).padStart(4, '0')}`, '+12025550100', '+12025550105'].slice(
              round === 0 ? 0 : 1,
            ),
            goal: 'confirm',
          },
        });
        expect(job.status).toBe(201);
      }
      await poll();
      // the clock moves only now and then: most rounds share an instant with the one before
      if (round % 4 === 3) await sim.advance(1);
    }
    await sim.advance(120); // the quick calls end; their texts and records are in history
    await poll();
    for (const list of ['calls', 'messages'] as const) {
      const all = await pollSince(`/v1/${list}`, null);
      expect([...seen[list].keys()].sort(), list).toEqual(all.map((r) => r.id).sort());
      // distinct and increasing in creation order
      const times = all.map((r) => r.created_at).reverse();
      expect(new Set(times).size, list).toBe(times.length);
      expect([...times].sort(), list).toEqual(times);
    }
    expect(seen.calls.size).toBeGreaterThan(50);
    // a record made in an instant is at most a few ms ahead of the clock
    const clock = Date.parse((await sim.api('GET', '/_sim/clock')).json.now);
    for (const t of seen.calls.values()) expect(Date.parse(t) - clock).toBeLessThan(1000);
  });
  it('a fixture with its own created_at keeps it (history as it was)', async () => {
    await sim.advance(60);
    const r = await sim.api('POST', '/_sim/calls', {
      body: { direction: 'inbound', from_number: ADA, to_number: OUR, created_at: T0 },
    });
    expect(r.json.data.created_at).toBe(T0);
  });
});
