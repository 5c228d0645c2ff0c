// Once before any test file (vitest's globalSetup): the tests run bin/vmv and dist/, so they must
// run what the sources say now, under the Node.js that built it (code caches are per version).
// dist/stamp.json (scripts/stamp.mjs) says what dist/ was built from; when it differs, or is
// missing, this builds first and says so, instead of testing code that is no longer there.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain ES module script, without types
import { sourceStamp } from '../scripts/stamp.mjs';

const root = new URL('..', import.meta.url);

/** Why dist/ cannot be tested as it is, or null when it was built from these sources by this Node.js. */
export function staleness(): string | null {
  let built: { sources: string; node: string };
  try {
    built = JSON.parse(readFileSync(new URL('dist/stamp.json', root), 'utf8'));
  } catch {
    return 'dist/ is not built';
  }
  const now = sourceStamp();
  if (built.node !== now.node) return `dist/ was built by Node.js ${built.node}, the tests run on ${now.node}`;
  if (built.sources !== now.sources) return 'the sources changed since dist/ was built';
  return null;
}

export default function setup() {
  const why = staleness();
  if (why === null) return;
  process.stderr.write(`${why}: building first (node scripts/build.mjs)\n`);
  execFileSync(process.execPath, [new URL('scripts/build.mjs', root).pathname], { stdio: 'inherit' });
  const still = staleness();
  if (still !== null) throw new Error(`after the build, ${still}`);
}
