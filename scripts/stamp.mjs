// What dist/ was built from (issue 34: tests that cannot lie): a hash of every file the build reads
// (the sources, the page, the launcher, the build's own scripts, the installed dependencies' lock)
// and the Node.js that built it (its code caches are that version's). The build writes it to
// dist/stamp.json; test/global-setup.ts compares it before any test runs and builds first when
// dist/ is stale, so `npx vitest` never passes on code that is no longer there.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Folders the build reads (tests beside the sources are left out: they are not built). */
const FOLDERS = ['src', 'commands', 'simulator', 'web', 'bin', 'scripts'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** The hash of what the build reads, and the Node.js asking (`v24.21.0-x64`). */
export function sourceStamp() {
  const hash = createHash('sha256');
  const files = [...FOLDERS.flatMap((f) => [...walk(join(root, f))]), ...FILES.map((f) => join(root, f))].sort();
  for (const file of files) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return { sources: hash.digest('hex'), node: `${process.version}-${process.arch}` };
}
