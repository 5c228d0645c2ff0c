// The indexes requests look up (simulator/indexes.ts, issue 15): a server keeps them in step as
// records and contacts arrive, and its answers are exactly those of a process that builds them
// afresh from the data file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startSim, tempDir, type Sim } from './helpers.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());

const OUR = '+15550001000';
const phone = (k: number) => `+1555000${3000 + k}`;
const email = (k: number) => `person${k}@example.com`;

/** The same request answered by a new process reading the data file (indexes built from scratch). */
async function fresh(path: string): Promise<unknown> {
  const r = await cli(['api', 'GET', path], {
    env: { VMV_SIM_DATA: sim.data, VMV_CONFIG_DIR: join(tempDir(), 'cfg'), NO_COLOR: '1' },
  });
  expect(r.code, r.stderr).toBe(0);
  return r.json;
}

describe('indexes kept in step', () => {
  it('people, contacts and history lists answered as records and contacts arrive equal a fresh build', async () => {
    const post = async (path: string, body: Record<string, unknown>) => {
      const r = await sim.api('POST', path, { body });
      expect(r.status, r.text).toBe(201);
      return r.json.data;
    };
    const contacts: string[] = [];
    // records to people before and after they become contacts, many at the same instant, read between writes
    for (let i = 0; i < 24; i++) {
      const k = i % 6;
      if (i % 5 === 0) await sim.advance(60);
      if (i === 7 || i === 15)
        contacts.push(
          (await post('/_sim/contacts', { name: `Person ${k}`, phone_number: phone(k), email: email(k).toUpperCase() }))
            .id,
        );
      await post('/_sim/calls', {
        direction: i % 2 ? 'inbound' : 'outbound',
        from_number: i % 2 ? phone(k) : OUR,
        to_number: i % 2 ? OUR : phone(k),
        status: i % 3 ? 'COMPLETED' : 'BUSY',
      });
      await post('/_sim/texts', { direction: 'inbound', from_number: phone(k + 1), to_number: OUR, body: `t${i}` });
      await post('/_sim/emails', {
        direction: 'outbound',
        from_address: 'team@acme.example',
        to: email(k + 2),
        subject: `e${i}`,
      });
      expect((await sim.api('GET', '/v1/history/people?limit=100')).status).toBe(200);
    }
    // a fixture dated in the past lands in the middle of the time order
    await post('/_sim/calls', {
      direction: 'outbound',
      from_number: OUR,
      to_number: phone(9),
      created_at: '2026-01-05T09:01:30Z',
    });
    const paths = [
      '/v1/history/people?limit=100',
      '/v1/contacts?limit=7',
      '/v1/calls?limit=50',
      '/v1/calls?limit=5&order=asc',
      `/v1/calls?contact_id=${contacts[0]}`,
      `/v1/calls?phone_number=${encodeURIComponent(phone(3))}&status=busy`,
      `/v1/messages?contact_id=${contacts[1]}&limit=100`,
      `/v1/messages?created_after=2026-01-05T09:02:00Z&created_before=2026-01-05T09:04:00Z&limit=100`,
      `/v1/emails?email=${encodeURIComponent(email(3).toUpperCase())}&limit=100`,
      `/v1/emails?contact_id=${contacts[1]}&direction=outbound`,
    ];
    for (const path of paths) {
      const served = (await sim.api('GET', path)).json;
      expect(served.data.length, path).toBeGreaterThan(0);
      expect(await fresh(path), path).toEqual(served);
    }
    // the people folded into a contact that came after their records
    const people = (await sim.api('GET', '/v1/history/people?limit=100')).json.data;
    const p = people.find((x: { contact_id: string | null }) => x.contact_id === contacts[0]);
    expect(p).toMatchObject({ phone_number: phone(Number(p.name.slice(-1))) });
    expect(p.call_count + p.text_count + p.email_count).toBeGreaterThan(2);
    expect(people.filter((x: { phone_number: string | null }) => x.phone_number === p.phone_number)).toHaveLength(1);
  });

  it('the people the snapshot saves (a clean stop folds the journal in) are those a build from the records gives', async () => {
    const data = join(tempDir(), 'sim.json');
    const one = await startSim({ data });
    // enough texts that the snapshot keeps them apart, parsed only when used (64 KiB and more), from
    // enough people that they are saved in parts (2,000 a part)
    const many = Array.from({ length: 4100 }, (_, i) => ({
      direction: 'inbound',
      from_number: `+1555${String(1000000 + i)}`,
      to_number: OUR,
      body: `hello ${i}`,
    }));
    expect((await one.api('POST', '/_sim/texts', { body: many })).status).toBe(201);
    await one.api('POST', '/_sim/contacts', { body: { name: 'Late contact', phone_number: '+15551000001' } });
    await one.api('POST', '/_sim/calls', {
      body: { direction: 'outbound', from_number: OUR, to_number: '+15551000002' },
    });
    /** Every person, page by page (cursors are signed with the store's secret: any process takes them). */
    const everyone = async (get: (path: string) => Promise<any>) => {
      const out: unknown[] = [];
      let page = await get('/v1/history/people?limit=100');
      out.push(...page.data);
      while (page.meta.cursor)
        out.push(...(page = await get(`/v1/history/people?limit=100&cursor=${page.meta.cursor}`)).data);
      return { total: page.meta.total_results, out };
    };
    const served = await everyone(async (path) => (await one.api('GET', path)).json);
    expect(served.out).toHaveLength(4100);
    await one.stop();
    const text = readFileSync(data, 'utf8');
    expect(Object.keys(JSON.parse(text.slice(0, text.indexOf('\n')).replace(/,$/, '}')).store.lazy)).toContain('texts');
    expect(Object.values(JSON.parse(text).$people3)).toEqual([4100]); // people3 since issue 32 reordered them (a file saved before is rebuilt)
    // a new process answers from what was saved, then, once a record arrives, from the records
    const env = { VMV_SIM_DATA: data, VMV_CONFIG_DIR: join(tempDir(), 'cfg'), NO_COLOR: '1' };
    const embedded = async (path: string) => (await cli(['api', 'GET', path], { env })).json;
    expect(await everyone(embedded)).toEqual(served);
    // a saved part whose bytes changed (its checksum) is as if not saved: built again from the records
    const bytes = readFileSync(data);
    const header = JSON.parse(text.slice(0, text.indexOf('\n')).replace(/,$/, '}')).store;
    const [start, end] = header.saved[Object.keys(header.saved).find((k) => /^people3:.+:0$/.test(k))!];
    const at = bytes.subarray(Number(start), Number(end)).indexOf('"name":"+1555') + Number(start) + 13;
    bytes[at] = bytes[at] === 0x39 ? 0x38 : bytes[at] + 1; // a digit of a name shown, still valid JSON
    writeFileSync(data, bytes);
    expect(await everyone(embedded)).toEqual(served);
    const two = await startSim({ data });
    try {
      expect(await everyone(async (path) => (await two.api('GET', path)).json)).toEqual(served);
      await two.api('POST', '/_sim/texts', {
        body: { direction: 'inbound', from_number: phone(7), to_number: OUR, body: 'new' },
      });
      const after = (await two.api('GET', '/v1/history/people?limit=100')).json;
      expect(after.meta.total_results).toBe(4101);
      expect(await embedded('/v1/history/people?limit=100')).toEqual(after);
    } finally {
      await two.stop();
    }
  });

  it('a cursor walks the indexed lists page by page, each record once, both orders', async () => {
    for (const order of ['desc', 'asc']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await sim.api('GET', `/v1/messages?limit=7${cursor ? `&cursor=${cursor}` : `&order=${order}`}`);
        seen.push(...r.json.data.map((t: { id: string }) => t.id));
        cursor = r.json.meta.cursor;
      } while (cursor);
      const all = (await sim.api('GET', `/v1/messages?limit=100&order=${order}`)).json.data.map(
        (t: { id: string }) => t.id,
      );
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(all.length);
    }
  });

  it('the calls under way, counted for /_sim/status, come from what the snapshot saved: a new process parses no call', async () => {
    const data = join(tempDir(), 'sim.json');
    const one = await startSim({ data });
    const number = '+14155550142';
    expect((await one.api('POST', '/_sim/phone-numbers', { body: { stack: 't2', phone_number: number } })).status).toBe(
      201,
    );
    // enough calls that the snapshot keeps them apart (64 KiB and more), two of them ringing
    const done = Array.from({ length: 1500 }, (_, i) => ({
      direction: 'outbound',
      from_number: OUR,
      to_number: `+1555${String(2000000 + i)}`,
      summary: 'Talked about the order.',
    }));
    expect((await one.api('POST', '/_sim/calls', { body: done })).status).toBe(201);
    for (const from of ['+14155550181', '+14155550182'])
      expect((await one.api('POST', '/_sim/inbound/calls', { body: { from, to: number } })).status).toBe(201);
    expect((await one.api('GET', '/_sim/status')).json.in_flight.calls).toBe(2);
    await one.stop();
    const text = readFileSync(data, 'utf8');
    expect(Object.keys(JSON.parse(text.slice(0, text.indexOf('\n')).replace(/,$/, '}')).store.lazy)).toContain('calls');
    // in-process, on the data file: the status counts them, and the calls are still unparsed
    const { Store, createApp } = await import('../simulator/world.js');
    const { unparsed } = await import('../simulator/store/snapshot.js');
    const { raw } = await import('../simulator/store/tracker.js');
    const store = new Store(data);
    const r = await createApp(store).handle({ method: 'GET', url: '/_sim/status', headers: {} });
    expect(JSON.parse(String(r.body)).in_flight.calls).toBe(2);
    const parsed = async () => !(await store.withLock(async (ss) => unparsed(raw((await ss.begin()).data), 'calls')));
    expect(await parsed()).toBe(false);
    // once the calls are read (a list), a call that ends in place is no longer counted
    const two = await startSim({ data });
    try {
      const ringing = (await two.api('GET', '/v1/calls?status=ringing&limit=10')).json.data;
      expect(ringing).toHaveLength(2);
      await two.advance(3600);
      const live = (await two.api('GET', '/_sim/status')).json.in_flight.calls;
      const listed = (await two.api('GET', '/v1/calls?limit=50')).json.data.filter((c: { status: string }) =>
        ['QUEUED', 'RINGING', 'IN_PROGRESS'].includes(c.status),
      );
      expect(live).toBe(listed.length);
      expect(live).toBeLessThan(2);
    } finally {
      await two.stop();
    }
    const env = { VMV_SIM_DATA: data, VMV_CONFIG_DIR: join(tempDir(), 'cfg'), NO_COLOR: '1' };
    const after = (await cli(['api', 'GET', '/_sim/status'], { env })).json;
    expect(after.in_flight.calls).toBeLessThan(2);
  });
});
