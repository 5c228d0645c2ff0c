// Money is integer cents inside the simulator; dollars appear only at the API edge. Every movement
// of an organization's wallet is written to the ledger of the workspace it was for through here
// (GET /_sim/workspace, GET /_sim/ledger), with the wallet and credits left after it, so the ledger
// accounts for every cent: charges, auto-recharge top-ups, refunds, and the wallet set by the
// control plane.
import { iso } from '../core/clock.js';
import { type Organization } from '../core/world.js';
import type { LedgerEntry } from './records.js';
import type { Session } from '../core/session.js';
import { orgOfWorkspace } from '../core/accounts.js';
import { keepLatest } from '../core/logs.js';

import { price } from '../../src/money.js';

/** Money as text and the conversions at the API's edge, defined once for the simulator and the CLI. */
export { cents, price, usd, usdAmount } from '../../src/money.js';

/** Entries kept per workspace: the oldest go first beyond it. */
export const LEDGER_KEPT = 1000;

/** Auto-recharge tops the wallet up: it is on, adds something, and the card is not declined (PATCH /_sim/workspace). */
const recharges = (org: Organization) =>
  org.auto_recharge.enabled && !org.auto_recharge.card_declined && org.auto_recharge.amount_cents > 0;

/** Whether `amount` cents could be charged now (the wallet holds it, or auto-recharge would top it up). */
export const canCover = (org: Organization, amount: number): boolean => org.wallet_cents >= amount || recharges(org);

/** Writes a movement of money to the ledger, with the credits and wallet left after it (negative amounts: into the wallet). */
function addLedgerEntry(
  s: Session,
  workspaceId: string,
  e: Pick<LedgerEntry, 'kind' | 'reference_id' | 'description' | 'wallet_cents'> & { credits_cents?: number },
): void {
  const ws = s.data.workspaces.find((w) => w.id === workspaceId)!;
  s.data.ledger.push({
    seq: s.nextSeq(),
    workspace_id: workspaceId,
    at: iso(s.now),
    kind: e.kind,
    reference_id: e.reference_id,
    description: e.description,
    credits_cents: e.credits_cents ?? 0,
    wallet_cents: e.wallet_cents,
    credits_after_cents: ws.plan.video_credits_cents,
    wallet_after_cents: orgOfWorkspace(s.data, workspaceId).wallet_cents,
  });
  keepLatest(s.data.ledger, workspaceId, LEDGER_KEPT);
}

/** What a charge is for, as its ledger entry says it (the credits it also took, if any). */
type Purpose = Pick<LedgerEntry, 'kind' | 'reference_id' | 'description'> & { credits_cents?: number };

function topUp(s: Session, workspaceId: string, org: Organization, amount: number, why: string): void {
  org.wallet_cents += amount;
  addLedgerEntry(s, workspaceId, {
    kind: 'recharge',
    reference_id: org.id,
    wallet_cents: -amount,
    description: `Auto-recharge: ${price(amount)} added ${why}`,
  });
}

/**
 * Takes `amount` cents from the workspace's organization wallet if it can be covered, recharging
 * first when auto-recharge is on (and its card is not declined), and tops up after it when the
 * wallet falls below the threshold; each is a ledger entry. Returns false (and charges and writes
 * nothing) when it cannot: the wallet never goes below zero.
 */
export function charge(s: Session, workspaceId: string, amount: number, what: Purpose): boolean {
  const org = orgOfWorkspace(s.data, workspaceId);
  const ar = org.auto_recharge;
  if (org.wallet_cents < amount && recharges(org)) {
    const n = Math.ceil((amount - org.wallet_cents) / ar.amount_cents);
    topUp(
      s,
      workspaceId,
      org,
      n * ar.amount_cents,
      `to pay ${price(amount)}${n > 1 ? ` (${n} top-ups of ${price(ar.amount_cents)})` : ''}`,
    );
  }
  if (org.wallet_cents < amount) return false;
  org.wallet_cents -= amount;
  if (amount > 0 || what.credits_cents) addLedgerEntry(s, workspaceId, { ...what, wallet_cents: amount });
  if (amount > 0 && recharges(org) && org.wallet_cents < ar.threshold_cents)
    topUp(s, workspaceId, org, ar.amount_cents, `as the wallet fell below ${price(ar.threshold_cents)}`);
  return true;
}

/**
 * Takes as much of `amount` as the wallet holds (after any auto-recharge); returns what was taken.
 * What it could not cover is not owed, and the entry says so.
 */
export function chargeUpTo(s: Session, workspaceId: string, amount: number, what: Purpose): number {
  if (charge(s, workspaceId, amount, what)) return amount;
  const org = orgOfWorkspace(s.data, workspaceId);
  const taken = Math.max(0, Math.min(amount, org.wallet_cents));
  org.wallet_cents -= taken;
  addLedgerEntry(s, workspaceId, {
    ...what,
    wallet_cents: taken,
    description: `${what.description}; ${price(amount - taken)} not covered: the wallet was empty`,
  });
  return taken;
}

/** Money goes back into the wallet (a negative amount in the entry). */
export function refund(s: Session, workspaceId: string, amount: number, what: Purpose): void {
  const org = orgOfWorkspace(s.data, workspaceId);
  org.wallet_cents += amount;
  addLedgerEntry(s, workspaceId, { ...what, wallet_cents: -amount });
}

/** The control plane sets the wallet: the difference is an entry of its own. */
export function setWallet(s: Session, workspaceId: string, amount: number): void {
  const org = orgOfWorkspace(s.data, workspaceId);
  const was = org.wallet_cents;
  if (was === amount) return;
  org.wallet_cents = amount;
  addLedgerEntry(s, workspaceId, {
    kind: 'wallet_set',
    reference_id: org.id,
    wallet_cents: was - amount,
    description: `The wallet set to ${price(amount)} by the control plane (it held ${price(was)})`,
  });
}
