// Activity: everything the world did, newest first (texts, calls, emails with their whole body,
// videos and posts, webhook deliveries, ledger entries), filtered by kind and searched by any word
// in it (a contact's name, a number, an address, a body). Every text shown is text, never markup.
import { useState } from 'preact/hooks';
import { get, type List, useLoad } from './api';
import { usd, when } from './format';
import { type Delivery, historyOf, type Video, type LedgerEntry, nameOf, people, personPath } from './world';

export interface Item {
  kind: 'text' | 'call' | 'email' | 'video' | 'post' | 'delivery' | 'charge';
  id: string;
  at: string;
  title: string;
  /** the whole body, transcript or detail */
  text: string;
  link: string;
  who: string;
  /** other ids it goes by (a quick action's, a quick email's): a ledger entry names them */
  refs?: string;
}

const KINDS: Item['kind'][] = ['text', 'call', 'email', 'video', 'post', 'delivery', 'charge'];

/** Every person's texts, calls and emails as items. */
async function messages(): Promise<Item[]> {
  const items: Item[] = [];
  for (const p of await people()) {
    const h = await historyOf(p);
    const who = `${nameOf(p)} ${p.phone_number} ${p.email}`;
    for (const t of h.texts)
      items.push({
        kind: 'text',
        id: t.id,
        at: t.created_at,
        title: `${t.direction} text ${t.from_number} → ${t.to_number}`,
        text: t.body,
        link: personPath(p),
        who,
        refs: t.quick_action_id ?? '',
      });
    for (const c of h.calls)
      items.push({
        kind: 'call',
        id: c.id,
        at: c.created_at,
        title: `${c.direction} call ${c.from_number} → ${c.to_number} (${c.status})`,
        text: c.summary,
        link: `/calls/${c.id}`,
        who,
      });
    for (const e of h.emails)
      items.push({
        kind: 'email',
        id: e.id,
        at: e.created_at,
        title: `${e.direction} email to ${e.to}: ${e.subject}`,
        text: e.body,
        link: `/emails/${e.id}`,
        who,
        refs: e.quick_email_id ?? '',
      });
  }
  return items;
}

/** Videos, their posts, deliveries and ledger entries as items (a plan without Content has no videos). */
async function others(): Promise<Item[]> {
  const [videos, deliveries, ledger] = await Promise.all([
    get<List<Video>>('/v1/videos?limit=100').catch(() => ({ data: [] as Video[] })),
    get<List<Delivery>>('/_sim/webhook-deliveries'),
    get<List<LedgerEntry>>('/_sim/ledger?limit=100'),
  ]);
  const items: Item[] = [];
  for (const v of videos.data) {
    items.push({
      kind: 'video',
      id: v.id,
      at: v.created_at,
      title: `video (${v.template}) ${v.status}, ${usd(v.price_cents)}`,
      text: v.caption ?? '',
      link: `/videos/${v.id}`,
      who: '',
    });
    for (const p of v.posts)
      items.push({
        kind: 'post',
        id: p.id,
        at: p.created_at,
        title: `post on ${p.platform}: ${p.status}`,
        text: p.permalink ?? '',
        link: `/videos/${v.id}`,
        who: '',
      });
  }
  deliveries.data.forEach((d) =>
    items.push({
      kind: 'delivery',
      id: d.id,
      at: d.at,
      title: `${d.type} → ${d.url} (attempt ${d.attempt}): ${d.status_code ?? d.error}`,
      text: '',
      link: '/webhooks',
      who: '',
    }),
  );
  for (const e of ledger.data)
    items.push({
      kind: 'charge',
      id: `${e.reference_id}@${e.at}`,
      at: e.at,
      title: `${e.kind}: ${e.description} (${usd(e.wallet_cents)})`,
      text: '',
      link: `/money?entry=${encodeURIComponent(e.reference_id)}`,
      who: '',
    });
  return items;
}

const matches = (i: Item, q: string) =>
  !q || `${i.id} ${i.refs ?? ''} ${i.title} ${i.text} ${i.who}`.toLowerCase().includes(q.toLowerCase());

export function Activity() {
  const [kind, setKind] = useState('');
  const [q, setQ] = useState(() => new URLSearchParams(location.search).get('q') ?? '');
  const all = useLoad(
    async () => [...(await messages()), ...(await others())].sort((a, b) => (a.at < b.at ? 1 : -1)),
    ['texts', 'calls', 'emails', 'contacts', 'videos', 'posts', 'webhook_deliveries', 'ledger'],
  );
  const folks = useLoad(people, ['contacts', 'texts', 'calls', 'emails']);
  const [who, setWho] = useState('');
  const items = (all.data ?? []).filter(
    (i) => (!kind || i.kind === kind) && (!who || i.who.includes(who)) && matches(i, q),
  );
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
            {(folks.data ?? []).map((p) => {
              const key = p.phone_number || p.email;
              return (
                <option key={personPath(p)} value={key}>
                  {nameOf(p)} {p.name !== key ? key : ''}
                </option>
              );
            })}
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
      {all.error && <p role="alert">{all.error}</p>}
      {all.data && items.length === 0 && <p class="empty">Nothing yet.</p>}
      <ol class="feed">
        {items.map((i) => (
          <li key={`${i.kind}:${i.id}`} class={`item ${i.kind}`} data-kind={i.kind}>
            <a href={i.link}>
              <span class="kind">{i.kind}</span> <time>{when(i.at)}</time> <span class="title">{i.title}</span>
            </a>
            {i.text && <pre class="body">{i.text}</pre>}
          </li>
        ))}
      </ol>
    </section>
  );
}
