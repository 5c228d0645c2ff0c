// Tables that fit (issue 24, point 1): on a terminal of 60, 100 and 160 columns no line is wider
// than the terminal, measured in terminal columns (CJK and emoji take two), ids show by a prefix
// that every command taking one accepts back, --wide shows them whole, and piped output is never
// cut. A stand-in terminal (the CLI's streams as a TTY of N columns) on both targets, and tmux.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callColumns } from '../commands/history/calls.js';
import { bufferIO } from '../src/io.js';
import { main } from '../src/main.js';
import { alignedLines, clip, col, fitWidths, idCol, keptColumns, textCol, width, wrapWords } from '../src/output.js';
import { BIN, T0, tempDir, useTargets, type Target } from './helpers.js';
import { requires } from './skips.js';

const { targets } = useTargets({ resetEach: true });
const WIDTHS = [60, 100, 160] as const;
/** A contact whose name is wide characters and an emoji. */
const WIDE_CONTACT = [
  'sim',
  'contact',
  '--name',
  '山田 太郎 🍣 寿司職人',
  '--email',
  'yamada.taro@example.co.jp',
  '--phone',
  '+14155550123',
];

/** Runs vmv on a stand-in terminal `columns` wide. */
async function onTerminal(t: Target, columns: number, args: string[]) {
  const io = { ...(await bufferIO({ tty: true })), columns };
  const code = await main(args, io, { ...t.env, PATH: process.env.PATH, HOME: process.env.HOME });
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/** A world with long cells: calls with summaries, a contact named in CJK with an emoji, a video posted. */
async function seed(t: Target) {
  for (const n of ['0100', '0101', '0103'])
    await t.run([
      'quick',
      'call',
      `+1415555${n}`,
      '--goal',
      'confirm the appointment on Tuesday at ten in the morning',
    ]);
  await t.run(WIDE_CONTACT);
  await t.run(['sim', 'advance', '10m']);
  const video = (
    await t.run([
      'videos',
      'create',
      '--template',
      'talking_avatar',
      '--text',
      'Our espresso bar opens Monday on Main Street.',
      '--wait',
      '--advance',
      '--json',
    ])
  ).json.data.id;
  await t.run(['videos', 'post', video, '--to', 'tiktok', '--to', 'instagram']);
  await t.run(['sim', 'advance', '1m']);
  return video;
}

describe('width in terminal columns', () => {
  it('counts wide characters and emoji as two, marks as none', () => {
    expect(width('abc')).toBe(3);
    expect(width('山田')).toBe(4);
    expect(width('🍣')).toBe(2);
    expect(width('👍🏽')).toBe(2);
    expect(width('e\u0301')).toBe(1);
    expect(width('🇺🇸')).toBe(2);
    expect(clip('山田 太郎', 6)).toBe('山田 …');
    expect(clip('山田太郎', 6)).toBe('山田…');
    expect(width(clip('山田 太郎 🍣', 7))).toBeLessThanOrEqual(7);
  });

  it('fits by taking from the widest columns first', () => {
    expect(fitWidths([10, 40, 30], [8, 8, 8], 60)).toEqual([10, 23, 23]);
    expect(fitWidths([10, 10], [8, 8], 100)).toEqual([10, 10]);
    expect(fitWidths([40, 40], [30, 30], 20)).toEqual([30, 30]); // as narrow as it goes
  });

  it.each([
    // [room, expected kept]: id 8, when 23, status 9, to 12, summary (free text, 12 at least), seconds 7
    [120, [0, 1, 2, 3, 4, 5]],
    [80, [0, 1, 2, 3, 4]], // seconds (lowest) drops; free text keeps its 12 columns
    [60, [0, 1, 2, 3]], // then the summary
    [46, [0, 1, 2]], // status, then to, drop; status fits again and comes back
    [30, [0, 3]], // the time cannot fit: dropped, and the highest that fits in the room left comes back
    [5, [0]], // the first column always stays
  ])('at %i columns keeps %j: the lowest priority drops first, what fits again comes back', (room, kept) => {
    const cols = [idCol(), col('when', 8), col('status', 6), col('to', 7), textCol('summary', 5), col('seconds', 2)];
    expect(keptColumns(cols, [8, 23, 9, 12, 12, 7], room)).toEqual(kept);
  });

  it.each([
    // [room, header]: the calls list (history calls), one row of each width's longest values
    [120, 'ID        WHEN                     DIRECTION  STATUS     FROM          TO            SECONDS  SUMMARY'],
    // the times to the minute show the summary (its 13 columns) the whole times hid; direction and seconds drop
    [80, 'ID        WHEN (UTC)        STATUS     FROM          TO            SUMMARY'],
    // the summary fits neither way; to the minute, SECONDS fits again after the lowest columns drop
    [60, 'ID        WHEN (UTC)        STATUS     TO            SECONDS'],
  ])(
    'at %i columns a table too narrow writes its times to the minute where that shows a column more',
    async (room, header) => {
      const io = { ...(await bufferIO({ tty: true })), columns: room as number };
      const cols = callColumns();
      const row = [
        'a2b3c4d5-0000-4000-8000-000000000001',
        '2026-11-28T08:17:37.000Z',
        'outbound',
        'COMPLETED',
        '+14155550100',
        '+14155550101',
        93,
        'The recipient confirmed the appointment on Tuesday at ten.',
      ];
      const [head, line] = alignedLines(io, cols, [row]);
      expect(head).toBe(header);
      expect(width(line)).toBeLessThanOrEqual(room as number);
      expect(line).toContain(room === 120 ? '2026-11-28 08:17:37 UTC' : '2026-11-28 08:17  ');
    },
  );

  it('wraps a record view at spaces, never inside a time or an amount', () => {
    expect(wrapWords('content on, video credits 16.18 USD', 30)).toEqual(['content on, video credits', '16.18 USD']);
    expect(wrapWords('0 min used (until 2026-02-05 09:00:00 UTC)', 30)).toEqual([
      '0 min used (until',
      '2026-02-05 09:00:00 UTC)',
    ]);
  });

  it('aligns wide characters in their columns', async () => {
    const io = { ...(await bufferIO({ tty: true })), columns: 100 };
    const lines = alignedLines(
      io,
      [col('name', 2), col('n', 1)],
      [
        ['山田 🍣', 1],
        ['Ada', 2],
      ],
    );
    // the second column starts at the same terminal column on every line
    expect(lines.map((l) => width(l.slice(0, l.search(/[N12]$/))))).toEqual([9, 9, 9]);
  });
});

describe.each(['embedded', 'remote'] as const)('tables on a terminal (%s)', (name) => {
  it('fit 60, 100 and 160 columns; ids shortened resolve back; --wide shows them whole; piped never cut', async () => {
    const t = targets[name];
    const video = await seed(t);
    const commands = [
      ['history', 'calls', '--limit', '3'],
      ['contacts', 'list'],
      ['videos', 'posts', video],
      ['videos', 'list'],
      ['sim', 'outbox'],
    ];
    for (const columns of WIDTHS)
      for (const args of commands) {
        const r = await onTerminal(t, columns, args);
        expect(r.code, r.stderr).toBe(0);
        for (const line of r.stdout.trimEnd().split('\n'))
          expect(width(line), `${args.join(' ')} at ${columns}: ${line}`).toBeLessThanOrEqual(columns);
      }
    // at 160 the posts' permalinks show whole
    const posts = await onTerminal(t, 160, ['videos', 'posts', video]);
    expect(posts.stdout).toMatch(/https:\/\/www\.tiktok\.com\/\S+\/video\/\d+ /);
    expect(posts.stdout).not.toContain('…');
    // and a post's id shown shortened is taken back by posts cancel (a published post: 409, found)
    const postShort = posts.stdout.split('\n')[1].split(/\s+/)[0];
    const cancel = await t.run(['posts', 'cancel', postShort]);
    expect(cancel.stderr).not.toContain('No post');

    // the contact named in CJK: its columns line up with the header's (wide characters count two)
    const contacts = (await onTerminal(t, 100, ['contacts', 'list'])).stdout.split('\n');
    const row = contacts.find((l) => l.includes('山田'))!;
    const at = (line: string, text: string) => width(line.slice(0, line.indexOf(text)));
    expect(at(row, '+14155550123')).toBe(at(contacts[0], 'PHONE'));

    // an id shown shortened is taken back by the command that takes it
    const calls = (await onTerminal(t, 100, ['history', 'calls', '--limit', '1'])).stdout.split('\n')[1];
    const short = calls.split(/\s+/)[0];
    expect(short).toMatch(/^[0-9a-f]{8,35}$/);
    const whole = (await t.run(['history', 'calls', '--limit', '1', '--json'])).json.data[0].id;
    expect(whole.startsWith(short)).toBe(true);
    expect((await t.run(['history', 'call', short, '--json'])).json.data.id).toBe(whole);
    const contactShort = contacts[1].split(/\s+/)[0];
    expect((await t.run(['contacts', 'get', contactShort])).code).toBe(0);
    // at 80 columns a call's summary shows (times to the minute, the zone in the header); someone
    // reached who has no name of their own is named by their number once, under PHONE
    const at80 = (await onTerminal(t, 80, ['history', 'calls'])).stdout.split('\n');
    expect(at80[0]).toMatch(/^ID +WHEN \(UTC\) +STATUS +FROM +TO +SUMMARY$/);
    expect(at80[1]).toMatch(/^[0-9a-f]{8} +\d{4}-\d{2}-\d{2} \d{2}:\d{2} +[A-Z_]+ +\+1\d{10} +\+1\d{10} +\S/);
    for (const cols of [80, 120]) {
      const people = (await onTerminal(t, cols, ['history', 'people'])).stdout.split('\n');
      const unnamed = people.find((l) => l.includes('+14155550101'))!;
      expect(unnamed.split('+14155550101'), `${cols}: ${unnamed}`).toHaveLength(2);
      expect(unnamed).toMatch(/^\S+ +- +\+14155550101 /);
    }
    // piped and --json keep the API's name
    const piped = await t.run(['history', 'people']);
    expect(piped.stdout).toMatch(/\t\+14155550101\t\+14155550101\t/);
    expect((await t.run(['history', 'people', '--json'])).json.data.map((p: any) => p.name)).toContain('+14155550101');
    // --wide: whole ids, whole cells, whatever the width
    const wide = await onTerminal(t, 60, ['history', 'calls', '--limit', '1', '--wide']);
    expect(wide.stdout).toContain(whole);
    // piped: every value whole, as before
    const pipedCalls = await t.run(['history', 'calls', '--limit', '3']);
    expect(pipedCalls.stdout.split('\n')[0].split('\t')[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(pipedCalls.stdout).not.toContain('…');
  });
});

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
describe('tables in a real terminal (tmux)', () => {
  const can = requires(hasTmux ? null : 'tmux is not installed (.ci/run installs it: apt-get install tmux)');
  const SOCKET = `vmv-tables-${process.pid}`;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  const tmux = (...args: string[]) =>
    spawnSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  beforeAll(() => {
    if (!can) return;
    dir = tempDir();
    env = {
      ...process.env,
      VMV_SIM_DATA: join(dir, 'sim.json'),
      VMV_CONFIG_DIR: join(dir, 'config'),
      TMUX: '',
      NO_COLOR: '1',
    };
    for (const k of ['VMV_BASE_URL', 'VMV_API_KEY']) delete env[k];
    const vmv = (...a: string[]) => spawnSync(process.execPath, [BIN, ...a], { env, encoding: 'utf8' });
    vmv('sim', 'reset', '--clock', 'manual', '--now', T0);
    vmv('quick', 'call', '+14155550100', '--goal', 'confirm the appointment on Tuesday at ten in the morning');
    vmv(...WIDE_CONTACT);
    vmv('sim', 'advance', '10m');
  });
  afterAll(() => {
    if (!can) return;
    tmux('kill-server'); // this test's own server (its socket), nobody else's
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(WIDTHS)('at %i columns no row wraps', async (columns) => {
    const session = `t${columns}`;
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} history calls; ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} contacts list; echo "[done]"; sleep 600`;
    expect(tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', '30', cmd).status).toBe(0);
    let screen = '';
    for (let i = 0; i < 200 && !screen.includes('[done]'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      screen = tmux('capture-pane', '-p', '-t', session).stdout;
    }
    // (the lines under a table naming its hidden columns are a message, wrapped as such: left out)
    let note = false;
    const lines = screen.split('\n').filter((l) => {
      if (l.startsWith('--wide shows')) note = true;
      else if (/^(ID|CONTACT) /.test(l)) note = false;
      return !note && l.trim() && !l.includes('[done]');
    });
    // a row the terminal wrapped would show as a line without the columns' start: each is a header or an id
    expect(lines.length).toBe(5);
    for (const l of lines) expect(l).toMatch(/^(ID|CONTACT|[0-9a-f]{8})/);
    expect(screen).toContain('山田');
  });
});
