// Activity: everything the world did, newest first (texts, calls, emails with their whole body,
// videos and posts, webhook deliveries, ledger entries), narrowed to a kind, a person, or any words
// in it (a contact's name, a number, an address, a body). One request a screen: the server pages the
// feed (GET /_sim/activity), and older items come a page at a time. Every text shown is text, never markup.
import { useEffect, useState } from 'preact/hooks';
import { get, type List, useLoad } from './api';
import { usd, when } from './format';
import { type ActivityItem, people, personLabel, personPath } from './world';

const KINDS: ActivityItem['kind'][] = ['text', 'call', 'email', 'video', 'post', 'delivery', 'charge'];

/** A page of the feed, and the cursor of the next one (none: the last). */
type Page = List<ActivityItem> & { meta: { cursor?: string } };

/** The feed's query for these filters (and the page after `cursor`). */
function feedPath(f: { kind: string; who: string; q: string }, cursor?: string): string {
  const p = new URLSearchParams({ limit: '50' });
  if (f.kind) p.set('kind', f.kind);
  if (f.who) p.set('person', f.who);
  if (f.q.trim()) p.set('q', f.q.trim());
  if (cursor) p.set('cursor', cursor);
  return `/_sim/activity?${p}`;
}

/** An item's line: its kind, time, what it was and what it cost. */
function Line({ i }: { i: ActivityItem }) {
  return (
    <li class={`item ${i.kind}`} data-kind={i.kind}>
      <a href={i.link}>
        <span class="kind">{i.kind}</span> <time>{when(i.at)}</time> <span class="title">{i.title}</span>
        {i.amount_cents !== null && <span class="amount"> ({usd(i.amount_cents)})</span>}
      </a>
      {i.text && <pre class="body">{i.text}</pre>}
    </li>
  );
}

export function Activity() {
  const [kind, setKind] = useState('');
  const [q, setQ] = useState(() => new URLSearchParams(location.search).get('q') ?? '');
  const [who, setWho] = useState('');
  const filters = { kind, who, q };
  const first = useLoad(
    () => get<Page>(feedPath(filters)),
    ['texts', 'calls', 'emails', 'contacts', 'videos', 'posts', 'webhook_deliveries', 'ledger'],
    [kind, who, q],
  );
  // older pages, asked for one at a time; a new first page (a change, other filters) starts again
  const [older, setOlder] = useState<Page[]>([]);
  const [error, setError] = useState('');
  useEffect(() => setOlder([]), [first.data]);
  const pages = first.data ? [first.data, ...older] : [];
  const next = pages[pages.length - 1]?.meta.cursor;
  const more = () =>
    get<Page>(feedPath(filters, next)).then(
      (p) => setOlder((o) => [...o, p]),
      (e: Error) => setError(e.message),
    );
  const folks = useLoad(people, ['contacts', 'texts', 'calls', 'emails']);
  const items = pages.flatMap((p) => p.data);
  return (
    <section aria-labelledby="activity-h">
      <h1 id="activity-h">Activity</h1>
      <div class="filters">
        <label>
          Kind{' '}
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="">everything</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          Person or number{' '}
          <select value={who} onChange={(e) => setWho(e.currentTarget.value)}>
            <option value="">anyone</option>
            {(folks.data ?? []).map((p) => (
              <option key={personPath(p)} value={p.phone_number || p.email}>
                {personLabel(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search{' '}
          <input
            type="search"
            value={q}
            onInput={(e) => setQ(e.currentTarget.value)}
            placeholder="name, number, words"
          />
        </label>
      </div>
      {(first.error || error) && <p role="alert">{first.error || error}</p>}
      {first.data && items.length === 0 && <p class="empty">Nothing yet.</p>}
      <ol class="feed">
        {items.map((i) => (
          <Line key={`${i.kind}:${i.id}`} i={i} />
        ))}
      </ol>
      {next && (
        <button type="button" onClick={more}>
          Older
        </button>
      )}
    </section>
  );
}
