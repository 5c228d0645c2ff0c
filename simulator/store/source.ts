// What `vmv sim import` reads before it parses anything: a regular file (a FIFO would hang, a device
// or a directory is no world; a symbolic link is followed only to a regular file), at most
// MAX_IMPORT_BYTES (parsing holds several times the text in memory), its JSON nested at most
// MAX_DEPTH levels (deeper, copying it would exhaust the stack). A refusal names the file and where,
// never the file's content: a link may point at someone else's file.
import { type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { StoreFileError } from './snapshot.js';

/** The largest world an import reads: about twice a store of 100k records (60 MB). */
export const MAX_IMPORT_BYTES = 128 * 1024 * 1024;
/** How deep a world's JSON may nest (a world nests about 8 levels; free-form fields 3 more). */
export const MAX_DEPTH = 64;
/** How many problems a refusal lists. */
export const LISTED = 20;

/** An import refused for what the source is: a local file error (exit 2), the store untouched. */
export class ImportRefused extends StoreFileError {
  readonly code = 'EINVAL';
}

const kindOf = (st: Stats): string => {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
};

/** Refuses a source that is not a regular file, is too large, or nests too deep (the file's journal too). */
export async function checkSource(given: string, file: string): Promise<void> {
  const st = await stat(file).catch((e: NodeJS.ErrnoException) => {
    throw new ImportRefused(`${given} cannot be imported: ${e.code === 'ENOENT' ? 'it does not exist' : e.message}.`);
  });
  const what = file === resolve(given) ? given : `${given} (a link to ${file})`;
  if (!st.isFile())
    throw new ImportRefused(
      `${what} is ${kindOf(st)}, not a regular file: vmv sim import reads an export or a data file.`,
    );
  if (st.size > MAX_IMPORT_BYTES)
    throw new ImportRefused(
      `${what} is ${st.size} bytes: vmv sim import reads at most ${MAX_IMPORT_BYTES} (${MAX_IMPORT_BYTES / 1024 / 1024} MiB).`,
    );
  await checkDepth(what, file);
  const journal = await stat(`${file}.journal`).catch(() => null);
  if (journal?.isFile()) {
    if (journal.size > MAX_IMPORT_BYTES)
      throw new ImportRefused(
        `${file}.journal is ${journal.size} bytes: vmv sim import reads at most ${MAX_IMPORT_BYTES}.`,
      );
    await checkDepth(`${file}.journal`, `${file}.journal`);
  }
}

/** Scans the JSON text for nesting deeper than MAX_DEPTH (strings skipped), a chunk at a time. */
async function checkDepth(what: string, file: string): Promise<void> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let at = 0; ; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, at);
      if (bytesRead === 0) return;
      for (let i = 0; i < bytesRead; i++) {
        const c = buf[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) inString = false;
        } else if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) {
          if (++depth > MAX_DEPTH)
            throw new ImportRefused(
              `${what} cannot be imported: its JSON nests deeper than ${MAX_DEPTH} levels (at byte ${at + i}); a world nests about 10.`,
            );
        } else if (c === 0x7d || c === 0x5d) depth = Math.max(0, depth - 1);
        else if (c === 0x0a && file.endsWith('.journal')) depth = 0;
      }
      at += bytesRead;
    }
  } finally {
    await fh.close();
  }
}

/** The refusal of a world whose values are wrong: the file, then each problem by its JSON path. */
export function refuseWorld(what: string, problems: string[]): ImportRefused {
  const shown = problems.slice(0, LISTED);
  const more = problems.length > LISTED ? `\n  … and more (the first ${LISTED} are listed)` : '';
  return new ImportRefused(
    `${what} cannot be imported: it is not a world this simulator keeps. Nothing has been changed.\n${shown.map((p) => `  ${p}`).join('\n')}${more}`,
  );
}
