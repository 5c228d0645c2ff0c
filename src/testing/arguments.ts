// The arguments of vmv/testing's functions, checked before anything is sent: a test written in
// JavaScript (or with a cast) gets a TypeError or RangeError naming the call and what it takes,
// never a message about JSON (NaN sent as null), a crash deep in a parser, an option silently
// ignored, or a wait that never ends (a timeout given as '5s').
import { parseDuration } from '../duration.js';

/** How a value a user passed reads in an error: strings quoted, everything else as JavaScript shows it. */
export const shown = (v: unknown): string => {
  if (typeof v === 'string') return `'${v}'`;
  if (v instanceof Date) return 'a Date';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'function') return 'a function';
  return v !== null && typeof v === 'object' ? 'an object' : String(v);
};

/**
 * Seconds in a duration as `advance` takes it: a number of seconds (0 or more, finite), or the
 * CLI's units ('90s', '15m', '2h', '1d', '1h30m'). `call` names the call in the error. (How far
 * the clock may move at once is the simulator's to say: a SimulatorError.)
 */
export function durationSeconds(call: string, d: unknown): number {
  const takes = "seconds (a number, 0 or more) or a duration such as '90s', '15m', '2h', '1d', '1h30m'";
  let s: number;
  if (typeof d === 'number') s = d;
  else if (typeof d === 'string') {
    try {
      s = parseDuration(d);
    } catch {
      throw new TypeError(`${call}: ${shown(d)} is not a duration; it takes ${takes}.`);
    }
  } else throw new TypeError(`${call}: it takes ${takes}, not ${shown(d)}.`);
  if (!Number.isFinite(s)) throw new RangeError(`${call}: ${shown(d)} is not a number of seconds; it takes ${takes}.`);
  if (s < 0) throw new RangeError(`${call}: ${shown(d)} is negative: the clock moves only forward.`);
  return s;
}

/** `v` when it is a whole number from `min` to `max`, else a RangeError (TypeError for a non-number) naming `what`. */
export function wholeNumber(what: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number') throw new TypeError(`${what} must be a whole number, not ${shown(v)}.`);
  if (!Number.isInteger(v) || v < min || v > max)
    throw new RangeError(`${what} must be a whole number from ${min} to ${max}, not ${shown(v)}.`);
  return v;
}

/** Throws a TypeError naming every key of `o` that is not one of `known` (a misspelt option would be ignored). */
export function knownKeys(call: string, o: object, known: readonly string[]): void {
  const unknown = Object.keys(o).filter((k) => !known.includes(k));
  if (unknown.length)
    throw new TypeError(`${call}: unknown option ${unknown.map(shown).join(', ')}; it takes ${known.join(', ')}.`);
}

/** `o` when it is an options object (or undefined: none), else a TypeError. */
export function optionsObject(call: string, o: unknown): Record<string, unknown> {
  if (o === undefined) return {};
  if (o === null || typeof o !== 'object' || Array.isArray(o))
    throw new TypeError(`${call}: its options are an object, not ${shown(o)}.`);
  return o as Record<string, unknown>;
}

const START_OPTIONS = ['clock', 'now', 'seed', 'data', 'personas'] as const;

/** startSimulator's options, checked: every mistake a TypeError or RangeError naming the option. */
export function checkStartOptions(o: unknown): void {
  const call = 'startSimulator';
  const opts = optionsObject(call, o);
  knownKeys(call, opts, START_OPTIONS);
  const { clock, now, seed, data, personas } = opts;
  if (clock !== undefined && clock !== 'manual' && clock !== 'real')
    throw new TypeError(`${call}: clock is 'manual' or 'real', not ${shown(clock)}.`);
  if (now !== undefined && typeof now !== 'string' && typeof now !== 'number' && !(now instanceof Date))
    throw new TypeError(`${call}: now is an ISO time, epoch milliseconds or a Date, not ${shown(now)}.`);
  if (seed !== undefined) wholeNumber(`${call}: seed`, seed, 0, 2 ** 32 - 1);
  if (data !== undefined && (typeof data !== 'string' || data === ''))
    throw new TypeError(`${call}: data is 'memory' or the path of a data file, not ${shown(data)}.`);
  if (personas !== undefined && (personas === null || typeof personas !== 'object' || Array.isArray(personas)))
    throw new TypeError(`${call}: personas is an object keyed by phone number, not ${shown(personas)}.`);
}

/** The start time in epoch milliseconds (undefined: now); a RangeError for a time that is none. */
export function startMs(now: unknown): number | undefined {
  if (now === undefined) return undefined;
  let ms = typeof now === 'number' ? now : Date.parse(String(now));
  if (now instanceof Date) ms = now.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`startSimulator: now is not a time: ${shown(now)}.`);
  return ms;
}

/** advanceUntilIdle's bounds, checked: the steps and the seconds ahead. */
export function idleBounds(o: unknown): { maxSteps: number; maxSeconds: number; maxTime: string | number } {
  const call = 'advanceUntilIdle';
  const opts = optionsObject(call, o);
  knownKeys(call, opts, ['maxSteps', 'maxTime']);
  const maxSteps = opts.maxSteps === undefined ? 1000 : wholeNumber(`${call}: maxSteps`, opts.maxSteps, 0, 1e6);
  const maxTime = (opts.maxTime ?? '31d') as string | number;
  return { maxSteps, maxTime, maxSeconds: durationSeconds(`${call}: maxTime`, maxTime) };
}

/**
 * waitFor's arguments, checked: `type` one of the event types the service sends (a misspelt one
 * would only time out), a timeout in milliseconds (a '5s' would never end), `where` a function.
 */
export function checkWait(type: unknown, o: unknown, types: readonly string[]): { timeout: number } {
  const call = `waitFor(${shown(type)})`;
  if (typeof type !== 'string' || !types.includes(type))
    throw new TypeError(`${call}: the service sends no such event; its types are ${types.join(', ')}.`);
  const opts = optionsObject(call, o);
  knownKeys(call, opts, ['timeout', 'where']);
  const timeout = opts.timeout === undefined ? 5000 : opts.timeout;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0)
    throw new TypeError(`${call}: timeout is wall milliseconds (a number, 0 or more), not ${shown(timeout)}.`);
  if (opts.where !== undefined && typeof opts.where !== 'function')
    throw new TypeError(`${call}: where is a function of the event, not ${shown(opts.where)}.`);
  return { timeout };
}
