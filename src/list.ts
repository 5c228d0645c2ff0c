// Flags and rendering shared by every list command: --limit, --cursor, --asc, and the time/direction filters.
import type { Command } from 'commander';
import { choiceArg, intArg, timeArg } from './command.js';

export interface ListOptions { limit?: number; cursor?: string; asc?: boolean }
export interface FilterOptions extends ListOptions { direction?: string; after?: string; before?: string }

export function withList(cmd: Command, o: { max?: number; order?: boolean } = {}): Command {
  cmd.option('--limit <n>', `results per page (1-${o.max ?? 100}, default 20)`, intArg('--limit', 1, o.max ?? 100));
  cmd.option('--cursor <cursor>', 'continue from a previous page');
  if (o.order !== false) cmd.option('--asc', 'oldest first');
  return cmd;
}

export function withFilters(cmd: Command, o: { max?: number } = {}): Command {
  withList(cmd, o);
  cmd.option('--direction <dir>', 'inbound or outbound', choiceArg('--direction', ['inbound', 'outbound']));
  cmd.option('--after <time>', 'created after this time: ISO 8601, a date, or a time ago such as 24h, 7d, yesterday', timeArg('--after'));
  cmd.option('--before <time>', 'created before this time: ISO 8601, a date, or a time ago such as 30m, today', timeArg('--before'));
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

/** "2026-03-01T10:00:00.000Z" → "2026-03-01 10:00" for tables. */
export const when = (t: string | null | undefined) => (t ? t.replace('T', ' ').slice(0, 16) : null);

export const truncate = (s: string | null | undefined, n: number) => (!s ? s : s.length > n ? s.slice(0, n - 1) + '…' : s);
