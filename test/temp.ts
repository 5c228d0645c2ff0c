// Temporary folders for tests, removed when their test file ends (test/contract-setup.ts runs the
// removal after each file's own tear-down): a full `npm test` made about 300 of them, and /tmp kept
// every one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new empty folder under the system's temporary folder, removed when this test file ends. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vmv-test-'));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made in this test file (what is in them included). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
