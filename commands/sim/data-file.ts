// The data file a file-level simulator command (export, import, repair) works on: --data, or the
// embedded simulator's. Those commands copy and mend files, so they never guess which file a server
// at a base URL uses: with a base URL configured, --data must say it.
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';

export function dataFileOf(ctx: Context, data: string | undefined, verb: string): string {
  if (data !== undefined) return data;
  const target = ctx.target();
  if (target.kind === 'remote')
    throw usage(
      `vmv sim ${verb} works on a data file, and commands here go to ${target.baseUrl}: pass --data FILE (the file its \`vmv sim serve --data\` uses).`,
      'It is safe while that server runs: the file is taken under the same lock the server uses.',
    );
  return target.dataFile;
}

/** A size in words: 2.4 MB. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let n = bytes / 1024;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[u]}`;
}
