// An AI number's monthly line: 5 USD at purchase, then charged on the purchase's day each month
// (billing/plans.ts's months), suspended when the wallet cannot pay it and resumed when money comes;
// and whether a call or text on a number is connected at all (its line, the account's plan).
import { iso } from '../core/clock.js';
import { cancelTimers, schedule } from '../core/scheduler.js';
import type { Session } from '../core/session.js';
import { orgOfWorkspace } from '../core/accounts.js';
import { canCover, charge, refund, addMonths, mayUse, type Use } from '../billing/index.js';
import type { PhoneNumber } from './records.js';

export const LINE_CENTS_PER_MONTH = 500;

/** Why a call or text on the number is not connected now, or null when it is. */
export function notConnected(s: Session, n: PhoneNumber, use: Use): 'line_suspended' | 'account_paused' | null {
  if (n.line?.suspended) return 'line_suspended';
  return mayUse(s, s.data.workspaces.find((w) => w.id === n.workspace_id)!, use) ? null : 'account_paused';
}

/** When the line is charged next; while suspended, when the month it owes fell due. */
export const nextChargeAt = (n: PhoneNumber): string | null =>
  n.line ? iso(addMonths(Date.parse(n.line.anchor_at), n.line.months)) : null;

const label = (n: PhoneNumber) => (n.phone_number ? `${n.phone_number} (${n.id})` : String(n.id));
const day = (ms: number) => iso(ms).slice(0, 10);

/**
 * Charges the line's month `k` (0: the first); false when the wallet cannot pay it. Both ends of the
 * month are counted from the anchor, so a month after a short one ends on the anchor's day again.
 */
function payMonth(s: Session, n: PhoneNumber, k: number): boolean {
  const anchor = Date.parse(n.line!.anchor_at);
  return charge(s, n.workspace_id, LINE_CENTS_PER_MONTH, {
    kind: 'line',
    reference_id: String(n.id),
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
  refund(s, n.workspace_id, LINE_CENTS_PER_MONTH, {
    kind: 'line',
    reference_id: String(n.id),
    description: `Refund of the line of AI number ${label(n)}: ${why}`,
  });
  closeLine(s, n);
  settleLines(s, orgOfWorkspace(s.data, n.workspace_id).id);
}

/** No more charges for the line (the number is released, or failed). */
export function closeLine(s: Session, n: PhoneNumber): void {
  cancelTimers(s, (type, p) => type === 'ainumber.line' && p.id === n.id);
  n.line = null;
}
