// Webhook deliveries, made after commit: never inside a transaction, where the store lock is held
// and timers must stay synchronous. Each round takes the due attempts out of the outbox (each under
// a wall-clock lease long enough for every attempt queued before it on its webhook, and a claim
// token, so two passes or two processes on one data file never both send one), judges where each
// may go (targets.ts: an attempt to an address that is not public is refused, not made), POSTs them
// signed, then records every result in the delivery log and schedules the retry of each failure on the
// simulator clock: attempts 2, 3 and 4 fall due 1, 5 and 30 minutes after the first.
import { randomUUID } from 'node:crypto';
import {
  DELIVERY_TIMEOUT_MS,
  EVENT_HEADER,
  EVENT_ID_HEADER,
  postOnce,
  sign,
  SIGNATURE_HEADER,
  type PostResult,
} from '../../src/webhooks.js';
import type { Transactor } from '../core/http.js';
import { iso } from '../core/clock.js';
import { type World } from '../core/world.js';
import type { HostEntry, OutboxEntry } from './records.js';
import { schedule, type TimerHandlers } from '../core/scheduler.js';
import type { Session } from '../core/session.js';
import { clone, raw, removeAt, removeWhere } from '../store/tracker.js';
import { resolveTarget } from './targets.js';
import { keepLatest } from '../core/logs.js';

/** When attempts 2, 3 and 4 fall due, counted from the first attempt. */
export const RETRY_OFFSETS_MS = [60_000, 5 * 60_000, 30 * 60_000];
export const MAX_ATTEMPTS = RETRY_OFFSETS_MS.length + 1;
/** The delivery log keeps this many attempts per workspace, dropping the oldest. */
export const LOG_LIMIT = 1000;
/** Margin on a lease beyond the time its attempts can take; after it a taken attempt whose result never came back (its process died) may be taken again. */
const LEASE_MARGIN_MS = 20_000;
/** Rounds one after-commit pass makes: a retry already due (the clock jumped past it) is made in the next round. */
const MAX_ROUNDS = 2 * MAX_ATTEMPTS;
const USER_AGENT = 'vmv-simulator-webhooks/0.1';

/** An attempt made: what was taken, and the answer. */
interface Sent {
  t: Taken;
  result: PostResult;
}

interface Taken {
  entry: OutboxEntry;
  token: string;
  url: string;
  headers: Record<string, string>;
  hosts: readonly HostEntry[];
}

/** The after-commit hook: makes every attempt that is due, before the request that caused it replies. */
export async function deliverOutbox(app: Transactor, committed: World): Promise<void> {
  if (committed.webhook_outbox.length === 0) return;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const taken = await app.transaction(take);
    if (taken.length === 0) return;
    const results = await send(taken);
    await app.transaction((s) => record(s, results));
  }
}

/** Takes every attempt nobody holds, signing each with its webhook's secret; drops those of deleted webhooks. */
function take(s: Session): Taken[] {
  const wall = Date.now(); // leases are about live processes, not simulated time
  const taken: Taken[] = [];
  const token = randomUUID();
  const queued = new Map<string, number>(); // attempts already taken this round, per webhook
  const order = [...s.data.webhook_outbox].sort((a, b) => a.due_at_ms - b.due_at_ms || seqOf(a) - seqOf(b));
  const live = new Set(s.data.webhooks.map((w) => w.id));
  const hosts = clone(s.data.hosts); // the table as it is now, for after the transaction
  removeWhere(s.data.webhook_outbox, (e) => !live.has(e.webhook_id));
  for (const entry of order) {
    if (entry.claimed_until !== null && entry.claimed_until > wall) continue;
    const webhook = s.data.webhooks.find((w) => w.id === entry.webhook_id);
    if (!webhook) continue;
    // a webhook's attempts go one after another: this one may wait for every attempt before it
    const position = (queued.get(webhook.id) ?? 0) + 1;
    queued.set(webhook.id, position);
    entry.claimed_until = wall + position * DELIVERY_TIMEOUT_MS + LEASE_MARGIN_MS;
    entry.claim = token;
    taken.push({
      entry: { ...entry },
      token,
      url: webhook.url,
      headers: {
        'user-agent': USER_AGENT,
        [EVENT_HEADER]: entry.type,
        [EVENT_ID_HEADER]: entry.event_id,
        [SIGNATURE_HEADER]: sign(entry.body, webhook.secret),
      },
      hosts,
    });
  }
  if (taken.length > 0) s.markDirty();
  return taken.sort((a, b) => a.entry.due_at_ms - b.entry.due_at_ms || seqOf(a.entry) - seqOf(b.entry));
}

const seqOf = (e: OutboxEntry) => Number(e.id.slice(4));

/** Sends in time order per webhook (a receiver sees call.started before call.ended), webhooks side by side. */
async function send(taken: Taken[]): Promise<Sent[]> {
  const byWebhook = new Map<string, Taken[]>();
  for (const t of taken) byWebhook.set(t.entry.webhook_id, [...(byWebhook.get(t.entry.webhook_id) ?? []), t]);
  const lanes = [...byWebhook.values()].map(async (lane) => {
    const out: Sent[] = [];
    for (const t of lane) out.push({ t, result: await attempt(t) });
    return out;
  });
  return (await Promise.all(lanes)).flat();
}

/** One attempt: where it may go, then the POST, both within the receiver's 10 seconds. A refused target is an attempt that failed. */
async function attempt(t: Taken): Promise<PostResult> {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS; // network time is wall time
  const target = await resolveTarget(t.url, t.hosts, DELIVERY_TIMEOUT_MS);
  if ('error' in target) return { status: null, error: target.error };
  return postOnce(t.url, t.entry.body, t.headers, Math.max(deadline - Date.now(), 1), target.addresses);
}

function record(s: Session, results: Sent[]): void {
  for (const sent of results) {
    const { t, result } = sent;
    const i = s.data.webhook_outbox.findIndex((e) => e.id === t.entry.id && e.claim === t.token);
    if (i < 0) continue; // the simulator was reset meanwhile, or the lease ran out and another pass holds it
    const entry = raw(s.data.webhook_outbox[i]);
    removeAt(s.data.webhook_outbox, [i]);
    log(s, entry, sent);
    if (result.error !== null && entry.attempt < MAX_ATTEMPTS && !entry.resend_of) {
      const due = entry.first_at_ms + RETRY_OFFSETS_MS[entry.attempt - 1];
      const { claimed_until: _c, claim: _t, ...rest } = entry;
      schedule(s, due, 'webhook.retry', { ...rest, attempt: entry.attempt + 1, due_at_ms: due });
    }
  }
  s.markDirty();
}

function log(s: Session, entry: OutboxEntry, { t, result }: Sent): void {
  const all = s.data.webhook_deliveries;
  const seq = s.nextSeq();
  all.push({
    seq,
    id: `att_${seq}`,
    workspace_id: entry.workspace_id,
    webhook_id: entry.webhook_id,
    event_id: entry.event_id,
    type: entry.type,
    url: t.url,
    attempt: entry.attempt,
    status_code: result.status,
    error: result.error,
    at: iso(entry.due_at_ms),
    request: {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(entry.body)),
        ...t.headers,
      },
      body: entry.body,
    },
    resend_of: entry.resend_of ?? null,
  });
  keepLatest(all, entry.workspace_id, LOG_LIMIT);
}

export const deliveryTimers: TimerHandlers = {
  // a retry falling due goes back in the outbox; the after-commit pass of whoever ran the timer makes it
  'webhook.retry': (s, p) => {
    const entry = p as unknown as Omit<OutboxEntry, 'claimed_until'>;
    if (!s.data.webhooks.some((w) => w.id === entry.webhook_id)) return;
    s.data.webhook_outbox.push({ ...entry, claimed_until: null });
  },
};
