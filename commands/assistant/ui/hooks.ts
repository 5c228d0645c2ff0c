// The chat's small hooks on React and the terminal: its state (the reducer, read as of the last
// change), the screen's size (following the terminal's resizes), and the spinner's frame.
import { useStdout } from 'ink';
import { useEffect, useReducer, useRef, useState } from 'react';
import { initialState, reduce, WELCOME, type ChatAction, type ChatState } from './state.js';

/**
 * The chat's state, and `act`, which changes it. `current()` is the state as of the last change, not
 * the last render: keys that arrive before the screen is drawn again (a double tap, keys sent
 * together) are read against what the keys before them did.
 */
export function useChatState(): { state: ChatState; current: () => ChatState; act: (a: ChatAction) => void } {
  const [state, dispatch] = useReducer(reduce, WELCOME, initialState);
  const ref = useRef<ChatState>(state);
  const act = (a: ChatAction) => {
    ref.current = reduce(ref.current, a);
    dispatch(a);
  };
  return { state, current: () => ref.current, act };
}

/** The screen's size: `fixed` when given (tests), otherwise the terminal's, as it is resized. */
export function useScreenSize(fixed?: { columns: number; rows: number }): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => fixed ?? { columns: stdout.columns || 80, rows: stdout.rows || 24 });
  useEffect(() => {
    if (fixed) return;
    const resized = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on('resize', resized);
    return () => void stdout.off('resize', resized);
  }, [stdout, fixed]);
  return size;
}

/** A count that goes up every 100 ms while `on` (the spinner's frame while a run works). */
export function useTicker(on: boolean): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setTick((n) => n + 1), 100);
    return () => clearInterval(t);
  }, [on]);
  return tick;
}
