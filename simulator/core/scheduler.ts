// Transitions that fall due on the simulator clock. A timer is a row in the store (data.timers);
// runDue pops every timer due by `until` in time order (ties in scheduling order), running each at
// its own due time, so a job started by one command has moved on when the next command reads it.
//
// Due work is found through a priority queue ordered by (at_ms, seq), derived from data.timers
// (derived.ts) and kept in step by schedule(), cancelTimers() and runDue(), so one step costs log n
// however many timers wait. The queue deletes lazily: a cancelled timer stays in it until it
// reaches the top and is found gone from data.timers. A timer that ran or was cancelled leaves
// data.timers by a swap with the last row (data.timers is unordered: the queue holds the order), so
// no step shifts the array, and the journal says only the row moved and the shorter length
// (data.timers is a record collection: tracker.ts). Another process's changes to the timers move
// their epoch, and the queue is built again.
import TinyQueue from 'tinyqueue';
import { builtDerived, derived, dropDerived } from '../store/derived.js';
import type { World, Timer } from './world.js';
import type { Session } from './session.js';
import { raw, trackerOf } from '../store/tracker.js';

/** What a transition may use beyond the session: the API's own operations (the assistant's tools go through them). */
export interface TimerEnv {
  /** runs an API route as `workspaceId`'s key `apiKeyId` would, inside this session (validation, charges, history and events alike) */
  invoke: Invoke;
  /** why that key may not make that call (its scopes, the workspace's plan), or null when it may */
  authorize: (
    s: Session,
    as: { workspaceId: string; apiKeyId: string | null },
    call: { method: string; path: string },
  ) => Promise<string | null>;
}
export type Invoke = (
  s: Session,
  as: { workspaceId: string; apiKeyId: string | null },
  call: { method: string; path: string; query?: Record<string, string | number | boolean | undefined>; body?: unknown },
) => Promise<{ status: number; body: any }>;
export type TimerHandler = (s: Session, payload: Record<string, unknown>, env: TimerEnv) => void | Promise<void>;
export type TimerHandlers = Record<string, TimerHandler>;

/**
 * The queue of data.timers: the heap (of stored rows), and where each live timer sits in the array
 * it was built from (the data's view of it, through which changes are journaled), at which epoch.
 */
interface Queue {
  timers: Timer[];
  heap: TinyQueue<Timer>;
  index: Map<string, number>;
  epoch: number;
  /** how many rows of data.timers it holds: rows past it were appended by another process */
  known: number;
}

const KEY = 'timers';
const UNITS = [KEY];
const byDue = (a: Timer, b: Timer) => a.at_ms - b.at_ms || a.seq - b.seq;
const epochOf = (data: World) => trackerOf(data)?.epochOf(UNITS) ?? 0;

function build(data: World): Queue {
  const rows = raw(data.timers) as Timer[];
  // (the heap reorders the array it is given: a copy, while the index records places in the data)
  return {
    timers: data.timers,
    heap: new TinyQueue(rows.slice(), byDue),
    index: new Map(rows.map((t, i) => [t.id, i])),
    epoch: epochOf(data),
    known: rows.length,
  };
}

/**
 * The queue of s.data, rebuilt when data.timers was replaced as a whole (a reset) or changed by
 * another process; rows another process appended are folded in.
 */
function queue(data: World): Queue {
  const built = builtDerived<Queue>(data, KEY);
  if (built && (built.timers !== data.timers || built.epoch !== epochOf(data))) dropDerived(data, KEY);
  const q = derived(data, KEY, build);
  const rows = raw(q.timers);
  for (let i = q.known; i < rows.length; i++) {
    q.heap.push(rows[i]);
    q.index.set(rows[i].id, i);
  }
  q.known = rows.length;
  return q;
}

/** The queue's own changes to data.timers move its epoch: it is still in step with them. */
function inStep(data: World, q: Queue): void {
  q.epoch = epochOf(data);
  q.known = q.timers.length;
}

const isLive = (q: Queue, t: Timer) => raw(q.timers[q.index.get(t.id) ?? -1]) === t;

/** The earliest live timer, dropping the cancelled ones above it. */
function peek(q: Queue): Timer | undefined {
  let t = q.heap.peek();
  while (t && !isLive(q, t)) {
    q.heap.pop();
    t = q.heap.peek();
  }
  return t;
}

/** Takes timer t out of data.timers in O(1): the last row moves into its place. */
function remove(data: World, q: Queue, t: Timer): void {
  const i = q.index.get(t.id)!;
  const last = raw(q.timers.pop()!);
  q.index.delete(t.id);
  if (last !== t) {
    q.timers[i] = last;
    q.index.set(last.id, i);
  }
  inStep(data, q);
}

export function schedule(s: Session, atMs: number, type: string, payload: Record<string, unknown> = {}): string {
  const q = queue(s.data);
  const timer = timerRow(s.nextSeq(), Math.max(atMs, s.now), type, payload);
  q.index.set(timer.id, q.timers.push(timer) - 1);
  q.heap.push(timer);
  inStep(s.data, q);
  return timer.id;
}

/** A row of data.timers, numbered `seq` (an upgrade of a data file adds rows before any queue exists; schedule() otherwise). */
export const timerRow = (seq: number, atMs: number, type: string, payload: Record<string, unknown>): Timer => ({
  id: `tmr_${seq}`,
  at_ms: atMs,
  seq,
  type,
  payload,
});

export function cancelTimers(s: Session, match: (type: string, payload: Record<string, unknown>) => boolean): void {
  const q = queue(s.data);
  const before = q.timers.length;
  // from the end: a row swapped into a cancelled one's place has been looked at already
  for (let i = before - 1; i >= 0; i--) {
    const t = raw(q.timers[i]);
    if (match(t.type, t.payload)) remove(s.data, q, t);
  }
  if (q.timers.length === before) return;
  s.markDirty();
  // cancelled timers leave the heap lazily; once they outnumber the live ones, it is rebuilt
  if (q.heap.length > 2 * q.timers.length + 64) q.heap = new TinyQueue((raw(q.timers) as Timer[]).slice(), byDue);
}

/** When the next timer falls due; with `only`, the next of the types it accepts (a scan: for the clock's view, not the run loop). */
export function nextDue(s: Session, only?: (type: string) => boolean): number | null {
  if (!only) return peek(queue(s.data))?.at_ms ?? null;
  let min: number | null = null;
  for (const t of s.data.timers) if (only(t.type) && (min === null || t.at_ms < min)) min = t.at_ms;
  return min;
}

/** Runs every timer due by `until`, in time order; leaves s.now at `until`. Returns how many ran. */
export async function runDue(s: Session, until: number, handlers: TimerHandlers, env: TimerEnv): Promise<number> {
  return (await runSome(s, until, handlers, env, () => false)).ran;
}

/**
 * Runs the timers due by `until` in time order until `enough()` says so (asked after each): one
 * slice of a long move of the clock. `done` when every one due by `until` ran, s.now then at
 * `until`; otherwise s.now is the due time of the last one run, and the rest (some perhaps due at
 * that very instant) are for the next slice.
 */
export async function runSome(
  s: Session,
  until: number,
  handlers: TimerHandlers,
  env: TimerEnv,
  enough: (ran: number) => boolean,
): Promise<{ ran: number; done: boolean }> {
  let ran = 0;
  for (;;) {
    // asked again each step: a transition may have replaced data.timers (a reset)
    const q = queue(s.data);
    const timer = peek(q);
    if (!timer || timer.at_ms > until) break;
    if (ran > 0 && enough(ran)) return { ran, done: false };
    q.heap.pop();
    remove(s.data, q, timer);
    s.markDirty();
    s.now = Math.max(s.now, timer.at_ms);
    const handler = handlers[timer.type];
    if (handler) await handler(s, timer.payload, env);
    ran++;
  }
  s.now = Math.max(s.now, until);
  return { ran, done: true };
}

/** How many timers wait that fall due by `until`, leaving out the types `skip` names (a scan: for a move's estimate). */
export function countDue(s: Session, until: number, skip: ReadonlySet<string>): number {
  let n = 0;
  for (const t of raw(s.data.timers) as Timer[]) if (t.at_ms <= until && !skip.has(t.type)) n++;
  return n;
}
