// Billing, declared: an organization's wallet and auto-recharge, a workspace's plan and what it used
// of it, and the ledger every movement of money is written to. It serves no route of its own (the
// control plane shows and sets the wallet and plan).
import { iso } from '../core/clock.js';
import type { Capability } from '../core/capability.js';
import { PLAN_RATES } from './plans.js';

export const billing: Capability = {
  name: 'billing',
  collections: { records: ['ledger'] },
  organization: (org) =>
    Object.assign(org, {
      wallet_cents: 5000,
      auto_recharge: { enabled: false, amount_cents: 2500, threshold_cents: 500, card_declined: false },
    }),
  workspace: (ws, { nowMs }) =>
    Object.assign(ws, {
      plan: { content: true, assistant: true, video_credits_cents: 2000, ...PLAN_RATES },
      usage: { period_start: iso(nowMs), call_seconds: 0, texts: 0 },
    }),
  upgrade(world) {
    for (const o of world.organizations) o.auto_recharge.card_declined ??= false;
    for (const w of world.workspaces) {
      w.plan = { ...PLAN_RATES, ...w.plan };
      w.usage ??= { period_start: w.created_at, call_seconds: 0, texts: 0 };
    }
  },
};
