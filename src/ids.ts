// Short ids: a table on a terminal shows a record's id by a prefix that still names it (as git and gh
// show short hashes), and every command that takes an id accepts such a prefix, resolved by listing
// what the id could name. A prefix that names two records is a usage error listing them.
import type { ApiResponse, RequestOptions } from './client.js';
import { CliError, EXIT } from './errors.js';

/** A whole UUID: sent as it is, never looked up. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The fewest characters shown of an id: shorter prefixes collide too soon to be worth copying. */
export const MIN_PREFIX = 8;

/**
 * The shortest prefixes (at least MIN_PREFIX characters, or the whole id) that tell each id of
 * `ids` from every other one of them: what a table shows in the id column.
 */
export function shortIds(ids: readonly string[]): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const out = new Map<string, string>();
  const common = (a: string | undefined, b: string) => {
    if (a === undefined) return 0;
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  };
  sorted.forEach((id, i) => {
    const need = Math.max(common(sorted[i - 1], id), common(sorted[i + 1], id)) + 1;
    out.set(id, id.slice(0, Math.min(id.length, Math.max(MIN_PREFIX, need))));
  });
  return out;
}

/**
 * Whether an id as typed is to be looked up as a prefix: hex digits and dashes short of a whole
 * UUID; digits alone are a whole id where the command also takes integer ids (`numeric`).
 */
export const isPrefix = (id: string, numeric = false) =>
  !UUID.test(id) && !(numeric && /^\d+$/.test(id)) && /^[0-9a-f][0-9a-f-]*$/i.test(id);

export interface IdSource {
  /** what the id names, for messages ("call", "video") */
  noun: string;
  /** the list that holds every candidate (followed through its cursors) */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** the largest page the list answers */
  limit?: number;
  /** the command also takes integer ids (an AI number's): digits alone are one, not a prefix */
  numeric?: boolean;
  /** the field of a list item that holds the id (default `id`) */
  field?: string;
  /** more lists that hold candidates too (the call and text webhooks) */
  more?: string[];
  /** the candidates are in a list of each item of `path` (`/posts`: a video's posts) */
  within?: string;
}

/**
 * Where each kind of id shown shortened in a table is found, to resolve a prefix typed back (quick
 * jobs have no list in the API: their ids are never shortened, and are taken whole).
 */
export const ID_SOURCES = {
  call: { noun: 'call', path: '/v1/calls', limit: 50 },
  contact: { noun: 'contact', path: '/v1/contacts', field: 'contact_id' },
  video: { noun: 'video', path: '/v1/videos' },
  schedule: { noun: 'schedule', path: '/v1/video-schedules' },
  conversation: { noun: 'conversation', path: '/v1/assistant/conversations', field: 'conversation_id' },
  webhook: { noun: 'webhook', path: '/v1/voice/calls/webhooks', more: ['/v1/sms/webhooks'] },
  social: { noun: 'social connection', path: '/v1/social-connections' },
  post: { noun: 'post', path: '/v1/videos', within: '/posts' },
} satisfies Record<string, IdSource>;
export type IdKind = keyof typeof ID_SOURCES;

/** Every item of a list, following its cursors. */
async function listAll(ctx: Caller, path: string, query: Record<string, string | number | undefined>) {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const body = (await ctx.call('GET', path, { query: { ...query, cursor } })).json<{
      data: Record<string, unknown>[];
      meta?: { cursor?: string };
    }>();
    items.push(...body.data);
    cursor = body.meta?.cursor;
    if (!cursor) break;
  }
  return items;
}

/** What resolving needs of a command's context: its calls (a type of its own, so this module needs no context). */
interface Caller {
  call(method: string, path: string, o?: RequestOptions): Promise<ApiResponse>;
}

/**
 * The whole id a command was given: itself when whole (or when it is no prefix: the API says what
 * it is not), otherwise the one id of the list that starts with it. No match leaves it as typed, so
 * the API's 404 speaks; two or more is a usage error (exit 2) naming each.
 */
export async function resolveId(ctx: Caller, id: string, src: IdSource): Promise<string> {
  if (!isPrefix(id, src.numeric)) return id;
  const p = id.toLowerCase();
  const matches: string[] = [];
  const field = src.field ?? 'id';
  const take = (item: Record<string, unknown>) => {
    const v = item[field];
    if (v !== null && v !== undefined && String(v).toLowerCase().startsWith(p)) matches.push(String(v));
  };
  for (const path of [src.path, ...(src.more ?? [])])
    for (const item of await listAll(ctx, path, { ...src.query, limit: src.limit ?? 100 })) {
      if (!src.within) take(item);
      else for (const inner of await listAll(ctx, `${path}/${item.id}${src.within}`, {})) take(inner);
    }
  const unique = [...new Set(matches)];
  if (unique.length === 1) return unique[0];
  if (unique.length === 0) return id;
  const shown = unique.slice(0, 10).map((m) => `  ${m}`);
  const more = unique.length > 10 ? [`  … and ${unique.length - 10} more`] : [];
  throw new CliError(
    `${JSON.stringify(id)} is the start of ${unique.length} ${src.noun} ids:\n${[...shown, ...more].join('\n')}`,
    EXIT.usage,
    'Give more of the id.',
  );
}

/** An id argument as typed, to be resolved (a whole id, or a unique prefix) before the command runs. */
export class IdArg {
  constructor(
    readonly kind: IdKind,
    readonly raw: string,
  ) {}
}
