// Transitions that fall due on the simulator clock. A timer is a row in the store; runDue pops every
// timer due by `until` in time order (ties in scheduling order), running each at its own due time,
// so a job started by one command has moved on when the next command reads it.
import type { Session } from './store.js';

/** What a transition may use beyond the session: the API's own operations (the assistant's tools go through them). */
export interface TimerEnv {
  /** runs an API route as `workspaceId`'s key `apiKeyId` would, inside this session (validation, charges, history and events alike) */
  invoke: Invoke;
  /** why that key may not make that call (its scopes, the workspace's plan), or null when it may */
  authorize: (s: Session, as: { workspaceId: string; apiKeyId: string | null }, call: { method: string; path: string }) => Promise<string | null>;
}
export type Invoke = (s: Session, as: { workspaceId: string; apiKeyId: string | null }, call: { method: string; path: string; query?: Record<string, string | number | boolean | undefined>; body?: unknown }) => Promise<{ status: number; body: any }>;
export type TimerHandler = (s: Session, payload: Record<string, unknown>, env: TimerEnv) => void | Promise<void>;
export type TimerHandlers = Record<string, TimerHandler>;

export function schedule(s: Session, atMs: number, type: string, payload: Record<string, unknown> = {}): string {
  const id = `tmr_${s.data.meta.next_seq}`;
  s.data.timers.push({ id, at_ms: Math.max(atMs, s.now), seq: s.nextSeq(), type, payload });
  return id;
}

export function cancelTimers(s: Session, match: (type: string, payload: Record<string, unknown>) => boolean): void {
  const before = s.data.timers.length;
  s.data.timers = s.data.timers.filter((t) => !match(t.type, t.payload));
  if (s.data.timers.length !== before) s.markDirty();
}

export function nextDue(s: Session): number | null {
  let min: number | null = null;
  for (const t of s.data.timers) if (min === null || t.at_ms < min) min = t.at_ms;
  return min;
}

/** Runs every timer due by `until`, in time order; leaves s.now at `until`. Returns how many ran. */
export async function runDue(s: Session, until: number, handlers: TimerHandlers, env: TimerEnv): Promise<number> {
  let ran = 0;
  for (;;) {
    let next = -1;
    s.data.timers.forEach((t, i) => {
      const best = s.data.timers[next];
      if (t.at_ms <= until && (next < 0 || t.at_ms < best.at_ms || (t.at_ms === best.at_ms && t.seq < best.seq))) next = i;
    });
    if (next < 0) break;
    const [timer] = s.data.timers.splice(next, 1);
    s.markDirty();
    s.now = Math.max(s.now, timer.at_ms);
    const handler = handlers[timer.type];
    if (handler) await handler(s, timer.payload, env);
    ran++;
  }
  s.now = Math.max(s.now, until);
  return ran;
}
