// The simulator clock. Its state lives in the store so the server and every embedded CLI process
// share one notion of "now". Real mode: wall time plus any advances. Manual mode: stands still
// until advanced. This is the only place the simulator reads the wall clock.

export interface ClockState {
  mode: 'real' | 'manual';
  /** real mode: milliseconds added to wall time by advances */
  offset_ms: number;
  /** manual mode: the frozen time in epoch milliseconds */
  frozen_ms: number | null;
}

export const realClock = (): ClockState => ({ mode: 'real', offset_ms: 0, frozen_ms: null });

export function clockNow(c: ClockState, wall: number = Date.now()): number {
  return c.mode === 'manual' && c.frozen_ms !== null ? c.frozen_ms : wall + c.offset_ms;
}

/** Switch mode without moving time: a clock set to manual stands still at the moment it was set. */
export function setMode(c: ClockState, mode: ClockState['mode'], at?: number, wall: number = Date.now()): ClockState {
  const now = at ?? clockNow(c, wall);
  return mode === 'manual' ? { mode, offset_ms: 0, frozen_ms: now } : { mode, offset_ms: now - wall, frozen_ms: null };
}

export function advance(c: ClockState, ms: number, wall: number = Date.now()): ClockState {
  return c.mode === 'manual' ? { ...c, frozen_ms: clockNow(c, wall) + ms } : { ...c, offset_ms: c.offset_ms + ms };
}

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The latest the clock goes (9998-12-31T23:59:59.999Z): a year short of the last moment a timestamp
 * of the API can say, so times computed ahead of the clock (a plan's period end, a schedule's next
 * post, a number's renewal) fit too. Past 9999 `iso` writes `+010000-…`, which no client parses as
 * the spec's ISO 8601 and `now` itself refuses.
 */
export const LAST_TIME_MS = Date.UTC(9998, 11, 31, 23, 59, 59, 999);
