// The simulators and receivers of vmv/testing still open, and where each was started: a test run
// that ends with one open is told so on stderr (its sockets never keep the process alive, so the
// runner does not hang on it).
import { writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of this file once built (dist/): frames from it are vmv's own. */
const OWN = dirname(fileURLToPath(import.meta.url));

const open = new Map<object, { what: string; where: string }>();
let hooked = false;

/** The first frame of the stack outside vmv's own files: the line of the user's test that started it. */
export function callerFrame(stack = new Error().stack ?? ''): string {
  const frames = stack
    .split('\n')
    .slice(1)
    .map((l) => l.trim().replace(/^at /, ''));
  const ours = (f: string) => f.includes(OWN) || f.includes('node:internal') || f.includes('(native)');
  return frames.find((f) => !ours(f)) ?? frames[0] ?? 'an unknown place';
}

/** What the process is told at its end about what is still open. */
export function openReport(): string | null {
  if (open.size === 0) return null;
  const lines = [...open.values()].map((o) => `  ${o.what}, started at ${o.where}`);
  return `vmv/testing: ${open.size} left open at the end of the run (call close(), or use \`await using\`):\n${lines.join('\n')}\n`;
}

const report = () => {
  const text = openReport();
  // synchronous: at 'exit' an asynchronous write to a pipe would be lost
  if (text) writeSync(2, text);
  open.clear();
};

/** Notes `thing` as open until `closed` is called. */
export function opened(thing: object, what: string, where: string): () => void {
  if (!hooked) {
    hooked = true;
    process.once('beforeExit', report);
    process.once('exit', report);
  }
  open.set(thing, { what, where });
  return () => void open.delete(thing);
}
