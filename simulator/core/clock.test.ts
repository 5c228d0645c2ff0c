// The simulator clock (docs/simulator.md, "`vmv sim serve`"; `vmv sim clock`; clock.ts): real mode
// is wall time plus any advances; manual mode stands still until advanced; switching mode does not
// move time (a clock set to manual stands still at the moment it was set, one set back to real runs
// on from where it stood). The wall clock is a number handed in, so every row is exact.
import { describe, expect, it } from 'vitest';
import { advance, type ClockState, clockNow, iso, realClock, setMode } from './clock.js';

const WALL = Date.UTC(2025, 0, 15, 12);
const real = (offset: number): ClockState => ({ mode: 'real', offset_ms: offset, frozen_ms: null });
const manual = (at: number): ClockState => ({ mode: 'manual', offset_ms: 0, frozen_ms: at });

describe('clockNow: wall time plus the offset, or the frozen time', () => {
  it.each([
    ['a new real clock', realClock(), WALL, WALL],
    ['real, advanced an hour', real(3600_000), WALL, WALL + 3600_000],
    ['real, set back a day', real(-86_400_000), WALL, WALL - 86_400_000],
    ['manual', manual(1_000), WALL, 1_000],
    ['manual, whatever the wall says', manual(1_000), WALL + 999_999, 1_000],
    [
      'manual without a frozen time: as real',
      { mode: 'manual', offset_ms: 5, frozen_ms: null } as ClockState,
      WALL,
      WALL + 5,
    ],
  ])('%s', (_what, c, wall, now) => expect(clockNow(c, wall)).toBe(now));
});

describe('setMode: switching does not move time', () => {
  it.each([
    // from, to, at (explicit), wall at the switch, the clock after, its time at the switch and a
    // minute later on the wall
    [
      'real → manual stands still',
      real(3600_000),
      'manual',
      undefined,
      manual(WALL + 3600_000),
      WALL + 3600_000,
      WALL + 3600_000,
    ],
    [
      'manual → real runs on from there',
      manual(WALL - 5_000),
      'real',
      undefined,
      real(-5_000),
      WALL - 5_000,
      WALL + 55_000,
    ],
    ['manual → manual stays', manual(42), 'manual', undefined, manual(42), 42, 42],
    ['real → real keeps its offset', real(7), 'real', undefined, real(7), WALL + 7, WALL + 60_007],
    ['→ manual at a given time', real(0), 'manual', 1_000, manual(1_000), 1_000, 1_000],
    ['→ real at a given time', manual(0), 'real', WALL + 10_000, real(10_000), WALL + 10_000, WALL + 70_000],
  ] as const)('%s', (_what, from, mode, at, after, atSwitch, minuteLater) => {
    const c = setMode(from, mode, at, WALL);
    expect(c).toEqual(after);
    expect(clockNow(c, WALL)).toBe(atSwitch);
    expect(clockNow(c, WALL + 60_000)).toBe(minuteLater);
  });
});

describe('advance: moves the clock, whatever its mode', () => {
  it.each([
    ['manual, an hour', manual(WALL), 3600_000, WALL + 3600_000],
    ['manual, a month of days', manual(WALL), 30 * 86_400_000, WALL + 30 * 86_400_000],
    ['manual, nothing', manual(WALL), 0, WALL],
    ['real, an hour', real(0), 3600_000, WALL + 3600_000],
    ['real, advanced twice', real(60_000), 60_000, WALL + 120_000],
  ])('%s', (_what, c, ms, now) => expect(clockNow(advance(c, ms, WALL), WALL)).toBe(now));
});

describe('iso: an instant as the API writes it', () => {
  it.each([
    [0, '1970-01-01T00:00:00.000Z'],
    [WALL, '2025-01-15T12:00:00.000Z'],
    [WALL + 1, '2025-01-15T12:00:00.001Z'],
  ])('%i: %s', (t, text) => expect(iso(t)).toBe(text));
});
