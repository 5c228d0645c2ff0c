// `vmv schedules` on both targets (issue 11, CLI part): creating (flags, --file merged with flags),
// reading (times in the schedule's zone and in yours; piped ISO UTC plus next_run_local), listing,
// changing (--setting merges, --unset-setting unpins), pausing and resuming, skipping days, the
// videos a schedule made on a manual clock, deleting (its videos stay), and the local checks.
import { describe, expect, it } from 'vitest';
import { T0, useTargets } from './helpers.js';

// "your time zone" in these tests: CET, an hour ahead of UTC in winter (the schedules post in New York)
process.env.TZ = 'Europe/Berlin';

const { targets, both } = useTargets({ resetEach: true });

/** `vmv sim reset --clock manual --now T` on both targets (the remote one takes the new key). */
async function resetAt(now: string): Promise<void> {
  for (const t of Object.values(targets)) {
    const r = await t.run(['sim', 'reset', '--clock', 'manual', '--now', now, '--json']);
    expect(r.code, r.stderr).toBe(0);
    if (t.name === 'remote') t.env.VMV_API_KEY = r.json.api_key;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NY = ['--time-zone', 'America/New_York'];

/** key<TAB>value lines of a piped single record (the next plan's `plan` lines aside). */
const record = (stdout: string) =>
  Object.fromEntries(
    stdout
      .split('\n')
      .filter((l) => l && !l.startsWith('plan\t'))
      .map((l) => l.split('\t') as [string, string]),
  );
const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'));

/** A schedule made with flags (Monday, Wednesday and Friday at 09:00 in New York, to TikTok); its id. */
async function schedule(extra: string[] = []): Promise<string> {
  const r = await both([
    'schedules',
    'create',
    '--name',
    'Weekday tips',
    '--days',
    'mon,wed,fri',
    '--hour',
    '9',
    ...NY,
    '--to',
    'tiktok',
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

const tiktokId = async () =>
  (await both(['social', 'list', '--platform', 'tiktok', '--json'])).json.data[0].id as string;

describe('schedules create', () => {
  it('prints the new id alone, says when it runs on stderr; --json prints the body', async () => {
    const r = await both([
      'schedules',
      'create',
      '--name',
      'Weekday tips',
      '--days',
      'Monday,wed',
      '--days',
      '5',
      '--hour',
      '09',
      '--time-zone',
      'america/new_york',
      '--to',
      'tiktok',
      '--to',
      'instagram',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    expect(r.stdout).toBe(`${id}\n`);
    expect(id).toMatch(UUID);
    // 09:00 in New York is 14:00 UTC in January, 15:00 in Berlin
    expect(r.stderr).toBe(
      `Schedule ${id} posts 1 video on mon,wed,fri at 09:00 America/New_York; next run 2026-01-05 09:00 America/New_York (2026-01-05 14:00:00 UTC). See it: vmv schedules get ${id}\n`,
    );
    const j = await both([
      'schedules',
      'create',
      '--name',
      'Weekends',
      '--days',
      'sat-sun',
      '--hour',
      '10',
      '--to',
      'youtube',
      '--template',
      'slideshow',
      '--paused',
      '--json',
    ]);
    expect(j.stderr).toBe('');
    expect(j.json.data).toMatchObject({
      name: 'Weekends',
      days_of_week: [6, 7],
      post_hour: 10,
      allowed_templates: ['slideshow'],
      status: 'paused',
      next_run_at: null,
      time_zone: 'Europe/Berlin', // not given: your time zone
      estimate_depends_on_template: false,
    });
  });

  it('--file - is the body; flags given as well override its fields and --setting merges into its video_settings', async () => {
    const spec = {
      name: 'From the file',
      days_of_week: [2, 4],
      post_hour: 8,
      time_zone: 'America/New_York',
      connection_ids: [await tiktokId()],
      video_settings: { format: 'horizontal', subtitles: { style: 'bold' } },
      notify_hours_before: 3,
    };
    const r = await both(
      [
        'schedules',
        'create',
        '--file',
        '-',
        '--hour',
        '17',
        '--setting',
        'subtitles.position=top',
        '--setting',
        'target_duration_seconds=20',
        '--json',
      ],
      { stdin: JSON.stringify(spec) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.data).toMatchObject({
      name: 'From the file',
      days_of_week: [2, 4],
      post_hour: 17,
      notify_hours_before: 3,
      connection_ids: spec.connection_ids,
      video_settings: {
        format: 'horizontal',
        subtitles: { style: 'bold', position: 'top' },
        target_duration_seconds: 20,
      },
      next_run_at: '2026-01-06T22:00:00.000Z',
      next_planning_at: '2026-01-06T19:00:00.000Z',
    });
    const bad = await both(['schedules', 'create', '--file', '-'], { stdin: '[1, 2]' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--file must hold a JSON object.');
  });
});

describe('schedules get', () => {
  it("piped: key<TAB>value lines, times ISO UTC, next_run_local in the schedule's zone, the estimate", async () => {
    const id = await schedule([
      '--direction',
      'Show the baristas',
      '--setting',
      'format=horizontal',
      '--setting',
      'source_text=Fresh beans daily',
      '--notify-email',
    ]);
    const g = record((await both(['schedules', 'get', id])).stdout);
    expect(g).toEqual({
      id,
      name: 'Weekday tips',
      status: 'active',
      days: 'mon,wed,fri',
      hour: '09:00 America/New_York',
      'starts on': '2026-01-05',
      'videos per day': '1',
      accounts: await tiktokId(),
      templates: 'any (the director picks)',
      direction: 'Show the baristas',
      settings: 'format=horizontal source_text="Fresh beans daily"',
      'source video': '-',
      notice: '1 h before, by email',
      'next run': '2026-01-05T14:00:00.000Z',
      next_run_local: '2026-01-05T09:00:00-05:00',
      planning: '2026-01-05T13:00:00.000Z',
      estimate: '4.66 USD per video (depends on template)',
      'last run': '-',
      'last error': '-',
      'skipped days': '-',
      created: T0,
      updated: T0,
    });
  });

  it("on a terminal: the next run and planning time in the schedule's zone and in UTC; once planned, the day's videos", async () => {
    // daylight saving: New York is on summer time from 8 March 2026, Berlin not until 29 March
    await resetAt('2026-03-09T10:00:00Z');
    const id = await schedule(['--videos-per-day', '2', '--template', 'talking_avatar']);
    const tty = (await both(['schedules', 'get', id], { tty: true })).stdout;
    expect(tty).toMatch(/\nnext run +2026-03-09 09:00 America\/New_York \(2026-03-09 13:00:00 UTC\)\n/);
    expect(tty).toMatch(/\nplanning +2026-03-09 08:00 America\/New_York \(2026-03-09 12:00:00 UTC\)\n/);
    expect(tty).toMatch(/\nestimate +3\.70 USD per video\n/);
    expect(tty).not.toContain('next_run_local');
    expect(tty).not.toContain('TEMPLATE'); // not planned yet
    await both(['sim', 'advance', '2h']); // past the planning time (12:00Z)
    const piped = await both(['schedules', 'get', id]);
    expect(record(piped.stdout)).toMatchObject({
      'next run': '2026-03-09T13:00:00.000Z',
      next_run_local: '2026-03-09T09:00:00-04:00',
      planning: '2026-03-09T12:00:00.000Z',
    });
    const plan = rows(piped.stdout).filter((r) => r[0] === 'plan');
    expect(plan).toHaveLength(2);
    for (const p of plan) expect(p.slice(0, 2)).toEqual(['plan', 'talking_avatar']);
    expect(plan[0][3]).not.toBe(plan[1][3]); // two angles
    const planned = (await both(['schedules', 'get', id], { tty: true })).stdout;
    expect(planned).toMatch(/\nTEMPLATE +PRESET +ANGLE +TOPIC +CAPTION\ntalking_avatar +site-capture /);
  });

  it('an unknown id is 404 (exit 1)', async () => {
    const r = await both(['schedules', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(not_found, HTTP 404)');
  });
});

describe('schedules list', () => {
  it('one row per schedule, newest first: id, name, status, days, hour and zone, next run, last error; --status filters', async () => {
    const a = await schedule();
    const b = (
      await both([
        'schedules',
        'create',
        '--name',
        'Paused one',
        '--days',
        'tue',
        '--hour',
        '18',
        ...NY,
        '--to',
        'tiktok',
        '--paused',
      ])
    ).stdout.trim();
    const l = await both(['schedules', 'list']);
    expect(rows(l.stdout)).toEqual([
      [b, 'Paused one', 'paused', 'tue', '18:00 America/New_York', '-', '-'],
      [a, 'Weekday tips', 'active', 'mon,wed,fri', '09:00 America/New_York', '2026-01-05T14:00:00.000Z', '-'],
    ]);
    expect(rows((await both(['schedules', 'list', '--status', 'ACTIVE'])).stdout).map((r) => r[0])).toEqual([a]);
    const tty = (await both(['schedules', 'list'], { tty: true })).stdout;
    expect(tty).toMatch(/^ID +NAME +STATUS +DAYS +HOUR +NEXT RUN +LAST ERROR\n/);
    expect(tty).toContain('2026-01-05 14:00:00 UTC'); // the next run as every time on a terminal
    expect((await both(['schedules', 'list', '--all', '--json'])).json.data).toHaveLength(2);
  });
});

describe('schedules update', () => {
  it('sends only what is given: --setting merges into the pinned settings, --unset-setting unpins one, --no-direction clears', async () => {
    const id = await schedule(['--setting', 'format=horizontal', '--direction', 'Show the baristas', '--notify-email']);
    const u = await both([
      'schedules',
      'update',
      id,
      '--setting',
      'target_duration_seconds=20',
      '--setting',
      'subtitles.position=top',
      '--hour',
      '10',
    ]);
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toBe(''); // it changes the schedule without creating one
    expect(u.stderr).toBe(
      `Updated schedule ${id}: post_hour, video_settings.target_duration_seconds, video_settings.subtitles.position; next run 2026-01-05 10:00 America/New_York (2026-01-05 15:00:00 UTC)\n`,
    );
    expect(record((await both(['schedules', 'get', id])).stdout)).toMatchObject({
      settings: 'format=horizontal target_duration_seconds=20 subtitles.position=top',
      hour: '10:00 America/New_York',
      name: 'Weekday tips',
      direction: 'Show the baristas',
    });
    const unset = await both([
      'schedules',
      'update',
      id,
      '--unset-setting',
      'format',
      '--no-direction',
      '--no-notify-email',
      '--json',
    ]);
    expect(unset.json.data).toMatchObject({
      video_settings: { target_duration_seconds: 20, subtitles: { position: 'top' } },
      notify_by_email: false,
    });
    expect(unset.json.data).not.toHaveProperty('direction'); // cleared: the key is left out
    expect(unset.json.data.video_settings).not.toHaveProperty('format');
    const t = await both(['schedules', 'update', id, '--template', 'slideshow,remotion', '--json']);
    expect(t.json.data).toMatchObject({
      allowed_templates: ['slideshow', 'remotion'],
      estimate_depends_on_template: true,
    });
    expect((await both(['schedules', 'update', id, '--any-template', '--json'])).json.data.allowed_templates).toEqual(
      [],
    );
  });
});

describe('schedules pause, resume and skip', () => {
  it('pause: no next run; resume: the next posting day again (nothing on stdout, a message on stderr)', async () => {
    const id = await schedule();
    const p = await both(['schedules', 'pause', id]);
    expect(p).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Paused schedule ${id}: nothing is made until you resume it (vmv schedules resume ${id}).\n`,
    });
    expect(record((await both(['schedules', 'get', id])).stdout)).toMatchObject({
      status: 'paused',
      'next run': '-',
      next_run_local: '-',
      planning: '-',
    });
    const r = await both(['schedules', 'resume', id]);
    expect(r).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Resumed schedule ${id}: next run 2026-01-05 09:00 America/New_York (2026-01-05 14:00:00 UTC)\n`,
    });
    expect(record((await both(['schedules', 'get', id])).stdout)).toMatchObject({
      status: 'active',
      'next run': '2026-01-05T14:00:00.000Z',
    });
    expect((await both(['schedules', 'pause', id, '--json'])).json.data).toMatchObject({
      status: 'paused',
      next_run_at: null,
    });
  });

  it("skip: the next posting day, or --day; a day that is not a posting day is the service's 400 naming --day", async () => {
    const id = await schedule();
    const next = await both(['schedules', 'skip', id]);
    expect(next).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Skipped the next posting day of schedule ${id} (skipped days: 2026-01-05); next run 2026-01-07 09:00 America/New_York (2026-01-07 14:00:00 UTC)\n`,
    });
    const day = await both(['schedules', 'skip', id, '--day', '2026-01-07']);
    expect(day.stderr).toBe(
      `Skipped 2026-01-07 of schedule ${id} (skipped days: 2026-01-05, 2026-01-07); next run 2026-01-09 09:00 America/New_York (2026-01-09 14:00:00 UTC)\n`,
    );
    expect(record((await both(['schedules', 'get', id])).stdout)).toMatchObject({
      'skipped days': '2026-01-05 2026-01-07',
      'next run': '2026-01-09T14:00:00.000Z',
    });
    const tuesday = await both(['schedules', 'skip', id, '--day', '2026-01-13']);
    expect(tuesday.code).toBe(1);
    expect(tuesday.stderr).toContain('--day (day): is not a posting day of this schedule');
  });
});

describe('schedules videos and delete', () => {
  it('after a posting day on the manual clock: the videos it made (as videos list shows them); deleting it keeps them', async () => {
    await resetAt('2026-03-09T10:00:00Z');
    const id = await schedule(['--videos-per-day', '2']);
    expect((await both(['schedules', 'videos', id])).stdout).toBe('');
    await both(['sim', 'advance', '3h']); // past 09:00 New York (13:00Z): made, researched, rendering
    const made = rows((await both(['schedules', 'videos', id])).stdout);
    expect(made).toHaveLength(2);
    for (const v of made) {
      expect(v[0]).toMatch(UUID);
      expect(v[5]).toBe('2026-03-09T13:00:00.000Z');
    }
    await both(['sim', 'advance', '1h']);
    expect(rows((await both(['schedules', 'videos', id, '--all'])).stdout).map((r) => r[1])).toEqual([
      'ready',
      'ready',
    ]);
    // (--json bodies differ between the targets by their media links only)
    const ready = await targets.embedded.run(['schedules', 'videos', id, '--json']);
    expect(ready.json.data.map((v: { schedule_id: string }) => v.schedule_id)).toEqual([id, id]);
    expect(record((await both(['schedules', 'get', id])).stdout)).toMatchObject({
      'last run': '2026-03-09T13:00:00.000Z',
      'next run': '2026-03-11T13:00:00.000Z',
      'last error': '-',
    });
    const tty = (await both(['schedules', 'videos', id], { tty: true })).stdout;
    expect(tty).toMatch(/^ID +STATUS +TEMPLATE +SECONDS +PRICE +CREATED\n/);

    const refused = await both(['schedules', 'delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `To delete schedule ${id} without a terminal, pass --yes. Nothing more is planned or posted; the videos it made stay (vmv videos list).`,
    );
    expect((await both(['schedules', 'delete', id], { tty: true, stdin: 'no\n' })).code).toBe(7);
    const d = await both(['schedules', 'delete', id, '--yes']);
    expect(d).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Deleted schedule ${id}; the videos it made stay (vmv videos list)\n`,
    });
    expect((await both(['schedules', 'get', id])).code).toBe(1);
    expect((await both(['schedules', 'list'])).stdout).toBe('');
    const videos = rows((await both(['videos', 'list'])).stdout).map((r) => r[0]);
    expect(videos.sort()).toEqual(made.map((r) => r[0]).sort());
  });

  it("a video that did not go out is the schedule's last error (get and list)", async () => {
    const id = await schedule(['--template', 'slideshow', '--setting', 'max_price_cents=10']);
    await both(['sim', 'advance', '6h']);
    const why = record((await both(['schedules', 'get', id])).stdout)['last error'];
    expect(why).toMatch(
      /^Video [0-9a-f-]{36} was not made: The written script costs 0\.72 USD \(72 cents\), above max_price_cents 10/,
    );
    expect(rows((await both(['schedules', 'list'])).stdout)[0][6]).toBe(why);
  });
});

describe('checked before any request (exit 2, naming the flag)', () => {
  it('days, hours, zones, dates, settings, numbers and what a schedule needs', async () => {
    const base = ['schedules', 'create', '--name', 'x', '--to', 'tiktok'];
    const cases: [string[], string][] = [
      [
        [...base, '--days', 'funday', '--hour', '9'],
        '--days takes days of the week: mon … sun (or monday …, or 1 Monday … 7 Sunday), comma-separated or repeated, or a range such as mon-fri; got "funday".',
      ],
      [[...base, '--days', '8', '--hour', '9'], '--days takes days of the week'],
      [[...base, '--days', 'mo', '--hour', '9'], 'got "mo"'],
      [[...base, '--days', 'mon', '--hour', '25'], '--hour must be a whole number from 0 to 23, got "25".'],
      [
        [...base, '--days', 'mon', '--hour', '9', '--time-zone', 'Mars/Olympus_Mons'],
        '--time-zone takes an IANA time zone name such as America/New_York, Europe/London or UTC; got "Mars/Olympus_Mons".',
      ],
      [[...base, '--days', 'mon', '--hour', '9', '--time-zone', '+02:00'], '--time-zone takes an IANA time zone name'],
      [
        [...base, '--days', 'mon', '--hour', '9', '--starts-on', '2026-02-30'],
        '--starts-on takes a date, YYYY-MM-DD (2026-01-31); got "2026-02-30".',
      ],
      [
        [...base, '--days', 'mon', '--hour', '9', '--videos-per-day', '11'],
        '--videos-per-day must be a whole number from 1 to 10',
      ],
      [
        [...base, '--days', 'mon', '--hour', '9', '--notify-hours', '49'],
        '--notify-hours must be a whole number from 0 to 48',
      ],
      [
        [...base, '--days', 'mon', '--hour', '9', '--template', 'tiktok_dance'],
        '--template takes one of talking_avatar, remotion',
      ],
      [
        [...base, '--days', 'mon', '--hour', '9', '--setting', 'format'],
        '--setting takes key=value, such as format=horizontal or subtitles.position=top; got "format".',
      ],
      [
        [...base, '--days', 'mon', '--hour', '9', '--setting', 'template=slideshow'],
        '--setting cannot pin the template: --template names the templates',
      ],
      [[...base, '--days', 'mon', '--hour', '9', '--setting', 'script=Hello'], '--setting cannot pin a script'],
      [
        ['schedules', 'create', '--name', 'x', '--days', 'mon', '--hour', '9', '--to', 'myspace'],
        '--to takes a social connection id (vmv social list) or a platform',
      ],
      [
        ['schedules', 'create', '--days', 'mon'],
        '--name, --hour, --to are required (or "name", "post_hour", "connection_ids" in --file).',
      ],
      [['schedules', 'create', '--file', '-'], '--name, --days, --hour, --to are required'],
      [['schedules', 'update', 'a1b2'], 'Nothing to change: give the flags of what changes'],
      [
        ['schedules', 'update', 'a1b2', '--unset-setting', 'subtitles.position'],
        '--unset-setting takes the name of a pinned setting, such as format or subtitles (a whole one); got "subtitles.position".',
      ],
      [
        ['schedules', 'update', 'a1b2', '--setting', 'format=vertical', '--unset-setting', 'format'],
        '--setting and --unset-setting both name format',
      ],
      [
        ['schedules', 'update', 'a1b2', '--template', 'slideshow', '--any-template'],
        'Give one of --template or --any-template.',
      ],
      [['schedules', 'skip', 'a1b2', '--day', 'tomorrow'], '--day takes a date, YYYY-MM-DD'],
      [['schedules', 'list', '--status', 'done'], '--status takes one of active, paused'],
      [['schedules', 'get'], "missing required argument 'id'"],
    ];
    for (const [args, message] of cases) {
      const r = await both(args, { stdin: '{}' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toContain(message);
    }
    expect((await both(['schedules', 'list', '--json'])).json.data).toEqual([]); // nothing was made
    const j = await both(['schedules', 'create', '--name', 'x', '--days', 'funday', '--json']);
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'usage_error' });
  });

  it('what only the service can check names the flag it came from (exit 1)', async () => {
    const args = ['schedules', 'create', '--name', 'x', '--days', 'mon', '--hour', '9', ...NY];
    const conn = await both([...args, '--to', '00000000-0000-4000-8000-000000000000']);
    expect(conn.code).toBe(1);
    expect(conn.stderr).toContain('--to (connection_ids[0]): is not a social connection of this workspace');
    const s = await both([
      ...args,
      '--to',
      'tiktok',
      '--setting',
      'subtitles.position=sideways',
      '--setting',
      'preset=photo',
      '--source-video',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(s.code).toBe(1);
    expect(s.stderr).toContain('--setting (video_settings.subtitles.position): must be one of: top, middle, bottom');
    expect(s.stderr).toContain('--setting (video_settings.preset): a pinned preset needs allowed_templates');
    expect(s.stderr).toContain('--source-video (source_video_id): is not a video of this workspace');
    const id = await schedule();
    const u = await both([
      'schedules',
      'update',
      id,
      '--notify-hours',
      '2',
      '--template',
      'slideshow',
      '--setting',
      'preset=photo',
    ]);
    expect(u.stderr).toContain('--setting (video_settings.preset): photo is not a preset of slideshow');
  });
});
