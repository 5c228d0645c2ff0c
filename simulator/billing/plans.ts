// What calls and texts on a workspace's numbers cost: the plan's rates (minutes and texts included
// each plan month, then a price per minute, billed by the second, and per text, from the wallet),
// and the month arithmetic plan months and an AI number's monthly line (numbers/lines.ts) both use.
// Every charge is a ledger entry (money.ts; GET /_sim/workspace shows it).
//
// Months: a monthly date is the anchor's day of the month at its time of day (UTC), or the month's
// last day when the month is shorter: a line bought on January 31 is charged on February 28 (29),
// March 31, April 30...
import { iso } from '../core/clock.js';
import type { CallRecord, TextRecord } from '../history/index.js';
import type { PlanRates } from './records.js';
import type { Workspace } from '../core/world.js';
import { canCover, chargeUpTo, price } from './money.js';
import type { Session } from '../core/session.js';
import { orgOfWorkspace } from '../core/accounts.js';

/** A new workspace's plan rates. */
export const PLAN_RATES: PlanRates = { included_minutes: 100, included_texts: 100, minute_cents: 10, text_cents: 2 };

// ---- months ----

/** `k` months after `anchorMs`: the anchor's day of the month (or the month's last day), at its time of day, UTC. */
export function addMonths(anchorMs: number, k: number): number {
  const a = new Date(anchorMs);
  const month = new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + k, 1));
  const lastDay = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(
    month.getUTCFullYear(),
    month.getUTCMonth(),
    Math.min(a.getUTCDate(), lastDay),
    a.getUTCHours(),
    a.getUTCMinutes(),
    a.getUTCSeconds(),
    a.getUTCMilliseconds(),
  );
}

/** The month counted from `anchorMs` that holds `now`: from `start` (included) to `end`. */
function monthAt(anchorMs: number, now: number): { start: number; end: number } {
  const a = new Date(anchorMs);
  const n = new Date(now);
  let k = Math.max(0, (n.getUTCFullYear() - a.getUTCFullYear()) * 12 + n.getUTCMonth() - a.getUTCMonth());
  while (k > 0 && addMonths(anchorMs, k) > now) k--;
  while (addMonths(anchorMs, k + 1) <= now) k++;
  return { start: addMonths(anchorMs, k), end: addMonths(anchorMs, k + 1) };
}

// ---- the plan's rates: calls and texts on the workspace's numbers ----

export type Use = 'call' | 'text';

/** What the workspace has used of its plan in the plan month (counted from its creation) that holds `now`. */
export function usageAt(
  ws: Workspace,
  now: number,
): { start: number; end: number; call_seconds: number; texts: number } {
  const month = monthAt(Date.parse(ws.created_at), now);
  const same = Date.parse(ws.usage.period_start) === month.start;
  return { ...month, call_seconds: same ? ws.usage.call_seconds : 0, texts: same ? ws.usage.texts : 0 };
}

/** What is left of the month's allowance: seconds of calls, or texts. */
export function allowanceLeft(ws: Workspace, now: number, use: Use): number {
  const u = usageAt(ws, now);
  return use === 'call'
    ? Math.max(0, ws.plan.included_minutes * 60 - u.call_seconds)
    : Math.max(0, ws.plan.included_texts - u.texts);
}

/**
 * Whether a call or a text on the workspace's numbers may start: the month's allowance has some
 * left, or the wallet (with auto-recharge) can pay a minute or a text at the plan's rate. When it
 * cannot, the account is paused for that kind of use until it can.
 */
export function mayUse(s: Session, ws: Workspace, use: Use): boolean {
  return (
    allowanceLeft(ws, s.now, use) > 0 ||
    canCover(orgOfWorkspace(s.data, ws.id), use === 'call' ? ws.plan.minute_cents : ws.plan.text_cents)
  );
}

/** Counts `amount` (seconds, or one text) against the month's allowance; what lies beyond it is charged to the wallet. */
function meter(
  s: Session,
  workspaceId: string,
  use: Use,
  amount: number,
  what: { reference_id: string; description: (beyond: number) => string },
): void {
  const ws = s.data.workspaces.find((w) => w.id === workspaceId)!;
  const u = usageAt(ws, s.now);
  const beyond = Math.max(0, amount - allowanceLeft(ws, s.now, use));
  ws.usage = {
    period_start: iso(u.start),
    call_seconds: u.call_seconds + (use === 'call' ? amount : 0),
    texts: u.texts + (use === 'text' ? amount : 0),
  };
  const cost = use === 'call' ? Math.round((ws.plan.minute_cents * beyond) / 60) : beyond * ws.plan.text_cents;
  if (cost === 0) return;
  // like a quick call's minutes: what the wallet cannot cover is not owed (the entry says so); the account is paused then (mayUse)
  chargeUpTo(s, workspaceId, cost, {
    kind: use,
    reference_id: what.reference_id,
    description: what.description(beyond),
  });
}

/** A call on one of the workspace's numbers has ended: its seconds draw the plan's minutes. Quick calls (shared numbers) never do. */
export function meterCall(s: Session, call: CallRecord): void {
  if (call.phone_number_id === null || !call.duration_seconds) return;
  const ws = s.data.workspaces.find((w) => w.id === call.workspace_id)!;
  const number = call.direction === 'inbound' ? call.to_number : call.from_number;
  meter(s, call.workspace_id, 'call', call.duration_seconds, {
    reference_id: call.id,
    description: (beyond) =>
      `Call ${call.id} on ${number}: ${beyond} s beyond the plan's ${ws.plan.included_minutes} minutes at ${price(ws.plan.minute_cents)} a minute`,
  });
}

/** A text sent from one of the workspace's numbers draws the plan's texts. Quick texts (shared numbers) never do. */
export function meterText(s: Session, text: TextRecord): void {
  if (text.direction !== 'outbound' || text.phone_number_id === null || text.quick_action_id !== null) return;
  const ws = s.data.workspaces.find((w) => w.id === text.workspace_id)!;
  meter(s, text.workspace_id, 'text', 1, {
    reference_id: text.id,
    description: () =>
      `Text ${text.id} from ${text.from_number}: beyond the plan's ${ws.plan.included_texts} texts at ${price(ws.plan.text_cents)} a text`,
  });
}
