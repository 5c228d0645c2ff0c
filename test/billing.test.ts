// What numbers cost (issue 14, items 1-3): an AI number's line charged every month on the simulator
// clock (suspended when the wallet cannot pay, resumed by a top-up), the plan's included minutes and
// texts with per-minute and per-text rates beyond them, the ledger, and the AI number's agent as a
// view of the number's configuration. Over HTTP, months advanced on a manual clock.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, T0, tempDir, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const workspace = async () => (await sim.api('GET', '/_sim/workspace')).json;
const wallet = async () => (await workspace()).wallet_usd;
const setWorkspace = async (body: unknown) => {
  const r = await sim.api('PATCH', '/_sim/workspace', { body });
  expect(r.status, r.text).toBe(200);
  return r.json;
};
const number = async (id: number) => (await sim.api('GET', `/v1/quick/ai-numbers/${id}`)).json.data;
const clockTo = async (now: string) => {
  const r = await sim.api('POST', '/_sim/clock', { body: { now } });
  expect(r.status, r.text).toBe(200);
};
/** Back to the seeded state with the manual clock at `now`. */
const resetAt = async (now: string) => {
  sim.key = (await sim.api('POST', '/_sim/reset', { body: { clock: 'manual', now } })).json.api_key;
};
/** An AI number bought now and wired (a minute later); returns its id and phone number. */
const buyReady = async (body: Record<string, unknown> = {}) => {
  const r = await sim.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415', ...body } });
  expect(r.status, r.text).toBe(201);
  await sim.advance(60);
  const n = await number(r.json.data.id);
  return { id: n.id as number, phone: n.phone_number as string };
};
const CALLER = '+12025559000';
const inboundCall = (to: string, says?: string) =>
  sim.api('POST', '/_sim/inbound/calls', { body: { from: CALLER, to, says } });
const inboundText = (to: string, body: string, from = '+12025558000') =>
  sim.api('POST', '/_sim/inbound/texts', { body: { from, to, body } });
const call = async (id: string) => (await sim.api('GET', `/v1/calls/${id}`)).json.data;
const thread = async (from = '+12025558000') =>
  (await sim.api('GET', `/v1/messages?order=asc&phone_number=${encodeURIComponent(from)}`)).json.data;
const ledger = async (kind?: string) => (await workspace()).ledger.filter((e: any) => !kind || e.kind === kind);

describe("an AI number's line: 5 USD every month from the purchase", () => {
  it("is charged at purchase, then on the purchase's day of each month, at its time of day", async () => {
    const { id } = await buyReady();
    expect(await wallet()).toBe(45);
    expect(await number(id)).toMatchObject({ next_charge_at: '2026-02-05T09:00:00.000Z', suspended: false });
    await clockTo('2026-02-05T08:59:59Z');
    expect(await wallet()).toBe(45);
    await clockTo('2026-02-05T09:00:00Z');
    expect(await wallet()).toBe(40);
    expect(await number(id)).toMatchObject({ next_charge_at: '2026-03-05T09:00:00.000Z', suspended: false });
    await clockTo('2026-06-01T00:00:00Z');
    expect(await wallet()).toBe(25); // March, April, May
    const lines = await ledger('line');
    expect(lines.map((e: any) => [e.at, e.wallet_cents, e.wallet_after_cents])).toEqual([
      ['2026-05-05T09:00:00.000Z', 500, 2500],
      ['2026-04-05T09:00:00.000Z', 500, 3000],
      ['2026-03-05T09:00:00.000Z', 500, 3500],
      ['2026-02-05T09:00:00.000Z', 500, 4000],
      [T0, 500, 4500],
    ]);
    expect(lines.every((e: any) => e.reference_id === String(id))).toBe(true);
    expect(lines[0].description).toMatch(
      /^Line of AI number \+1415\d{7} \(\d+\), the month from 2026-05-05 to 2026-06-05$/,
    );
  });

  it('bought on the 31st: charged on the last day of shorter months, and on the 31st again when the month has one', async () => {
    await resetAt('2026-01-31T10:00:00Z');
    const { id } = await buyReady();
    const dates: string[] = [];
    for (let i = 0; i < 5; i++) {
      const next = (await number(id)).next_charge_at;
      dates.push(next);
      await clockTo(next);
    }
    expect(dates).toEqual([
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
      '2026-05-31T10:00:00.000Z',
      '2026-06-30T10:00:00.000Z',
    ]);
    expect(await wallet()).toBe(20);
    // the months the ledger names: a month after a short one still ends on the 31st when it has one
    expect(
      (await ledger('line'))
        .reverse()
        .map((e: any) => /the month from (\S+) to (\S+)$/.exec(e.description)!.slice(1).join(' to ')),
    ).toEqual([
      '2026-01-31 to 2026-02-28',
      '2026-02-28 to 2026-03-31',
      '2026-03-31 to 2026-04-30',
      '2026-04-30 to 2026-05-31',
      '2026-05-31 to 2026-06-30',
      '2026-06-30 to 2026-07-31',
    ]);
  });

  it('in a leap year a 29th, 30th or 31st purchase is charged on February 29', async () => {
    for (const day of [29, 30, 31]) {
      await resetAt(`2028-01-${day}T12:00:00Z`);
      const { id } = await buyReady();
      expect((await number(id)).next_charge_at, `bought on January ${day}`).toBe('2028-02-29T12:00:00.000Z');
    }
  });

  it('a number that could not be wired up is refunded and never charged again; the ledger shows both', async () => {
    const id = (await sim.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '555' } })).json.data.id;
    await sim.advance(60);
    expect(await number(id)).toMatchObject({ status: 'failed', next_charge_at: null, suspended: false });
    expect(await wallet()).toBe(50);
    expect((await ledger('line')).map((e: any) => e.wallet_cents)).toEqual([-500, 500]);
    expect((await ledger('line'))[0].description).toMatch(
      /^Refund of the line of AI number \d+: it could not be wired up$/,
    );
    expect((await sim.api('GET', '/_sim/clock')).json.next_due_at).toBeNull();
  });

  it('releasing the number ends its line: no more charges', async () => {
    const { id } = await buyReady();
    expect((await sim.api('GET', '/_sim/clock')).json).toMatchObject({
      next_due_at: '2026-02-05T09:00:00.000Z',
      next_job_due_at: null,
    });
    expect((await sim.api('DELETE', `/v1/phone-numbers/${id}`)).status).toBe(200);
    expect((await sim.api('GET', '/_sim/clock')).json.next_due_at).toBeNull();
    await clockTo('2026-04-01T00:00:00Z');
    expect(await wallet()).toBe(45);
  });

  it('numbers added through the control plane have no line (the spec prices only AI numbers)', async () => {
    const n = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json;
    expect(await number(n.id)).toMatchObject({ next_charge_at: null, suspended: false });
    expect(await wallet()).toBe(50);
  });
});

describe('a line the wallet cannot pay: the number is suspended until paid', () => {
  it('suspended when the month falls due and the wallet is short; next_charge_at keeps the date owed', async () => {
    const { id } = await buyReady();
    await setWorkspace({ wallet_usd: 4.99 });
    await clockTo('2026-02-05T09:00:00Z');
    expect(await number(id)).toMatchObject({
      status: 'ready',
      suspended: true,
      next_charge_at: '2026-02-05T09:00:00.000Z',
    });
    expect(await wallet()).toBe(4.99);
    expect((await sim.api('GET', '/v1/phone-numbers')).json.data[0]).toMatchObject({ id, suspended: true });
    // nothing more accrues while suspended: a month later it still owes one month
    await clockTo('2026-03-20T09:00:00Z');
    expect(await number(id)).toMatchObject({ suspended: true, next_charge_at: '2026-02-05T09:00:00.000Z' });
    expect(await wallet()).toBe(4.99);
  });

  it('does not answer: calls fail (line_suspended) without forwarding, menu or AI; texts are recorded, never answered; it places no calls', async () => {
    const { id, phone } = await buyReady({ handle_texts: true });
    await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, {
      body: { forwarding: { mode: 'call_me_first', forward_to_number: '+12025550100' } },
    });
    await setWorkspace({ wallet_usd: 0 });
    await clockTo('2026-02-05T09:00:00Z');
    const r = await inboundCall(phone, 'Hello?');
    expect(r.status).toBe(201);
    expect(r.json.routing).toEqual({
      handled_by: 'nobody',
      transferred_to: null,
      status: 'FAILED',
      end_reason: 'line_suspended',
    });
    await sim.advance(3);
    expect(await call(r.json.data.id)).toMatchObject({
      status: 'FAILED',
      duration_seconds: 0,
      has_recording: false,
      transcript_turns: [],
    });
    expect((await inboundText(phone, 'Are you open?')).status).toBe(201);
    await sim.advance(600);
    expect((await thread()).map((t: any) => t.direction)).toEqual(['inbound']);
    const placed = await sim.api('POST', '/v1/voice/calls', {
      body: { caller_id: phone, destination: '+12025550100' },
    });
    expect(placed.status).toBe(403);
    expect(placed.json.error).toMatchObject({
      code: 'insufficient_funds',
      message: expect.stringMatching(/line is suspended/),
    });
  });

  it('a top-up of the wallet pays the month owed and resumes the number, charged monthly from that day', async () => {
    const { id, phone } = await buyReady();
    await setWorkspace({ wallet_usd: 0 });
    await clockTo('2026-02-05T09:00:00Z');
    await clockTo('2026-02-10T15:30:00Z');
    expect((await number(id)).suspended).toBe(true);
    const w = await setWorkspace({ wallet_usd: 12 });
    expect(w.wallet_usd).toBe(7);
    expect(w.ledger[0]).toMatchObject({
      kind: 'line',
      at: '2026-02-10T15:30:00.000Z',
      wallet_cents: 500,
      wallet_after_cents: 700,
    });
    expect(await number(id)).toMatchObject({ suspended: false, next_charge_at: '2026-03-10T15:30:00.000Z' });
    const r = await inboundCall(phone);
    expect(r.json.routing).toMatchObject({ handled_by: 'ai', status: 'COMPLETED' });
    await clockTo('2026-03-10T15:30:00Z');
    expect(await wallet()).toBe(2);
    expect(await number(id)).toMatchObject({ suspended: false, next_charge_at: '2026-04-10T15:30:00.000Z' });
  });

  it('a top-up too small for the month leaves it suspended; several suspended numbers are paid oldest first', async () => {
    const a = await buyReady();
    const b = await buyReady();
    await setWorkspace({ wallet_usd: 0 });
    await clockTo('2026-02-05T09:01:00Z');
    expect([(await number(a.id)).suspended, (await number(b.id)).suspended]).toEqual([true, true]);
    await setWorkspace({ wallet_usd: 4 });
    expect([(await number(a.id)).suspended, (await number(b.id)).suspended]).toEqual([true, true]);
    await setWorkspace({ wallet_usd: 7 });
    expect([(await number(a.id)).suspended, (await number(b.id)).suspended]).toEqual([false, true]);
    expect(await wallet()).toBe(2);
  });

  it('with auto-recharge the month is paid by a top-up; a declined card suspends it; fixing the card resumes it', async () => {
    const { id } = await buyReady();
    const w = await setWorkspace({ wallet_usd: 1, auto_recharge: { enabled: true, amount_usd: 10, threshold_usd: 2 } });
    expect(w.auto_recharge).toEqual({ enabled: true, amount_usd: 10, threshold_usd: 2, card_declined: false });
    await clockTo('2026-02-05T09:00:00Z');
    expect(await number(id)).toMatchObject({ suspended: false, next_charge_at: '2026-03-05T09:00:00.000Z' });
    expect(await wallet()).toBe(6); // 1 + 10 - 5
    expect(
      (await setWorkspace({ wallet_usd: 1, auto_recharge: { card_declined: true } })).auto_recharge.card_declined,
    ).toBe(true);
    await clockTo('2026-03-05T09:00:00Z');
    expect(await number(id)).toMatchObject({ suspended: true, next_charge_at: '2026-03-05T09:00:00.000Z' });
    expect(await wallet()).toBe(1);
    await clockTo('2026-03-06T09:00:00Z');
    await setWorkspace({ auto_recharge: { card_declined: false } });
    expect(await number(id)).toMatchObject({ suspended: false, next_charge_at: '2026-04-06T09:00:00.000Z' });
    expect(await wallet()).toBe(6);
  });

  it('turning auto-recharge on (a working card) pays the month owed', async () => {
    const { id } = await buyReady();
    await setWorkspace({ wallet_usd: 0 });
    await clockTo('2026-02-05T09:00:00Z');
    await setWorkspace({ auto_recharge: true });
    expect((await number(id)).suspended).toBe(false);
    expect(await wallet()).toBe(20); // 0 + 25 - 5
  });

  it('a declined card makes quick jobs pause too: refused up front when the wallet cannot pay the first charge', async () => {
    await setWorkspace({ wallet_usd: 0, auto_recharge: { enabled: true, card_declined: true } });
    const r = await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100'], goal: 'x' } });
    expect(r.status).toBe(403);
    await setWorkspace({ auto_recharge: { card_declined: false } });
    expect(
      (await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100'], goal: 'x' } })).status,
    ).toBe(201);
  });
});

describe("the plan's rates: included minutes and texts each month, then per minute and per text", () => {
  const addNumber = async () =>
    (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json as {
      id: number;
      phone_number: string;
    };
  const answered = async (to: string) => {
    const r = await inboundCall(to);
    expect(r.json.routing.handled_by).toBe('ai');
    await sim.advance(600);
    return call(r.json.data.id);
  };

  it("GET /_sim/workspace shows the rates and this month's usage", async () => {
    const w = await workspace();
    expect(w.plan).toEqual({
      content: true,
      assistant: true,
      video_credits_cents: 2000,
      included_minutes: 100,
      included_texts: 100,
      per_minute_usd: 0.1,
      per_text_usd: 0.02,
    });
    expect(w.usage).toEqual({
      period_start: T0,
      period_end: '2026-02-05T09:00:00.000Z',
      call_seconds_used: 0,
      minutes_used: 0,
      minutes_left: 100,
      texts_used: 0,
      texts_left: 100,
      calls_paused: false,
      texts_paused: false,
    });
  });

  it('PATCH /_sim/workspace changes them; every problem is named in one 400 and nothing changes', async () => {
    const w = await setWorkspace({
      plan: { included_minutes: 5, included_texts: 0, per_minute_usd: 0.25, per_text_usd: 0.1 },
    });
    expect(w.plan).toMatchObject({ included_minutes: 5, included_texts: 0, per_minute_usd: 0.25, per_text_usd: 0.1 });
    const r = await sim.api('PATCH', '/_sim/workspace', {
      body: {
        plan: { included_minutes: -1, included_texts: 1.5, per_minute_usd: 0.015, per_text_usd: 'x' },
        auto_recharge: { card_declined: 'yes' },
        wallet_usd: 1,
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(Object.keys(r.json.error.fields).sort()).toEqual([
      'auto_recharge.card_declined',
      'plan.included_minutes',
      'plan.included_texts',
      'plan.per_minute_usd',
      'plan.per_text_usd',
    ]);
    expect(r.json.error.fields['plan.per_minute_usd']).toBe('must be a whole number of cents, such as 0.05');
    expect(r.json.error.fields['plan.included_minutes']).toMatch(/0/);
    expect(
      (await sim.api('PATCH', '/_sim/workspace', { body: { plan: { per_text_usd: 100.01 } } })).json.error.fields,
    ).toHaveProperty(['plan.per_text_usd']);
    // the wallet and auto-recharge amounts are whole cents too, never rounded
    const cents = await sim.api('PATCH', '/_sim/workspace', {
      body: { wallet_usd: 0.015, auto_recharge: { amount_usd: 10.001, threshold_usd: 0.5 } },
    });
    expect(cents.status).toBe(400);
    expect(cents.json.error.fields).toEqual({
      wallet_usd: 'must be a whole number of cents, such as 0.05',
      'auto_recharge.amount_usd': 'must be a whole number of cents, such as 0.05',
    });
    expect(
      (await sim.api('PATCH', '/_sim/workspace', { body: { auto_recharge: { threshold_usd: 2.999 } } })).json.error
        .fields,
    ).toHaveProperty(['auto_recharge.threshold_usd']);
    expect(
      (await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 1_000_000.01 } })).json.error.fields,
    ).toHaveProperty(['wallet_usd']);
    // the time zone is checked with the rest
    const both = await sim.api('PATCH', '/_sim/workspace', {
      body: { plan: { included_minutes: -1 }, time_zone: 'Mars/Olympus' },
    });
    expect(both.json.error.fields).toEqual({
      'plan.included_minutes': expect.any(String),
      time_zone: 'is not an IANA time zone name such as America/New_York or UTC',
    });
    expect((await workspace()).plan).toMatchObject({ included_minutes: 5, per_minute_usd: 0.25 });
    expect(await wallet()).toBe(50);
  });

  it('inbound calls on a workspace number draw the included minutes, by the second; nothing is charged within them', async () => {
    const n = await addNumber();
    const c = await answered(n.phone_number);
    expect(c.duration_seconds).toBeGreaterThan(0);
    const u = (await workspace()).usage;
    expect(u).toMatchObject({
      call_seconds_used: c.duration_seconds,
      minutes_used: Math.round((c.duration_seconds / 60) * 100) / 100,
    });
    expect(u.minutes_left).toBe(Math.round(((6000 - c.duration_seconds) / 60) * 100) / 100);
    expect(await wallet()).toBe(50);
    expect(await ledger()).toEqual([]);
  });

  it('beyond them each second is billed at the per-minute rate, rounded to the cent per call, into the ledger', async () => {
    const n = await addNumber();
    await setWorkspace({ plan: { included_minutes: 0, per_minute_usd: 0.6 } }); // a cent a second
    const c = await answered(n.phone_number);
    expect(await wallet()).toBe((5000 - c.duration_seconds) / 100);
    const [e] = await ledger();
    expect(e).toMatchObject({
      kind: 'call',
      reference_id: c.id,
      wallet_cents: c.duration_seconds,
      credits_cents: 0,
      wallet_after_cents: 5000 - c.duration_seconds,
    });
    expect(e.description).toBe(
      `Call ${c.id} on ${n.phone_number}: ${c.duration_seconds} s beyond the plan's 0 minutes at 0.60 USD a minute`,
    );
  });

  it('a call that crosses the allowance pays only for the seconds beyond it', async () => {
    const n = await addNumber();
    await setWorkspace({ plan: { included_minutes: 1, per_minute_usd: 0.6 } });
    const first = await answered(n.phone_number);
    expect(first.duration_seconds).toBeLessThan(60);
    expect(await wallet()).toBe(50);
    const second = await answered(n.phone_number);
    const beyond = first.duration_seconds + second.duration_seconds - 60;
    expect(await wallet()).toBe((5000 - beyond) / 100);
    expect((await ledger('call'))[0]).toMatchObject({ reference_id: second.id, wallet_cents: beyond });
    expect((await workspace()).usage).toMatchObject({
      minutes_left: 0,
      call_seconds_used: first.duration_seconds + second.duration_seconds,
    });
  });

  it('outbound calls from a workspace number draw them too; calls from a verified caller ID do not', async () => {
    const { phone } = await buyReady();
    const placed = (
      await sim.api('POST', '/v1/voice/calls', { body: { caller_id: phone, destination: '+12025550100' } })
    ).json.data;
    await sim.advance(600);
    const c = await call(placed.id);
    expect(c.duration_seconds).toBeGreaterThan(0);
    expect((await workspace()).usage.call_seconds_used).toBe(c.duration_seconds);
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025550199' } });
    await sim.api('POST', '/v1/voice/calls', { body: { caller_id: '+12025550199', destination: '+12025550100' } });
    await sim.advance(600);
    expect((await workspace()).usage.call_seconds_used).toBe(c.duration_seconds);
  });

  it('quick calls and quick texts do not draw the included minutes or texts (the spec)', async () => {
    const job = (
      await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100'], goal: 'Book a table' } })
    ).json.data;
    await sim.api('POST', '/v1/quick/ai-texts', { body: { to_numbers: ['+12025550101'], goal: 'Book a table' } });
    await sim.advance(600);
    const read = (await sim.api('GET', `/v1/quick/actions/${job.id}`)).json.data;
    expect(read.targets[0].status).toBe('completed');
    expect((await workspace()).usage).toMatchObject({
      call_seconds_used: 0,
      texts_used: 0,
      minutes_left: 100,
      texts_left: 100,
    });
    expect((await ledger()).map((e: any) => e.kind)).not.toContain('call');
    expect((await ledger()).map((e: any) => e.kind)).not.toContain('text');
  });

  it("the agent's text replies draw the included texts, then the per-text price; texts received are free", async () => {
    const n = await addNumber();
    await sim.api('PATCH', `/v1/phone-numbers/${n.id}/config`, {
      body: { sms: { auto_reply_enabled: true, reply_delay_seconds: 0 } },
    });
    await setWorkspace({ plan: { included_texts: 1, per_text_usd: 0.05 } });
    await inboundText(n.phone_number, 'Hi');
    await sim.advance(1);
    expect(await wallet()).toBe(50);
    await inboundText(n.phone_number, 'Are you open Sunday?');
    await sim.advance(1);
    const t = await thread();
    expect(t.map((x: any) => x.sender)).toEqual(['contact', 'ai_agent', 'contact', 'ai_agent']);
    expect(await wallet()).toBe(49.95);
    expect((await ledger())[0]).toMatchObject({ kind: 'text', reference_id: t[3].id, wallet_cents: 5 });
    expect((await workspace()).usage).toMatchObject({ texts_used: 2, texts_left: 0 });
  });

  it("the allowances start afresh each plan month, counted from the workspace's creation", async () => {
    const n = await addNumber();
    await setWorkspace({ plan: { included_minutes: 1 } });
    await answered(n.phone_number);
    expect((await workspace()).usage.call_seconds_used).toBeGreaterThan(0);
    await clockTo('2026-02-05T09:00:00Z');
    expect((await workspace()).usage).toMatchObject({
      period_start: '2026-02-05T09:00:00.000Z',
      period_end: '2026-03-05T09:00:00.000Z',
      call_seconds_used: 0,
      minutes_left: 1,
    });
  });

  describe('when the wallet cannot pay: the account pauses', () => {
    it('a call starts only while the wallet can pay a minute; an overage it cannot cover takes what it holds, never below zero; then calls are paused', async () => {
      const n = await addNumber();
      await setWorkspace({ wallet_usd: 0.65, plan: { included_minutes: 0, per_minute_usd: 0.6 } });
      // two calls under way at once: each started with a minute's price in the wallet
      const [a, b] = [await inboundCall(n.phone_number), await inboundCall(n.phone_number)];
      expect([a.json.routing.handled_by, b.json.routing.handled_by]).toEqual(['ai', 'ai']);
      await sim.advance(600);
      const [ca, cb] = [await call(a.json.data.id), await call(b.json.data.id)];
      expect(ca.duration_seconds + cb.duration_seconds).toBeGreaterThan(65);
      expect(await wallet()).toBe(0);
      expect((await ledger('call')).map((e: any) => [e.reference_id, e.wallet_cents, e.wallet_after_cents])).toEqual([
        [cb.id, 65 - ca.duration_seconds, 0],
        [ca.id, ca.duration_seconds, 65 - ca.duration_seconds],
      ]);
      // what was forgiven is said
      const short = ((cb.duration_seconds - (65 - ca.duration_seconds)) / 100).toFixed(2);
      expect((await ledger('call'))[0].description).toBe(
        `Call ${cb.id} on ${n.phone_number}: ${cb.duration_seconds} s beyond the plan's 0 minutes at 0.60 USD a minute; ${short} USD not covered: the wallet was empty`,
      );
      expect((await ledger('call'))[1].description).not.toMatch(/not covered/);
      expect((await workspace()).usage).toMatchObject({ calls_paused: true, texts_paused: false });
    });

    it('while paused a call on a workspace number fails (account_paused), the number places none, and its agent sends no texts; a top-up resumes them', async () => {
      const { id, phone } = await buyReady({ handle_texts: true });
      await setWorkspace({ wallet_usd: 0, plan: { included_minutes: 0, included_texts: 0 } });
      expect((await workspace()).usage).toMatchObject({ calls_paused: true, texts_paused: true });
      expect((await number(id)).suspended).toBe(false);
      const r = await inboundCall(phone);
      expect(r.json.routing).toEqual({
        handled_by: 'nobody',
        transferred_to: null,
        status: 'FAILED',
        end_reason: 'account_paused',
      });
      await sim.advance(3);
      expect(await call(r.json.data.id)).toMatchObject({ status: 'FAILED', duration_seconds: 0 });
      const placed = await sim.api('POST', '/v1/voice/calls', {
        body: { caller_id: phone, destination: '+12025550100' },
      });
      expect(placed.json.error).toMatchObject({
        code: 'insufficient_funds',
        message: expect.stringMatching(/paused for calls/),
      });
      await inboundText(phone, 'Hello?');
      await sim.advance(600);
      expect(await thread()).toHaveLength(1);
      // a top-up ends the pause
      await setWorkspace({ wallet_usd: 1 });
      expect((await workspace()).usage).toMatchObject({ calls_paused: false, texts_paused: false });
      expect((await inboundCall(phone)).json.routing.handled_by).toBe('ai');
    });

    it('with auto-recharge the account never pauses; with a declined card it does', async () => {
      await setWorkspace({ wallet_usd: 0, plan: { included_minutes: 0 }, auto_recharge: true });
      expect((await workspace()).usage.calls_paused).toBe(false);
      await setWorkspace({ auto_recharge: { card_declined: true } });
      expect((await workspace()).usage.calls_paused).toBe(true);
    });
  });
});

describe('the ledger accounts for every movement of the wallet', () => {
  /** Every entry's wallet_after_cents is the one before's less its wallet_cents (oldest first, from the seeded 50 USD). */
  const expectChained = (entries: any[], from = 5000) => {
    let after = from;
    for (const e of [...entries].reverse()) {
      expect(e.wallet_after_cents, `${e.kind}: ${e.description}`).toBe(after - e.wallet_cents);
      after = e.wallet_after_cents;
    }
    return after;
  };

  it('charges of every kind, auto-recharge top-ups and the wallet set by the control plane: the entries add up to the wallet', async () => {
    const w0 = await setWorkspace({
      wallet_usd: 1,
      auto_recharge: { enabled: true, amount_usd: 5, threshold_usd: 0.5 },
      plan: { included_minutes: 0, per_minute_usd: 0.6 },
    });
    expect(w0.ledger[0]).toMatchObject({
      kind: 'wallet_set',
      reference_id: w0.organization_id,
      wallet_cents: 4900,
      wallet_after_cents: 100,
      description: 'The wallet set to 1.00 USD by the control plane (it held 50.00 USD)',
    });
    const { phone } = await buyReady(); // 5 USD with 1 in the wallet: a top-up first
    const job = (
      await sim.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: ['+12025550100'], goal: 'Book a table' } })
    ).json.data;
    const texts = (
      await sim.api('POST', '/v1/quick/ai-texts', { body: { to_numbers: ['+12025550101'], goal: 'Book a table' } })
    ).json.data;
    const email = await sim.api('POST', '/v1/quick/emails', {
      body: { to: ['ada@example.com', 'grace@example.com'], subject: 'Hi', body: 'Hello' },
    });
    expect(email.status, email.text).toBe(200);
    const c = await inboundCall(phone);
    await sim.advance(600);
    await setWorkspace({ wallet_usd: 3 });
    const w = await workspace();
    const entries = w.ledger;
    expect(expectChained(entries)).toBe(Math.round(w.wallet_usd * 100));
    expect(entries.reduce((sum: number, e: any) => sum + e.wallet_cents, 0)).toBe(
      5000 - Math.round(w.wallet_usd * 100),
    );
    expect(new Set(entries.map((e: any) => e.kind))).toEqual(
      new Set(['wallet_set', 'recharge', 'line', 'quick_call', 'quick_text', 'email', 'call']),
    );
    const of = (kind: string) => entries.filter((e: any) => e.kind === kind).reverse();
    expect(of('recharge')[0]).toMatchObject({
      reference_id: w.organization_id,
      wallet_cents: -500,
      wallet_after_cents: 600,
      description: 'Auto-recharge: 5.00 USD added to pay 5.00 USD',
    });
    expect(
      of('recharge')
        .slice(1)
        .every((e: any) => e.description === 'Auto-recharge: 5.00 USD added as the wallet fell below 0.50 USD'),
    ).toBe(true);
    expect(of('quick_call').map((e: any) => e.reference_id)).toEqual([job.id, job.id]);
    expect(of('quick_call')[0]).toMatchObject({
      wallet_cents: 20,
      description: `Quick call ${job.id} to +12025550100, attempt 1: the placed-call fee`,
    });
    expect(of('quick_call')[1].description).toMatch(
      new RegExp(`^Quick call ${job.id} to \\+12025550100: call \\S+, \\d+ s at 0\\.20 USD a minute$`),
    );
    expect(of('quick_text').length).toBeGreaterThan(0);
    expect(of('quick_text').every((e: any) => e.reference_id === texts.id && e.wallet_cents === 5)).toBe(true);
    expect(of('email')).toEqual([
      expect.objectContaining({
        reference_id: email.json.data.id,
        wallet_cents: 2,
        description: `Quick email ${email.json.data.id}: 2 recipients at 0.01 USD`,
      }),
    ]);
    expect(of('call')[0].reference_id).toBe(c.json.data.id);
    expect(of('wallet_set').map((e: any) => e.description)).toEqual([
      'The wallet set to 1.00 USD by the control plane (it held 50.00 USD)',
      expect.stringMatching(/^The wallet set to 3\.00 USD by the control plane \(it held \d+\.\d\d USD\)$/),
    ]);
  });

  it('GET /_sim/ledger pages through every entry kept; a workspace keeps its latest 1,000', async () => {
    const dir = tempDir();
    const data = join(dir, 'ledger.json');
    const first = await startSim({ data });
    await first.stop();
    const file = JSON.parse(readFileSync(data, 'utf8'));
    const ws = file.meta.default_workspace_id;
    let seq = file.meta.next_seq;
    file.ledger = Array.from({ length: 1000 }, (_, i) => ({
      seq: seq++,
      workspace_id: ws,
      at: T0,
      kind: 'email',
      reference_id: `e${i}`,
      description: `Quick email e${i}`,
      credits_cents: 0,
      wallet_cents: 0,
      credits_after_cents: 2000,
      wallet_after_cents: 5000,
    }));
    file.meta.next_seq = seq;
    writeFileSync(data, JSON.stringify(file));
    const again = await startSim({ data });
    try {
      expect((await again.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 40 } })).status).toBe(200);
      const page = (await again.api('GET', '/_sim/ledger?limit=100')).json;
      expect(page.meta).toMatchObject({ page_size: 100, total_results: 1000 });
      expect(page.data[0]).toMatchObject({ kind: 'wallet_set', wallet_cents: 1000, wallet_after_cents: 4000 });
      expect(page.data[1].reference_id).toBe('e999');
      const oldest = (await again.api('GET', '/_sim/ledger?order=asc&limit=2')).json.data;
      expect(oldest.map((e: any) => e.reference_id)).toEqual(['e1', 'e2']); // e0 dropped
      const next = (await again.api('GET', `/_sim/ledger?limit=100&cursor=${encodeURIComponent(page.meta.cursor)}`))
        .json.data;
      expect(next[0].reference_id).toBe('e900');
    } finally {
      await again.stop();
    }
  });

  it('a PATCH that leaves the wallet as it was writes nothing', async () => {
    await setWorkspace({ wallet_usd: 50 });
    expect(await ledger()).toEqual([]);
  });
});

describe("one agent per number: the AI number's agent is a view of its configuration", () => {
  const config = async (id: number) => (await sim.api('GET', `/v1/phone-numbers/${id}/config`)).json.data;
  const agentOf = (c: any) => ({
    name: c.name,
    voice: c.voice.voice_id,
    language: c.voice.language,
    greeting: c.voice.greeting_message,
    prompt: c.voice.prompt,
  });

  it('agrees with the configuration at creation', async () => {
    const { id } = await buyReady({
      business_name: 'Acme Dental',
      business_description: 'Open weekdays 8-18.',
      greeting: 'Acme Dental, hello!',
    });
    const a = (await number(id)).agent;
    expect(a).toMatchObject(agentOf(await config(id)));
    expect(a).toMatchObject({
      name: 'Acme Dental assistant',
      voice: 'ava',
      language: 'en-US',
      greeting: 'Acme Dental, hello!',
      prompt: 'You answer calls and texts for Acme Dental. Open weekdays 8-18. Be brief, friendly and accurate.',
    });
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      (await sim.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415', name: 'Front desk' } })).json.data
        .agent.name,
    ).toBe('Front desk');
  });

  it('a change of name, voice, language, greeting or prompt shows at once; the agent keeps its id', async () => {
    const { id } = await buyReady();
    const before = (await number(id)).agent;
    const r = await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, {
      body: {
        name: 'Night desk',
        voice: { voice_id: 'leo-hd', language: 'en-GB', greeting_message: 'Evening!', prompt: 'Be calm.' },
      },
    });
    expect(r.status, r.text).toBe(200);
    const after = (await number(id)).agent;
    expect(after).toEqual({
      id: before.id,
      name: 'Night desk',
      voice: 'leo-hd',
      language: 'en-GB',
      greeting: 'Evening!',
      prompt: 'Be calm.',
    });
    expect(after).toMatchObject(agentOf(await config(id)));
  });

  it('back on the workspace defaults, the agent follows them, and their changes', async () => {
    const { id } = await buyReady();
    await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, { body: { voice: { inherits_workspace_default: true } } });
    await sim.api('PATCH', '/_sim/workspace/defaults', {
      body: { voice: { greeting_message: 'Hello from the defaults', voice_id: 'noah' } },
    });
    expect((await number(id)).agent).toMatchObject({
      voice: 'noah',
      greeting: 'Hello from the defaults',
      prompt: 'You are a helpful, concise receptionist.',
    });
  });

  it("the agent's texts and calls use it: a renamed agent introduces itself by its new name; a new greeting answers", async () => {
    const { id, phone } = await buyReady({ handle_texts: true, business_name: 'Acme' });
    await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, {
      body: { name: 'Robin', voice: { greeting_message: 'Robin here.' } },
    });
    await inboundText(phone, 'Hi');
    await sim.advance(600);
    expect((await thread())[1].body).toBe('Hi! This is Robin at Acme. Thanks for your message. How can I help?');
    const r = await inboundCall(phone);
    await sim.advance(600);
    expect((await call(r.json.data.id)).transcript_turns[0].text).toBe('Robin here.');
  });
});

describe('a data file written before monthly lines, plan rates and one agent per number', () => {
  /** Starts a simulator on a data file, does `before`, stops, rewrites the file as an earlier version wrote it, and starts again. */
  const oldFile = async <T>(before: (s: Sim) => Promise<T>, rewrite: (file: any) => void = () => {}, now?: string) => {
    const data = join(tempDir(), 'old.json');
    const first = await startSim({ data });
    const made = await before(first);
    await first.stop();
    const file = JSON.parse(readFileSync(data, 'utf8'));
    for (const n of file.phone_numbers) {
      n.agent = {
        id: n.agent_id,
        name: 'Stale copy',
        voice: 'ava',
        language: 'en-US',
        greeting: 'Stale',
        prompt: 'Stale',
      };
      delete n.agent_id;
      delete n.line;
    }
    file.timers = file.timers.filter((t: any) => t.type !== 'ainumber.line');
    rewrite(file);
    writeFileSync(data, JSON.stringify(file));
    return { again: await startSim({ data, now }), made };
  };

  it('an AI number still provisioning keeps its month: refunded if it fails, charged monthly from its purchase once wired', async () => {
    const { again, made } = await oldFile(async (s) => {
      const buy = async (area_code: string) =>
        (await s.api('POST', '/v1/quick/ai-numbers', { body: { area_code } })).json.data.id as number;
      return { failing: await buy('555'), wired: await buy('415') };
    });
    try {
      const read = async (id: number) => (await again.api('GET', `/v1/quick/ai-numbers/${id}`)).json.data;
      expect(await read(made.wired)).toMatchObject({
        status: 'provisioning',
        next_charge_at: '2026-02-05T09:00:00.000Z',
        suspended: false,
      });
      await again.advance(60);
      expect(await read(made.failing)).toMatchObject({ status: 'failed', next_charge_at: null });
      const w = (await again.api('GET', '/_sim/workspace')).json;
      expect(w.wallet_usd).toBe(45);
      expect(w.ledger[0]).toMatchObject({ kind: 'line', reference_id: String(made.failing), wallet_cents: -500 });
      expect((await again.api('POST', '/_sim/clock', { body: { now: '2026-02-05T09:00:00Z' } })).status).toBe(200);
      expect(await read(made.wired)).toMatchObject({ status: 'ready', next_charge_at: '2026-03-05T09:00:00.000Z' });
      expect((await again.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(40);
    } finally {
      await again.stop();
    }
  });

  it('an agent keeps the name and prompt the user saw where the configuration still held what purchase put there', async () => {
    const DEFAULT_PROMPT = 'You are a helpful, concise receptionist.';
    const AGENT_PROMPT = 'You answer calls and texts for Acme Sandbox. Be brief, friendly and accurate.';
    const { again, made } = await oldFile(
      async (s) => {
        const buy = async () =>
          (await s.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415' } })).json.data.id as number;
        return { untouched: await buy(), edited: await buy() };
      },
      (file) => {
        // as an earlier version bought them: the configuration had the workspace's voice and "<business> AI line"; the agent its own prompt and name
        for (const n of file.phone_numbers) {
          Object.assign(n.agent, { name: 'Acme Sandbox assistant', prompt: AGENT_PROMPT });
          n.config.name = 'Acme Sandbox AI line';
          n.config.voice.prompt = DEFAULT_PROMPT;
        }
        // the second one's configuration was changed since
        const edited = file.phone_numbers[1];
        edited.config.name = 'Night desk';
        edited.config.voice.prompt = 'Be calm.';
      },
    );
    try {
      const agent = async (id: number) => (await again.api('GET', `/v1/quick/ai-numbers/${id}`)).json.data.agent;
      expect(await agent(made.untouched)).toMatchObject({ name: 'Acme Sandbox assistant', prompt: AGENT_PROMPT });
      expect(await agent(made.edited)).toMatchObject({ name: 'Night desk', prompt: 'Be calm.' });
      await again.advance(60);
      expect((await again.api('GET', `/v1/phone-numbers/${made.untouched}/config`)).json.data).toMatchObject({
        name: 'Acme Sandbox assistant',
        voice: { prompt: AGENT_PROMPT },
      });
    } finally {
      await again.stop();
    }
  });

  it('still loads: the agent keeps its id and shows the configuration; old numbers have no line; plans get the default rates', async () => {
    const { again, made } = await oldFile(
      async (s) => {
        const r = await s.api('POST', '/v1/quick/ai-numbers', { body: { area_code: '415', name: 'Old name' } });
        await s.advance(60);
        return { id: r.json.data.id as number, agentId: r.json.data.agent.id as string };
      },
      (file) => {
        for (const w of file.workspaces) {
          w.plan = { content: true, assistant: true, video_credits_cents: 2000 };
          delete w.usage;
        }
        for (const o of file.organizations) delete o.auto_recharge.card_declined;
      },
      '2026-03-01T00:00:00Z',
    );
    try {
      const read = await again.api('GET', `/v1/quick/ai-numbers/${made.id}`);
      expect(read.status).toBe(200);
      expect(read.json.data).toMatchObject({
        next_charge_at: null,
        suspended: false,
        agent: { id: made.agentId, name: 'Old name', greeting: expect.stringMatching(/^Thanks for calling/) },
      });
      const w = (await again.api('GET', '/_sim/workspace')).json;
      expect(w.plan).toMatchObject({
        included_minutes: 100,
        included_texts: 100,
        per_minute_usd: 0.1,
        per_text_usd: 0.02,
      });
      expect(w.auto_recharge.card_declined).toBe(false);
      expect(w.usage).toMatchObject({ period_start: '2026-02-05T09:00:00.000Z', call_seconds_used: 0 });
      const call = await again.api('POST', '/_sim/inbound/calls', {
        body: { from: CALLER, to: read.json.data.phone_number },
      });
      expect(call.json.routing.handled_by).toBe('ai');
      await again.advance(600);
      expect((await again.api('GET', '/_sim/workspace')).json.usage.call_seconds_used).toBeGreaterThan(0);
    } finally {
      await again.stop();
    }
  });
});
