// What a workspace's numbers cost: an AI number's monthly line, and the plan's rates for calls and
// texts on the workspace's numbers (minutes and texts included each plan month, then a price per
// minute, billed by the second, and per text, from the wallet); the month arithmetic both use; and
// the ledger every charge is written to (money.ts; GET /_sim/workspace shows it).
//
// Months: a monthly date is the anchor's day of the month at its time of day (UTC), or the month's
// last day when the month is shorter: a line bought on January 31 is charged on February 28 (29),
// March 31, April 30...
import { iso } from '../core/clock.js';
import type { CallRecord, TextRecord } from '../history/records.js';
import type { PhoneNumber } from '../numbers/records.js';
import type { PlanRates } from './records.js';
import type { Workspace } from '../core/world.js';
import { canCover, charge, chargeUpTo, price, refund } from './money.js';
import { orgOfWorkspace } from '../history/people.js';
import { cancelTimers, schedule } from '../core/scheduler.js';
import type { Session } from '../core/session.js';

export const LINE_CENTS_PER_MONTH = 500;

/** A new workspace's plan rates. */
export const PLAN_RATES: PlanRates = { included_minutes: 100, included_texts: 100, minute_cents: 10, text_cents: 2 };

// ---- months ----

/** `k` months after `anchorMs`: the anchor's day of the month (or the month's last day), at its time of day, UTC. */
function addMonths(anchorMs: number, k: number): number {
  const a = new Date(anchorMs);
  const month = new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + k, 1));
  const lastDay = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), Math.min(a.getUTCDate(), lastDay), a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds(), a.getUTCMilliseconds());
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

type Use = 'call' | 'text';

/** What the workspace has used of its plan in the plan month (counted from its creation) that holds `now`. */
export function usageAt(ws: Workspace, now: number): { start: number; end: number; call_seconds: number; texts: number } {
  const month = monthAt(Date.parse(ws.created_at), now);
  const same = Date.parse(ws.usage.period_start) === month.start;
  return { ...month, call_seconds: same ? ws.usage.call_seconds : 0, texts: same ? ws.usage.texts : 0 };
}

/** What is left of the month's allowance: seconds of calls, or texts. */
export function allowanceLeft(ws: Workspace, now: number, use: Use): number {
  const u = usageAt(ws, now);
  return use === 'call' ? Math.max(0, ws.plan.included_minutes * 60 - u.call_seconds) : Math.max(0, ws.plan.included_texts - u.texts);
}

/**
 * Whether a call or a text on the workspace's numbers may start: the month's allowance has some
 * left, or the wallet (with auto-recharge) can pay a minute or a text at the plan's rate. When it
 * cannot, the account is paused for that kind of use until it can.
 */
export function mayUse(s: Session, ws: Workspace, use: Use): boolean {
  return allowanceLeft(ws, s.now, use) > 0 || canCover(orgOfWorkspace(s.data, ws.id), use === 'call' ? ws.plan.minute_cents : ws.plan.text_cents);
}

/** Counts `amount` (seconds, or one text) against the month's allowance; what lies beyond it is charged to the wallet. */
function meter(s: Session, workspaceId: string, use: Use, amount: number, what: { reference_id: string; description: (beyond: number) => string }): void {
  const ws = s.data.workspaces.find((w) => w.id === workspaceId)!;
  const u = usageAt(ws, s.now);
  const beyond = Math.max(0, amount - allowanceLeft(ws, s.now, use));
  ws.usage = { period_start: iso(u.start), call_seconds: u.call_seconds + (use === 'call' ? amount : 0), texts: u.texts + (use === 'text' ? amount : 0) };
  const cost = use === 'call' ? Math.round((ws.plan.minute_cents * beyond) / 60) : beyond * ws.plan.text_cents;
  if (cost === 0) return;
  // like a quick call's minutes: what the wallet cannot cover is not owed (the entry says so); the account is paused then (mayUse)
  chargeUpTo(s, workspaceId, cost, { kind: use, reference_id: what.reference_id, description: what.description(beyond) });
}

/** A call on one of the workspace's numbers has ended: its seconds draw the plan's minutes. Quick calls (shared numbers) never do. */
export function meterCall(s: Session, call: CallRecord): void {
  if (call.phone_number_id === null || !call.duration_seconds) return;
  const ws = s.data.workspaces.find((w) => w.id === call.workspace_id)!;
  const number = call.direction === 'inbound' ? call.to_number : call.from_number;
  meter(s, call.workspace_id, 'call', call.duration_seconds, {
    reference_id: call.id,
    description: (beyond) => `Call ${call.id} on ${number}: ${beyond} s beyond the plan's ${ws.plan.included_minutes} minutes at ${price(ws.plan.minute_cents)} a minute`,
  });
}

/** A text sent from one of the workspace's numbers draws the plan's texts. Quick texts (shared numbers) never do. */
export function meterText(s: Session, text: TextRecord): void {
  if (text.direction !== 'outbound' || text.phone_number_id === null || text.quick_action_id !== null) return;
  const ws = s.data.workspaces.find((w) => w.id === text.workspace_id)!;
  meter(s, text.workspace_id, 'text', 1, {
    reference_id: text.id,
    description: () => `Text ${text.id} from ${text.from_number}: beyond the plan's ${ws.plan.included_texts} texts at ${price(ws.plan.text_cents)} a text`,
  });
}

/** Why a call or text on the number is not connected now, or null when it is. */
export function notConnected(s: Session, n: PhoneNumber, use: Use): 'line_suspended' | 'account_paused' | null {
  if (n.line?.suspended) return 'line_suspended';
  return mayUse(s, s.data.workspaces.find((w) => w.id === n.workspace_id)!, use) ? null : 'account_paused';
}

// ---- an AI number's line ----

/** When the line is charged next; while suspended, when the month it owes fell due. */
export const nextChargeAt = (n: PhoneNumber): string | null => (n.line ? iso(addMonths(Date.parse(n.line.anchor_at), n.line.months)) : null);

const label = (n: PhoneNumber) => (n.phone_number ? `${n.phone_number} (${n.id})` : String(n.id));
const day = (ms: number) => iso(ms).slice(0, 10);

/**
 * Charges the line's month `k` (0: the first); false when the wallet cannot pay it. Both ends of the
 * month are counted from the anchor, so a month after a short one ends on the anchor's day again.
 */
function payMonth(s: Session, n: PhoneNumber, k: number): boolean {
  const anchor = Date.parse(n.line!.anchor_at);
  return charge(s, n.workspace_id, LINE_CENTS_PER_MONTH, {
    kind: 'line', reference_id: String(n.id),
    description: `Line of AI number ${label(n)}, the month from ${day(addMonths(anchor, k))} to ${day(addMonths(anchor, k + 1))}`,
  });
}

/** The timer of the line's next charge. */
export function nextCharge(n: PhoneNumber): { atMs: number; type: string; payload: { id: number; at: string } } {
  const at = nextChargeAt(n)!;
  return { atMs: Date.parse(at), type: 'ainumber.line', payload: { id: n.id, at } };
}

function scheduleCharge(s: Session, n: PhoneNumber): void {
  const t = nextCharge(n);
  schedule(s, t.atMs, t.type, t.payload);
}

/** At purchase, or resuming, when the wallet can cover it (canCover): the line pays its first month and is charged monthly from now. */
export function openLine(s: Session, n: PhoneNumber): void {
  n.line = { anchor_at: iso(s.now), months: 1, suspended: false };
  payMonth(s, n, 0);
  scheduleCharge(s, n);
}

/** A month falls due: charged, or the number is suspended owing it. */
export function chargeLine(s: Session, p: Record<string, unknown>): void {
  const n = s.data.phone_numbers.find((x) => x.id === p.id);
  if (!n?.line || n.line.suspended || nextChargeAt(n) !== p.at) return;
  if (!payMonth(s, n, n.line.months)) {
    n.line.suspended = true;
    return;
  }
  n.line.months++;
  scheduleCharge(s, n);
}

/**
 * Money may have come (the wallet set, auto-recharge turned on or its card fixed, a refund): each
 * suspended line of the organization's numbers, oldest first, pays the month it owes and resumes,
 * charged monthly from now on.
 */
export function settleLines(s: Session, organizationId: string): void {
  for (const n of s.data.phone_numbers) {
    if (!n.line?.suspended) continue;
    const org = orgOfWorkspace(s.data, n.workspace_id);
    if (org.id !== organizationId || !canCover(org, LINE_CENTS_PER_MONTH)) continue;
    openLine(s, n);
  }
}

/** The line never worked (the number could not be wired up, or was released still provisioning): its month goes back to the wallet. */
export function refundLine(s: Session, n: PhoneNumber, why: string): void {
  if (!n.line) return;
  refund(s, n.workspace_id, LINE_CENTS_PER_MONTH, { kind: 'line', reference_id: String(n.id), description: `Refund of the line of AI number ${label(n)}: ${why}` });
  closeLine(s, n);
  settleLines(s, orgOfWorkspace(s.data, n.workspace_id).id);
}

/** No more charges for the line (the number is released, or failed). */
export function closeLine(s: Session, n: PhoneNumber): void {
  cancelTimers(s, (type, p) => type === 'ainumber.line' && p.id === n.id);
  n.line = null;
}
