// The cross-process lock on a data file (proper-lockfile, loaded at the first write): taken or
// waited for, up to LOCK_WAIT_MS, then 503 store_busy. Apart from the store's state (writer.ts
// takes it around each unit of work that may write) because it needs nothing of it but the file.
import { ApiError } from '../core/errors.js';
import { AFTER_FAILURE, DISK_FULL, diskFull } from './faults.js';
import { accessError } from './snapshot.js';

/** How long a unit of work waits for another process's lock before answering 503 store_busy. */
const LOCK_WAIT_MS = 60_000;

/**
 * Takes the cross-process lock, waiting while another process holds it (up to LOCK_WAIT_MS, then
 * 503 store_busy). Any other failure (permission denied, a read-only file system) fails at once:
 * waiting would not change it.
 */
export async function lockFile(file: string, onCompromised: () => void): Promise<() => Promise<void>> {
  // loaded at the first write, not with the store: it brings graceful-fs and signal-exit (whose
  // exit hooks load assert), about 2 ms a read-only command does not need
  const { default: lockfile } = await import('proper-lockfile');
  const deadline = Date.now() + LOCK_WAIT_MS;
  let delay = 2;
  for (;;) {
    try {
      return await lockfile.lock(file, {
        realpath: false,
        // a lock left by a killed process is taken over after 2 s (the library's minimum);
        // a live holder refreshes it every second, and our transactions take milliseconds
        stale: 2_000,
        update: 1_000,
        retries: 0,
        // a holder stalled past the stale time: another process may have taken the lock, so this
        // unit of work must not write (commit() refuses and the request fails, unapplied)
        onCompromised,
      });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code && DISK_FULL.has(err.code))
        throw await diskFull(err.code, file, `could not make its lock ${file}.lock`, AFTER_FAILURE.request);
      if (err.code !== 'ELOCKED') throw accessError(err, file);
      if (Date.now() > deadline)
        throw new ApiError(
          503,
          'store_busy',
          `Another process has held the lock on ${file} for over ${LOCK_WAIT_MS / 1000} s; nothing was applied. Retry the request.`,
        );
      await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random())));
      delay = Math.min(25, delay * 1.3);
    }
  }
}
