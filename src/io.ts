// The streams a command talks to. Commands never touch process.stdout directly, so tests swap in
// buffers (bufferIO) and a TTY can be pretended. Every string written (and any bytes written to a
// terminal) has its control characters made visible (src/visible.ts) but for vmv's own colours: no
// value from outside reaches a terminal or a pipe as raw control bytes, whatever command writes it.
// vmv's own cursor moves and clears are not strings at all: they go through IO.redraw.
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Env } from './paths.js';
import { ownSequences, visible } from './visible.js';

/** What IO.redraw draws: up n lines and clear below, or clear the current line. */
export type Redraw = { up: number } | 'line';

/** The terminal sequence of a redraw. */
const redrawSequence = (what: Redraw): string =>
  what === 'line' ? '\r\u001b[2K' : `\u001b[${Math.max(0, Math.floor(what.up))}A\u001b[0J`;

export interface IO {
  /** bytes are written as they are (a raw response body) when stdout is not a terminal */
  out(s: string | Uint8Array): void;
  err(s: string): void;
  /**
   * vmv's own drawing on a terminal, apart from out/err so that no string written there can move
   * the cursor or clear the screen, whatever it holds: `{ up: n }` goes up n lines and clears
   * below (a live view redrawn, src/poll.ts), `'line'` clears the line being written (a progress
   * line, src/clock-move.ts). Nothing is written when the stream is not a terminal.
   */
  redraw(stream: 'out' | 'err', what: Redraw): void;
  stdin: Readable;
  stdinTTY: boolean;
  stdoutTTY: boolean;
  stderrTTY: boolean;
  /** colour on stdout: a TTY, and NO_COLOR unset */
  color: boolean;
  /** colour on stderr, decided for stderr itself */
  errColor: boolean;
  columns: number;
  /** --wide: tables on a terminal show every value whole (ids too) rather than fit `columns` */
  wide?: boolean;
  /**
   * Registers what Ctrl-C (SIGINT) does while a command waits, until the returned function is
   * called; meanwhile Ctrl-C no longer ends the process at once (a second one does).
   */
  onInterrupt(stop: () => void): () => void;
  /**
   * The process's own streams, for a full-screen terminal UI (vmv assistant chat) that draws on
   * them itself; absent in tests' buffers (a command then runs as it does without a terminal).
   */
  tty?: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream };
}

/**
 * Whether a command may ask its user a question (a price, a destructive action, an approval):
 * standard input, output and error all terminals, as gh decides. Output captured by `$(...)` or a
 * pipe is read by a script, which is never asked: it goes ahead where --yes would, or declines
 * where a question was needed (each command says which).
 */
export const canAsk = (io: IO): boolean => io.stdinTTY && io.stdoutTTY && io.stderrTTY;

/** What the CLI does when writing to stdout or stderr fails (a reader that went away): see guardStreams. */
let onWriteError: ((e: NodeJS.ErrnoException) => void) | undefined;
const guarded = new Set<NodeJS.WriteStream>();

/**
 * process.stdout or process.stderr, made at its first use here, with the CLI's handler of a failed
 * write attached when it is.
 */
function stream(which: 'out' | 'err'): NodeJS.WriteStream {
  const s = which === 'out' ? process.stdout : process.stderr;
  if (onWriteError && !guarded.has(s)) {
    guarded.add(s);
    s.on('error', onWriteError);
  }
  return s;
}
const stderr = () => stream('err');

/**
 * Handles a failed write to stdout and stderr from when vmv first writes there (every write goes
 * through IO.out or IO.err): attaching at start would make the streams, which a command that
 * writes no message, or writes stdout to a file, never needs.
 */
export function guardStreams(onError: (e: NodeJS.ErrnoException) => void): void {
  onWriteError = onError;
}

/**
 * Whether stdout is a regular file or /dev/null (`vmv ... > out.json`, a CI step's log, a
 * benchmark), told by fstat without making process.stdout. Node writes such a stdout with
 * fs.writeSync (its SyncWriteStream), but making that stream loads node:stream, ~7M instructions
 * (8% of `node -e 0` on Node 20): vmv calls fs.writeSync itself there. A terminal or a pipe is
 * written through process.stdout, which needs node:net (loading node:stream) all the same.
 */
function plainStdout(): boolean {
  try {
    const s = fstatSync(1);
    return s.isFile() || (s.isCharacterDevice() && s.rdev === statSync('/dev/null').rdev);
  } catch {
    return false; // no stdout at all (closed): process.stdout decides, as before
  }
}

/** Writes to a plain stdout (see plainStdout), as Node's SyncWriteStream would; a failure goes where a stream's would. */
function writePlain(s: string | Uint8Array): void {
  try {
    if (typeof s === 'string') writeSync(1, s);
    else writeSync(1, s);
  } catch (e) {
    if (!onWriteError) throw e;
    onWriteError(e as NodeJS.ErrnoException);
  }
}

/**
 * The process's own streams. Node makes process.stdin, stdout and stderr on their first read, and
 * making one costs 1-3 ms (fs streams, or net for a pipe): a command that reads no input and
 * writes no message, as `--help` and most list commands, makes neither, nor stdout where it is a
 * file (see plainStdout). (tty.isatty would tell a terminal without making the stream, but
 * loading node:tty loads net.)
 */
export function processIO(env: Env = process.env): IO {
  const plain = plainStdout();
  const stdoutTTY = !plain && !!stream('out').isTTY;
  const colorOK = !env.NO_COLOR && env.TERM !== 'dumb';
  const out = shownOn(stdoutTTY, stdoutTTY && colorOK);
  let err: ((s: string | Uint8Array) => string | Uint8Array) | undefined;
  return {
    out: plain ? (s) => writePlain(out(s)) : (s) => void stream('out').write(out(s)),
    err: (s) => void stderr().write((err ??= shownOn(!!stderr().isTTY, !!stderr().isTTY && colorOK))(s)),
    redraw: (which, what) => {
      if (which === 'out' && plain) return;
      const s = stream(which);
      if (s.isTTY) s.write(redrawSequence(what));
    },
    get stdin() {
      return process.stdin;
    },
    get stdinTTY() {
      return !!process.stdin.isTTY;
    },
    stdoutTTY,
    get stderrTTY() {
      return !!stderr().isTTY;
    },
    color: stdoutTTY && colorOK,
    get errColor() {
      return !!stderr().isTTY && colorOK;
    },
    columns: (!plain && stream('out').columns) || 100,
    onInterrupt: (stop) => {
      const onSignal = () => {
        if (stderr().isTTY) stderr().write('\n'); // past the terminal's ^C
        stop();
      };
      process.once('SIGINT', onSignal);
      return () => void process.off('SIGINT', onSignal);
    },
    get tty() {
      return { stdin: process.stdin, stdout: stream('out'), stderr: stderr() };
    },
  };
}

/**
 * What a stream is given for `s`: a string with its control characters made visible but for vmv's
 * own colours where the stream shows them; bytes as they are, but on a terminal, where they are
 * text made visible like any other.
 */
function shownOn(tty: boolean, color: boolean): (s: string | Uint8Array) => string | Uint8Array {
  const own = ownSequences(color);
  return (s) => {
    if (typeof s === 'string') return visible(s, own);
    return tty ? visible(Buffer.from(s).toString('utf8'), own) : s;
  };
}

/**
 * `io` with some fields replaced, its other fields (lazy getters included) read through from it:
 * a spread would read every getter, and so make the streams the getters put off.
 */
export function withIO(io: IO, changes: Partial<IO>): IO {
  return Object.assign(Object.create(io) as IO, changes);
}

export interface BufferIO extends IO {
  stdout(): string;
  /** stdout as the bytes written */
  stdoutBytes(): Buffer;
  stderr(): string;
}

/**
 * An IO whose output lands in strings; `tty` pretends every stream is a terminal, and aborting
 * `interrupt` is pressing Ctrl-C.
 */
export async function bufferIO(
  o: { tty?: boolean; stdin?: string; color?: boolean; interrupt?: AbortSignal } = {},
): Promise<BufferIO> {
  const { Readable } = await import('node:stream');
  const out: Buffer[] = [];
  let err = '';
  const shownOut = shownOn(!!o.tty, !!o.color);
  return {
    out: (s) => void out.push(Buffer.from(shownOut(s))),
    err: (s) => void (err += shownOut(s)),
    redraw: (which, what) => {
      if (!o.tty) return;
      if (which === 'out') out.push(Buffer.from(redrawSequence(what)));
      else err += redrawSequence(what);
    },
    stdin: Readable.from(o.stdin !== undefined ? [o.stdin] : []),
    stdinTTY: !!o.tty,
    stdoutTTY: !!o.tty,
    stderrTTY: !!o.tty,
    color: !!o.color,
    errColor: !!o.color,
    columns: 120,
    onInterrupt: (stop) => {
      const signal = o.interrupt;
      if (!signal) return () => {};
      if (signal.aborted) queueMicrotask(stop);
      signal.addEventListener('abort', stop, { once: true });
      return () => signal.removeEventListener('abort', stop);
    },
    stdout: () => Buffer.concat(out).toString('utf8'),
    stdoutBytes: () => Buffer.concat(out),
    stderr: () => err,
  };
}

/** The same streams, coloured as stderr is: for text written with io.err. */
export const forStderr = (io: IO): IO => (io.color === io.errColor ? io : withIO(io, { color: io.errColor }));

/** Long-running commands (serve, listen) register how to stop cleanly; a broken stdout pipe asks them. */
const stoppers = new Set<() => void>();
export function onStop(stop: () => void): () => void {
  stoppers.add(stop);
  return () => void stoppers.delete(stop);
}
/** Asks every registered command to stop; false when none is running. */
export function requestStop(): boolean {
  for (const stop of stoppers) stop();
  return stoppers.size > 0;
}
