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

/** Everything may have changed: every pane reads its data again. */
const everything = () => emit({ units: ['*'], ids: [], at: Date.now() });

/** How soon a link the server refused (503 past its cap of streams) or ended for good is opened again (ms). */
const REOPEN_MS = 5000;

/** Opens the link (once). */
export function connect(): void {
  open(false);
}

/**
 * The browser resumes a broken stream by itself (Last-Event-ID); a refused one it gives up, and
 * a new one (`again`) starts without knowing what was missed, so its opening is a reset too.
 */
function open(again: boolean): void {
  const es = new EventSource('/_sim/events');
  es.addEventListener('open', () => setState('live'));
  es.addEventListener('error', () => {
    setState('disconnected');
    if (es.readyState === EventSource.CLOSED) setTimeout(() => open(true), REOPEN_MS);
  });
  es.addEventListener('hello', () => again && everything());
  es.addEventListener('change', (e) => {
    const d = JSON.parse((e as MessageEvent).data) as { units: string[]; ids: string[] };
    emit({ ...d, at: Date.now() });
  });
  // the server dropped this page for falling behind, or no longer knows what it missed: everything is read again
  es.addEventListener('reset', everything);
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
