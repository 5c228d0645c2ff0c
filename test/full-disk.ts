// A real full disk for the tests that need one: a small tmpfs (root only: CI runs as root), filled
// to its last byte. Imported by a test file, it unmounts what it mounted after that file's tests.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The tmpfs mounts made, each on a folder of its own (not tempDir's: those are removed with the file's other folders). */
const mounts: string[] = [];

/** A tmpfs of `size` (`2m`, `64k`) mounted on a new folder, or null where this process may not mount one. */
export function tmpfs(size: string): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'vmv-tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  if (r.status !== 0) {
    rmdirSync(dir);
    return null;
  }
  mounts.push(dir);
  return dir;
}

/** Unmounts (lazily: a server may still hold a file there) and removes the folder; says so if it cannot. */
function unmount(dir: string): void {
  const r = spawnSync('umount', ['-l', dir], { encoding: 'utf8' });
  if (r.status !== 0) console.warn(`full-disk: could not unmount ${dir}: ${r.stderr}`);
  else rmdirSync(dir);
}
afterAll(() => {
  for (const m of mounts.splice(0)) unmount(m);
});
const canMount = (() => {
  const d = tmpfs('64k');
  if (d) unmount(mounts.pop()!);
  return d !== null;
})();
/** Why a full-disk test cannot run here (for `requires`), or null. */
export const NO_MOUNT = canMount ? null : 'needs root, to mount a small tmpfs (mount -t tmpfs): runs as root in CI';

/** Fills the disk holding `file` to its last byte, as file `file`. */
export function fill(file: string): void {
  for (const size of [64 * 1024, 512])
    try {
      for (;;) appendFileSync(file, Buffer.alloc(size));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
    }
}

/** Polls `fn` every 100 ms until it holds (up to `ms`): real time, on a real clock. */
export async function until(fn: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error('until: timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
