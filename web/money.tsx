// Money: the wallet, auto-recharge and the card, the plan's allowances and what is used of them,
// the ledger with each entry linked to what caused it, and the chaos switches of the simulated
// world (top up, decline the card, fill the shared pool).
import { useState } from 'preact/hooks';
import { get, type List, patch, post, useLoad } from './api';
import { count, day, dollars, included, usd, when } from './format';
import type { LedgerEntry } from './world';

/**
 * What the pane reads of GET /_sim/workspace (SimWorkspaceSchema in simulator/control/routes.ts,
 * whose module the page's type check cannot take in: it reaches every capability's world).
 */
interface Workspace {
  name: string;
  wallet_usd: number;
  auto_recharge: { enabled: boolean; amount_usd: number; threshold_usd: number; card_declined: boolean };
  plan: {
    content: boolean;
    assistant: boolean;
    video_credits_cents: number;
    included_minutes: number;
    included_texts: number;
    per_minute_usd: number;
    per_text_usd: number;
  };
  usage: {
    period_start: string;
    period_end: string;
    minutes_used: number;
    minutes_left: number;
    texts_used: number;
    texts_left: number;
    calls_paused: boolean;
    texts_paused: boolean;
  };
}

/** The plan as a person reads it: what it includes, its credits, its allowances and what goes beyond them costs. */
function planText(p: Workspace['plan']): string {
  return [
    `Content ${included(p.content)}`,
    `assistant ${included(p.assistant)}`,
    `${usd(p.video_credits_cents)} of video credits left`,
    `${count(p.included_minutes, 'minute')} and ${count(p.included_texts, 'text')} a month`,
    `then ${dollars(p.per_minute_usd)} a minute, ${dollars(p.per_text_usd)} a text`,
  ].join(' · ');
}

/** This month's use of the plan as a person reads it, with the month's dates and what is paused. */
function usageText(u: Workspace['usage']): string {
  const paused = [u.calls_paused && 'calls', u.texts_paused && 'texts'].filter(Boolean);
  return [
    `${count(u.minutes_used, 'minute')} used, ${u.minutes_left} left`,
    `${count(u.texts_used, 'text')} sent, ${u.texts_left} left`,
    `${day(u.period_start)} to ${day(u.period_end)}`,
    ...(paused.length ? [`${paused.join(' and ')} paused: nothing left and the wallet cannot pay`] : []),
  ].join(' · ');
}

/** Where the thing an entry was caused by is shown in the page. */
function causeLink(e: LedgerEntry): string | null {
  if (e.kind === 'call') return `/calls/${encodeURIComponent(e.reference_id)}`;
  if (e.kind === 'video') return `/videos/${encodeURIComponent(e.reference_id)}`;
  if (e.kind === 'recharge' || e.kind === 'wallet_set') return null;
  // a text, a line, a quick action or an email: the activity that names it
  return `/activity?q=${encodeURIComponent(e.reference_id)}`;
}

export function Money({ entry }: { entry?: string }) {
  const ws = useLoad(() => get<Workspace>('/_sim/workspace'), ['organizations', 'workspaces', 'ledger']);
  const ledger = useLoad(() => get<List<LedgerEntry>>('/_sim/ledger?limit=100'), ['ledger']);
  const [error, setError] = useState('');
  const act = (run: () => Promise<unknown>) => () =>
    run().then(
      () => setError(''),
      (e: Error) => setError(e.message),
    );
  const w = ws.data;
  return (
    <section aria-labelledby="money-h">
      <h1 id="money-h">Money</h1>
      {w && <Facts w={w} />}
      <Switches w={w} act={act} />
      {error && <p role="alert">{error}</p>}
      <Ledger entries={ledger.data?.data ?? []} entry={entry} />
    </section>
  );
}

/** The wallet, auto-recharge, the card, the plan and this month's use of it. */
function Facts({ w }: { w: Workspace }) {
  return (
    <dl class="facts">
      <dt>Wallet</dt>
      <dd data-testid="wallet">{dollars(w.wallet_usd)}</dd>
      <dt>Auto-recharge</dt>
      <dd>
        {w.auto_recharge.enabled
          ? `on: ${dollars(w.auto_recharge.amount_usd)} when the wallet falls below ${dollars(w.auto_recharge.threshold_usd)}`
          : 'off'}
      </dd>
      <dt>Card</dt>
      <dd>{w.auto_recharge.card_declined ? 'declined' : 'works'}</dd>
      <dt>Plan</dt>
      <dd class="body" data-testid="plan">
        {planText(w.plan)}
      </dd>
      <dt>Used this month</dt>
      <dd class="body" data-testid="usage">
        {usageText(w.usage)}
      </dd>
    </dl>
  );
}

/** The chaos switches of the simulated world; `act` runs one and shows what went wrong. */
function Switches({ w, act }: { w: Workspace | null; act: (run: () => Promise<unknown>) => () => void }) {
  return (
    <div class="switches" role="group" aria-label="Switches">
      <button type="button" onClick={act(() => patch('/_sim/workspace', { wallet_usd: (w?.wallet_usd ?? 0) + 10 }))}>
        Top up $10
      </button>
      <button
        type="button"
        aria-pressed={w?.auto_recharge.card_declined ?? false}
        onClick={act(() =>
          patch('/_sim/workspace', { auto_recharge: { card_declined: !w?.auto_recharge.card_declined } }),
        )}
      >
        Decline the card
      </button>
      <button type="button" onClick={act(() => post('/_sim/shared-pool/fill', { kind: 'calls' }))}>
        Fill the shared pool (calls)
      </button>
      <button type="button" onClick={act(() => post('/_sim/shared-pool/fill', { kind: 'texts' }))}>
        Fill the shared pool (texts)
      </button>
    </div>
  );
}

/** The ledger, newest first, each entry linked to what caused it; `entry` (a reference id) marked current. */
function Ledger({ entries, entry }: { entries: LedgerEntry[]; entry?: string }) {
  return (
    <table class="ledger" aria-label="Ledger">
      <thead>
        <tr>
          <th>At</th>
          <th>Kind</th>
          <th>What</th>
          <th>Wallet</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => {
          const link = causeLink(e);
          return (
            <tr key={`${e.at}${e.reference_id}${e.kind}`} aria-current={entry === e.reference_id ? 'true' : undefined}>
              <td data-label="At">{when(e.at)}</td>
              <td data-label="Kind">{e.kind}</td>
              <td data-label="What" class="body">
                {link ? <a href={link}>{e.description}</a> : e.description}
              </td>
              <td data-label="Wallet" class="amount">
                {usd(e.wallet_cents)}
              </td>
              <td data-label="After" class="amount">
                {usd(e.wallet_after_cents)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
