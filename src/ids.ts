// Short ids: a table on a terminal shows a record's id by a prefix that still names it (as git and gh
// show short hashes), and every command that takes an id accepts such a prefix, resolved by listing
// what the id could name. A prefix that names two records is a usage error listing them.
import type { Context } from './context.js';
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
}

/**
 * The whole id a command was given: itself when whole (or when it is no prefix: the API says what
 * it is not), otherwise the one id of the list that starts with it. No match leaves it as typed, so
 * the API's 404 speaks; two or more is a usage error (exit 2) naming each.
 */
export async function resolveId(ctx: Context, id: string, src: IdSource): Promise<string> {
  if (!isPrefix(id, src.numeric)) return id;
  const p = id.toLowerCase();
  const matches: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const res = await ctx.call('GET', src.path, { query: { ...src.query, limit: src.limit ?? 100, cursor } });
    const body = res.json<{ data: { id: string | number }[]; meta?: { cursor?: string } }>();
    for (const item of body.data) if (String(item.id).toLowerCase().startsWith(p)) matches.push(String(item.id));
    cursor = body.meta?.cursor;
    if (!cursor) break;
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
