// The other panes: an inbound call placed as a person, videos (players, stages, prices, posts),
// schedules and notices, webhook deliveries, and the assistant's conversations and approvals.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, href, type List, post, useLoad } from './api';
import { navigate } from './router';
import { usd, when } from './format';
import type { Call, Conversation, Delivery, Video } from './world';

interface PhoneNumber {
  id: number;
  phone_number: string | null;
  name: string;
  handles_calls: boolean;
}

/** Place an inbound call to a workspace number as a person, then watch it in the call view. */
export function PlaceCall() {
  const nums = useLoad(() => get<List<PhoneNumber>>('/v1/phone-numbers?limit=100'), ['phone_numbers']);
  const [f, setF] = useState({ from: '+14155550123', to: '', says: '', digits: '' });
  const [error, setError] = useState('');
  const numbers = (nums.data?.data ?? []).filter((n) => n.phone_number);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const body: Record<string, string> = { from: f.from, to: f.to || numbers[0]?.phone_number || '' };
      if (f.says) body.says = f.says;
      if (f.digits) body.digits = f.digits;
      const r = await post<{ data: Call }>('/_sim/inbound/calls', body);
      navigate(`/calls/${r.data.id}`);
    } catch (err) {
      setError((err as ApiError).message);
    }
  };
  const field = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section aria-labelledby="place-h">
      <h1 id="place-h">Place an inbound call</h1>
      <form class="form" onSubmit={submit}>
        <label>
          From (the caller) <input value={f.from} onInput={field('from')} required />
        </label>
        <label>
          To (a workspace number){' '}
          <select value={f.to} onChange={field('to')}>
            {numbers.map((n) => (
              <option key={n.id} value={n.phone_number ?? ''}>
                {n.phone_number} {n.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          What they say <input value={f.says} onInput={field('says')} />
        </label>
        <label>
          Digits they press <input value={f.digits} onInput={field('digits')} pattern="[0-9*#w]*" />
        </label>
        <button type="submit" disabled={numbers.length === 0}>
          Place the call
        </button>
        {nums.data && numbers.length === 0 && <p class="empty">The workspace has no number yet.</p>}
        {error && <p role="alert">{error}</p>}
      </form>
    </section>
  );
}

/** A media link of the simulator as the page may load it (its /v1 paths go through the inspector). */
const mediaSrc = (u: string) => {
  const url = new URL(u, location.origin);
  return url.origin === location.origin ? href(url.pathname + url.search) : u;
};

/** A video's money and its way through the pipeline: when it was asked for, released to render, ready (or where it failed). */
function VideoFacts({ v }: { v: Video }) {
  return (
    <dl class="facts">
      <dt>Price</dt>
      <dd>
        {usd(v.price_cents)} {v.estimated ? '(estimate)' : ''} · charged {usd(v.billed_cents)}
      </dd>
      <dt>Asked for</dt>
      <dd>{when(v.created_at)}</dd>
      <dt>Released</dt>
      <dd>{when(v.released_at)}</dd>
      <dt>{v.status}</dt>
      <dd>since {when(v.status_changed_at)}</dd>
      <dt>Ready</dt>
      <dd>{when(v.ready_at)}</dd>
    </dl>
  );
}

export function Videos({ id }: { id?: string }) {
  const vids = useLoad(() => get<List<Video>>('/v1/videos?limit=50'), ['videos', 'posts']);
  const scheds = useLoad(() => get<List<Record<string, unknown>>>('/v1/video-schedules?limit=50'), ['video_schedules']);
  const notes = useLoad(() => get<List<Record<string, string>>>('/_sim/notifications'), ['notifications']);
  const list = (vids.data?.data ?? []).filter((v) => !id || v.id === id);
  return (
    <section aria-labelledby="videos-h">
      <h1 id="videos-h">Videos</h1>
      {vids.error && <p role="alert">{vids.error}</p>}
      {vids.data && list.length === 0 && <p class="empty">No videos.</p>}
      <ul class="cards">
        {list.map((v) => (
          <li key={v.id} class="card" aria-label={`Video ${v.id}`}>
            <h2>
              <a href={`/videos/${v.id}`}>{v.template}</a> · {v.status} · {v.format}
            </h2>
            {v.video_url && (
              <video
                controls
                preload="metadata"
                src={mediaSrc(v.video_url)}
                poster={v.thumbnail_url ? mediaSrc(v.thumbnail_url) : undefined}
                aria-label="Video"
              />
            )}
            <VideoFacts v={v} />
            {v.error && (
              <p role="alert">
                {v.failed_stage}: {v.error}
              </p>
            )}
            {v.caption && <p class="body">{v.caption}</p>}
            <ul aria-label="Posts">
              {v.posts.map((p) => (
                <li key={p.id}>
                  {p.platform}: {p.status} {p.published_at && when(p.published_at)}{' '}
                  {p.permalink && (
                    <a href={p.permalink} rel="noreferrer noopener" target="_blank">
                      {p.permalink}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <h2>Schedules</h2>
      <ul>
        {(scheds.data?.data ?? []).map((s) => (
          <li key={String(s.id)} class="body">
            {String(s.name)} · {String(s.status)} · next {when(s.next_run_at as string)} ({String(s.time_zone)}) · plan:{' '}
            {JSON.stringify(s.next_plan)}
          </li>
        ))}
      </ul>
      <h2>Notices</h2>
      <ul>
        {(notes.data?.data ?? []).map((n, i) => (
          <li key={i} class="body">
            {when(n.at)} to {n.to}: {n.subject}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Webhooks() {
  const d = useLoad(() => get<List<Delivery>>('/_sim/webhook-deliveries'), ['webhook_deliveries']);
  const [secret, setSecret] = useState('');
  const list = [...(d.data?.data ?? [])].reverse();
  return (
    <section aria-labelledby="hooks-h">
      <h1 id="hooks-h">Webhook deliveries</h1>
      <label>
        Webhook secret, to check signatures here (never sent anywhere){' '}
        <input type="password" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} autocomplete="off" />
      </label>
      {d.error && <p role="alert">{d.error}</p>}
      {d.data && list.length === 0 && <p class="empty">No deliveries yet.</p>}
      <ol class="feed" aria-label="Deliveries">
        {list.map((x) => (
          <Attempt key={x.id} d={x} secret={secret} />
        ))}
      </ol>
    </section>
  );
}

/** A word in single quotes for a POSIX shell. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The attempt as a curl command: the same request, byte for byte (content-length left to curl). */
export function curlOf(d: Delivery): string {
  const r = d.request!;
  const headers = Object.entries(r.headers).filter(([k]) => k.toLowerCase() !== 'content-length');
  return [
    'curl -X POST',
    quote(d.url),
    ...headers.map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`),
    `--data-raw ${quote(r.body)}`,
  ].join(' \\\n  ');
}

/** HMAC-SHA256 of `body` under `secret`, hex: the simulator's signature scheme, computed by the browser. */
async function hmacHex(secret: string, body: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(body)));
  return [...sig].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function Signature({ d, secret }: { d: Delivery; secret: string }) {
  const [ok, setOk] = useState<boolean | null>(null);
  const given = Object.entries(d.request?.headers ?? {}).find(
    ([k]) => k.toLowerCase() === 'x-service-signature-256',
  )?.[1];
  useEffect(() => {
    setOk(null);
    if (!secret || !given || !d.request) return;
    void hmacHex(secret, d.request.body).then((h) => setOk(h === given.toLowerCase()));
  }, [secret, given]);
  if (ok === null) return <span class="sig">signature: enter the secret to check</span>;
  return <span class={`sig ${ok ? 'ok' : 'bad'}`}>{ok ? 'signature valid ✓' : 'signature does not match ✗'}</span>;
}

function Attempt({ d, secret }: { d: Delivery; secret: string }) {
  const [curl, setCurl] = useState('');
  const [note, setNote] = useState('');
  const resend = () =>
    post<{ data: { attempt: number } }>(`/_sim/webhook-deliveries/${encodeURIComponent(d.id)}/resend`).then(
      (r) => setNote(`resent as attempt ${r.data.attempt}`),
      (e: Error) => setNote(e.message),
    );
  const copy = () => {
    const c = curlOf(d);
    setCurl(c);
    void navigator.clipboard?.writeText(c).catch(() => {});
  };
  return (
    <li class="item delivery" data-attempt={d.attempt} aria-label={`Attempt ${d.attempt} of ${d.event_id}`}>
      <div>
        <span class="kind">{d.type}</span> <time>{when(d.at)}</time> attempt {d.attempt}
        {d.resend_of ? ` (resend of ${d.resend_of})` : ''} → <span class="body">{d.url}</span>:{' '}
        <b>{d.error ?? `HTTP ${d.status_code}`}</b>
      </div>
      {d.request && (
        <details>
          <summary>Request and answer</summary>
          <pre class="body">{Object.entries(d.request.headers).map(([k, v]) => `${k}: ${v}\n`)}</pre>
          <pre class="body">{d.request.body}</pre>
          <p>
            Answer: {d.status_code === null ? 'none' : `HTTP ${d.status_code}`} at {when(d.at)}
            {d.error ? ` (${d.error})` : ''} · <Signature d={d} secret={secret} />
          </p>
        </details>
      )}
      <div class="actions">
        <button type="button" onClick={resend} disabled={!d.request || !d.webhook_id}>
          Resend
        </button>
        <button type="button" onClick={copy} disabled={!d.request}>
          Copy as curl
        </button>
        <output>{note}</output>
      </div>
      {curl && (
        <pre class="body" aria-label="curl command">
          {curl}
        </pre>
      )}
    </li>
  );
}

/** Answers every approval a conversation waits for, in one request, as the API asks. */
const answer = (c: Conversation, approved: boolean) =>
  post('/v1/assistant/messages', {
    conversation_id: c.conversation_id,
    approvals: c.pending_approvals.map((a) => ({ approval_id: a.approval_id, approved })),
  });

/**
 * An action of the assistant and how it ended, its status said once: a declined one's error already
 * starts with it ('declined: not now'), a failed one's does not ('no such number').
 */
export function actionText(a: Conversation['actions'][number]): string {
  if (!a.error) return `${a.tool} (${a.status})`;
  return `${a.tool} (${a.error.startsWith(a.status) ? a.error : `${a.status}: ${a.error}`})`;
}

function ConversationCard({ x }: { x: Conversation }) {
  const [error, setError] = useState('');
  const act = (approved: boolean) => () =>
    answer(x, approved).then(
      () => setError(''),
      (e: Error) => setError(e.message),
    );
  return (
    <li class="card" aria-label={`Assistant conversation ${x.title}`}>
      <h2 class="body">
        {x.title} · <span data-testid="status">{x.status}</span> · {when(x.updated_at)}
      </h2>
      <p class="body">{x.reply}</p>
      {x.actions.length > 0 && <p>Actions: {x.actions.map(actionText).join(', ')}</p>}
      {x.pending_approvals.map((a) => (
        <p key={a.approval_id} class="body">
          Waiting for approval: {a.tool} ({a.reason})
        </p>
      ))}
      {x.pending_approvals.length > 0 && (
        <div class="actions">
          <button type="button" onClick={act(true)}>
            Approve all
          </button>
          <button type="button" onClick={act(false)}>
            Decline all
          </button>
        </div>
      )}
      {error && <p role="alert">{error}</p>}
    </li>
  );
}

export function Assistant() {
  const c = useLoad(() => get<List<Conversation>>('/v1/assistant/conversations?limit=50'), ['assistant_conversations']);
  return (
    <section aria-labelledby="asst-h">
      <h1 id="asst-h">Assistant</h1>
      {c.error && <p role="alert">{c.error}</p>}
      {c.data && c.data.data.length === 0 && <p class="empty">No conversations.</p>}
      <ul class="cards">
        {(c.data?.data ?? []).map((x) => (
          <ConversationCard key={x.conversation_id} x={x} />
        ))}
      </ul>
    </section>
  );
}
