// The marks a simulator puts on a read that shows a world behind its clock, and what the CLI tells
// a reader of them: Vmv-Stale (what fell due could not be saved, a full disk: simulator/core/stall.ts)
// and Vmv-Catching-Up (a real clock's catch-up under way: simulator/core/app.ts). Shared with the
// simulator, so the header it writes and the one the CLI reads are one definition. Each is said once
// a command, on stderr (never on stdout: the data is what the service answered, --json unchanged).
import { humanTime } from './formats.js';

/** The header on a reply answered from the disk while what fell due could not be saved. */
export const STALE_HEADER = 'vmv-stale';
export const STALE_VALUE = 'due work could not be saved (disk full)';
/** The header on a read answered while a real clock catches up: what fell due from this time on is still to run. */
export const CATCHING_UP_HEADER = 'vmv-catching-up';

/** The kinds of mark: what a command says once each. */
export type Mark = 'stale' | 'catching-up';

/**
 * What the marks on a reply's headers mean, in the CLI's words, one line each (not yet said ones
 * only: `said` holds the kinds told, and takes the new ones); `dataFile`, the embedded simulator's,
 * names the disk to free. A value from outside is only named,
 * never trusted: a time that is not one is shown as given (the streams escape control bytes).
 */
export function markNotes(headers: Record<string, string | undefined>, said: Set<Mark>, dataFile?: string): string[] {
  const notes: string[] = [];
  if (headers[STALE_HEADER] !== undefined && !said.has('stale')) {
    said.add('stale');
    notes.push(
      'Note: the simulator could not save what fell due on its clock (its disk is full): this shows the world ' +
        'before that work (a call may still show ringing), and writes fail until there is room. ' +
        `Once space is freed on the disk holding ${dataFile ?? 'its data file'}, the work runs, nothing lost.`,
    );
  }
  const since = headers[CATCHING_UP_HEADER];
  if (since !== undefined && !said.has('catching-up')) {
    said.add('catching-up');
    notes.push(
      `Note: the simulator is catching up on its clock: this shows the world as of ${humanTime(since)}; ` +
        'what fell due since has not run yet (a call may still show ringing). A write waits until it is done.',
    );
  }
  return notes;
}
