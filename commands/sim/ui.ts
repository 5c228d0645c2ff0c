// vmv sim ui: opens the inspector (the page `vmv sim serve` answers at /) in the browser, starting
// a server on the embedded data file when none answers at the address.
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { action, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { run as serve } from './serve.js';

interface Options {
  port: number;
  open: boolean;
  data?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('ui')
      .description('Open the inspector, a live page of everything the simulated world did, in the browser')
      .option(
        '--port <port>',
        'where the simulator listens, or will (0 picks a free one)',
        intArg('--port', 0, 65535),
        4010,
      )
      .option(
        '--data <file>',
        "data file of a server started here (default: the embedded simulator's, or VMV_SIM_DATA)",
      )
      .option('--no-open', 'only print the address')
      .addHelpText(
        'after',
        '\nA simulator already answering on 127.0.0.1 at --port is used as it is; otherwise one is started on the\n' +
          'data file (as vmv sim serve does) and runs until interrupted.',
      )
      .action(action(shell, run)),
    'vmv sim ui',
    'vmv sim ui --no-open --port 4011',
    'vmv sim ui --data ./ci-sim.json',
  );
}

/** Whether a vmv simulator answers at `url` (its health route), within half a second. */
async function answers(url: string): Promise<boolean> {
  try {
    const r = await fetch(`${url}/_sim/health`, { signal: AbortSignal.timeout(500) });
    return r.ok && ((await r.json()) as { ok?: unknown })?.ok === true;
  } catch {
    return false;
  }
}

/** How each system opens an address in its browser (others: xdg-open). */
const OPENERS: Partial<Record<NodeJS.Platform, [string, string[]]>> = {
  darwin: ['open', []],
  win32: ['cmd', ['/c', 'start', '""']],
};

/** Opens `url` in the system's browser; false when there is no way to (the address is printed all the same). */
function openBrowser(url: string): Promise<boolean> {
  const [cmd, pre] = OPENERS[process.platform] ?? ['xdg-open', []];
  const args = [...pre, url];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => resolve(false));
    child.on('spawn', () => (child.unref(), resolve(true)));
  });
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const show = async (url: string) => {
    const page = `${url}/`;
    // (a server started here has printed its own line under --json: its url and key)
    if (!ctx.json || !started) ctx.io.out(ctx.json ? `${JSON.stringify({ url: page })}\n` : `${page}\n`);
    if (o.open && !(await openBrowser(page)))
      ctx.io.err('Could not start a browser here: open the address above in one.\n');
  };
  let started = false;
  const existing = `http://127.0.0.1:${o.port}`;
  if (o.port !== 0 && (await answers(existing))) return show(existing);
  started = true;
  await serve(ctx, {
    host: '127.0.0.1',
    port: o.port,
    data: o.data,
    quiet: true,
    onListening: (url) => void show(url),
  });
}
