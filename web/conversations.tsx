// Conversations: a thread per person (texts, calls and emails in time order) with a box to reply as
// that person (the inbound text route: the world answers as it would a real text), and a call's
// view: its states, cost, summary and tags, and the transcript turn by turn beside the recording,
// where a click on a turn seeks the audio and the turn being spoken is highlighted.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, href, post, useLoad } from './api';
import { when } from './format';
import {
  addressOf,
  type Call,
  type Email,
  historyOf,
  nameOf,
  type Person,
  people,
  personPath,
  type Text,
} from './world';

export function Conversations({ id }: { id?: string }) {
  const all = useLoad(people, ['contacts', 'texts', 'calls', 'emails']);
  const list = all.data ?? [];
  const current = list.find((p) => id !== undefined && [p.contact_id, p.phone_number, p.email].includes(id));
  return (
    <section class="split" aria-labelledby="conv-h">
      <h1 id="conv-h">Conversations</h1>
      <nav aria-label="People">
        <ul class="people">
          {list.map((p) => (
            <li key={personPath(p)}>
              <a href={personPath(p)} aria-current={p === current ? 'page' : undefined}>
                <b>{nameOf(p)}</b> {addressOf(p) && <small>{addressOf(p)}</small>}
              </a>
            </li>
          ))}
        </ul>
        {all.data && list.length === 0 && <p class="empty">No one reached yet.</p>}
      </nav>
      {current ? <Thread person={current} /> : <p class="empty">Pick a person.</p>}
    </section>
  );
}

type Entry = { at: string } & ({ text: Text } | { call: Call } | { email: Email });

/** An entry's key in the thread. */
function entryKey(e: Entry): string {
  if ('text' in e) return e.text.id;
  return 'call' in e ? e.call.id : e.email.id;
}

/** The workspace's number in a text: the one the person texted, or texted from. */
const ourNumber = (t: Text | undefined) => {
  if (!t) return '';
  return t.direction === 'outbound' ? t.from_number : t.to_number;
};

function Thread({ person }: { person: Person }) {
  const h = useLoad(() => historyOf(person), ['texts', 'calls', 'emails'], [personPath(person)]);
  const entries: Entry[] = h.data
    ? [
        ...h.data.texts.map((text) => ({ at: text.created_at, text })),
        ...h.data.calls.map((call) => ({ at: call.created_at, call })),
        ...h.data.emails.map((email) => ({ at: email.created_at, email })),
      ].sort((a, b) => (a.at < b.at ? -1 : 1))
    : [];
  const last = h.data?.texts[0];
  return (
    <div class="thread" role="region" aria-label={`Conversation with ${nameOf(person)}`}>
      <ol>
        {entries.map((e) => (
          <li key={entryKey(e)}>{entryView(e)}</li>
        ))}
      </ol>
      {person.phone_number && <Reply person={person} to={ourNumber(last)} />}
      {person.phone_number && <PersonaCard number={person.phone_number} />}
    </div>
  );
}

/** A persona as GET /_sim/personas/{number} gives it (simulator/calls/persona.ts). */
interface PersonaEntry {
  builtin: boolean;
  last_digits: string | null;
  persona: {
    name?: string;
    description?: string;
    call?: {
      attempts: { result: string; ring_seconds?: number }[];
      lines?: { says: string; pause_seconds?: number }[];
      outcome?: string;
      hang_up_after_seconds?: number;
    };
    text?: { delivery?: string; replies: { says: string; after_seconds: number }[] };
  };
}

/** How the person behind the number behaves: their own persona or the built-in, beside their thread. */
function PersonaCard({ number }: { number: string }) {
  const p = useLoad(
    () => get<{ data: PersonaEntry }>(`/_sim/personas/${encodeURIComponent(number)}`),
    ['personas'],
    [number],
  ).data?.data;
  if (!p) return null;
  const { call, text } = p.persona;
  const origin = p.builtin ? `built-in${p.last_digits ? ` (…${p.last_digits})` : ''}` : 'set for this number';
  return (
    <aside class="persona" aria-label={`Persona of ${number}`}>
      <h2>
        Persona: {p.persona.name ?? number} <small>{origin}</small>
      </h2>
      {call && (
        <p>
          Calls: {call.attempts.map((a, i) => `${i + 1}. ${a.result.replace('_', ' ')}`).join(', ')} (the last repeats)
          {call.outcome && `; ends ${call.outcome.replace('_', ' ')}`}
          {call.hang_up_after_seconds !== undefined && `; hangs up after ${call.hang_up_after_seconds} s`}
        </p>
      )}
      {call?.lines && (
        <ol class="lines" aria-label="What they say on a call">
          {call.lines.map((l, i) => (
            <li key={i}>{l.says}</li>
          ))}
        </ol>
      )}
      {text && (
        <p>
          Texts:{' '}
          {text.delivery === 'fails'
            ? 'delivery fails'
            : text.replies.map((r) => `"${r.says}" after ${r.after_seconds} s`).join(', then ') || 'silence'}
        </p>
      )}
      <small>
        vmv sim persona show {number} · set {number} --file FILE
      </small>
    </aside>
  );
}

function entryView(e: Entry) {
  if ('text' in e)
    return (
      <div class={`bubble ${e.text.direction}`} data-text-id={e.text.id}>
        <p class="body">{e.text.body}</p>
        <small>
          {e.text.sender} · {e.text.status} · {when(e.at)}
        </small>
      </div>
    );
  if ('call' in e)
    return (
      <a class="bubble call" href={`/calls/${e.call.id}`}>
        Call ({e.call.direction}, {e.call.status}) · {when(e.at)}
      </a>
    );
  return (
    <a class="bubble email" href={`/emails/${e.email.id}`}>
      Email: {e.email.subject} · {when(e.at)}
    </a>
  );
}

/** A box to text the workspace's number as this person. */
function Reply({ person, to }: { person: Person; to: string }) {
  const [body, setBody] = useState('');
  const [toNumber, setTo] = useState(to);
  const [error, setError] = useState('');
  useEffect(() => setTo(to), [to]);
  const send = async (e: Event) => {
    e.preventDefault();
    setError('');
    try {
      await post('/_sim/inbound/texts', { from: person.phone_number, to: toNumber, body });
      setBody('');
    } catch (err) {
      setError((err as ApiError).message);
    }
  };
  return (
    <form class="reply" onSubmit={send} aria-label={`Reply as ${nameOf(person)}`}>
      <label>
        To <input value={toNumber} onInput={(e) => setTo(e.currentTarget.value)} required />
      </label>
      <label>
        Reply as {nameOf(person)}{' '}
        <textarea value={body} onInput={(e) => setBody(e.currentTarget.value)} required rows={2} />
      </label>
      <button type="submit">Send as {nameOf(person)}</button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}

/** The recording as a page-local copy: a media element cannot send the key, and a whole file seeks anywhere. */
function useRecording(call: Call | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!call?.has_recording) return;
    let u: string | null = null;
    fetch(href(`/v1/history/calls/${call.id}/recording`))
      .then((r) => (r.ok ? r.blob() : null))
      .then((b) => b && setUrl((u = URL.createObjectURL(b))));
    return () => void (u && URL.revokeObjectURL(u));
  }, [call?.id, call?.has_recording]);
  return url;
}

export function CallView({ id }: { id: string }) {
  const c = useLoad(() => get<{ data: Call }>(`/v1/history/calls/${id}`), ['calls'], [id]);
  const call = c.data?.data ?? null;
  const audio = useRef<HTMLAudioElement>(null);
  const [t, setT] = useState(0);
  const src = useRecording(call);
  if (c.error) return <p role="alert">{c.error}</p>;
  if (!call) return <p>Loading…</p>;
  const turns = call.transcript_turns;
  const speaking = turns.findLastIndex((x) => x.seconds_from_start !== null && x.seconds_from_start <= t);
  return (
    <section aria-labelledby="call-h">
      <h1 id="call-h">
        Call {call.from_number} → {call.to_number}
      </h1>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          {call.status}
          {call.end_reason ? ` (${call.end_reason})` : ''}
        </dd>
        <dt>Direction</dt>
        <dd>{call.direction}</dd>
        <dt>Started</dt>
        <dd>{when(call.started_at)}</dd>
        <dt>Ended</dt>
        <dd>{when(call.ended_at)}</dd>
        <dt>Duration</dt>
        <dd>{call.duration_seconds ?? '—'} s</dd>
        <dt>Tags</dt>
        <dd>{call.tags.join(', ') || '—'}</dd>
        <dt>Summary</dt>
        <dd class="body">{call.summary || '—'}</dd>
      </dl>
      {src && (
        <audio
          ref={audio}
          controls
          src={src}
          aria-label="Recording"
          onTimeUpdate={(e) => setT(e.currentTarget.currentTime)}
        />
      )}
      {!call.has_recording && <p class="empty">No recording.</p>}
      <ol class="turns" aria-label="Transcript">
        {turns.map((x, i) => (
          <li key={i} aria-current={i === speaking ? 'true' : undefined}>
            <button
              type="button"
              class="turn"
              disabled={x.seconds_from_start === null}
              onClick={() => {
                if (audio.current && x.seconds_from_start !== null) {
                  audio.current.currentTime = x.seconds_from_start;
                  setT(x.seconds_from_start);
                }
              }}
            >
              <span class="at">{x.seconds_from_start ?? '–'} s</span> <b>{x.speaker}</b>{' '}
              <span class="body">{x.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function EmailView({ id }: { id: string }) {
  const e = useLoad(
    // one read by id, sent or received (the API has none: its email lists need a person)
    async () => (await get<{ data: Email }>(`/_sim/emails/${encodeURIComponent(id)}`)).data,
    ['emails'],
    [id],
  );
  if (e.error) return <p role="alert">{e.error}</p>;
  const m = e.data;
  if (!m) return <p>Loading…</p>;
  return (
    <section aria-labelledby="email-h">
      <h1 id="email-h" class="body">
        {m.subject || '(no subject)'}
      </h1>
      <dl class="facts">
        <dt>From</dt>
        <dd>{m.from}</dd>
        <dt>To</dt>
        <dd>{m.to}</dd>
        <dt>Status</dt>
        <dd>
          {m.status} ({m.direction})
        </dd>
        <dt>At</dt>
        <dd>{when(m.created_at)}</dd>
      </dl>
      <pre class="body">{m.body}</pre>
    </section>
  );
}
