// The assistant's questions about the workspace's own money and videos, answered from what the
// workspace holds (free reads, as the dashboard shows them): what the wallet holds and the plan's
// video credits left; what was spent, in all or on one kind of thing, in a span of local time (the
// ledger: every charge and refund; top-ups and the wallet set by the control plane are no spending);
// how many videos were made, posted, or are scheduled to post. The ledger keeps a workspace's latest
// LEDGER_KEPT entries: an answer whose span reaches before the oldest one kept says so.
import { humanTime } from '../../src/formats.js';
import { orgOfWorkspace } from '../core/accounts.js';
import type { Session } from '../core/session.js';
import { LEDGER_KEPT, price, type LedgerEntry } from '../billing/index.js';
import { cap, plural, whenExactly, windowOf } from './questions.js';
import type { LocalSpan } from './dates.js';
import type { MoneyQuestion, Spend, VideoQuestion } from './understand.js';

/** The ledger's kinds each word for spending covers. */
const KINDS: Record<Spend, LedgerEntry['kind'][]> = {
  calls: ['call', 'quick_call'],
  texts: ['text', 'quick_text'],
  emails: ['email'],
  videos: ['video'],
  numbers: ['line'],
};
/** How an answer names what money went on. */
const SPENT_ON: Record<Spend, string> = {
  calls: 'calls',
  texts: 'texts',
  emails: 'emails',
  videos: 'videos',
  numbers: 'number lines',
};

/**
 * Whether an instant (ISO) lies in a span of local time, as the list filters read it; the span's
 * window is worked out once, not per record.
 */
function within(span: LocalSpan | null, zone: string): (at: string | null) => boolean {
  const w = windowOf(span, zone);
  const after = w.created_after ? Date.parse(w.created_after) : -Infinity;
  const before = w.created_before ? Date.parse(w.created_before) : Infinity;
  return (at) => {
    if (!at) return false;
    const t = Date.parse(at);
    return t > after && t < before;
  };
}

/**
 * " The ledger keeps the latest 1000 entries, from 2026-01-20 10:00:00 UTC on: earlier spending
 * is not counted." when the workspace's ledger is full and the span starts before its oldest
 * entry kept (or is all time); "" otherwise.
 */
function forgotten(s: Session, workspaceId: string, span: LocalSpan | null, zone: string): string {
  let oldest: LedgerEntry | undefined;
  let n = 0;
  for (const e of s.data.ledger) {
    if (e.workspace_id !== workspaceId) continue;
    oldest ??= e;
    if (++n >= LEDGER_KEPT) break;
  }
  if (!oldest || n < LEDGER_KEPT) return '';
  const from = windowOf(span, zone).created_after;
  if (from && Date.parse(from) >= Date.parse(oldest.at)) return '';
  return ` The ledger keeps the latest ${LEDGER_KEPT} entries, from ${humanTime(oldest.at)} on: earlier spending is not counted.`;
}

/** Puts a question about the workspace's money in words. */
export function answerMoney(s: Session, workspaceId: string, q: MoneyQuestion, zone: string): string {
  if (q.ask === 'balance') {
    const org = orgOfWorkspace(s.data, workspaceId);
    const ws = s.data.workspaces.find((w) => w.id === workspaceId)!;
    const ar = org.auto_recharge;
    const recharge = ar.enabled
      ? ` Auto-recharge adds ${price(ar.amount_cents)} when it falls below ${price(ar.threshold_cents)}.`
      : '';
    return `Your wallet holds ${price(org.wallet_cents)}, and ${price(ws.plan.video_credits_cents)} of plan video credits are left.${recharge}`;
  }
  const kinds = q.on ? KINDS[q.on] : Object.values(KINDS).flat();
  const inSpan = within(q.span, zone);
  const entries = s.data.ledger.filter((e) => e.workspace_id === workspaceId && kinds.includes(e.kind) && inSpan(e.at));
  return spentText(entries, q, zone) + forgotten(s, workspaceId, q.span, zone);
}

/** What was spent on `q.on` (or on everything, by kind) in its span, from the ledger's `entries`. */
function spentText(entries: LedgerEntry[], q: MoneyQuestion, zone: string): string {
  const spent = (es: LedgerEntry[]) => es.reduce((n, e) => n + e.wallet_cents + e.credits_cents, 0);
  const total = spent(entries);
  const when = whenExactly(q.span, zone);
  if (q.on) {
    const what = cap(SPENT_ON[q.on]);
    return entries.length === 0
      ? `${what} cost nothing${when}.`
      : `${what} cost ${price(total)}${when} (${plural(entries.length, 'charge')}).`;
  }
  if (entries.length === 0) return `You spent nothing${when}.`;
  const parts = (Object.keys(KINDS) as Spend[])
    .map((on) => [on, spent(entries.filter((e) => KINDS[on].includes(e.kind)))] as const)
    .filter(([, n]) => n !== 0)
    .map(([on, n]) => `${price(n)} on ${SPENT_ON[on]}`);
  const credits = entries.reduce((n, e) => n + e.credits_cents, 0);
  const fromCredits = credits ? `; ${price(credits)} of it from plan video credits` : '';
  return `You spent ${price(total)}${when}: ${parts.join(', ')}${fromCredits}.`;
}

/** Puts a question about the workspace's videos in words: made, posted (published), or scheduled to post. */
export function answerVideos(s: Session, workspaceId: string, q: VideoQuestion, zone: string): string {
  const when = whenExactly(q.span, zone);
  if (q.what === 'made') {
    const inSpan = within(q.span, zone);
    const n = s.data.videos.filter((v) => v.workspace_id === workspaceId && inSpan(v.created_at)).length;
    return n === 0 ? `You made no videos${when}.` : `You made ${plural(n, 'video')}${when}.`;
  }
  const scheduled = q.what === 'scheduled';
  const inSpan = within(q.span, zone);
  const posts = s.data.posts.filter(
    (p) =>
      p.workspace_id === workspaceId &&
      p.status === (scheduled ? 'scheduled' : 'published') &&
      (scheduled && !q.span ? true : inSpan(scheduled ? p.scheduled_for : p.published_at)),
  );
  const videos = new Set(posts.map((p) => p.video_id)).size;
  const also = posts.length !== videos ? ` (${plural(posts.length, 'post')})` : '';
  if (scheduled) {
    const span = q.span ? when : '';
    if (videos === 0) return `No videos are scheduled to post${span}.`;
    return `${plural(videos, 'video')} ${videos === 1 ? 'is' : 'are'} scheduled to post${span}${also}.`;
  }
  return videos === 0 ? `You posted no videos${when}.` : `You posted ${plural(videos, 'video')}${when}${also}.`;
}
