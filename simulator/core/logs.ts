// Logs a workspace keeps only the latest of (the ledger, the webhook delivery log).
import { raw, removeAt } from '../store/tracker.js';

/**
 * Keeps the latest `n` of workspace `workspaceId`'s entries in a log it has just appended one to: its
 * oldest goes (journaled as its place: a trim costs one entry, not the log).
 */
export function keepLatest<T extends { workspace_id: string }>(log: T[], workspaceId: string, n: number): void {
  if (log.length <= n) return;
  const stored = raw(log);
  let first = -1;
  let mine = 0;
  for (let i = 0; i < stored.length; i++) {
    if (stored[i].workspace_id !== workspaceId) continue;
    if (first < 0) first = i;
    mine++;
  }
  if (mine > n) removeAt(log, [first]);
}
