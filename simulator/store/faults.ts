// What the store says when a write fails or a journal cannot be read: a full disk as 507 (naming the
// folder, and what room is left), a file it may not touch by its own error, a damaged journal with
// the file, the line and what to do. Apart from store.ts so that each half of the store (reader.ts,
// writer.ts, lock.ts) words a failure the same way.
import type { StatsFs } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ApiError } from '../core/errors.js';
import { ACCESS_CODES, accessError, StoreFileError } from './snapshot.js';

export const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

/** What a failed write whose cut-back failed too means (Store.cutBack). */
export const UNCUT_AFTER =
  'written whole, the change stands and later requests see it; torn, it is cut off by the next request (or, if that fails too, the journal is refused, naming the byte).';
export const UNCUT = `The journal could not be cut back to its last whole entry (a warning names the file and the byte), so this change may have been applied after all: ${UNCUT_AFTER}`;

/** What a failed write means, by what was being written. */
export const AFTER_FAILURE = {
  request:
    'Nothing was applied. Free some space and send the request again; the simulator carries on by itself once there is room.',
  fold: 'The journal keeps every change; folding it into the data file is tried again as the journal grows, once there is room.',
} as const;

/** A write of the store that failed, as the reply says it: 507 on a full disk, the file's own error otherwise. */
export async function writeFailure(
  e: unknown,
  dataFile: string,
  file: string,
  what: string,
  after: keyof typeof AFTER_FAILURE = 'request',
): Promise<Error> {
  const err = e as NodeJS.ErrnoException & { written?: number };
  if (e instanceof ApiError || e instanceof StoreFileError) return e;
  if (err.code && ACCESS_CODES.has(err.code)) return accessError(err, dataFile, err.path ?? file);
  if (err.code && DISK_FULL.has(err.code))
    return diskFull(err.code, file, `could not write ${what} ${file}`, AFTER_FAILURE[after]);
  return e instanceof Error ? e : new Error(String(e));
}

/** What the disk has no room for, as the 507 says it: files (its inodes spent), or bytes (how many are free). */
function roomLeft(f: StatsFs | null): string {
  if (!f) return '';
  if (f.ffree === 0) return ' of files (no more can be made there, whatever the bytes free)';
  return ` (${f.bavail * f.bsize} bytes free)`;
}

/** 507: the disk holding `file` is full, or has no room for one more file (its inodes spent). */
export async function diskFull(code: string, file: string, what: string, after: string): Promise<ApiError> {
  const dir = dirname(file);
  const f = await statfs(dir).catch(() => null);
  const room = roomLeft(f);
  return new ApiError(
    507,
    'insufficient_storage',
    `The disk holding ${dir} is full${room}: the simulator ${what} (${code}). ${after}`,
  );
}

/** A journal the store will not open: the file, the line, and what to do. */
export function damaged(file: string, journal: string, where: string, after: string): StoreFileError {
  return new StoreFileError(
    `The simulator's journal ${journal} is damaged: ${where}. ${after}Nothing has been changed: the store refuses to open rather than lose what it cannot read. ` +
      `Run \`vmv sim repair --data ${file}\` to keep every entry before the damage (what it sets aside stays in a copy of the journal as it is, ${journal}.damaged-<time>; ` +
      '--dry-run says what it would keep), or restore the world from an export (`vmv sim import`).',
  );
}
