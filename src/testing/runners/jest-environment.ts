// vmv/testing/jest-environment: Jest's node environment, which at the end of each test file reports
// (and closes) a simulator or receiver the test left open (`testEnvironment:
// 'vmv/testing/jest-environment'`). Jest's workers end without an exit event, and a setup file's
// afterAll would run before the test file's own (Jest runs them in the order declared), so the
// environment's teardown, after every hook, is the one place that sees what a test truly left open.
// It reads the report from the test's global (open.ts LEFT_OPEN): the test's modules run in a
// context and registry of Jest's own, not in this file's.
import { createRequire } from 'node:module';

type Environment = new (
  ...args: unknown[]
) => { global: Record<symbol, unknown>; setup(): Promise<void>; teardown(): Promise<void> };

/**
 * Jest's own node environment (a dependency of jest itself, not of vmv): found beside vmv where the
 * project's packages are hoisted (npm, yarn), else from the project's folder (Jest's rootDir).
 */
function nodeEnvironment(): Environment {
  for (const from of [import.meta.url, `${process.cwd()}/`]) {
    try {
      return (createRequire(from)('jest-environment-node') as { TestEnvironment: Environment }).TestEnvironment;
    } catch {}
  }
  throw new Error(
    "vmv/testing/jest-environment extends Jest's jest-environment-node, which this project does not reach: npm install -D jest-environment-node",
  );
}
const TestEnvironment = nodeEnvironment();
const LEFT_OPEN = Symbol.for('vmv.testing.leftOpen');

/** Jest's node environment, telling what a test file left open at its end. */
export default class VmvEnvironment extends TestEnvironment {
  override async teardown(): Promise<void> {
    const leftOpen = this.global[LEFT_OPEN];
    if (typeof leftOpen === 'function') await leftOpen('the test file');
    await super.teardown();
  }
}
