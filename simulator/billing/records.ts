// What billing keeps: the organization's wallet and auto-recharge, the workspace's plan and what it
// used of it, and the ledger every movement of money is written to.
import type { Stored } from '../core/world.js';

/** The plan's rates for calls and texts on the workspace's numbers (billing.ts): included each month, then per unit from the wallet. */
export interface PlanRates {
  included_minutes: number;
  included_texts: number;
  minute_cents: number;
  text_cents: number;
}

/** What moved money: a charge (video, line, call, text, quick_call, quick_text, email), an auto-recharge top-up, or the control plane setting the wallet. */
export const LEDGER_KINDS = [
  'video',
  'line',
  'call',
  'text',
  'quick_call',
  'quick_text',
  'email',
  'recharge',
  'wallet_set',
] as const;

/** A movement of plan video credits or wallet money (money.ts writes them; GET /_sim/workspace shows the latest, GET /_sim/ledger all kept). */
export interface LedgerEntry extends Stored {
  at: string;
  kind: (typeof LEDGER_KINDS)[number];
  reference_id: string;
  description: string;
  credits_cents: number;
  wallet_cents: number;
  credits_after_cents: number;
  wallet_after_cents: number;
}

declare module '../core/world.js' {
  interface World {
    ledger: LedgerEntry[];
  }
  interface Organization {
    wallet_cents: number;
    /** card_declined: a top-up is attempted and fails (PATCH /_sim/workspace simulates a declined card) */
    auto_recharge: { enabled: boolean; amount_cents: number; threshold_cents: number; card_declined: boolean };
  }
  interface Workspace {
    plan: { content: boolean; assistant: boolean; video_credits_cents: number } & PlanRates;
    /** what calls and texts on the workspace's numbers used in the plan month starting period_start (plans.ts) */
    usage: { period_start: string; call_seconds: number; texts: number };
  }
}
