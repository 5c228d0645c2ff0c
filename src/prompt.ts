// Asking a question on a terminal (callers check there is one: no prompts without a TTY).
import type { IO } from './io.js';

export async function ask(io: IO, question: string): Promise<string> {
  io.err(question);
  // an input already read to its end (a file piped in for another flag) can answer nothing: no
  // 'line' or 'close' would ever come, and the process would end with nothing said
  if ((io.stdin as NodeJS.ReadableStream & { readableEnded?: boolean }).readableEnded) return '';
  const { createInterface } = await import('node:readline');
  const { Writable } = await import('node:stream');
  const output = new Writable({ write: (chunk, _e, cb) => (io.err(String(chunk)), cb()) });
  const rl = createInterface({ input: io.stdin, output, terminal: false });
  return new Promise((resolve) => {
    rl.once('line', (line) => {
      resolve(line); // before close(), whose 'close' event would resolve with nothing
      rl.close();
    });
    rl.once('close', () => resolve(''));
  });
}
