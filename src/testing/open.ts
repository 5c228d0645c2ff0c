// The simulators and receivers of vmv/testing still open, and where each was started: a test run
// that ends with one open is told so on stderr (its sockets never keep the process alive, so the
// runner does not hang on it). A script and node:test are told at the process's exit; vitest's and
// Jest's workers end without an exit event, so there the runner's own end of a test file asks
// (vmv/testing/vitest, a setup file; vmv/testing/jest-environment, a test environment) and what is
// left open is reported and closed then, before the next file of the same worker starts.
import { writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of this file once built (dist/): frames from it are vmv's own. */
const OWN = dirname(fileURLToPath(import.meta.url));

interface Open {
  what: string;
  where: string;
  close: () => Promise<void>;
}

const open = new Map<object, Open>();
let hooked = false;

/**
 * Where a runner's own hook finds the report, on the test's global: the Jest environment reads it
 * from the test context's global object, which is not the module that required vmv/testing (Jest
 * runs a test's modules in a registry of their own; dist/testing.cjs and dist/testing.js may both
 * be loaded), so the global symbol registry is the one name both sides share.
 */
export const LEFT_OPEN = Symbol.for('vmv.testing.leftOpen');

/** The first frame of the stack outside vmv's own files: the line of the user's test that started it. */
export function callerFrame(stack = new Error().stack ?? ''): string {
  const frames = stack
    .split('\n')
    .slice(1)
    .map((l) => l.trim().replace(/^at /, ''));
  const ours = (f: string) => f.includes(OWN) || f.includes('node:internal') || f.includes('(native)');
  return frames.find((f) => !ours(f)) ?? frames[0] ?? 'an unknown place';
}

/** What a test run is told about what is still open at `end` ("the run", "the test file"). */
export function openReport(end = 'the run'): string | null {
  if (open.size === 0) return null;
  const lines = [...open.values()].map((o) => `  ${o.what}, started at ${o.where}`);
  return `vmv/testing: ${open.size} left open at the end of ${end} (call close(), or use \`await using\`):\n${lines.join('\n')}\n`;
}

const report = () => {
  const text = openReport();
  // synchronous: at 'exit' an asynchronous write to a pipe would be lost
  if (text) writeSync(2, text);
  open.clear();
};

/**
 * At the end of a test file (a runner's hook): reports what is still open, then closes it, so that
 * the worker's next file starts with nothing of this one's listening. Returns the report, or null.
 */
export async function leftOpenAtEnd(end = 'the test file'): Promise<string | null> {
  const text = openReport(end);
  if (!text) return null;
  writeSync(2, text);
  const left = [...open.values()];
  open.clear();
  await Promise.allSettled(left.map((o) => o.close()));
  return text;
}

/** Notes `thing` as open until the function returned is called; `close` closes it if left open. */
export function opened(thing: object, what: string, where: string, close: () => Promise<void>): () => void {
  if (!hooked) {
    hooked = true;
    process.once('beforeExit', report);
    process.once('exit', report);
    // both builds (dist/testing.js and .cjs) may be loaded in one test: each answers for its own
    const g = globalThis as Record<symbol, typeof leftOpenAtEnd | undefined>;
    const other = g[LEFT_OPEN];
    g[LEFT_OPEN] = async (end) => {
      const mine = await leftOpenAtEnd(end);
      const theirs = other ? await other(end) : null;
      return mine ?? theirs;
    };
  }
  open.set(thing, { what, where, close });
  return () => void open.delete(thing);
}
