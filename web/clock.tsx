// The clock bar on every page: the simulated time (manual, or real and running), what falls due
// next, buttons that move the clock, and what the last move set off (the changes heard meanwhile).
import { useEffect, useState } from 'preact/hooks';
import { get, post, useLoad } from './api';
import { span, when } from './format';
import { recent, useLinkState } from './live';

interface SimClock {
  now: string;
  mode: 'real' | 'manual';
  next_due_at: string | null;
  next_job_due_at: string | null;
}

const STEPS: [string, number][] = [
  ['+1 min', 60],
  ['+5 min', 300],
  ['+1 h', 3600],
  ['+1 day', 86400],
];

const LINK_WORDS = { live: '● live', connecting: '○ connecting', disconnected: '○ disconnected, retrying' };

/** Names of the world's values a person knows them by. */
const WORDS: Record<string, string> = {
  texts: 'texts',
  calls: 'calls',
  emails: 'emails',
  videos: 'videos',
  posts: 'posts',
  ledger: 'ledger entries',
  webhook_deliveries: 'webhook deliveries',
  quick_jobs: 'quick actions',
  notifications: 'notices',
  assistant_conversations: 'assistant conversations',
  video_schedules: 'schedules',
};

/** What the changes heard since `from` wrote, in words: "2 texts, 1 call…" (ids counted per value). */
function setOff(from: number): string {
  const ids = new Map<string, Set<string>>();
  for (const c of recent.filter((c) => c.at >= from))
    for (const u of c.units) if (WORDS[u]) ids.set(u, new Set([...(ids.get(u) ?? []), ...c.ids]));
  const parts = [...ids].map(([u, s]) => `${WORDS[u]} ${s.size || 'changed'}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

export function ClockBar() {
  const clock = useLoad(() => get<SimClock>('/_sim/clock'), ['meta', 'timers']);
  // what falls due next, in words (the status route names it)
  const status = useLoad(
    () => get<{ next_due: { at: string; what: string } | null }>('/_sim/status'),
    ['meta', 'timers'],
  );
  const next = status.data?.next_due;
  const link = useLinkState();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const [, tick] = useState(0);
  const c = clock.data;
  // a real clock runs: the page moves it on between reads
  const [readAt, setReadAt] = useState(Date.now());
  useEffect(() => setReadAt(Date.now()), [c]);
  useEffect(() => {
    if (c?.mode !== 'real') return;
    const t = setInterval(() => tick((x) => x + 1), 1000);
    return () => clearInterval(t);
  }, [c?.mode]);
  const now = c ? Date.parse(c.now) + (c.mode === 'real' ? Date.now() - readAt : 0) : null;

  const move = async (label: string, run: () => Promise<unknown>) => {
    setBusy(true);
    const from = Date.now();
    try {
      await run();
      // the changes arrive over the live link within a moment of the reply
      await new Promise((r) => setTimeout(r, 600));
      setNote(`${label}: ${setOff(from)}`);
    } catch (e) {
      setNote(`${label}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const due = c?.next_due_at ?? null;
  return (
    <header class="clock" aria-label="Simulator clock">
      <span class="now" aria-label="Simulated time" aria-live="polite">
        {now === null ? '…' : when(new Date(now).toISOString())}
      </span>
      <span class="mode">{c?.mode ?? ''}</span>
      <span class="due">
        next due:{' '}
        {due
          ? `${next && Date.parse(next.at) === Date.parse(due) ? next.what : 'a scheduled step'} at ${when(due)} (in ${span(Date.parse(due) - (now ?? 0))})`
          : 'nothing scheduled'}
      </span>
      <span class="buttons">
        {STEPS.map(([label, seconds]) => (
          <button
            type="button"
            key={label}
            disabled={busy}
            onClick={() => move(label, () => post('/_sim/clock/advance', { seconds }))}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          disabled={busy || !due}
          onClick={() => move('to the next due', () => post('/_sim/clock', { now: due }))}
        >
          To the next due
        </button>
      </span>
      <output class="note" aria-label="What the last move set off">
        {note}
      </output>
      <span class={`link ${link}`} role="status" aria-label="Live updates">
        {LINK_WORDS[link]}
      </span>
    </header>
  );
}
