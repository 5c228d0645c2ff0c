// The Activity feed's sources (activity.ts): a request reads only the collections of the kinds it asks
// for, and a charge and its refund at one instant with one reference are two items with two ids.
import { describe, expect, it } from 'vitest';
import { activityRoutes } from './activity.js';

const entry = (seq: number, wallet_cents: number) => ({
  seq,
  workspace_id: 'ws',
  at: '2026-01-05T09:00:00.000Z',
  kind: 'call',
  reference_id: 'call_1',
  description: wallet_cents < 0 ? 'call' : 'refund',
  credits_cents: 0,
  wallet_cents,
  credits_after_cents: 0,
  wallet_after_cents: 0,
});

/** The feed of a world holding two ledger entries, and the collections the request read. */
function feed(query: Record<string, unknown>) {
  const data = { ledger: [entry(1, -25), entry(2, 25)], videos: [], posts: [], webhook_deliveries: [] };
  const read = new Set<string>();
  const watched = new Proxy(data, { get: (t, k) => (read.add(String(k)), Reflect.get(t, k)) });
  const c = { data: watched, auth: { workspace: { id: 'ws' } }, query, s: {} };
  const { body } = activityRoutes.routes[0].handler(c as never) as { body: { data: { id: string }[] } };
  return { items: body.data, read };
}

describe('the activity feed', () => {
  it('reads only the collections of the kind asked for', () => {
    const { read } = feed({ kind: 'charge' });
    expect(read.has('ledger')).toBe(true);
    for (const other of ['videos', 'posts', 'webhook_deliveries']) expect(read.has(other), other).toBe(false);
  });

  it('a charge and its refund at the same instant are two items with two ids', () => {
    const { items } = feed({ kind: 'charge' });
    expect(items).toHaveLength(2);
    expect(new Set(items.map((i) => i.id)).size).toBe(2);
  });
});
