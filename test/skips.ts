// A test that cannot run here says why (issue 34: a missing tool is a visible skip with its reason,
// never a pass). test/summary-reporter.ts lists every skip with its reason at the end of a run, and
// under CI fails the run for a skip that gives none.
import { beforeEach } from 'vitest';

/**
 * Inside a describe: when `missing` names what is missing, each of its tests is skipped with that
 * reason (its beforeAll and afterAll should return early on `false`). True when the tests can run.
 */
export function requires(missing: string | null): boolean {
  beforeEach((ctx) => {
    if (missing) ctx.skip(missing);
  });
  return missing === null;
}
