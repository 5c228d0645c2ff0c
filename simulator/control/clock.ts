// The control plane's health, reset and clock (/_sim/health, /_sim/reset, /_sim/clock): the world
// back to its seeded state, and the simulator clock shown, switched between real and manual, and
// moved forward in slices (core/move.ts) with every transition that falls due on the way.
import * as z from 'zod/mini';
import { clockNow, iso, LAST_TIME_MS, setMode } from '../core/clock.js';
import { ApiError, validationError } from '../core/errors.js';
import { route, type Ctx, type Reply } from '../core/http.js';
import { MOVE_WORK_LIMIT, refuseLargeMove, SLICE_MS } from '../core/move.js';
import { nextDue } from '../core/scheduler.js';
import {
  bool,
  doc,
  int,
  isoTime,
  named,
  nullable,
  num,
  obj,
  oneOf,
  record,
  timestamp,
  uuid,
  type Infer,
} from '../core/schema.js';
import type { Session } from '../core/session.js';

const CLOCK_MODES = ['real', 'manual'] as const;

const Health = record({ ok: z.literal(true), now: doc(timestamp(), "the simulator's clock") });

export const SimClockSchema = named(
  'SimClock',
  () =>
    record({
      now: timestamp("the simulator's current time"),
      mode: oneOf(
        CLOCK_MODES,
        'real: the clock runs with the wall clock (from an offset); manual: it moves only when told to',
      ),
      next_due_at: doc(
        nullable(timestamp()),
        'when the next scheduled transition (a call step, a retry, a delivery…) falls due; null when nothing is scheduled',
      ),
      next_job_due_at: doc(
        nullable(timestamp()),
        "the same, leaving out what recurs on the calendar for as long as something exists (an AI number's monthly line charge, a video schedule's planning and posting): " +
          'when the next step of some job falls due; what `vmv … --wait --advance` moves the clock to',
      ),
    }),
  'The simulator clock.',
);

const ResetResult = record({
  api_key: doc(z.string(), {
    description: "the fresh seeded workspace's full-access API key",
    example: 'sk_sim_0123456789abcdef0123456789abcdef01234567',
  }),
  workspace_id: uuid('the seeded workspace'),
  now: timestamp('the clock after the reset'),
});

export const clockView = (c: Ctx<any, any, any>) => clockOf(c.s, c.world.calendarTimers);

/** The clock as a session sees it; `calendar`, the transitions no job waits on. */
function clockOf(s: Session, calendar: ReadonlySet<string>): Infer<typeof SimClockSchema> {
  const due = nextDue(s);
  const job = nextDue(s, (type) => !calendar.has(type));
  return {
    now: iso(s.now),
    mode: s.data.meta.clock.mode,
    next_due_at: due === null ? null : iso(due),
    next_job_due_at: job === null ? null : iso(job),
  };
}

/**
 * Moves the clock forward to `to` after this request's unit of work, in slices (core/move.ts:
 * other requests are answered between them), and answers the clock where the move left it. A move
 * that would run more than MOVE_WORK_LIMIT transitions is refused first, on `field`; then one past
 * LAST_TIME_MS (timestamps would need a 5-digit year). One stopped before `to` (its client gone, the
 * server closing) is no success: 503 `move_stopped`, with where the clock stands (a code of its own,
 * which clients do not retry as they retry `store_busy`: an advance sent again would move past its target).
 */
function moveTo(c: Ctx<any, any, any>, to: number, field: string): Reply {
  if (to <= c.s.now) return { body: clockView(c) };
  refuseLargeMove(c.s, to, c.world, field);
  if (to > LAST_TIME_MS)
    throw validationError({
      [field]: `would move the clock past ${iso(LAST_TIME_MS)}, the latest it goes (the clock is ${iso(c.s.now)})`,
    });
  const from = c.s.now;
  const calendar = c.world.calendarTimers;
  return {
    after: async (t) => {
      const moved = await t.move(from, to, c.signal);
      if (moved.stopped === 'aborted')
        throw new ApiError(
          503,
          'move_stopped',
          `The move of the clock to ${iso(to)} stopped (its client went away or the simulator is stopping); the clock stands at ${iso(moved.now)}, every transition due by then run.`,
          undefined,
          { now: iso(moved.now) },
        );
      return { body: await t.transaction((s) => clockOf(s, calendar)) };
    },
  };
}

/** What a move's description adds: slices, what others see meanwhile, the limit. */
const MOVE_TERMS =
  ` The move runs in slices of about ${SLICE_MS} ms of work, each saved as it ends: requests meanwhile are answered, and see the world as of the last slice, its clock at that time. ` +
  'A client that goes away (or a server that stops) ends the move after the slice under way, the clock left where that slice ended. ' +
  `A move that would run more than ${MOVE_WORK_LIMIT.toLocaleString('en-US')} transitions (an estimate: what is scheduled by then, video schedules' days, AI numbers' months) is refused (400) with a step that fits (\`vmv sim serve --move-limit\` sets another limit); ` +
  'a reset during the move stops it (409).';

const ResetBody = obj({
  clock: oneOf(CLOCK_MODES, 'how the fresh clock runs (default: as before)'),
  now: doc(
    isoTime(),
    "the fresh clock's time, even earlier than now, at most 9998-12-31T23:59:59.999Z (default: the current time)",
  ),
  seed: int({
    min: 0,
    max: 2 ** 32 - 1,
    description: 'the random seed of the fresh state (default: the current seed)',
    example: 1,
  }),
});

const ClockBody = obj({
  mode: oneOf(CLOCK_MODES, 'how the clock runs from now on'),
  now: doc(
    isoTime(),
    "move the clock forward to this time, running every transition due by then; a time before the clock's is refused (400), unless `at_least`, and so is one past 9998-12-31T23:59:59.999Z, the latest the clock goes (timestamps ahead of it must still fit in 4-digit years)",
  ),
  at_least: bool(
    "`now` is the least time wanted: a clock already there or past it stays where it is, and the request succeeds (false, the default: a `now` before the clock's time is a mistake, refused). " +
      'For clients that each drive one manual clock to the next step they wait for (`vmv … --wait --advance` run in parallel), where another may have moved it further meanwhile. Only with `now`',
  ),
});

const AdvanceBody = obj(
  {
    seconds: num({
      min: 0,
      max: 10 * 366 * 86400,
      description:
        'how far to move the clock; a move past 9998-12-31T23:59:59.999Z, the latest the clock goes, is refused',
      example: 90,
    }),
  },
  { required: ['seconds'] },
);

/** Health, reset, and the clock shown, set and advanced. */
export const clockRoutes = [
  route({
    method: 'GET',
    path: '/_sim/health',
    summary: 'Check the simulator is up',
    responses: { 200: { description: 'Up', schema: Health } },
    handler: (c) => ({ body: { ok: true, now: iso(c.s.now) } }),
  }),

  route({
    method: 'POST',
    path: '/_sim/reset',
    summary: 'Reset to the seeded state',
    description:
      'Replaces everything with a freshly seeded state (one organization with a 50.00 USD wallet, one workspace, one full-access key) ' +
      'and answers its key. The clock may start afresh at any time, even an earlier one: nothing is left to contradict it.',
    body: ResetBody,
    responses: { 200: { description: 'Reset', schema: ResetResult } },
    handler: (c) => {
      const b = c.body;
      if (b.now !== undefined && Date.parse(b.now) > LAST_TIME_MS)
        throw validationError({ now: `must be at most ${iso(LAST_TIME_MS)}, the latest the clock goes` });
      const current = c.data.meta.clock;
      const clock =
        b.clock !== undefined || b.now !== undefined
          ? setMode(current, b.clock ?? current.mode, b.now !== undefined ? Date.parse(b.now) : c.s.now)
          : current;
      const fresh = c.world.seed({ seed: b.seed ?? c.data.meta.seed, clock });
      Object.assign(c.data, fresh);
      c.s.markDirty();
      return {
        body: {
          api_key: fresh.meta.default_api_key,
          workspace_id: fresh.meta.default_workspace_id,
          now: iso(clockNow(clock)),
        },
      };
    },
  }),

  route({
    method: 'GET',
    path: '/_sim/clock',
    summary: 'Show the clock',
    responses: { 200: { description: 'The clock', schema: SimClockSchema } },
    handler: (c) => ({ body: clockView(c) }),
  }),
  route({
    method: 'POST',
    path: '/_sim/clock',
    summary: "Set the clock's mode, or move it forward to a time",
    description:
      'Moving forward runs every transition due by the new time, in time order, before the reply. The clock never moves backwards (reset can): ' +
      "a `now` before the clock's time is refused, or with `at_least` leaves the clock where it is." +
      MOVE_TERMS,
    body: ClockBody,
    responses: { 200: { description: 'The clock', schema: SimClockSchema } },
    errors: { 409: ['conflict'], 503: ['move_stopped'] },
    handler: (c) => {
      const b = c.body;
      if (b.at_least && b.now === undefined)
        throw validationError({ at_least: 'goes with now: the least time wanted' });
      const asked = b.now !== undefined ? Date.parse(b.now) : c.s.now;
      if (asked < c.s.now && !b.at_least) throw validationError({ now: 'cannot move the clock backwards' });
      c.data.meta.clock = setMode(c.data.meta.clock, b.mode ?? c.data.meta.clock.mode, c.s.now);
      c.s.markDirty();
      return moveTo(c, Math.max(asked, c.s.now), 'now');
    },
  }),
  route({
    method: 'POST',
    path: '/_sim/clock/advance',
    summary: 'Advance the clock',
    description:
      'Runs every transition due in the next `seconds`, in time order, and every webhook delivery that falls due, before the reply.' +
      MOVE_TERMS,
    body: AdvanceBody,
    responses: { 200: { description: 'The clock', schema: SimClockSchema } },
    errors: { 409: ['conflict'], 503: ['move_stopped'] },
    handler: (c) => moveTo(c, c.s.now + Math.round(c.body.seconds * 1000), 'seconds'),
  }),
];
