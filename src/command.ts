// Glue between commander and a verb's run function: builds the Context from the parsed command,
// and always closes the client afterwards.
import type { Command } from 'commander';
import { Context } from './context.js';
import { usage } from './errors.js';
import type { IO } from './io.js';
import type { Env } from './paths.js';

/** What every command definition receives: the process's streams and environment. */
export interface Shell { io: IO; env: Env }

export type Run<O> = (ctx: Context, opts: O, args: string[]) => Promise<void>;

export function action<O>(shell: Shell, run: Run<O>) {
  return async (...a: unknown[]) => {
    const cmd = a[a.length - 1] as Command;
    const opts = a[a.length - 2] as O;
    const args = a.slice(0, -2).flat() as string[];
    const ctx = Context.of(shell.io, shell.env, cmd);
    try {
      await run(ctx, opts, args);
    } finally {
      await ctx.close();
    }
  };
}

/** commander option parsers that fail as usage errors */
export const collect = (v: string, prev: string[] = []) => [...prev, v];

export function intArg(name: string, min: number, max: number) {
  return (v: string) => {
    if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) throw usage(`${name} must be a whole number from ${min} to ${max}, got "${v}".`);
    return Number(v);
  };
}

export function onOff(name: string) {
  return (v: string) => {
    if (['on', 'true', 'yes', '1'].includes(v)) return true;
    if (['off', 'false', 'no', '0'].includes(v)) return false;
    throw usage(`${name} takes on or off, got "${v}".`);
  };
}

export function numberArg(name: string, min: number) {
  return (v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min) throw usage(`${name} must be a number of at least ${min}, got "${v}".`);
    return n;
  };
}

/** Reads all of stdin (for `-` arguments). */
export async function readStdin(io: IO): Promise<string> {
  return (await readStdinBytes(io)).toString('utf8');
}

/** Reads all of stdin as bytes, unchanged (a body sent as it is). */
export async function readStdinBytes(io: IO): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks);
}

/**
 * The examples that end a command's help, in one form for every command: a real command line each,
 * written `vmv ...` (a pipe into or out of vmv is fine). Every leaf command has at least one, added
 * last so the help ends with it: `.addHelpText('after', examples('vmv quick status JOB_ID'))`.
 * test/cli-help.test.ts parses each example against the command tree.
 */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}
