// Money: the wallet, auto-recharge and the card, the plan's allowances and what is used of them,
// the ledger with each entry linked to what caused it, and the chaos switches of the simulated
// world (top up, decline the card, fill the shared pool).
import { useState } from 'preact/hooks';
import { get, type List, patch, post, useLoad } from './api';
import { usd, when } from './format';
import type { LedgerEntry } from './world';

interface Workspace {
  name: string;
  wallet_usd: number;
  auto_recharge: { enabled: boolean; amount_usd: number; threshold_usd: number; card_declined: boolean };
  plan: Record<string, unknown>;
  usage: Record<string, unknown>;
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
      {w && (
        <dl class="facts">
          <dt>Wallet</dt>
          <dd data-testid="wallet">${w.wallet_usd.toFixed(2)}</dd>
          <dt>Auto-recharge</dt>
          <dd>
            {w.auto_recharge.enabled
              ? `on: $${w.auto_recharge.amount_usd} below $${w.auto_recharge.threshold_usd}`
              : 'off'}
          </dd>
          <dt>Card</dt>
          <dd>{w.auto_recharge.card_declined ? 'declined' : 'works'}</dd>
          <dt>Plan</dt>
          <dd class="body">
            {Object.entries(w.plan)
              .map(([k, v]) => `${k}: ${v}`)
              .join(' · ')}
          </dd>
          <dt>Used this month</dt>
          <dd class="body">
            {Object.entries(w.usage)
              .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
              .join(' · ')}
          </dd>
        </dl>
      )}
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
      {error && <p role="alert">{error}</p>}
      <div class="scroll">
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
            {(ledger.data?.data ?? []).map((e) => {
              const link = causeLink(e);
              return (
                <tr
                  key={`${e.at}${e.reference_id}${e.kind}`}
                  aria-current={entry === e.reference_id ? 'true' : undefined}
                >
                  <td>{when(e.at)}</td>
                  <td>{e.kind}</td>
                  <td>{link ? <a href={link}>{e.description}</a> : e.description}</td>
                  <td>{usd(e.wallet_cents)}</td>
                  <td>{usd(e.wallet_after_cents)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
