// What fell due on the clock that could not be saved (a full disk): while it cannot, reads answer
// from what is on disk, marked with a header, instead of failing with the 507 of the work before
// them; writes still answer 507 (nothing is applied). The work is tried again a few seconds apart
// (by the real clock's loop, or by a write) and runs once there is room: nothing is lost, since it
// was never applied. Said once when it begins, and once more when it ends.
import { STALE_VALUE } from '../../src/marks.js';
import { ApiError } from './errors.js';

/** How long after a failed try the next one is made (the real clock's loop, or a read that may try). */
const RETRY_MS = 2_000;

/** Whether `e` is the store's 507: the disk has no room for what the unit of work wrote. */
export const isDiskFull = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 507;

/** One app's state of due work it could not save. */
export class DueStall {
  /** wall time (performance.now) of the last failed try; null: not stalled */
  private failedAt: number | null = null;

  /**
   * @param says whether it says so itself (a server's warnings); the embedded CLI leaves it to the
   * command, which tells its reader once from the reply's mark (src/marks.ts) rather than twice
   */
  constructor(private readonly says = true) {}

  /** Whether what is due is to be left alone now (stalled, and tried too recently to try again). */
  waiting(): boolean {
    return this.failedAt !== null && performance.now() - this.failedAt < RETRY_MS;
  }

  /** How long until the next try, in ms. */
  retryInMs(): number {
    return this.failedAt === null ? 0 : Math.max(0, RETRY_MS - (performance.now() - this.failedAt));
  }

  /** Notes a failed try when `e` is a full disk (said the first time), and says whether it was. */
  failed(e: unknown): boolean {
    if (!isDiskFull(e)) return false;
    if (this.failedAt === null && this.says)
      process.emitWarning(
        `vmv simulator: what fell due on the clock cannot be saved: ${e.message} Meanwhile reads answer from what is on disk ` +
          `(marked \`Vmv-Stale: ${STALE_VALUE}\`) and writes answer 507; it runs once there is room.`,
      );
    this.failedAt = performance.now();
    return true;
  }

  /** What fell due has been saved (or nothing is due): said once, when it ends a stall. */
  saved(): void {
    if (this.failedAt === null) return;
    this.failedAt = null;
    if (this.says)
      process.emitWarning('vmv simulator: there is room on the disk again: what fell due has run and is saved.');
  }
}
