// Money is integer cents inside the simulator; dollars appear only at the API edge.
import type { Organization } from './model.js';

export const usd = (cents: number): number => Math.round(cents) / 100;
export const cents = (dollars: number): number => Math.round(dollars * 100);

/** Auto-recharge tops the wallet up: it is on, adds something, and the card is not declined (PATCH /_sim/workspace). */
const recharges = (org: Organization) => org.auto_recharge.enabled && !org.auto_recharge.card_declined && org.auto_recharge.amount_cents > 0;

/** Whether `amount` cents could be charged now (the wallet holds it, or auto-recharge would top it up). */
export const canCover = (org: Organization, amount: number): boolean => org.wallet_cents >= amount || recharges(org);

/**
 * Takes `amount` cents from the wallet if it can be covered, recharging first when auto-recharge is
 * on (and its card is not declined). Returns false (and charges nothing) when it cannot: the wallet
 * never goes below zero.
 */
export function charge(org: Organization, amount: number): boolean {
  if (org.wallet_cents < amount && recharges(org)) {
    const topUps = Math.ceil((amount - org.wallet_cents) / org.auto_recharge.amount_cents);
    org.wallet_cents += topUps * org.auto_recharge.amount_cents;
  }
  if (org.wallet_cents < amount) return false;
  org.wallet_cents -= amount;
  if (recharges(org) && org.wallet_cents < org.auto_recharge.threshold_cents) {
    org.wallet_cents += org.auto_recharge.amount_cents;
  }
  return true;
}

/** Takes as much of `amount` as the wallet holds (after any auto-recharge); returns what was taken. */
export function chargeUpTo(org: Organization, amount: number): number {
  if (charge(org, amount)) return amount;
  const taken = Math.max(0, Math.min(amount, org.wallet_cents));
  org.wallet_cents -= taken;
  return taken;
}
