// The inspector's Activity feed (GET /_sim/activity): everything the workspace did, newest first, in
// one list the server pages: texts, calls and emails (from the history indexes: a page reads about
// its size of each, whatever the store holds), videos and their posts, webhook deliveries and
// ledger entries; narrowed to a kind, a person, or the words an item holds. The page asks for one
// page per screen, instead of three history requests per person.
import { route, type Ctx, type Resource } from '../core/http.js';
import { compare, cursorBelow, listParams, placeOf, type Pos } from '../core/pagination.js';
import { listOf, obj, oneOf, qString, type Infer } from '../core/schema.js';
import { ACTIVITY_KINDS, ActivityItemSchema, type ActivityKind } from './records.js';
import {
  personNames,
  personRecords,
  recordIndex,
  type CallRecord,
  type EmailRecord,
  type TextRecord,
} from '../history/index.js';

type Item = Infer<typeof ActivityItemSchema>;
type Kind = ActivityKind;

/** Items of one kind, oldest first by time then creation: the n-th one's place and what it shows. */
interface Source {
  length: number;
  place(n: number): Pos;
  item(n: number): Item;
}

/** Kinds apart within one instant (the tie-break's high part), in the order they are listed. */
const RANK: Record<Kind, number> = { text: 0, call: 1, email: 2, video: 3, post: 4, delivery: 5, charge: 6 };
const tie = (kind: Kind, seq: number) => RANK[kind] * 2 ** 40 + seq;

type Req = Ctx<unknown, { limit?: number; cursor?: string; kind?: Kind; person?: string; q?: string }, unknown>;
type Sorted<T> = readonly T[];

function listSource<T>(kind: Kind, rows: Sorted<T>, at: (r: T) => string, seq: (r: T) => number, item: (r: T) => Item) {
  return {
    length: rows.length,
    place: (n: number) => ({ k: Date.parse(at(rows[n])), i: tie(kind, seq(rows[n])) }),
    item: (n: number) => item(rows[n]),
  };
}

/** A small collection of the workspace (videos, posts, deliveries, the ledger), sorted for this request. */
function ofWorkspace<T extends { seq: number; workspace_id: string }>(
  rows: readonly T[],
  ws: string,
  at: (r: T) => string,
) {
  return rows
    .filter((r) => r.workspace_id === ws)
    .map((r) => ({ r, k: Date.parse(at(r)) }))
    .sort((a, b) => a.k - b.k || a.r.seq - b.r.seq)
    .map((x) => x.r);
}

/** Each kind's source, made only when the request asks for that kind (a page costs about its size). */
type Sources = Partial<Record<Kind, () => Source>>;

/** The texts, calls and emails of the workspace, or of one person, from the history indexes. */
function historySources(c: Req, ws: string): Sources {
  const who = c.query.person;
  // the names looked up only when a text, call or email is asked for
  let names: ReturnType<typeof personNames> | undefined;
  const name: ReturnType<typeof personNames> = (r) => (names ??= personNames(c.data, ws))(r);
  const rows = <T extends TextRecord | CallRecord | EmailRecord>(unit: 'texts' | 'calls' | 'emails') =>
    who === undefined
      ? (recordIndex<T>(c.data, unit).byWorkspace.get(ws) ?? [])
      : personRecords<T>(c.data, unit, ws, who);
  return {
    text: () =>
      listSource(
        'text',
        rows<TextRecord>('texts'),
        (t) => t.created_at,
        (t) => t.seq,
        (t) => ({
          kind: 'text',
          id: t.id,
          at: t.created_at,
          title: `${t.direction} text ${t.from_number} → ${t.to_number}`,
          text: t.body,
          amount_cents: null,
          person: name(t),
          refs: t.quick_action_id ? [t.quick_action_id] : [],
          link: `/conversations/${encodeURIComponent(t.contact_id ?? (t.direction === 'outbound' ? t.to_number : t.from_number))}`,
        }),
      ),
    call: () =>
      listSource(
        'call',
        rows<CallRecord>('calls'),
        (r) => r.created_at,
        (r) => r.seq,
        (r) => ({
          kind: 'call',
          id: r.id,
          at: r.created_at,
          title: `${r.direction} call ${r.from_number} → ${r.to_number} (${r.status})`,
          text: r.summary,
          amount_cents: null,
          person: name(r),
          refs: [],
          link: `/calls/${r.id}`,
        }),
      ),
    email: () =>
      listSource(
        'email',
        rows<EmailRecord>('emails'),
        (e) => e.created_at,
        (e) => e.seq,
        (e) => ({
          kind: 'email',
          id: e.id,
          at: e.created_at,
          title: `${e.direction} email to ${e.to}: ${e.subject}`,
          text: e.body,
          amount_cents: null,
          person: name(e),
          refs: e.quick_email_id ? [e.quick_email_id] : [],
          link: `/emails/${e.id}`,
        }),
      ),
  };
}

/** Videos, their posts, webhook deliveries and the ledger: no person's (a person named leaves them out). */
function otherSources(c: Req, ws: string): Sources {
  const d = c.data;
  return {
    video: () =>
      listSource(
        'video',
        ofWorkspace(d.videos, ws, (v) => v.created_at),
        (v) => v.created_at,
        (v) => v.seq,
        (v) => ({
          kind: 'video',
          id: v.id,
          at: v.created_at,
          title: `video (${v.template}) ${v.status}`,
          text: v.caption ?? '',
          amount_cents: v.price_cents,
          person: null,
          refs: [],
          link: `/videos/${v.id}`,
        }),
      ),
    post: () =>
      listSource(
        'post',
        ofWorkspace(d.posts, ws, (p) => p.created_at),
        (p) => p.created_at,
        (p) => p.seq,
        (p) => ({
          kind: 'post',
          id: p.id,
          at: p.created_at,
          title: `post on ${p.platform}: ${p.status}`,
          text: p.permalink ?? '',
          amount_cents: null,
          person: null,
          refs: [p.video_id],
          link: `/videos/${p.video_id}`,
        }),
      ),
    delivery: () =>
      listSource(
        'delivery',
        ofWorkspace(d.webhook_deliveries, ws, (x) => x.at),
        (x) => x.at,
        (x) => x.seq,
        (x) => ({
          kind: 'delivery',
          id: x.id ?? `att_${x.seq}`,
          at: x.at,
          title: `${x.type} → ${x.url} (attempt ${x.attempt}): ${x.status_code ?? x.error}`,
          text: '',
          amount_cents: null,
          person: null,
          refs: [x.event_id],
          link: '/webhooks',
        }),
      ),
    charge: () =>
      listSource(
        'charge',
        ofWorkspace(d.ledger, ws, (e) => e.at),
        (e) => e.at,
        (e) => e.seq,
        (e) => ({
          kind: 'charge',
          // a charge and its refund may share a reference and an instant: the entry's seq tells them apart
          id: `${e.reference_id}@${e.at}#${e.seq}`,
          at: e.at,
          title: `${e.kind}: ${e.description}`,
          text: '',
          amount_cents: e.wallet_cents,
          person: null,
          refs: [e.reference_id],
          link: `/money?entry=${encodeURIComponent(e.reference_id)}`,
        }),
      ),
  };
}

/** Whether an item holds every word of `q` (in any case), in its id, ids, title, text or person. */
function matcher(q: string | undefined): ((i: Item) => boolean) | null {
  const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return (i) => {
    const hay = `${i.id} ${i.refs.join(' ')} ${i.title} ${i.text} ${i.person ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  };
}

/** The first place in `src` not below `before` (a binary search: each source is in order). */
function end(src: Source, before: Pos | null): number {
  if (!before) return src.length;
  let lo = 0;
  let hi = src.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(src.place(mid), before) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A page of the feed, newest first, below `before`: up to `limit` + 1 candidates of each source
 * (walking down from the cursor, skipping what does not match), the newest `limit` of them all.
 */
function pageOf(sources: Source[], before: Pos | null, limit: number, match: ((i: Item) => boolean) | null) {
  const found: { p: Pos; item: Item }[] = [];
  for (const src of sources) {
    let taken = 0;
    for (let n = end(src, before) - 1; n >= 0 && taken <= limit; n--) {
      const item = src.item(n);
      if (match && !match(item)) continue;
      found.push({ p: src.place(n), item });
      taken++;
    }
  }
  found.sort((a, b) => compare(b.p, a.p));
  return { page: found.slice(0, limit), more: found.length > limit };
}

function feed(c: Req) {
  const ws = c.auth.workspace.id;
  const q = c.query;
  const limit = q.limit ?? 50;
  const scope = `activity|${ws}|${q.kind ?? ''}|${q.person ?? ''}|${q.q ?? ''}`;
  const before = q.cursor === undefined ? null : placeOf(c.s, q.cursor, scope);
  const all = { ...historySources(c, ws), ...(q.person === undefined ? otherSources(c, ws) : {}) };
  const sources = Object.entries(all)
    .filter(([k]) => q.kind === undefined || k === q.kind)
    .map(([, make]) => make());
  const { page, more } = pageOf(sources, before, limit, matcher(q.q));
  const meta: { page_size: number; cursor?: string } = { page_size: limit };
  if (more) meta.cursor = cursorBelow(c.s, scope, page[page.length - 1].p);
  return { data: page.map((x) => x.item), meta };
}

const { limit, cursor } = listParams(100, 50);

export const activityRoutes: Resource = {
  tag: {
    name: 'Activity',
    description: "Everything the workspace did, newest first, in one list: what the inspector's Activity pane shows.",
  },
  routes: [
    route({
      method: 'GET',
      path: '/_sim/activity',
      summary: 'List everything the workspace did',
      description:
        'Texts, calls, emails, videos and their posts, webhook delivery attempts and ledger entries, newest first, in one list the server pages ' +
        '(a page costs about its size, whatever the store holds). `kind` keeps one kind; `person` (a contact id, a number or an address, as ' +
        'the people list names them) keeps the texts, calls and emails with them; `q` keeps the items holding every word given (in their ids, ' +
        'title, text or person; any case), which reads the items until a page is full.',
      query: obj({
        limit,
        cursor,
        kind: oneOf(ACTIVITY_KINDS, 'only this kind'),
        person: qString({ description: "only this person's texts, calls and emails", example: '+14155550123' }),
        q: qString({ description: 'only the items holding every one of these words', example: 'tuesday' }),
      }),
      responses: { 200: { description: 'Items, newest first', schema: listOf(ActivityItemSchema) } },
      handler: (c) => ({ body: feed(c as Req) }),
    }),
  ],
};
