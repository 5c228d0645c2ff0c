// Formats the command line and the simulator both check (docs/scripting.md,
// "Arguments checked before any request"; docs/spec-silent.md, "Video schedules"): E.164 numbers;
// ISO 8601 times with Z or an offset, or a date; real calendar dates (no 30 February, leap years as
// the Gregorian calendar has them); and time-zone names: an IANA name the platform knows
// (Area/Location, Etc/*, or one of the database's old names such as UTC or EST5EDT), kept as
// written with its letter case set right, while abbreviations such as BST or PST and offsets such
// as +02:00 are refused.
import { describe, expect, it } from 'vitest';
import { canonicalZone, E164, isDate, isIsoTime } from './formats.js';

describe('E164: +, a country code not starting with 0, up to 15 digits in all', () => {
  it.each([
    ['+14155550100', true],
    ['+442071230000', true],
    ['+12', true],
    ['+123456789012345', true],
    ['+1234567890123456', false],
    ['+1', false],
    ['+04155550100', false],
    ['14155550100', false],
    ['+1 415 555 0100', false],
    ['+1-415-555-0100', false],
    ['', false],
  ])('%j: %s', (n, ok) => expect(E164.test(n)).toBe(ok));
});

describe('isIsoTime: a date, or a date-time with Z or an offset, on a real calendar', () => {
  it.each([
    ['2026-01-31T09:00:00Z', true],
    ['2026-01-31T09:00:00.123Z', true],
    ['2026-01-31T09:00Z', true],
    ['2026-01-31T09:00:00+02:00', true],
    ['2026-01-31T09:00:00-0330', true],
    ['2026-01-31T09:00:00+23:59', true],
    ['2026-01-31', true],
    ['2024-02-29T00:00:00Z', true],
    // a time without Z or an offset would mean the local time of whoever reads it
    ['2026-01-31T09:00:00', false],
    ['2026-01-31T09Z', false],
    ['2026-01-31 09:00:00Z', false],
    ['2026-02-30T09:00:00Z', false],
    ['2025-02-29', false],
    ['2026-01-31T24:00:00Z', false],
    ['2026-01-31T23:60:00Z', false],
    ['2026-01-31T23:59:60Z', false],
    ['2026-01-31T09:00:00+24:00', false],
    ['2026-01-31T09:00:00+02:60', false],
    ['2026-1-31', false],
    ['yesterday', false],
    ['', false],
  ])('%j: %s', (v, ok) => expect(isIsoTime(v)).toBe(ok));
});

describe('isDate: YYYY-MM-DD that exists', () => {
  it.each([
    ['2026-01-31', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['2025-02-29', false],
    ['2100-02-29', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-01-00', false],
    ['2026-01-32', false],
    ['26-01-31', false],
    ['2026-01-31T00:00:00Z', false],
    ['2026/01/31', false],
  ])('%j: %s', (v, ok) => expect(isDate(v)).toBe(ok));
});

describe('canonicalZone: an IANA name the platform knows, its letter case set right, or null', () => {
  it.each([
    ['America/New_York', 'America/New_York'],
    ['america/new_york', 'America/New_York'],
    ['AMERICA/NEW_YORK', 'America/New_York'],
    ['Europe/London', 'Europe/London'],
    ['Australia/Lord_Howe', 'Australia/Lord_Howe'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    // kept as written where the platform has an older name for it
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Europe/Kyiv', 'Europe/Kyiv'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['etc/gmt+5', 'Etc/GMT+5'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['EST5EDT', 'EST5EDT'],
    // abbreviations could mean several zones; offsets are not zone names
    ['BST', null],
    ['PST', null],
    ['CEST', null],
    ['+02:00', null],
    ['UTC+2', null],
    ['GMT+1', null],
    // not zones the platform knows
    ['Mars/Olympus_Mons', null],
    ['Europe/Atlantis', null],
    ['America', null],
    ['', null],
  ])('%j: %j', (zone, name) => expect(canonicalZone(zone)).toBe(name));

  // docs/spec-silent.md ("Video schedules") says the letter case is set right, also for a name the
  // platform (Node 20's ICU) knows only by an older alias (Asia/Calcutta, Europe/Kiev, Asia/Saigon,
  // America/New_York for EST5EDT): the name written is kept, not swapped for the alias
  it.each([
    ['asia/kolkata', 'Asia/Kolkata'],
    ['europe/kyiv', 'Europe/Kyiv'],
    ['asia/ho_chi_minh', 'Asia/Ho_Chi_Minh'],
    ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
    ['est5edt', 'EST5EDT'],
    ['ASIA/KATHMANDU', 'Asia/Kathmandu'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['pst8pdt', 'PST8PDT'],
    ['zulu', 'Zulu'],
  ])('%j: %j (docs/spec-silent.md: letter case set right)', (zone, name) => expect(canonicalZone(zone)).toBe(name));
});
