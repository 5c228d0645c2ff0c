// Posting days and post times in a schedule's time zone (docs/spec-silent.md, "Video schedules",
// Posting days): the dates in time_zone on days_of_week (1 Monday … 7 Sunday), on or after
// starts_on, not skipped, not already run; the post time is post_hour:00 local time, so daylight
// saving is the zone's own (09:00 New York is 14:00Z in winter, 13:00Z in summer) and an hour a
// change skips moves forward as the zone does. Zones: America/New_York, Europe/London,
// Australia/Sydney (southern summer time), Asia/Kolkata (+05:30), Australia/Adelaide
// (+09:30/+10:30), Asia/Kathmandu (+05:45), America/St_Johns (-03:30/-02:30), Australia/Lord_Howe
// (a 30-minute change), Etc/GMT+5; and the same instants whatever the time zone of the machine the
// simulator runs on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, type Cadence, instantOf, isPostingDay, localDay, nextPosting, weekday } from './calendar.js';

const iso = (t: number) => new Date(t).toISOString();

// The tables are read as on a host in UTC: the host's own time zone changes a few of the instants
// (see "instantOf does not depend on the time zone of the host" below), and a test must not.
const hostZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (hostZone === undefined) delete process.env.TZ;
  else process.env.TZ = hostZone;
});
const ms = (s: string) => Date.parse(s);

/** The local wall clock of an instant in a zone, read by the platform's Intl (not by the code under test). */
function wallClock(t: number, zone: string): string {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

const NY = 'America/New_York';
const LONDON = 'Europe/London';
const SYDNEY = 'Australia/Sydney';

// biome-ignore format: a table, its columns aligned
const INSTANTS: [string, number, string, string, string][] = [
  // day           hour zone                   instant (UTC)               why
  ['2025-01-15',   9,   NY,                    '2025-01-15T14:00:00.000Z', 'winter: EST, -05:00'],
  ['2025-07-15',   9,   NY,                    '2025-07-15T13:00:00.000Z', 'summer: EDT, -04:00'],
  ['2025-03-08',   9,   NY,                    '2025-03-08T14:00:00.000Z', 'the day before spring forward'],
  ['2025-03-09',   1,   NY,                    '2025-03-09T06:00:00.000Z', 'spring forward, before the change'],
  ['2025-03-09',   2,   NY,                    '2025-03-09T07:00:00.000Z', 'spring forward: 02:00 is skipped, 03:00 EDT'],
  ['2025-03-09',   3,   NY,                    '2025-03-09T07:00:00.000Z', 'spring forward, after the change'],
  ['2025-03-09',   9,   NY,                    '2025-03-09T13:00:00.000Z', 'spring forward day, 09:00 EDT'],
  ['2025-11-01',   9,   NY,                    '2025-11-01T13:00:00.000Z', 'the day before fall back'],
  ['2025-11-02',   0,   NY,                    '2025-11-02T04:00:00.000Z', 'fall back, still EDT'],
  ['2025-11-02',   2,   NY,                    '2025-11-02T07:00:00.000Z', 'fall back, EST'],
  ['2025-11-02',   9,   NY,                    '2025-11-02T14:00:00.000Z', 'fall back day, 09:00 EST'],
  ['2025-01-15',   9,   LONDON,                '2025-01-15T09:00:00.000Z', 'winter: GMT'],
  ['2025-07-15',   9,   LONDON,                '2025-07-15T08:00:00.000Z', 'summer: BST, +01:00'],
  ['2025-03-30',   0,   LONDON,                '2025-03-30T00:00:00.000Z', 'spring forward, before the change'],
  ['2025-03-30',   1,   LONDON,                '2025-03-30T01:00:00.000Z', 'spring forward: 01:00 is skipped, 02:00 BST'],
  ['2025-03-30',   9,   LONDON,                '2025-03-30T08:00:00.000Z', 'spring forward day, 09:00 BST'],
  ['2025-10-26',   0,   LONDON,                '2025-10-25T23:00:00.000Z', 'fall back, still BST: the day before in UTC'],
  ['2025-10-26',   2,   LONDON,                '2025-10-26T02:00:00.000Z', 'fall back, GMT'],
  ['2025-01-15',   9,   SYDNEY,                '2025-01-14T22:00:00.000Z', 'southern summer: AEDT, +11:00, the day before in UTC'],
  ['2025-07-15',   9,   SYDNEY,                '2025-07-14T23:00:00.000Z', 'southern winter: AEST, +10:00'],
  ['2025-04-06',   1,   SYDNEY,                '2025-04-05T14:00:00.000Z', 'fall back, still AEDT'],
  ['2025-04-06',   3,   SYDNEY,                '2025-04-05T17:00:00.000Z', 'fall back, AEST'],
  ['2025-04-06',   9,   SYDNEY,                '2025-04-05T23:00:00.000Z', 'fall back day, 09:00 AEST'],
  ['2025-10-05',   1,   SYDNEY,                '2025-10-04T15:00:00.000Z', 'spring forward, before the change'],
  ['2025-10-05',   2,   SYDNEY,                '2025-10-04T16:00:00.000Z', 'spring forward: 02:00 is skipped, 03:00 AEDT'],
  ['2025-10-05',   9,   SYDNEY,                '2025-10-04T22:00:00.000Z', 'spring forward day, 09:00 AEDT'],
  ['2025-01-15',   9,   'Asia/Kolkata',        '2025-01-15T03:30:00.000Z', '+05:30 all year'],
  ['2025-07-15',   9,   'Asia/Kolkata',        '2025-07-15T03:30:00.000Z', '+05:30 all year'],
  ['2025-01-15',   0,   'Asia/Kolkata',        '2025-01-14T18:30:00.000Z', 'midnight: the day before in UTC'],
  ['2025-01-15',   9,   'Asia/Kathmandu',      '2025-01-15T03:15:00.000Z', '+05:45'],
  ['2025-01-15',   9,   'Australia/Adelaide',  '2025-01-14T22:30:00.000Z', 'ACDT, +10:30'],
  ['2025-07-15',   9,   'Australia/Adelaide',  '2025-07-14T23:30:00.000Z', 'ACST, +09:30'],
  ['2025-10-05',   2,   'Australia/Adelaide',  '2025-10-04T16:30:00.000Z', 'spring forward: 02:00 is skipped, 03:00 ACDT'],
  ['2025-01-15',   9,   'America/St_Johns',    '2025-01-15T12:30:00.000Z', 'NST, -03:30'],
  ['2025-07-15',   9,   'America/St_Johns',    '2025-07-15T11:30:00.000Z', 'NDT, -02:30'],
  ['2025-03-09',   2,   'America/St_Johns',    '2025-03-09T05:30:00.000Z', 'spring forward: 02:00 is skipped, 03:00 NDT'],
  ['2025-01-15',   9,   'Australia/Lord_Howe', '2025-01-14T22:00:00.000Z', 'summer: +11:00'],
  ['2025-07-15',   9,   'Australia/Lord_Howe', '2025-07-14T22:30:00.000Z', 'winter: +10:30'],
  ['2025-10-05',   2,   'Australia/Lord_Howe', '2025-10-04T15:30:00.000Z', 'a 30-minute change: 02:00 is skipped, 02:30'],
  ['2025-07-15',   9,   'Etc/GMT+5',           '2025-07-15T14:00:00.000Z', 'Etc/GMT+5 is five hours behind UTC, no DST'],
  ['2025-07-15',   9,   'UTC',                 '2025-07-15T09:00:00.000Z', 'UTC'],
];

/** Hours a fall-back change repeats. */
const AMBIGUOUS: [string, number, string, string][] = [
  ['2025-11-02', 1, NY, '2025-11-02T05:00:00.000Z'], // EDT, not 06:00Z EST
  ['2025-10-26', 1, LONDON, '2025-10-26T00:00:00.000Z'], // BST, not 01:00Z GMT
  ['2025-04-06', 2, SYDNEY, '2025-04-05T15:00:00.000Z'], // AEDT, not 16:00Z AEST
  ['2025-04-06', 2, 'Australia/Adelaide', '2025-04-05T15:30:00.000Z'], // ACDT, not 16:30Z ACST
];

describe('instantOf: post_hour:00 local time as an instant, daylight saving the zone’s own', () => {
  it.each(INSTANTS)('%s %i:00 %s: %s (%s)', (day, hour, zone, expected) => {
    expect(iso(instantOf(day, hour, zone))).toBe(expected);
  });

  it.each(INSTANTS)('%s %i:00 %s is on that day in the zone', (day, hour, zone) => {
    expect(localDay(instantOf(day, hour, zone), zone)).toBe(day);
  });

  // an hour that a fall-back change repeats is its first occurrence, still on daylight time (the
  // rule of docs/spec-silent.md, "Video schedules"; Temporal's "compatible"), and reads as that hour there
  it.each(AMBIGUOUS)('%s %i:00 %s, an hour that happens twice, is the first: %s', (day, hour, zone, expected) => {
    expect(iso(instantOf(day, hour, zone))).toBe(expected);
    expect(wallClock(instantOf(day, hour, zone), zone)).toBe(`${day} ${String(hour).padStart(2, '0')}:00`);
  });

  // every hour of every change day, in every zone: the local wall clock at the instant is that
  // hour, or the hour after it when the change skips it
  const CHANGE_DAYS = [
    ['2025-03-09', NY],
    ['2025-11-02', NY],
    ['2025-03-30', LONDON],
    ['2025-10-26', LONDON],
    ['2025-04-06', SYDNEY],
    ['2025-10-05', SYDNEY],
    ['2025-03-09', 'America/St_Johns'],
  ];
  it.each(CHANGE_DAYS)('%s %s: each hour is that hour, or later when skipped', (day, zone) => {
    for (let hour = 0; hour < 24; hour++) {
      const t = instantOf(day, hour, zone);
      const reads = wallClock(t, zone);
      const h = Number(reads.slice(11, 13));
      expect(reads.slice(0, 10), `${hour}:00`).toBe(day);
      expect(h === hour || (h === hour + 1 && reads.endsWith(':00')), `${hour}:00 reads ${reads}`).toBe(true);
    }
  });
});

/** Runs `fn` as if the simulator's host were in time zone `tz` (Node reads TZ again when it is set). */
function onHostIn<T>(tz: string, fn: () => T): T {
  const was = process.env.TZ;
  process.env.TZ = tz;
  try {
    return fn();
  } finally {
    if (was === undefined) delete process.env.TZ;
    else process.env.TZ = was;
  }
}

const HOSTS = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Honolulu',
];

// The post time must not depend on the time zone of the machine the simulator runs on. With
// @date-fns/tz 1.5.0's TZDateMini built from parts these rows did (date-fns/tz issues 13 and 40);
// instantOf is built on the zone's offsets instead, and they hold on every host.
// biome-ignore format: a table, its columns aligned
const HOST_DEPENDENT: [string, string, number, string, string, string][] = [
  // host                  day           hour zone                   expected
  // TZDateMini from parts gave
  ['Europe/Berlin',        '2025-10-26', 2,   LONDON,                '2025-10-26T02:00:00.000Z', '01:00Z: 01:00 GMT'],
  ['Australia/Sydney',     '2025-10-05', 2,   'Australia/Lord_Howe', '2025-10-04T15:30:00.000Z', '16:00Z: 03:00'],
  ['Australia/Lord_Howe',  '2025-10-05', 2,   SYDNEY,                '2025-10-04T16:00:00.000Z', '16:30Z: 03:30 AEDT'],
  ['Australia/Lord_Howe',  '2025-10-05', 2,   'Australia/Adelaide',  '2025-10-04T16:30:00.000Z', '17:00Z: 03:30 ACDT'],
  ['Pacific/Chatham',      '2025-04-06', 3,   SYDNEY,                '2025-04-05T17:00:00.000Z', '16:00Z: 02:00 AEST'],
];

describe('instantOf does not depend on the time zone of the host', () => {
  it.each(HOSTS)('on a host in %s, every row above gives the same instant', (host) => {
    const got = onHostIn(host, () => INSTANTS.map(([day, hour, zone]) => iso(instantOf(day, hour, zone))));
    expect(got).toEqual(INSTANTS.map((r) => r[3]));
  });

  // e.g. 01:00 New York on 2025-11-02 once gave 05:00Z (EDT) on a host in UTC, 06:00Z (EST) on one
  // in Los Angeles
  it.each(AMBIGUOUS)('%s %i:00 %s, an hour that happens twice, is one instant on every host', (day, hour, zone) => {
    const got = HOSTS.map((host) => onHostIn(host, () => iso(instantOf(day, hour, zone))));
    expect(new Set(got).size).toBe(1);
  });

  it.each(HOST_DEPENDENT)(
    'on a host in %s: %s %i:00 %s is %s (TZDateMini gave %s)',
    (host, day, hour, zone, expected) => {
      expect(onHostIn(host, () => iso(instantOf(day, hour, zone)))).toBe(expected);
    },
  );
});

describe('localDay: the date of an instant in a zone', () => {
  it.each([
    ['2025-01-15T03:00:00.000Z', NY, '2025-01-14'],
    ['2025-01-15T03:00:00.000Z', LONDON, '2025-01-15'],
    ['2025-01-14T12:59:59.999Z', SYDNEY, '2025-01-14'],
    ['2025-01-14T13:00:00.000Z', SYDNEY, '2025-01-15'],
    ['2025-06-01T18:29:59.999Z', 'Asia/Kolkata', '2025-06-01'],
    ['2025-06-01T18:30:00.000Z', 'Asia/Kolkata', '2025-06-02'],
    ['2024-02-29T23:30:00.000Z', 'Asia/Kathmandu', '2024-03-01'],
    ['2025-01-01T10:00:00.000Z', 'Pacific/Kiritimati', '2025-01-02'],
    ['2025-01-01T10:00:00.000Z', 'Pacific/Pago_Pago', '2024-12-31'],
    // midnight around New York's changes: 23:59 is still the day before
    ['2025-03-09T04:59:59.999Z', NY, '2025-03-08'],
    ['2025-03-09T05:00:00.000Z', NY, '2025-03-09'],
    ['2025-11-02T03:59:59.999Z', NY, '2025-11-01'],
    ['2025-11-02T04:00:00.000Z', NY, '2025-11-02'],
    ['2025-03-29T23:59:59.999Z', LONDON, '2025-03-29'],
    ['2025-10-25T23:00:00.000Z', LONDON, '2025-10-26'],
    ['2024-12-31T23:00:00.000Z', 'UTC', '2024-12-31'],
  ])('%s in %s: %s', (instant, zone, day) => {
    expect(localDay(ms(instant), zone)).toBe(day);
  });
});

describe('addDays: calendar dates, whatever the zone does that day', () => {
  it.each([
    ['2025-01-15', 0, '2025-01-15'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2025-03-01', -1, '2025-02-28'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2024-12-31', 1, '2025-01-01'],
    ['2025-01-31', 30, '2025-03-02'],
    ['2025-03-08', 1, '2025-03-09'],
    ['2025-11-01', 1, '2025-11-02'],
    ['2024-01-01', 366, '2025-01-01'],
    ['2025-01-01', 365, '2026-01-01'],
  ])('%s + %i: %s', (day, n, expected) => {
    expect(addDays(day, n)).toBe(expected);
  });
});

describe('weekday: 1 Monday … 7 Sunday', () => {
  it.each([
    ['2025-01-13', 1],
    ['2025-01-14', 2],
    ['2025-01-15', 3],
    ['2025-01-16', 4],
    ['2025-01-17', 5],
    ['2025-01-18', 6],
    ['2025-01-19', 7],
    ['2024-02-29', 4],
    ['2000-01-01', 6],
  ])('%s: %i', (day, wd) => expect(weekday(day)).toBe(wd));
});

/** Monday, Wednesday and Friday at 09:00 in New York, from January 1, 2025, unless the case says otherwise. */
const cadence = (c: Partial<Cadence> = {}): Cadence => ({
  days_of_week: [1, 3, 5],
  post_hour: 9,
  time_zone: NY,
  starts_on: '2025-01-01',
  skipped_days: [],
  last_run_day: null,
  ...c,
});

describe('isPostingDay: on days_of_week, on or after starts_on', () => {
  it.each([
    ['2025-01-13', { starts_on: '2025-01-15' }, false],
    ['2025-01-15', { starts_on: '2025-01-15' }, true],
    ['2025-01-16', { starts_on: '2025-01-15' }, false],
    ['2025-01-17', { starts_on: '2025-01-15' }, true],
    ['2025-01-19', { days_of_week: [7] }, true],
    ['2025-01-19', {}, false],
  ])('%s with %o: %s', (day, c, expected) => {
    expect(isPostingDay(cadence(c), day)).toBe(expected);
  });
});

// biome-ignore format: a table, its columns aligned
const NEXT: [string, Partial<Cadence>, string, [string, string] | null][] = [
  // what                                         cadence (else Mon/Wed/Fri 09:00 New York)
  // after                        next posting day and time (UTC)
  ['a posting day before its post time',          {},                                             '2025-01-13T13:59:59.999Z', ['2025-01-13', '2025-01-13T14:00:00.000Z']],
  ['at the post time: the next one',              {},                                             '2025-01-13T14:00:00.000Z', ['2025-01-15', '2025-01-15T14:00:00.000Z']],
  ['after Friday’s post: Monday',                 {},                                             '2025-01-11T00:00:00.000Z', ['2025-01-13', '2025-01-13T14:00:00.000Z']],
  ['across spring forward: 13:00Z from Monday',   {},                                             '2025-03-07T14:00:00.000Z', ['2025-03-10', '2025-03-10T13:00:00.000Z']],
  ['across fall back: 14:00Z from Monday',        {},                                             '2025-10-31T13:00:00.000Z', ['2025-11-03', '2025-11-03T14:00:00.000Z']],
  ['a skipped day is passed over',                { skipped_days: ['2025-01-15'] },               '2025-01-13T14:00:00.000Z', ['2025-01-17', '2025-01-17T14:00:00.000Z']],
  ['nothing before starts_on',                    { starts_on: '2025-02-01' },                    '2025-01-13T00:00:00.000Z', ['2025-02-03', '2025-02-03T14:00:00.000Z']],
  // the post hour moved to 20:00 after Monday's post: Monday's new time is ahead, but it ran
  ['a day that ran does not run again',           { post_hour: 20, last_run_day: '2025-01-13' },  '2025-01-13T15:00:00.000Z', ['2025-01-15', '2025-01-16T01:00:00.000Z']],
  ['the same, not yet run: today at 20:00',       { post_hour: 20 },                              '2025-01-13T15:00:00.000Z', ['2025-01-13', '2025-01-14T01:00:00.000Z']],
  ['no day of the week: none',                    { days_of_week: [] },                           '2025-01-13T00:00:00.000Z', null],
  // Sydney's Tuesday starts on Monday in UTC
  ['Sydney, Tuesday 09:00',                       { time_zone: SYDNEY, days_of_week: [2] },       '2025-01-13T21:00:00.000Z', ['2025-01-14', '2025-01-13T22:00:00.000Z']],
  ['Sydney, after Tuesday’s post',                { time_zone: SYDNEY, days_of_week: [2] },       '2025-01-13T22:00:00.000Z', ['2025-01-21', '2025-01-20T22:00:00.000Z']],
  ['Sydney, across its spring forward',           { time_zone: SYDNEY, days_of_week: [7] },       '2025-09-28T00:00:00.000Z', ['2025-10-05', '2025-10-04T22:00:00.000Z']],
  ['the skipped 02:00 of spring forward: 03:00',  { days_of_week: [7], post_hour: 2 },            '2025-03-08T12:00:00.000Z', ['2025-03-09', '2025-03-09T07:00:00.000Z']],
  ['London, the skipped 01:00: 02:00 BST',        { time_zone: LONDON, days_of_week: [7], post_hour: 1 }, '2025-03-29T00:00:00.000Z', ['2025-03-30', '2025-03-30T01:00:00.000Z']],
  ['Kolkata, midnight of the next day',           { time_zone: 'Asia/Kolkata', days_of_week: [1, 2, 3, 4, 5, 6, 7], post_hour: 0 }, '2025-06-01T18:29:00.000Z', ['2025-06-02', '2025-06-01T18:30:00.000Z']],
  ['Kathmandu, every day at 09:00',               { time_zone: 'Asia/Kathmandu', days_of_week: [1, 2, 3, 4, 5, 6, 7] }, '2025-06-01T03:15:00.000Z', ['2025-06-02', '2025-06-02T03:15:00.000Z']],
  ['Kiritimati (+14), 23:00 the same day',        { time_zone: 'Pacific/Kiritimati', days_of_week: [1, 2, 3, 4, 5, 6, 7], post_hour: 23 }, '2025-01-01T00:00:00.000Z', ['2025-01-01', '2025-01-01T09:00:00.000Z']],
];

describe('nextPosting: the first posting day whose post time is after a moment', () => {
  it.each(NEXT)('%s', (_what, c, after, expected) => {
    const next = nextPosting(cadence(c), ms(after));
    expect(next && [next.day, iso(next.at)]).toEqual(expected);
  });
});
