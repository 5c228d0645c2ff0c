// The test suite's configuration (npm test runs it after the build and the checks): which files, the
// global set-up that refuses a stale build, the API contract check on every response, forks.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'simulator/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/contract-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one fewer than the cores: one worker on a 2-core machine, idle while its
    // test waits on the CLI or a server it started as a process. Two there: the whole suite 489 s
    // -> 288 s (3,010 tests, all passing, quiet machine, 2026-12-07)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
