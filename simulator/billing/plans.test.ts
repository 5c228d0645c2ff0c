// Plan months and plan rates (docs/spec-silent.md, "Numbers' costs: lines and plan rates"): a
// monthly date falls on the anchor's day of the month at its time of day (UTC), or on the month's
// last day when the month is shorter (January 31 → February 28, or 29 in a leap year → March 31 →
// April 30); plan months count from the workspace's creation and usage starts afresh each month;
// each month includes included_minutes of calls and included_texts texts, and beyond them a call is
// billed per_minute_usd by the second, rounded to the cent per call, and each text per_text_usd,
// from the wallet (what the wallet cannot cover is not owed). Only calls and texts on the
// workspace's own numbers count. The clock is the simulated one, set per case.
import { describe, expect, it } from 'vitest';
import { Session } from '../core/session.js';
import type { CallRecord, TextRecord } from '../history/index.js';
import { seedData } from '../world.js';
import { addMonths, allowanceLeft, mayUse, meterCall, meterText, usageAt } from './plans.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

/** A freshly seeded world whose workspace was created at `created`, the clock standing at `now`. */
function world(created: string, now = created) {
  const s = new Session(seedData({ clock: { mode: 'manual', offset_ms: 0, frozen_ms: ms(created) } }));
  s.now = ms(now);
  const ws = s.data.workspaces[0];
  const org = s.data.organizations[0];
  return { s, ws, org };
}

describe("addMonths: the anchor's day of the month at its time of day, or the month's last day", () => {
  it.each([
    ['2025-01-15T10:00:00.000Z', 0, '2025-01-15T10:00:00.000Z'],
    ['2025-01-15T23:59:59.999Z', 1, '2025-02-15T23:59:59.999Z'],
    // docs/spec-silent.md's example: January 31 → February 28 (29), March 31, April 30, May 31
    ['2025-01-31T10:00:00.000Z', 1, '2025-02-28T10:00:00.000Z'],
    ['2024-01-31T10:00:00.000Z', 1, '2024-02-29T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', 2, '2025-03-31T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', 3, '2025-04-30T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', 4, '2025-05-31T10:00:00.000Z'],
    ['2025-01-30T08:00:00.000Z', 1, '2025-02-28T08:00:00.000Z'],
    ['2024-01-30T08:00:00.000Z', 1, '2024-02-29T08:00:00.000Z'],
    ['2025-01-29T08:00:00.000Z', 1, '2025-02-28T08:00:00.000Z'],
    ['2024-01-29T08:00:00.000Z', 1, '2024-02-29T08:00:00.000Z'],
    ['2025-03-31T00:00:00.000Z', 1, '2025-04-30T00:00:00.000Z'],
    ['2025-08-31T12:00:00.000Z', 1, '2025-09-30T12:00:00.000Z'],
    ['2025-08-31T12:00:00.000Z', 6, '2026-02-28T12:00:00.000Z'],
    // across the year's end
    ['2025-12-15T10:00:00.000Z', 1, '2026-01-15T10:00:00.000Z'],
    ['2025-11-30T10:00:00.000Z', 3, '2026-02-28T10:00:00.000Z'],
    ['2025-12-31T10:00:00.000Z', 2, '2026-02-28T10:00:00.000Z'],
    // leap days: February 29 goes to the 28th in common years, back to the 29th in leap years
    ['2024-02-29T10:00:00.000Z', 1, '2024-03-29T10:00:00.000Z'],
    ['2024-02-29T10:00:00.000Z', 12, '2025-02-28T10:00:00.000Z'],
    ['2024-02-29T10:00:00.000Z', 48, '2028-02-29T10:00:00.000Z'],
    // centuries are leap years only every 400 years
    ['2100-01-31T10:00:00.000Z', 1, '2100-02-28T10:00:00.000Z'],
    ['2000-01-31T10:00:00.000Z', 1, '2000-02-29T10:00:00.000Z'],
  ])('%s + %i months: %s', (anchor, k, expected) => {
    expect(iso(addMonths(ms(anchor), k))).toBe(expected);
  });

  it.each([1, 2, 3, 6, 11, 12, 13, 25])(
    "month %i from January 31 falls on the 31st or the month's last day (no drift to the 28th)",
    (k) => {
      const anchor = ms('2025-01-31T10:00:00.000Z');
      const lastDay = new Date(Date.UTC(2025, k + 1, 0)).getUTCDate();
      expect(new Date(addMonths(anchor, k)).getUTCDate()).toBe(Math.min(31, lastDay));
    },
  );
});

describe('usageAt: the plan month counted from the creation that holds now', () => {
  it.each([
    // created, now, the plan month [start, end)
    ['2025-01-31T10:00:00.000Z', '2025-01-31T10:00:00.000Z', '2025-01-31T10:00:00.000Z', '2025-02-28T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', '2025-02-28T09:59:59.999Z', '2025-01-31T10:00:00.000Z', '2025-02-28T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', '2025-02-28T10:00:00.000Z', '2025-02-28T10:00:00.000Z', '2025-03-31T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', '2025-03-30T23:00:00.000Z', '2025-02-28T10:00:00.000Z', '2025-03-31T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', '2025-03-31T10:00:00.000Z', '2025-03-31T10:00:00.000Z', '2025-04-30T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', '2025-05-01T00:00:00.000Z', '2025-04-30T10:00:00.000Z', '2025-05-31T10:00:00.000Z'],
    ['2025-01-31T10:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    ['2024-01-31T10:00:00.000Z', '2024-02-29T10:00:00.000Z', '2024-02-29T10:00:00.000Z', '2024-03-31T10:00:00.000Z'],
    ['2024-01-31T10:00:00.000Z', '2024-02-29T09:00:00.000Z', '2024-01-31T10:00:00.000Z', '2024-02-29T10:00:00.000Z'],
    // a month whose start day is later in the month than now's day
    ['2025-01-20T10:00:00.000Z', '2025-03-05T00:00:00.000Z', '2025-02-20T10:00:00.000Z', '2025-03-20T10:00:00.000Z'],
    ['2025-12-31T23:00:00.000Z', '2026-01-01T00:00:00.000Z', '2025-12-31T23:00:00.000Z', '2026-01-31T23:00:00.000Z'],
  ])('created %s, at %s: from %s to %s', (created, now, start, end) => {
    const { s, ws } = world(created, now);
    const u = usageAt(ws, s.now);
    expect([iso(u.start), iso(u.end)]).toEqual([start, end]);
  });

  it.each([
    // usage recorded for the month starting..., now, what usageAt reports
    ['2025-01-31T10:00:00.000Z', '2025-02-10T00:00:00.000Z', 600, 7],
    ['2025-01-31T10:00:00.000Z', '2025-02-28T10:00:00.000Z', 0, 0],
    ['2025-02-28T10:00:00.000Z', '2025-03-01T00:00:00.000Z', 600, 7],
    ['2025-02-28T10:00:00.000Z', '2025-04-01T00:00:00.000Z', 0, 0],
  ])('usage of the month from %s, read at %s: %i s, %i texts (afresh each month)', (start, now, seconds, texts) => {
    const { s, ws } = world('2025-01-31T10:00:00.000Z', now);
    ws.usage = { period_start: start, call_seconds: 600, texts: 7 };
    expect(usageAt(ws, s.now)).toMatchObject({ call_seconds: seconds, texts });
  });
});

const THIS_MONTH = '2025-01-31T10:00:00.000Z';
const LAST_MONTH = '2024-12-31T10:00:00.000Z';

describe('allowanceLeft: what is left of the month, never below zero', () => {
  it.each([
    // included minutes, included texts, usage recorded for (this or last month), seconds used,
    // texts used, seconds left, texts left
    [100, 100, THIS_MONTH, 0, 0, 6000, 100],
    [100, 100, THIS_MONTH, 5999, 99, 1, 1],
    [100, 100, THIS_MONTH, 6000, 100, 0, 0],
    [100, 100, THIS_MONTH, 9000, 250, 0, 0],
    [100, 100, LAST_MONTH, 9000, 250, 6000, 100],
    [0, 0, THIS_MONTH, 0, 0, 0, 0],
    [1, 5, THIS_MONTH, 30, 2, 30, 3],
  ])('%i min and %i texts included, usage of %s %i s and %i texts: %i s and %i texts left', (...row) => {
    const [minutes, texts, start, usedSeconds, usedTexts, secondsLeft, textsLeft] = row;
    const { s, ws } = world(LAST_MONTH, '2025-02-10T00:00:00.000Z');
    Object.assign(ws.plan, { included_minutes: minutes, included_texts: texts });
    ws.usage = { period_start: start, call_seconds: usedSeconds, texts: usedTexts };
    expect(allowanceLeft(ws, s.now, 'call')).toBe(secondsLeft);
    expect(allowanceLeft(ws, s.now, 'text')).toBe(textsLeft);
  });
});

const NUMBER = '+15550001234';
const PERSON = '+15550009999';
/** A call that ended on the workspace's number (inbound: the person called it). */
const call = (wsId: string, seconds: number | null, extra: Partial<CallRecord> = {}) =>
  ({
    id: 'call-1',
    workspace_id: wsId,
    phone_number_id: 7,
    direction: 'inbound',
    from_number: PERSON,
    to_number: NUMBER,
    duration_seconds: seconds,
    ...extra,
  }) as CallRecord;
/** A text sent from the workspace's number. */
const text = (wsId: string, extra: Partial<TextRecord> = {}) =>
  ({
    id: 'text-1',
    workspace_id: wsId,
    phone_number_id: 7,
    quick_action_id: null,
    direction: 'outbound',
    from_number: NUMBER,
    to_number: PERSON,
    ...extra,
  }) as TextRecord;

// biome-ignore format: a table, its columns aligned
const CALLS: [string, number, number, number, number, number][] = [
  // what                                        included min  ¢/min  s used  call s  charged ¢
  ['within the allowance',                       100,          10,    0,      60,     0],
  ['up to the allowance exactly',                100,          10,    5940,   60,     0],
  ['50 s beyond: 8.33¢ rounds to 8¢',            100,          10,    5990,   60,     8],
  ['a whole minute beyond',                      100,          10,    6000,   60,     10],
  ['a second beyond: 0.17¢ rounds to nothing',   100,          10,    6000,   1,      0],
  ['3 s beyond: half a cent rounds up',          100,          10,    6000,   3,      1],
  ['45 s beyond: 7.5¢ rounds up to 8¢',          100,          10,    6000,   45,     8],
  ['a minute and a half beyond',                 100,          10,    6000,   90,     15],
  ['60 s of a 61 s call beyond',                 100,          10,    5999,   61,     10],
  ['10 minutes at 25¢',                          100,          25,    7000,   600,    250],
  ['no minutes included',                        0,            10,    0,      30,     5],
  ['a plan at 1¢ a minute, 59 s beyond',         100,          1,     6000,   59,     1],
];

describe('meterCall: beyond the allowance, the per-minute rate billed by the second, rounded per call', () => {
  it.each(CALLS)('%s', (_what, included, rate, used, seconds, charged) => {
    const { s, ws, org } = world(THIS_MONTH, '2025-02-10T00:00:00.000Z');
    Object.assign(ws.plan, { included_minutes: included, minute_cents: rate });
    ws.usage = { period_start: THIS_MONTH, call_seconds: used, texts: 0 };
    const before = org.wallet_cents;
    meterCall(s, call(ws.id, seconds));
    expect(before - org.wallet_cents).toBe(charged);
    expect(ws.usage).toEqual({ period_start: THIS_MONTH, call_seconds: used + seconds, texts: 0 });
    const entries = s.data.ledger.filter((e) => e.kind === 'call');
    expect(entries.map((e) => e.wallet_cents)).toEqual(charged ? [charged] : []);
  });

  it('names the seconds beyond and the rate in the ledger entry', () => {
    const { s, ws } = world(THIS_MONTH, '2025-02-10T00:00:00.000Z');
    ws.usage = { period_start: THIS_MONTH, call_seconds: 5990, texts: 0 };
    meterCall(s, call(ws.id, 60));
    expect(s.data.ledger.at(-1)).toMatchObject({
      kind: 'call',
      reference_id: 'call-1',
      wallet_cents: 8,
      description: `Call call-1 on ${NUMBER}: 50 s beyond the plan's 100 minutes at 0.10 USD a minute`,
    });
  });

  it("a new month starts afresh: last month's seconds do not count", () => {
    const { s, ws, org } = world(LAST_MONTH, '2025-02-10T00:00:00.000Z');
    ws.usage = { period_start: LAST_MONTH, call_seconds: 6000, texts: 40 };
    const before = org.wallet_cents;
    meterCall(s, call(ws.id, 60));
    expect(org.wallet_cents).toBe(before);
    expect(ws.usage).toEqual({ period_start: THIS_MONTH, call_seconds: 60, texts: 0 });
  });

  it.each([
    ['a quick call (shared number, no workspace number)', { phone_number_id: null }],
    ['a call that never connected', { duration_seconds: null }],
    ['a call of 0 seconds', { duration_seconds: 0 }],
  ])('%s counts nothing', (_what, extra) => {
    const { s, ws, org } = world(THIS_MONTH, '2025-02-10T00:00:00.000Z');
    ws.usage = { period_start: THIS_MONTH, call_seconds: 6000, texts: 0 };
    const before = org.wallet_cents;
    meterCall(s, call(ws.id, 600, extra as Partial<CallRecord>));
    expect(org.wallet_cents).toBe(before);
    expect(ws.usage.call_seconds).toBe(6000);
  });

  it.each([
    // wallet ¢, auto-recharge, what was taken ¢, wallet after ¢, the entry's ending
    [5, false, 5, 0, '; 0.05 USD not covered: the wallet was empty'],
    [0, false, 0, 0, '; 0.10 USD not covered: the wallet was empty'],
    [5, true, 10, 2495, 'at 0.10 USD a minute'],
  ])(
    'a wallet of %i¢ (auto-recharge %s) pays %i¢ of a 10¢ overage; %i¢ left',
    (wallet, recharge, taken, after, ending) => {
      const { s, ws, org } = world(THIS_MONTH, '2025-02-10T00:00:00.000Z');
      org.wallet_cents = wallet;
      org.auto_recharge.enabled = recharge;
      ws.usage = { period_start: THIS_MONTH, call_seconds: 6000, texts: 0 };
      meterCall(s, call(ws.id, 60));
      const entry = s.data.ledger.find((e) => e.kind === 'call')!;
      expect(entry.wallet_cents).toBe(taken);
      expect(entry.description.endsWith(ending)).toBe(true);
      expect(org.wallet_cents).toBe(after);
    },
  );
});

describe('meterText: each text beyond the allowance at the per-text rate', () => {
  it.each([
    // included texts, ¢ a text, texts used, charged ¢
    [100, 2, 0, 0],
    [100, 2, 99, 0],
    [100, 2, 100, 2],
    [100, 5, 250, 5],
    [0, 2, 0, 2],
  ])('%i included at %i¢, %i used: %i¢', (included, rate, used, charged) => {
    const { s, ws, org } = world(THIS_MONTH, '2025-02-10T00:00:00.000Z');
    Object.assign(ws.plan, { included_texts: included, text_cents: rate });
    ws.usage = { period_start: THIS_MONTH, call_seconds: 0, texts: used };
    const before = org.wallet_cents;
    meterText(s, text(ws.id));
    expect(before - org.wallet_cents).toBe(charged);
    expect(ws.usage.texts).toBe(used + 1);
  });

  it.each([
    ['a text received', { direction: 'inbound' }],
    ['a quick text (shared number)', { quick_action_id: 'qa-1' }],
    ['a text from no workspace number', { phone_number_id: null }],
  ])('%s counts nothing', (_what, extra) => {
    const { s, ws, org } = world(THIS_MONTH, '2025-02-10T00:00:00.000Z');
    ws.usage = { period_start: THIS_MONTH, call_seconds: 0, texts: 100 };
    const before = org.wallet_cents;
    meterText(s, text(ws.id, extra as Partial<TextRecord>));
    expect(org.wallet_cents).toBe(before);
    expect(ws.usage.texts).toBe(100);
  });
});

describe('mayUse: allowance left, or the wallet (with auto-recharge) pays one more minute or text', () => {
  it.each([
    // seconds used, texts used, wallet ¢, auto-recharge, may call, may text
    [0, 0, 0, false, true, true],
    [5999, 99, 0, false, true, true],
    [6000, 100, 0, false, false, false],
    [6000, 100, 2, false, false, true],
    [6000, 100, 10, false, true, true],
    [6000, 100, 0, true, true, true],
  ])('%i s and %i texts used, wallet %i¢, auto-recharge %s: call %s, text %s', (...row) => {
    const [seconds, texts, wallet, recharge, mayCall, mayText] = row;
    const { s, ws, org } = world(THIS_MONTH, '2025-02-10T00:00:00.000Z');
    ws.usage = { period_start: THIS_MONTH, call_seconds: seconds, texts };
    org.wallet_cents = wallet;
    org.auto_recharge.enabled = recharge;
    expect([mayUse(s, ws, 'call'), mayUse(s, ws, 'text')]).toEqual([mayCall, mayText]);
  });
});
