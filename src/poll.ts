// Following a job until it ends: polls the read endpoint on a wall-clock interval (VMV_POLL_MS,
// default 1000 ms), redrawing a live view on a terminal or printing one line per change when piped.
// --timeout, --advance and Ctrl-C are the waiter's (wait.ts).
import type { Context } from './context.js';
import { forStderr } from './io.js';
import { clip, dim, yellow } from './output.js';
import type { Waiter } from './wait.js';

export const pollInterval = (ctx: Context) => Math.max(10, Number(ctx.env.VMV_POLL_MS) || 1000);

/** On a simulator with a manual clock nothing moves until someone advances it: say so once. */
export async function noteManualClock(ctx: Context): Promise<void> {
  if (ctx.json) return; // with --json, stderr holds only an error's JSON document
  const client = await ctx.client();
  const res = await client.request('GET', '/_sim/clock').catch(() => null);
  if (res?.status !== 200) return; // not a simulator
  if (res.json().mode === 'manual')
    ctx.io.err(
      yellow(
        forStderr(ctx.io),
        'note: the simulator clock is manual, so this waits until it is advanced (vmv sim advance 1m from another shell; with --advance the command moves it itself).',
      ) + '\n',
    );
}

interface Follow<T> {
  read: () => Promise<{ text: string; body: T }>;
  done: (body: T) => boolean;
  /** lines describing the state: redrawn in place on a terminal */
  render: (body: T) => string[];
  /** one line per change when piped (keys identify what changed); omit to stay quiet until the end */
  changes?: (body: T) => Map<string, string>;
  /** when piped, a progress message on stderr each time it reads differently (stdout keeps the data) */
  notes?: (body: T) => string;
}

/** Polls until done (with --advance, moving the clock instead of sleeping); returns the last read. */
async function follow<T>(ctx: Context, w: Waiter, f: Follow<T>): Promise<{ text: string; body: T }> {
  const { io } = ctx;
  const live = io.stdoutTTY && !ctx.json;
  let drawn = 0;
  let seen = new Map<string, string>();
  let noted = '';
  for (;;) {
    const last = await w.race(f.read());
    if (live) {
      // each line kept within the terminal's width: a wrapped line would take two rows, and the redraw would leave one behind
      const lines = f.render(last.body).map((l) => clip(l, io.columns - 1));
      if (drawn > 0) io.redraw('out', { up: drawn });
      io.out(lines.join('\n') + '\n');
      drawn = lines.length;
    } else if (f.changes && !ctx.json) {
      const now = f.changes(last.body);
      for (const [k, line] of now) if (seen.get(k) !== line) io.out(line + '\n');
      seen = now;
    }
    if (!live && f.notes && !ctx.json) {
      const note = f.notes(last.body);
      if (note !== noted) io.err(dim(forStderr(io), note) + '\n');
      noted = note;
    }
    if (f.done(last.body)) {
      if (await w.race(w.settle())) continue; // the job's follow-ups (summaries) landed: read again
      return last;
    }
    if (!(await w.race(w.step()))) await w.pause(pollInterval(ctx));
  }
}

export const waitingHint = (ctx: Context, what: string) => ctx.io.err(dim(forStderr(ctx.io), what) + '\n');

/**
 * Follows GET `path` until `done`: says once if the simulator clock is manual, shows progress (see
 * follow; `notes`: progress messages on stderr when piped), then prints the end: the last body as
 * returned with --json, `final` when piped (unless changes were streamed; a terminal already shows
 * the live view). Returns the last body. An error before the end names what continues (Waiter.stopped).
 */
export async function followRead<T>(
  ctx: Context,
  path: string,
  o: {
    done: (body: T) => boolean;
    live: (body: T) => string[];
    changes?: (body: T) => Map<string, string>;
    notes?: (body: T) => string;
    final: (body: T) => void;
  },
): Promise<T> {
  const w = await (await import('./wait.js')).startWait(ctx, path);
  let last: { text: string; body: T };
  try {
    if (!w.advance) await noteManualClock(ctx);
    last = await follow<T>(ctx, w, {
      read: async () => {
        const res = await ctx.call('GET', path);
        return { text: res.text(), body: res.json<T>() };
      },
      done: o.done,
      render: o.live,
      changes: o.changes,
      notes: o.notes,
    });
  } catch (e) {
    throw w.stopped(e);
  } finally {
    w.dispose();
  }
  if (ctx.json) ctx.io.out(last.text + '\n');
  else if (!ctx.io.stdoutTTY && !o.changes) o.final(last.body);
  return last.body;
}
