// Bulk seeding (issue 15): POST /_sim/emails, /_sim/texts, /_sim/calls and /_sim/contacts also take
// a JSON array of up to 10,000 fixtures, each checked as it would be alone, added as one transaction.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, T0, tempDir, useTargets, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const phone = (i: number) => `+1202555${String(i).padStart(4, '0')}`;
const text = (i: number) => ({
  direction: 'inbound',
  from_number: phone(i % 10_000),
  to_number: '+14155550100',
  body: `Message ${i}`,
});
const total = async (path: string) => (await sim.api('GET', `${path}?limit=1`)).json.meta.total_results as number;

describe('a JSON array of fixtures', () => {
  it('10,000 texts in one request: 201 with the count and the ids in the order sent; each is a record', async () => {
    const r = await sim.api('POST', '/_sim/texts', { body: Array.from({ length: 10_000 }, (_, i) => text(i)) });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json)).toEqual(['count', 'ids']);
    expect(r.json.count).toBe(10_000);
    expect(new Set(r.json.ids).size).toBe(10_000);
    expect(await total('/v1/messages')).toBe(10_000);
    // the history lists them newest first: the last one sent comes first
    const first = (await sim.api('GET', '/v1/messages?limit=2')).json.data;
    expect(first.map((t: any) => [t.id, t.body])).toEqual([
      [r.json.ids[9999], 'Message 9999'],
      [r.json.ids[9998], 'Message 9998'],
    ]);
  });

  it('10,001 items are refused, and nothing is added', async () => {
    const r = await sim.api('POST', '/_sim/texts', { body: Array.from({ length: 10_001 }, (_, i) => text(i)) });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      code: 'validation_error',
      fields: { body: 'must have at most 10000 items (got 10001)' },
    });
    expect(await total('/v1/messages')).toBe(0);
  });

  it('one 400 names every bad item by its index, as the single form would explain it; nothing is added', async () => {
    const r = await sim.api('POST', '/_sim/texts', {
      body: [text(0), { ...text(1), to_number: '555' }, text(2), { ...text(3), color: 'red' }, 7],
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({
      '[1].to_number': 'must be an E.164 phone number such as +15551234567',
      '[3].color': 'is not a known field',
      '[4]': 'must be a JSON object, got number',
    });
    expect(await total('/v1/messages')).toBe(0);
  });

  it('a rule the route checks itself (created_at not in the future) is reported by index too, after earlier items were taken: all or none', async () => {
    const future = '2026-01-06T00:00:00Z';
    const r = await sim.api('POST', '/_sim/emails', {
      body: [
        { direction: 'inbound', from_address: 'ada@example.com', to: 'inbox@acme.example.com' },
        { direction: 'inbound', from_address: 'bob@example.com', to: 'inbox@acme.example.com', created_at: future },
        { direction: 'outbound', from_address: 'inbox@acme.example.com', to: 'cy@example.com' },
        { direction: 'outbound', from_address: 'inbox@acme.example.com', to: 'di@example.com', created_at: future },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({
      code: 'validation_error',
      message: '2 of the 4 items cannot be added (the fields name them by index); nothing was added.',
      fields: {
        '[1].created_at': "must not be in the simulator's future",
        '[3].created_at': "must not be in the simulator's future",
      },
    });
    expect(await total('/v1/history/people')).toBe(0); // nobody was reached by email
  });

  it('calls: an array adds every record, with its own times and transcript', async () => {
    const r = await sim.api('POST', '/_sim/calls', {
      body: [
        {
          direction: 'outbound',
          from_number: '+14155550100',
          to_number: phone(1),
          duration_seconds: 60,
          created_at: '2026-01-04T10:00:00Z',
        },
        {
          direction: 'inbound',
          from_number: phone(2),
          to_number: '+14155550100',
          status: 'NO_ANSWER',
          transcript_turns: [{ speaker: 'person', text: 'Hello?' }],
        },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.json.count).toBe(2);
    const one = (await sim.api('GET', `/v1/calls/${r.json.ids[0]}`)).json.data;
    expect(one).toMatchObject({
      started_at: '2026-01-04T10:00:00.000Z',
      ended_at: '2026-01-04T10:01:00.000Z',
      status: 'COMPLETED',
    });
    const two = (await sim.api('GET', `/v1/calls/${r.json.ids[1]}`)).json.data;
    expect(two).toMatchObject({ status: 'NO_ANSWER', created_at: T0, transcript: 'User: Hello?' });
  });

  it('contacts: an array adds them in order; a later item conflicting with an earlier one or an existing contact is a 409 naming each by index, nothing added', async () => {
    expect(
      (await sim.api('POST', '/_sim/contacts', { body: { name: 'Existing', email: 'taken@example.com' } })).status,
    ).toBe(201);
    const bad = await sim.api('POST', '/_sim/contacts', {
      body: [
        { name: 'Ada', phone_number: phone(1) },
        { name: 'Ada again', phone_number: phone(1) },
        { name: 'Bob', email: 'TAKEN@example.com' },
        { name: 'Cy' },
      ],
    });
    expect(bad.status).toBe(409);
    expect(bad.json.error).toMatchObject({
      code: 'conflict',
      fields: { '[1].phone_number': "is already a contact's number", '[2].email': "is already a contact's address" },
    });
    expect(await total('/v1/contacts')).toBe(1);

    const ok = await sim.api('POST', '/_sim/contacts', {
      body: [
        { name: 'Ada Lovelace', phone_number: phone(1), tags: ['vip'] },
        { name: 'Bob', email: 'bob@example.com' },
      ],
    });
    expect(ok.status).toBe(201);
    expect(ok.json.count).toBe(2);
    expect((await sim.api('GET', `/v1/contacts/${ok.json.ids[0]}`)).json.data).toMatchObject({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      tags: ['vip'],
    });
    // fixtures added afterwards are folded into the contacts by number
    const texts = await sim.api('POST', '/_sim/texts', { body: [text(1), text(1)] });
    const listed = (await sim.api('GET', '/v1/messages')).json.data;
    expect(listed.map((t: any) => [t.id, t.contact_id])).toEqual(
      [...texts.json.ids].reverse().map((id: string) => [id, ok.json.ids[0]]),
    );
  });

  it('a single object still answers its record; an empty array adds nothing', async () => {
    const one = await sim.api('POST', '/_sim/texts', { body: text(5) });
    expect(one.status).toBe(201);
    expect(one.json.data).toMatchObject({ body: 'Message 5', direction: 'inbound' });
    const none = await sim.api('POST', '/_sim/texts', { body: [] });
    expect(none.status).toBe(201);
    expect(none.json).toEqual({ count: 0, ids: [] });
    expect(await total('/v1/messages')).toBe(1);
  });

  it('a bulk body may pass 1 MiB, up to 32 MiB; other routes keep the 1 MiB limit; a body that is neither object nor array is refused', async () => {
    const big = Array.from({ length: 10_000 }, (_, i) => ({ ...text(i), body: 'x'.repeat(300) }));
    expect(JSON.stringify(big).length).toBeGreaterThan(3 * 1024 * 1024);
    expect((await sim.api('POST', '/_sim/texts', { body: big })).status).toBe(201);
    const over = await sim.api('POST', '/_sim/texts', {
      raw: ' '.repeat(32 * 1024 * 1024 + 1),
      headers: { 'content-type': 'application/json' },
    });
    expect(over.status).toBe(413);
    expect(over.json.error.message).toBe(`The request body is larger than ${32 * 1024 * 1024} bytes.`);
    const other = await sim.api('POST', '/_sim/suppressions', {
      raw: ' '.repeat(1024 * 1024 + 1),
      headers: { 'content-type': 'application/json' },
    });
    expect(other.status).toBe(413);
    const scalar = await sim.api('POST', '/_sim/contacts', { body: 'Ada' });
    expect(scalar.json.error.fields).toEqual({ body: 'must be a JSON object or an array of them' });
    // routes without a bulk form still take objects only
    expect(
      (await sim.api('POST', '/_sim/suppressions', { body: [{ email: 'a@example.com' }] })).json.error.fields,
    ).toEqual({ body: 'must be a JSON object' });
  });
});

describe('vmv sim contact --file', () => {
  const { both } = useTargets({ resetEach: true });

  it('adds every contact of an array, printing their ids one a line (--json: the count and ids)', async () => {
    const file = join(tempDir(), 'contacts.json');
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'Ada Lovelace', email: 'ada@example.com' },
        { name: 'Alan Turing', phone_number: '+14155550199' },
      ]),
    );
    const r = await both(['sim', 'contact', '--file', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^([0-9a-f-]{36}\n){2}$/);
    const list = await both(['contacts', 'list', '--json']);
    expect(list.json.data.map((c: any) => c.name)).toEqual(['Alan Turing', 'Ada Lovelace']);
    const json = await both(['sim', 'contact', '--file', '-', '--json'], { stdin: '[{"name": "Grace Hopper"}]' });
    expect(json.json).toEqual({ count: 1, ids: [expect.stringMatching(/^[0-9a-f-]{36}$/)] });
  });

  it('a file with one object adds that contact; a refused item is named by its index; flags beside --file, or neither, are usage errors', async () => {
    expect((await both(['sim', 'contact', '--file', '-'], { stdin: '{"name": "Solo"}' })).stdout).toMatch(
      /^[0-9a-f-]{36}\n$/,
    );
    const bad = await both(['sim', 'contact', '--file', '-'], { stdin: '[{"name": "A"}, {"name": ""}]' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('[1].name');
    const mixed = await both(['sim', 'contact', '--file', '-', '--name', 'X'], { stdin: '[]' });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--file holds every field: give --name in the file instead.');
    const neither = await both(['sim', 'contact']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--name is required (or --file with the contacts as JSON).');
    expect((await both(['sim', 'contact', '--file', '-'], { stdin: '[{' })).stderr).toContain(
      '--file is not valid JSON',
    );
  });
});
