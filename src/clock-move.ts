// Moving the simulator clock from the command line (vmv sim advance, vmv sim clock --set): one
// request, which the simulator runs in slices (simulator/core/move.ts). On a terminal a progress
// line on stderr says where the clock is while it moves (GET /_sim/clock, polled on a second
// connection); Ctrl-C stops an embedded move after its slice, the clock left where it stood (a
// remote move stops the same way when the process ends and its connection closes): the simulator
// answers a move stopped short with 503, which says where the clock stands.
import type { ApiResponse } from './client.js';
import type { Context } from './context.js';
import { ApiCallError, CliError, EXIT } from './errors.js';
import { dim } from './colors.js';
import { forStderr } from './io.js';

/** How long a move runs before its progress line shows (a short one shows none), and between looks. */
const FIRST_LOOK_MS = 500;
const LOOK_EVERY_MS = 250;

/** GET /_sim/clock's time, in epoch ms. */
const clockMs = async (ctx: Context) => Date.parse((await ctx.call('GET', '/_sim/clock')).json<{ now: string }>().now);

/**
 * Sends the move `send` (given a signal that stops an embedded move) and answers its reply. `to`
 * says where the move ends from where the clock stood (for the progress line's share). Before the
 * first call of the command: a terminal's progress takes a second connection to a remote target.
 */
export async function moveClock(
  ctx: Context,
  to: (fromMs: number) => number,
  send: (signal: AbortSignal) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const stop = new AbortController();
  const embedded = ctx.target().kind === 'embedded';
  const unregister = embedded ? ctx.io.onInterrupt(() => stop.abort()) : () => {};
  const progress = ctx.io.stderrTTY ? await showProgress(ctx, to) : null;
  try {
    return await send(stop.signal);
  } catch (e) {
    // a move stopped short answers 503 saying where the clock stands (POST /_sim/clock/advance)
    const stood = e instanceof ApiCallError && e.status === 503 ? e.envelope.error.now : undefined;
    if (stop.signal.aborted && typeof stood === 'string')
      throw new CliError(
        `Stopped (interrupted); the clock stands at ${stood}, every transition due by then run.`,
        EXIT.interrupted,
      );
    throw e;
  } finally {
    progress?.end();
    unregister();
  }
}

/** The progress line: where the clock is, and how far along the move, until end() clears it. */
async function showProgress(ctx: Context, to: (fromMs: number) => number): Promise<{ end(): void }> {
  ctx.connections = Math.max(ctx.connections, 2);
  const from = await clockMs(ctx);
  const target = to(from);
  let ended = false;
  let shown = false;
  let timer: NodeJS.Timeout | undefined;
  const look = async () => {
    const now = await clockMs(ctx).catch(() => null);
    if (ended || now === null) return; // (a look that fails shows nothing: the move's own reply says what went wrong)
    const share = target > from ? Math.floor((100 * (now - from)) / (target - from)) : 100;
    ctx.io.redraw('err', 'line');
    ctx.io.err(dim(forStderr(ctx.io), `Moving the clock: ${new Date(now).toISOString()} (${share}%)`));
    shown = true;
    timer = setTimeout(look, LOOK_EVERY_MS);
  };
  timer = setTimeout(look, FIRST_LOOK_MS);
  return {
    end: () => {
      ended = true;
      clearTimeout(timer);
      if (shown) ctx.io.redraw('err', 'line');
    },
  };
}
