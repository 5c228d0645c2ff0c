// Asking a question on a terminal (callers check there is one: no prompts without a TTY).
import type { IO } from './io.js';

/**
 * The line typed in answer to `question`. `signal` takes the question back (Ctrl-C stopped the
 * wait it belongs to): the answer is rejected and standard input let go, so nothing more is read
 * from it and the process can end.
 */
export async function ask(io: IO, question: string, o: { signal?: AbortSignal } = {}): Promise<string> {
  const { signal } = o;
  signal?.throwIfAborted();
  io.err(question);
  // an input already read to its end (a file piped in for another flag) can answer nothing: no
  // 'line' or 'close' would ever come, and the process would end with nothing said
  if ((io.stdin as NodeJS.ReadableStream & { readableEnded?: boolean }).readableEnded) return '';
  const { createInterface } = await import('node:readline');
  const { Writable } = await import('node:stream');
  signal?.throwIfAborted();
  const output = new Writable({ write: (chunk, _e, cb) => (io.err(String(chunk)), cb()) });
  const rl = createInterface({ input: io.stdin, output, terminal: false });
  return new Promise((resolve, reject) => {
    const abort = () => {
      reject(signal!.reason); // before close(), whose 'close' event would resolve with nothing
      rl.close();
    };
    signal?.addEventListener('abort', abort, { once: true });
    rl.once('line', (line) => {
      signal?.removeEventListener('abort', abort);
      resolve(line); // before close(), whose 'close' event would resolve with nothing
      rl.close();
    });
    rl.once('close', () => {
      signal?.removeEventListener('abort', abort);
      resolve('');
    });
  });
}
