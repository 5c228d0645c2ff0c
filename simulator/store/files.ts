// The store's file helpers that know nothing of its state: where a data file path really points,
// the stamps in a copy's name, a write that is whole or an error, a copy that never replaces one, and
// a file read whole (or null when it is not there). Apart from store.ts so that the reading and the
// writing halves of the store (reader.ts, writer.ts) and its whole-world operations share them.
import { constants as fsConstants, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { chmod, copyFile, open, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { accessError } from './snapshot.js';

/**
 * The file a data file path stands for: a symbolic link is followed (to a file that may not exist
 * yet), so the journal, the lock and new snapshots sit beside the real file and a compaction
 * replaces the file, never the link.
 */
export function resolveDataFile(file: string): string {
  let f = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    let st;
    try {
      st = lstatSync(f);
    } catch {
      // (a path that does not exist yet: its folder may still be reached through links)
      try {
        return join(realpathSync(dirname(f)), basename(f));
      } catch {
        return f;
      }
    }
    if (!st.isSymbolicLink()) {
      try {
        return realpathSync(f);
      } catch {
        return f;
      }
    }
    f = resolve(dirname(f), readlinkSync(f));
  }
  return f;
}

/** A snapshot's modification time, from its stamp (snapshot.ts stampOf). */
export const mtimeOf = (stamp: string): bigint => BigInt(stamp.split(':')[2] || 0);

/** The time in a file name: 20261126T101500Z. */
export const stampNow = () => new Date().toISOString().replace(/[-:]|\.\d+/g, '');

/** Writes every byte of `buf` at the end of the file, or throws: a short write (a full disk) is an error. */
export async function appendAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off, null);
    if (bytesWritten <= 0)
      throw Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC', written: off });
    off += bytesWritten;
  }
}

/** Copies `file` to `name` (or `name-2`, `-3`, …: a copy already there is never replaced), owner-only; the copy's name. */
export async function keepCopy(file: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const to = n === 1 ? name : `${name}-${n}`;
    try {
      await copyFile(file, to, fsConstants.COPYFILE_EXCL);
      await chmod(to, 0o600);
      return to;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

export async function readFileOrNull(file: string): Promise<Buffer | null> {
  try {
    const fh = await open(file, 'r');
    try {
      return await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw accessError(e as NodeJS.ErrnoException, file.replace(/\.journal$/, ''), file);
  }
}

/** The bytes of `file` from `from` to `to` (a journal's new entries); one that cannot be opened names the data file it serves. */
export async function readFrom(dataFile: string, file: string, from: number, to: number): Promise<Buffer> {
  const fh = await open(file, 'r').catch((e: NodeJS.ErrnoException) => {
    throw accessError(e, dataFile, file);
  });
  try {
    const buf = Buffer.alloc(to - from);
    await fh.read(buf, 0, buf.length, from);
    return buf;
  } finally {
    await fh.close();
  }
}
