// Flags and rendering shared by every list command: --limit, --cursor, --asc, --all, and the time/direction filters.
import type { Command } from 'commander';
import type { ApiResponse, RequestOptions } from './client.js';
import { choiceArg, intArg, timeArg } from './command.js';
import type { Context } from './context.js';
import { CliError, EXIT } from './errors.js';
import { declareFieldAliases } from './field-flags.js';

export interface ListOptions {
  limit?: number;
  cursor?: string;
  asc?: boolean;
  all?: boolean;
}
export interface FilterOptions extends ListOptions {
  direction?: string;
  after?: string;
  before?: string;
}

export function withList(cmd: Command, o: { max?: number; order?: boolean } = {}): Command {
  cmd.option('--limit <n>', `results per page (1-${o.max ?? 100}, default 20)`, intArg('--limit', 1, o.max ?? 100));
  cmd.option('--cursor <cursor>', 'continue from a previous page');
  if (o.order !== false) cmd.option('--asc', 'oldest first');
  cmd.option('--all', 'follow every cursor: one list of every page (--limit sets the page size)');
  return cmd;
}

/**
 * GET a list: one page, or with --all every page from the first (or --cursor) on, answered as one
 * list body: every item under `data`, the last page's meta without a cursor.
 */
export async function fetchList(
  ctx: Context,
  o: ListOptions,
  path: string,
  req: RequestOptions = {},
): Promise<ApiResponse> {
  const first = await ctx.call('GET', path, req);
  if (!o.all) return first;
  const data: unknown[] = [];
  const seen = new Set<string>();
  let page = first.json<{ data: unknown[]; meta?: { cursor?: string } }>();
  for (;;) {
    data.push(...page.data);
    const cursor = page.meta?.cursor;
    if (!cursor) break;
    if (seen.has(cursor))
      throw new CliError(
        `--all: the service answered the same cursor twice; stopped after ${seen.size + 1} pages.`,
        EXIT.api,
      );
    seen.add(cursor);
    page = (await ctx.call('GET', path, { ...req, query: { ...req.query, cursor } })).json();
  }
  const { cursor: _c, ...meta } = page.meta ?? {};
  const body = Buffer.from(JSON.stringify({ data, meta }));
  return { ...first, body, text: () => body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) };
}

export function withFilters(cmd: Command, o: { max?: number } = {}): Command {
  withList(cmd, o);
  cmd.option('--direction <dir>', 'inbound or outbound', choiceArg('--direction', ['inbound', 'outbound']));
  cmd.option(
    '--after <time>',
    'created after this time: ISO 8601, a date, or a time ago such as 24h, 7d, yesterday',
    timeArg('--after'),
  );
  cmd.option(
    '--before <time>',
    'created before this time: ISO 8601, a date, or a time ago such as 30m, today',
    timeArg('--before'),
  );
  // sent as created_after and created_before (listQuery)
  declareFieldAliases(cmd, { '--after': ['created_after'], '--before': ['created_before'] });
  return cmd;
}

export function listQuery(o: FilterOptions): Record<string, string | number | undefined> {
  return {
    limit: o.limit,
    cursor: o.cursor,
    order: o.asc ? 'asc' : undefined,
    direction: o.direction,
    created_after: o.after,
    created_before: o.before,
  };
}

/** A value cut to `n` characters, its last an ellipsis; an empty or missing one as it is. */
export function truncate(s: string | null | undefined, n: number): string | null | undefined {
  if (!s || s.length <= n) return s;
  return s.slice(0, n - 1) + '…';
}
