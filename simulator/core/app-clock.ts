// The units of work the request handler (app.ts) runs under the lock outside a request's steps: a
// transaction for its callers (Transactor), a slice of what fell due (each move of the clock runs in
// slices: move.ts), and the real clock's loop's tick, which catches up in slices while reads answer
// from the last one; with the wiring they and a request's steps share (Wiring) and what a tick found.
import { setMode } from './clock.js';
import type { Transactor, WorldServices } from './http.js';
import type { Slice } from './move.js';
import { nextDue } from './scheduler.js';
import { NEEDS_LOCK, type Session, type WorldStore } from './session.js';
import type { DueStall } from './stall.js';
import type { World } from './world.js';

/** What a tick found: the clock and its next transition; or (a full disk) only when to look again, whatever the clock's mode. */
export type Tick = { nextDueMs: number | null; nowMs: number; mode: 'real' | 'manual' } | { retryInMs: number };

/** What the steps (app.ts) and the units of work here use of the app around them. */
export interface Wiring {
  run(s: Session, until: number): Promise<number>;
  /** runs what falls due by `until` for SLICE_MS of work at most (scheduler.ts runSome): `done` when all of it ran */
  runSlice(s: Session, until: number): Promise<{ ran: number; done: boolean }>;
  services: WorldServices;
  /** reads answer during a catch-up without waiting for it (AppOptions.catchesUp) */
  readsAnswerBehind: boolean;
  /** the real-clock loop's last slice left more due: a catch-up is under way (ticker) */
  catchingUp: boolean;
  /** due work a full disk keeps from being saved (stall.ts) */
  stall: DueStall;
}

/**
 * One unit of work under the lock: a slice of what fell due runs first (all of it, unless a real
 * clock is far behind: the rest is the catch-up's), then `fn`, committed if it wrote (Transactor).
 */
export function transactor(store: WorldStore, w: Wiring): Transactor['transaction'] {
  return (fn) =>
    store.withLock(async (ss) => {
      const s = await ss.begin();
      await w.runSlice(s, s.now);
      try {
        const out = await fn(s);
        if (s.dirty) await ss.commit(s);
        return out;
      } catch (e) {
        ss.rollback();
        throw e;
      }
    });
}

/** A slice as the app runs it: also when the next transition is due, and how the clock runs (for the ticker). */
interface AppSlice extends Slice {
  nextDueMs: number | null;
  mode: 'real' | 'manual';
}

/**
 * One slice of work under the lock (move.ts): what falls due by `to` (by the clock's time when
 * `to` is behind it), for SLICE_MS at most; with `setClock`, the clock set where it stopped. It is
 * committed, and its after-commit work (deliveries) started, before the next slice begins.
 */
export function slicer(store: WorldStore, w: Wiring, after: (data: World) => void) {
  return (to: number, left: number, setClock: boolean): Promise<AppSlice> =>
    store.withLock(async (ss) => {
      const s = await ss.begin();
      const view = (r: Omit<AppSlice, 'nextDueMs' | 'mode'>): AppSlice => ({
        ...r,
        nextDueMs: nextDue(s),
        mode: s.data.meta.clock.mode,
      });
      if (s.now < left) return view({ now: s.now, done: true, ran: 0, reset: true });
      try {
        const r = await w.runSlice(s, Math.max(to, s.now));
        if (setClock) {
          s.data.meta.clock = setMode(s.data.meta.clock, s.data.meta.clock.mode, s.now);
          s.markDirty();
        }
        if (s.dirty) {
          await ss.commit(s);
          after(s.data);
        }
        return view({ now: s.now, ...r });
      } catch (e) {
        ss.rollback();
        throw e;
      }
    });
}

/**
 * Runs what fell due (a real clock's loop): a look without the cross-process lock when nothing
 * is; otherwise one slice of it, so a clock that stood still long (a server started on a data file
 * untouched for months) catches up in slices, the loop looking again at once; meanwhile reads answer
 * from the disk as of the last slice (Wiring.catchingUp), writes wait. What a full disk keeps from
 * being saved is looked at again after the stall's pause (stall.ts).
 */
export function ticker(
  store: WorldStore,
  slice: ReturnType<typeof slicer>,
  after: (data: World) => void,
  w: Wiring,
): () => Promise<Tick> {
  const { stall } = w;
  return async () => {
    const look = (s: Session) => ({ data: s.data, nextDueMs: nextDue(s), nowMs: s.now, mode: s.data.meta.clock.mode });
    const seen = await store.withRead(async (ss) => {
      const t = look(await ss.begin());
      const due = t.nextDueMs !== null && t.nextDueMs <= t.nowMs;
      if (due && !stall.waiting()) throw NEEDS_LOCK;
      return due ? { ...t, nextDueMs: t.nowMs + stall.retryInMs() } : t;
    });
    if (seen !== NEEDS_LOCK) {
      w.catchingUp = false;
      const { data, ...t } = seen;
      after(data);
      return t;
    }
    let r: AppSlice;
    try {
      r = await slice(-Infinity, -Infinity, false);
    } catch (e) {
      // (reads go back to running what is due themselves)
      w.catchingUp = false;
      if (!stall.failed(e)) throw e;
      // (looked at again after the pause, whatever the clock's mode: what fell due is still to run)
      return { retryInMs: stall.retryInMs() };
    }
    stall.saved();
    w.catchingUp = !r.done;
    return { nextDueMs: r.done ? r.nextDueMs : r.now, nowMs: r.now, mode: r.mode };
  };
}
