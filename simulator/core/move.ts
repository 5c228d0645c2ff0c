// A long move of the simulator clock (a year of a busy world) without freezing the simulator: the
// move runs in slices, each its own unit of work on the store (committed, so a crash or a stop
// loses no slice already done), of at most SLICE_MS of work. Between slices the server answers
// other requests, which see the world as of the last slice, its clock at that slice's time. A move
// stops after the slice under way when its client goes away or the server closes, the clock left
// where that slice ended. One too large for a single request is refused before it starts, with
// how to do it in steps (MOVE_WORK_LIMIT).
import { iso } from './clock.js';
import { ApiError } from './errors.js';
import { countDue } from './scheduler.js';
import type { Session } from './session.js';
import type { World } from './world.js';

/** What a move's estimate reads of the world (WorldServices): the calendar's transitions, their count, the limit. */
interface Calendar {
  calendarTimers: ReadonlySet<string>;
  calendarWork(data: World, fromMs: number, toMs: number): number;
  moveLimit?: number;
}

/** The wall time of work in one slice: a request waiting behind it waits about this long. */
export const SLICE_MS = 50;

/**
 * The most transitions one move may run, as estimated before it starts (moveWork): about 12 s of
 * work on an idle machine (a year of a video schedule posting 10 videos a day to one account is
 * about 19,000 and takes 4 s). Past it, a move is refused (400) with a step that fits: a client
 * waits for one move at most that long (vmv's client gives up on a reply after 60 s).
 */
export const MOVE_WORK_LIMIT = 50_000;

/** What a slice did: the clock it left, whether the move is over, how many transitions ran. */
export interface Slice {
  now: number;
  done: boolean;
  ran: number;
  /** the clock stood before where the last slice left it: the world was reset meanwhile */
  reset?: boolean;
}

/** One slice of a move towards `to`, as the pipeline runs it (app.ts): `left`, where the last slice left the clock. */
export type SliceRunner = (to: number, left: number) => Promise<Slice>;

/** How a move ended: where the clock stands, and what stopped it before `to`, if anything. */
export interface Moved {
  now: number;
  stopped: 'aborted' | null;
  slices: number;
  ran: number;
}

/**
 * Moves the clock to `to` one slice at a time, yielding to the server's other requests between
 * slices. Stops after the slice under way when `signal` aborts (the client went away, the server
 * closes). Another request's move carries this one along (the clock may jump past a slice); a reset
 * meanwhile ends it with 409: the world it was moving is gone.
 */
export async function moveInSlices(slice: SliceRunner, from: number, to: number, signal?: AbortSignal): Promise<Moved> {
  let left = from;
  let slices = 0;
  let ran = 0;
  for (;;) {
    if (signal?.aborted) return { now: left, stopped: 'aborted', slices, ran };
    const s = await slice(to, left);
    if (s.reset)
      throw new ApiError(
        409,
        'conflict',
        `The world was reset while the clock moved to ${iso(to)}; the move stopped. The clock stands at ${iso(s.now)}.`,
      );
    slices++;
    ran += s.ran;
    left = s.now;
    if (s.done) return { now: left, stopped: null, slices, ran };
    // (the requests that arrived during the slice go first)
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * About how many transitions moving the clock from s.now to `to` runs: those already scheduled by
 * then, and those the calendar adds (video schedules' days, AI numbers' months: WorldServices.calendarWork).
 * An estimate: a job started on the way (a call's steps) is not counted.
 */
export function moveWork(s: Session, to: number, world: Calendar): number {
  return countDue(s, to, world.calendarTimers) + world.calendarWork(s.data, s.now, to);
}

/** The units a step is said in, largest first: `vmv sim advance` takes each (2d, 5h, 30m). */
const UNITS = [
  ['d', 86_400_000, 'day'],
  ['h', 3_600_000, 'hour'],
  ['m', 60_000, 'minute'],
] as const;

/** A step that fits `limit` (half of it: the estimate is rough), in the largest whole unit. */
export function stepThatFits(
  spanMs: number,
  work: number,
  limit = MOVE_WORK_LIMIT,
): { seconds: number; words: string } {
  const ms = Math.max(60_000, Math.floor((spanMs * limit) / Math.max(work, 1) / 2));
  const [unit, size, name] = UNITS.find(([, size]) => ms >= size) ?? UNITS[2];
  const n = Math.floor(ms / size);
  return { seconds: (n * size) / 1000, words: `${n}${unit} (${n} ${name}${n === 1 ? '' : 's'})` };
}

/**
 * Refuses (400, on `field`) a move to `to` that would run more than MOVE_WORK_LIMIT transitions,
 * before anything runs: how many, and a step that fits (half the limit's worth: the estimate is rough).
 */
export function refuseLargeMove(s: Session, to: number, world: Calendar, field: string): void {
  const most = world.moveLimit ?? MOVE_WORK_LIMIT;
  const work = moveWork(s, to, world);
  if (work <= most) return;
  const step = stepThatFits(to - s.now, work, most);
  const [n, limit] = [work, most].map((x) => x.toLocaleString('en-US'));
  throw new ApiError(
    400,
    'validation_error',
    `Moving the clock from ${iso(s.now)} to ${iso(to)} would run about ${n} transitions ` +
      `(scheduled jobs, video schedules' days, AI numbers' months); one move runs at most ${limit}. ` +
      `Move in steps of about ${step.words}: repeat \`vmv sim advance ${step.words.split(' ')[0]}\` ` +
      `(POST /_sim/clock/advance {"seconds": ${step.seconds}}) until the clock is there.`,
    { [field]: `would run about ${n} transitions, more than the ${limit} one move may run` },
    { step_seconds: step.seconds, limit: most },
  );
}
