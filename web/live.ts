// The page's live link: the simulator's change events over Server-Sent Events (GET /_sim/events),
// which the browser resumes after a break with Last-Event-ID; the panes subscribe to the world's
// values they show, and read again when one changes.
import { useEffect, useState } from 'preact/hooks';

/** A change of the world: the top-level values written ('*': anything) and the ids of the records. */
export interface Change {
  units: string[];
  ids: string[];
  /** when the page heard of it (ms) */
  at: number;
}

type Listener = (c: Change) => void;
const listeners = new Set<Listener>();
const statusListeners = new Set<(s: LinkState) => void>();
export type LinkState = 'connecting' | 'live' | 'disconnected';
let state: LinkState = 'connecting';
/** The changes heard lately (the clock bar shows what an advance set off). */
export const recent: Change[] = [];

function setState(s: LinkState) {
  state = s;
  for (const fn of statusListeners) fn(s);
}

function emit(c: Change) {
  recent.push(c);
  if (recent.length > 200) recent.shift();
  for (const fn of listeners) fn(c);
}

/** Opens the link (once). */
export function connect(): void {
  const es = new EventSource('/_sim/events');
  es.addEventListener('open', () => setState('live'));
  es.addEventListener('error', () => setState('disconnected'));
  es.addEventListener('change', (e) => {
    const d = JSON.parse((e as MessageEvent).data) as { units: string[]; ids: string[] };
    emit({ ...d, at: Date.now() });
  });
  // the server no longer knows what was missed: everything is read again
  es.addEventListener('reset', () => emit({ units: ['*'], ids: [], at: Date.now() }));
}

/** Whether a change touches any of `units`. */
export const changed = (c: Change, units: string[]) => c.units.includes('*') || c.units.some((u) => units.includes(u));

/** A number that grows with each change `touches` accepts: an effect's dependency. */
export function useChanges(touches: (c: Change) => boolean): number {
  const [n, setN] = useState(0);
  useEffect(() => {
    const fn = (c: Change) => touches(c) && setN((x) => x + 1);
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, []);
  return n;
}

/** The link's state, for the bar that says whether the page is live. */
export function useLinkState(): LinkState {
  const [s, setS] = useState(state);
  useEffect(() => {
    statusListeners.add(setS);
    setS(state); // (it may have moved between the first render and now)
    return () => void statusListeners.delete(setS);
  }, []);
  return s;
}
