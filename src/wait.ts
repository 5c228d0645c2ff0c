// What every wait (--wait, quick status --watch) adds to polling, for scripts and CI:
// --timeout DURATION gives up after that much wall-clock time (exit 6); --advance drives a simulator
// on a manual clock (the embedded simulator's real clock is set manual first) to each next due
// transition until the job ends; Ctrl-C stops waiting (exit 130).
// None of them stops the job: each says so, and how to follow it. Nor does an error that ends a
// wait early (the service failing, the network gone): its id is printed as at a timeout.
import type { Context } from './context.js';
import { parseDuration } from './duration.js';
import { ApiCallError, CliError, EXIT, usage } from './errors.js';
import { forStderr } from './io.js';
import { dim } from './output.js';

/** The flags of a waiting command (the command's own options arrive with its globals). */
export interface WaitFlags {
  wait?: boolean;
  watch?: boolean;
  timeout?: string;
  advance?: boolean;
}

/** After a job ends, --advance also runs what falls due this soon after (summaries and tags: 5 s). */
export const SETTLE_MS = 60_000;

interface Plan {
  /** wall-clock time (ms) the wait gives up at; counted from the start of the command */
  deadline: number | null;
  timeout?: string;
  advance: boolean;
}

const plans = new WeakMap<Context, Promise<Plan>>();

/**
 * Checks a command's --timeout and --advance before it sends anything (so a refused --advance
 * starts no job), once per command: action() calls it when either is given, followRead always.
 * `waitFlag` names the flag they go with (--wait, --watch).
 */
export function prepareWait(ctx: Context, waitFlag = '--wait'): Promise<Plan> {
  let p = plans.get(ctx);
  if (!p) plans.set(ctx, (p = plan(ctx, waitFlag)));
  return p;
}

/** Moves a command's --timeout deadline on by `ms`: time a person spent answering a question is not the job's. */
export async function extendDeadline(ctx: Context, ms: number): Promise<void> {
  const p = plans.get(ctx);
  if (!p) return;
  const plan = await p;
  if (plan.deadline !== null) plan.deadline += ms;
}

async function plan(ctx: Context, waitFlag: string): Promise<Plan> {
  const started = Date.now();
  const o = ctx.globals as WaitFlags;
  if (!o.wait && !o.watch && (o.timeout !== undefined || o.advance))
    throw usage(`${o.timeout !== undefined ? '--timeout' : '--advance'} applies to a wait: add ${waitFlag}.`);
  let seconds: number | null = null;
  if (o.timeout !== undefined) {
    try {
      seconds = parseDuration(o.timeout);
    } catch (e) {
      throw usage(`--timeout: ${(e as Error).message}`);
    }
    if (!(seconds > 0)) throw usage('--timeout must be more than 0, e.g. 90s, 5m or 1h.');
  }
  if (o.advance) await checkAdvance(ctx);
  return { deadline: seconds === null ? null : started + seconds * 1000, timeout: o.timeout, advance: !!o.advance };
}

/** GET /_sim/clock */
export interface SimClock {
  mode: string;
  now: string;
  next_due_at: string | null;
  next_job_due_at?: string | null;
}

/**
 * Where --advance moves a manual clock: the next step of some job. What recurs on the calendar for
 * as long as something exists (a number's monthly line, a schedule's days) is left out, or a wait
 * on a job that needs someone else (a reply) would jump month after month, charging lines. A
 * simulator older than next_job_due_at gives only next_due_at.
 */
const nextJobDue = (c: SimClock): string | null =>
  c.next_job_due_at === undefined ? c.next_due_at : c.next_job_due_at;

/**
 * Moves a manual simulator clock, as read in `clock`, to the next step of some job (at least a
 * millisecond on); false, and the clock left, when nothing is due or it is due after `until`.
 * True also when another process moved the clock there or further first (see moveAtLeast).
 */
export async function advanceTo(ctx: Context, clock: SimClock, until = Infinity): Promise<boolean> {
  const next = nextJobDue(clock);
  if (next === null) return false;
  const due = Math.max(Date.parse(next), Date.parse(clock.now) + 1);
  if (due > until) return false;
  await moveAtLeast(ctx, new Date(due).toISOString());
  return true;
}

/**
 * Moves the clock to `time` unless it is already there or past it (POST /_sim/clock {now, at_least}).
 * Any number of processes may wait on one world, each moving the clock to the step it read next;
 * between its read and its move another may have moved the clock further, which serves it as well
 * (a plain `now` would be refused as a move backwards, after the job was placed and charged).
 * A simulator from before at_least refuses the field: it is sent `now`, whose refusal to go
 * backwards then means the same.
 */
async function moveAtLeast(ctx: Context, time: string): Promise<void> {
  // moving the clock is not the command's write: no --idempotency-key
  // (at least to a time: the same however often it is sent, so a failure is retried as a read is)
  const move = (body: { now: string; at_least?: true }) =>
    ctx.call('POST', '/_sim/clock', { body, idempotencyKey: undefined, repeatable: body.at_least });
  const refuses = (e: unknown, field: string) =>
    e instanceof ApiCallError && e.status === 400 && e.envelope.error.fields?.[field] !== undefined;
  try {
    await move({ now: time, at_least: true });
  } catch (e) {
    const step = e instanceof ApiCallError ? e.envelope.error.step_seconds : undefined;
    if (typeof step === 'number' && step > 0) return moveInSteps(ctx, Date.parse(time), step, move);
    if (!refuses(e, 'at_least')) throw e;
    await move({ now: time }).catch((e2: unknown) => {
      if (!refuses(e2, 'now')) throw e2;
    });
  }
}

/**
 * A move the simulator refused as too much work at once (a busy calendar between here and the
 * job's next step), made in steps of the size it said fits, each to at least a time.
 */
async function moveInSteps(
  ctx: Context,
  end: number,
  stepSeconds: number,
  move: (body: { now: string; at_least: true }) => Promise<unknown>,
): Promise<void> {
  for (;;) {
    const now = Date.parse((await ctx.call('GET', '/_sim/clock')).json<SimClock>().now);
    if (now >= end) return;
    await move({ now: new Date(Math.min(end, now + stepSeconds * 1000)).toISOString(), at_least: true });
  }
}

/** --advance needs a simulator (its /_sim control plane) whose clock is manual. */
async function checkAdvance(ctx: Context): Promise<void> {
  let res = await (await ctx.client()).request('GET', '/_sim/clock');
  // only 404 (no /_sim here) or a success that is no simulator's clock says this is no simulator:
  // any other error (a key refused, 401/403; the server failing, 5xx) is reported as the error it
  // is, by call(), which may also retry it (a reply that then comes is read as the first would be)
  if (res.status !== 404 && (res.status < 200 || res.status >= 300)) res = await ctx.call('GET', '/_sim/clock');
  let clock: { mode?: string } | undefined;
  try {
    clock = res.status === 200 ? res.json() : undefined;
  } catch {
    clock = undefined;
  }
  if (!clock?.mode) {
    const where = ctx.target().baseUrl ?? 'the target';
    throw usage(
      `--advance drives a simulator's clock, and ${where} is not a simulator (GET /_sim/clock answered HTTP ${res.status}).`,
      'Against the service, jobs move on their own: wait without --advance (add --timeout to bound the wait).',
    );
  }
  if (clock.mode === 'manual') return;
  if (ctx.target().kind === 'embedded') return manualForAdvance(ctx);
  throw usage(
    "--advance moves a manual simulator clock, and this simulator's clock is real: its jobs move on their own.",
    'Wait without --advance, or switch the clock first: vmv sim clock --manual.',
  );
}

/**
 * The embedded simulator on a real clock (a fresh world's): --advance sets it manual where it
 * stands and says so, so that a CI script's first `--wait --advance` works on a new data file. A
 * served simulator is another process's world, maybe shared, and keeps the refusal; the service has
 * no clock to set (refused above).
 */
async function manualForAdvance(ctx: Context): Promise<void> {
  await ctx.call('POST', '/_sim/clock', { body: { mode: 'manual' }, idempotencyKey: undefined, repeatable: true });
  if (!ctx.json)
    ctx.io.err(
      dim(
        forStderr(ctx.io),
        "note: the simulator's clock was real; --advance set it manual (it stands still until advanced). Let it run again: vmv sim clock --real",
      ) + '\n',
    );
}

/** Errors whose stop printed the id of what continues itself: a wait that sees one adds nothing. */
const shown = new WeakSet<object>();
/** Marks an error whose maker printed the id of what continues on stdout (the wait's own ends, the assistant's approvals). */
export const idShown = <E extends object>(e: E): E => (shown.add(e), e);

/**
 * `e`, amended to name what continues: `id` in its --json envelope, and `note` after its hint. The
 * error keeps its class, exit code and message (an API error its envelope as received, plus the
 * id), so it still reads as what went wrong; anything else thrown (a bug) becomes a CliError with
 * its message, exit 1, as main() would report it.
 */
function continuing(e: unknown, id: string, note: string): CliError {
  if (!(e instanceof CliError)) return new CliError((e as Error)?.message ?? String(e), EXIT.api, note, { id });
  if (e instanceof ApiCallError) e.envelope.error.id = id;
  // hint and details are set once where an error is made; this is the one place that adds to them
  return Object.assign(e, { hint: e.hint ? `${e.hint}\n${note}` : note, details: { ...e.details, id } });
}

/** What a read path shows (its id, and in words), and the command that follows it after the wait stops. */
function subject(path: string): { what: string; follow: string; id: string } {
  const [, kind, rawId] =
    /^\/v1\/(quick\/actions|quick\/ai-numbers|calls|videos|assistant\/conversations)\/([^/?]+)/.exec(path) ?? [];
  const id = rawId ? decodeURIComponent(rawId) : '';
  if (kind === 'quick/actions') return { id, what: `job ${id}`, follow: `Follow it: vmv quick status ${id} --watch` };
  if (kind === 'quick/ai-numbers')
    return { id, what: `number ${id}`, follow: `Follow it: vmv quick status ${id} --watch` };
  if (kind === 'calls') return { id, what: `call ${id}`, follow: `See it: vmv history call ${id}` };
  if (kind === 'videos') return { id, what: `video ${id}`, follow: `Follow it: vmv videos get ${id} --wait` };
  if (kind === 'assistant/conversations')
    return { id, what: `the assistant's run in conversation ${id}`, follow: `See it: vmv assistant get ${id}` };
  return { id, what: 'the job', follow: `Read it: vmv api ${path}` };
}

export interface Waiter {
  /** with --advance the clock moves itself (no note that it waits for someone to advance it) */
  readonly advance: boolean;
  /** `p`, unless the wait ends first (--timeout ran out, Ctrl-C): then a CliError to report */
  race<T>(p: Promise<T>): Promise<T>;
  /** sleeps `ms` between reads, unless the wait ends first (then its timer goes too) */
  pause(ms: number): Promise<void>;
  /** --advance, before the next read: moves the clock to the next due transition; false if it did not */
  step(): Promise<boolean>;
  /** --advance, once the job has ended: runs what falls due within SETTLE_MS; false if nothing did */
  settle(): Promise<boolean>;
  /**
   * An error that ended the wait before the job did, to rethrow: it names what continues as the
   * wait's own end does (its id on stdout once, in the --json envelope, and how to follow it).
   */
  stopped(e: unknown): unknown;
  dispose(): void;
}

/** Starts waiting on what GET `path` shows: arms --timeout and Ctrl-C; dispose() when done. */
export async function startWait(ctx: Context, path: string): Promise<Waiter> {
  const p = await prepareWait(ctx);
  const { what, follow, id } = subject(path);
  let stop!: (e: CliError) => void;
  const ended = new Promise<never>((_, reject) => (stop = reject));
  ended.catch(() => {}); // reported through race()
  // what continues is data a script needs: its id alone on stdout, once (with --json, in the error envelope)
  let told = false;
  const tell = () => {
    if (id && !ctx.json && !told) ctx.io.out(`${id}\n`);
    told = true;
  };
  const end = (message: string, exit: number) => {
    tell();
    stop(idShown(new CliError(message, exit, follow, id ? { id } : undefined)));
  };
  const timedOut = () => end(`Stopped waiting after ${p.timeout} (--timeout); ${what} continues.`, EXIT.timeout);
  const left = p.deadline === null ? null : p.deadline - Date.now();
  if (left !== null && left <= 0) timedOut(); // spent while the job was started: stop at the first await
  const timer = left === null || left <= 0 ? null : setTimeout(timedOut, left);
  const unregister = ctx.io.onInterrupt(() =>
    end(`Stopped waiting (interrupted); ${what} continues.`, EXIT.interrupted),
  );
  let settleUntil: number | null = null;
  let saidIdle = false;
  // steps in a row that found nothing due: one alone may be another process having run the job to
  // its end between this wait's read of it and of the clock (the next read then shows it ended)
  let idle = 0;

  /** Moves a manual clock to its next due transition (when settling, only one due by settleUntil). */
  async function advanceClock(settling: boolean): Promise<boolean> {
    const clock = (await ctx.call('GET', '/_sim/clock')).json<SimClock>();
    if (clock.mode !== 'manual') return false; // switched to real meanwhile: the job moves on its own
    if (!settling) {
      const moved = await advanceTo(ctx, clock);
      idle = moved ? 0 : idle + 1;
      if (idle >= 2 && !saidIdle && !ctx.json) {
        saidIdle = true;
        ctx.io.err(
          dim(
            forStderr(ctx.io),
            'note: nothing is due on the simulator clock; waiting for something else to move the job (vmv sim text, or Ctrl-C).',
          ) + '\n',
        );
      }
      return moved;
    }
    settleUntil ??= Date.parse(clock.now) + SETTLE_MS;
    return advanceTo(ctx, clock, settleUntil);
  }

  return {
    advance: p.advance,
    race: (q) => Promise.race([q, ended]),
    pause: (ms) => {
      let t: NodeJS.Timeout | undefined;
      return Promise.race([new Promise<void>((r) => (t = setTimeout(r, ms))), ended]).finally(() => clearTimeout(t));
    },
    step: async () => p.advance && advanceClock(false),
    settle: async () => p.advance && advanceClock(true),
    stopped: (e) => {
      // the wait's own end, or a stop that printed the id itself (the assistant's approvals), names it
      // already (an error that merely names the id, as a lost connection names the write's, does not)
      if (!id || (typeof e === 'object' && e !== null && shown.has(e))) return e;
      tell();
      return continuing(e, id, `Stopped waiting; ${what} continues. ${follow}`);
    },
    dispose: () => {
      if (timer) clearTimeout(timer);
      unregister();
    },
  };
}
