// Money (docs/spec-silent.md, "Numbers' costs: lines and plan rates" and
// its ledger; "Videos and posts", Charging): integer cents inside, dollars at the
// edge; a charge is taken when the wallet holds it or auto-recharge (on, adding something, its card
// not declined) tops it up first, in as many top-ups as it takes, and again after a charge that
// leaves the wallet below the threshold; otherwise nothing is taken and nothing written. What the
// wallet cannot cover of a call's overage is not owed; every movement is a ledger entry, with the
// wallet after it.
import { describe, expect, it } from 'vitest';
import { Session } from '../core/session.js';
import { seedData } from '../world.js';
import { canCover, cents, charge, chargeUpTo, price, refund, setWallet, usd, usdAmount } from './money.js';

describe('usd: cents to dollars', () => {
  it.each([
    [0, 0],
    [1, 0.01],
    [370, 3.7],
    [12345, 123.45],
    [-150, -1.5],
    [0.4, 0],
    [99.6, 1],
  ])('%d¢ = %d USD', (c, d) => expect(usd(c)).toBe(d));
});

describe('cents: dollars to whole cents, whatever the binary fraction', () => {
  it.each([
    [0, 0],
    [0.01, 1],
    [0.07, 7], // 7.000000000000001 in binary
    [0.29, 29], // 28.999999999999996
    [19.99, 1999], // 1998.9999999999998
    [0.1 + 0.2, 30],
    [5, 500],
    [100, 10000],
  ])('%d USD = %i¢', (d, c) => expect(cents(d)).toBe(c));
});

describe('price: cents as the ledger and messages write them', () => {
  it.each([
    [0, '0.00 USD'],
    [5, '0.05 USD'],
    [370, '3.70 USD'],
    [2500, '25.00 USD'],
    [100000, '1000.00 USD'],
  ])('%i¢: %s', (c, text) => expect(price(c)).toBe(text));
});

describe("usdAmount: cents as the API's text fields write them (price_usd), two decimals, no unit", () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [370, '3.70'],
    [1999, '19.99'],
    [-150, '-1.50'],
  ])('%i¢: %s', (c, text) => expect(usdAmount(c)).toBe(text));
});

describe('price of dollars the API gave: through whole cents, as the CLI writes cost_usd and wallet_usd', () => {
  it.each([
    [0.29, '0.29 USD'],
    [0.1 + 0.2, '0.30 USD'],
    [19.99, '19.99 USD'],
    [0.2, '0.20 USD'],
  ])('%d USD: %s', (d, text) => expect(price(cents(d))).toBe(text));
});

/** A seeded world on a manual clock: one organization, its wallet and auto-recharge as given. */
function world(
  wallet: number,
  ar: { enabled?: boolean; amount?: number; threshold?: number; declined?: boolean } = {},
) {
  const s = new Session(seedData({ clock: { mode: 'manual', offset_ms: 0, frozen_ms: Date.UTC(2025, 0, 15) } }));
  const org = s.data.organizations[0];
  const ws = s.data.workspaces[0];
  org.wallet_cents = wallet;
  org.auto_recharge = {
    enabled: ar.enabled ?? false,
    amount_cents: ar.amount ?? 1000,
    threshold_cents: ar.threshold ?? 500,
    card_declined: ar.declined ?? false,
  };
  return { s, org, ws };
}
const on = { enabled: true };

describe('canCover: the wallet holds it, or auto-recharge would top it up', () => {
  it.each([
    // wallet ¢, auto-recharge, amount ¢, covered
    [500, {}, 500, true],
    [499, {}, 500, false],
    [0, {}, 0, true],
    [0, on, 5000, true],
    [0, { enabled: true, declined: true }, 1, false],
    [0, { enabled: true, amount: 0 }, 1, false],
    [0, { enabled: false, amount: 1000 }, 1, false],
    [700, { enabled: true, declined: true }, 700, true],
  ])('wallet %i¢, auto-recharge %o, %i¢: %s', (wallet, ar, amount, covered) => {
    const { org } = world(wallet, ar);
    expect(canCover(org, amount)).toBe(covered);
  });
});

// biome-ignore format: a table, its columns aligned
const CHARGES: [string, number, Parameters<typeof world>[1], number, boolean, number, number[]][] = [
  // what                                     wallet auto-recharge
  // charge taken  after  ledger entries (¢ out of the wallet; negative: in)
  ['the wallet holds it',                     800,   {},                                               500,   true,  300,   [500]],
  ['the wallet holds exactly it',             500,   {},                                               500,   true,  0,     [500]],
  ['short, no auto-recharge: nothing',        300,   {},                                               500,   false, 300,   []],
  ['short, card declined: nothing',           300,   { enabled: true, declined: true },                500,   false, 300,   []],
  // one top-up of 10.00 USD before: 1300 - 500 = 800, above the threshold
  ['one top-up first',                        300,   on,                                               500,   true,  800,   [-1000, 500]],
  // 2200¢ short: three top-ups of 1000¢ at once
  ['three top-ups first',                     300,   on,                                               2500,  true,  800,   [-3000, 2500]],
  // 1000 - 600 = 400 is below the 500¢ threshold: one top-up after
  ['a top-up after, below the threshold',     1000,  on,                                               600,   true,  1400,  [600, -1000]],
  ['at the threshold: no top-up after',       1100,  on,                                               600,   true,  500,   [600]],
  // topped up to 1300 before, 1300 - 1200 = 100 below the threshold: another after
  ['a top-up before and after',               300,   { enabled: true, amount: 1000, threshold: 500 },  1200,  true,  1100,  [-1000, 1200, -1000]],
  ['nothing to charge writes nothing',        800,   on,                                               0,     true,  800,   []],
];

describe('charge: all or nothing, auto-recharge first and after', () => {
  it.each(CHARGES)('%s', (_what, wallet, ar, amount, taken, after, entries) => {
    const { s, org, ws } = world(wallet, ar);
    const what = { kind: 'video' as const, reference_id: 'v-1', description: 'A video' };
    expect(charge(s, ws.id, amount, what)).toBe(taken);
    expect(org.wallet_cents).toBe(after);
    expect(s.data.ledger.map((e) => e.wallet_cents)).toEqual(entries);
    // the ledger accounts for every cent
    expect(wallet - s.data.ledger.reduce((a, e) => a + e.wallet_cents, 0)).toBe(after);
  });

  it('says how many top-ups it took', () => {
    const { s, ws } = world(300, on);
    charge(s, ws.id, 2500, { kind: 'video', reference_id: 'v-1', description: 'A video' });
    expect(s.data.ledger[0]).toMatchObject({
      kind: 'recharge',
      description: 'Auto-recharge: 30.00 USD added to pay 25.00 USD (3 top-ups of 10.00 USD)',
      wallet_after_cents: 3300,
    });
  });
});

describe('chargeUpTo: what the wallet holds, the rest not owed', () => {
  it.each([
    // wallet ¢, auto-recharge, amount ¢, taken ¢, wallet after ¢, the entry says
    [800, {}, 500, 500, 300, 'A call'],
    [300, {}, 500, 300, 0, 'A call; 2.00 USD not covered: the wallet was empty'],
    [0, {}, 45, 0, 0, 'A call; 0.45 USD not covered: the wallet was empty'],
    [300, { enabled: true, declined: true }, 500, 300, 0, 'A call; 2.00 USD not covered: the wallet was empty'],
    [300, on, 500, 500, 800, 'A call'],
  ])('wallet %i¢, auto-recharge %o, %i¢: takes %i¢, leaves %i¢', (wallet, ar, amount, taken, after, says) => {
    const { s, org, ws } = world(wallet, ar);
    expect(chargeUpTo(s, ws.id, amount, { kind: 'call', reference_id: 'c-1', description: 'A call' })).toBe(taken);
    expect(org.wallet_cents).toBe(after);
    expect(s.data.ledger.filter((e) => e.kind === 'call').map((e) => [e.wallet_cents, e.description])).toEqual([
      [taken, says],
    ]);
  });
});

describe('refund and setWallet: money in is a negative entry', () => {
  it('a refund adds to the wallet', () => {
    const { s, org, ws } = world(300);
    refund(s, ws.id, 500, { kind: 'line', reference_id: '7', description: 'Line refunded' });
    expect(org.wallet_cents).toBe(800);
    expect(s.data.ledger.map((e) => [e.kind, e.wallet_cents, e.wallet_after_cents])).toEqual([['line', -500, 800]]);
  });

  it.each([
    // held ¢, set to ¢, the entry (none when it already holds it)
    [480, 300, [180, 'The wallet set to 3.00 USD by the control plane (it held 4.80 USD)']],
    [300, 5000, [-4700, 'The wallet set to 50.00 USD by the control plane (it held 3.00 USD)']],
    [300, 300, null],
  ] as const)('held %i¢, set to %i¢: %o', (held, to, entry) => {
    const { s, org, ws } = world(held);
    setWallet(s, ws.id, to);
    expect(org.wallet_cents).toBe(to);
    expect(s.data.ledger.map((e) => [e.wallet_cents, e.description])).toEqual(entry ? [entry] : []);
  });
});
