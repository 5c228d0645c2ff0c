// Asking a question on a terminal (callers check there is one: no prompts without a TTY).
import type { IO } from './io.js';

export async function ask(io: IO, question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const { Writable } = await import('node:stream');
  const output = new Writable({ write: (chunk, _e, cb) => (io.err(String(chunk)), cb()) });
  const rl = createInterface({ input: io.stdin, output, terminal: false });
  return new Promise((resolve) => {
    io.err(question);
    rl.once('line', (line) => {
      resolve(line); // before close(), whose 'close' event would resolve with nothing
      rl.close();
    });
    rl.once('close', () => resolve(''));
  });
}
