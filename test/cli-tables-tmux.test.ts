// Every list and status view in a real terminal (issue 33, points 1 and 2): tmux panes 60, 80 and
// 120 columns wide over a world with long cells (long names and summaries, a job with five
// targets, an email to a long address). No line wider than the pane (tmux joins a line it wrapped:
// `capture-pane -J`), no phone number, time, amount or id cut, columns that do not fit hidden and
// said on the line under the table, times in the one human form, and --json keeping ISO 8601.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { width } from '../src/output.js';
import { BIN, T0, tempDir } from './helpers.js';
import { requires } from './skips.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const WIDTHS = [60, 80, 120] as const;
const PHONES = ['+14155550100', '+14155550101', '+14155550103', '+14155550106', '+14155550107'];
const LONG_NAME = 'Margaret Hamilton-Eisenberg of the Apollo Guidance Computer team';
const LONG_EMAIL = 'margaret.hamilton@apollo-guidance.example.com';
/** One human form of a time (src/formats.ts). */
const HUMAN_TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/;
/** The same to the minute, in a table too narrow for whole times (its header says the zone). */
const MINUTE_TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2} UTC)?(?![:\d])/;

describe('every list and status view in tmux at 60, 80 and 120 columns', () => {
  const can = requires(hasTmux ? null : 'tmux is not installed (.ci/run installs it: apt-get install tmux)');
  const SOCKET = `vmv-views-${process.pid}`;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  let views: string[][];
  /** Each width's screen, split by view: the command line → the lines it printed. */
  const screens = new Map<number, Map<string, string[]>>();
  const tmux = (...args: string[]) =>
    spawnSync('tmux', ['-L', SOCKET, '-f', join(dir, 'tmux.conf'), ...args], { env, encoding: 'utf8' });
  const vmv = (...a: string[]) => spawnSync(process.execPath, [BIN, ...a], { env, encoding: 'utf8' });
  const json = (...a: string[]) => JSON.parse(vmv(...a, '--json').stdout).data;

  beforeAll(async () => {
    if (!can) return;
    dir = tempDir();
    writeFileSync(join(dir, 'tmux.conf'), 'set -g history-limit 20000\n');
    env = { ...process.env, VMV_SIM_DATA: join(dir, 'sim.json'), VMV_CONFIG_DIR: join(dir, 'c'), TMUX: '' };
    env.NO_COLOR = '1';
    for (const k of ['VMV_BASE_URL', 'VMV_API_KEY']) delete env[k];
    vmv('sim', 'reset', '--clock', 'manual', '--now', T0);
    vmv('sim', 'contact', '--name', LONG_NAME, '--email', LONG_EMAIL, '--phone', PHONES[0]);
    vmv('sim', 'contact', '--name', '山田 太郎 🍣 寿司職人', '--phone', PHONES[2]);
    const goal = 'confirm the appointment on Tuesday at ten in the morning and ask whether they need parking';
    const call = json('quick', 'call', ...PHONES, '--goal', goal).id;
    const text = json('quick', 'text', '+14155550104', '+14155550105', '--goal', 'remind them the invoice is due').id;
    const subject = 'Your appointment next Tuesday at ten: directions and parking';
    vmv('email', 'send', '--to', LONG_EMAIL, '--subject', subject, '--body', 'See you on Tuesday.');
    vmv('quick', 'number', '--area-code', '415', '--name', LONG_NAME);
    vmv('webhooks', 'create', '--url', 'https://hooks.example.com/vmv/calls/ended', '--events', 'call.ended');
    vmv(
      ...['schedules', 'create', '--name', 'Weekday tips for the espresso bar on Main Street'],
      ...['--days', 'mon,wed,fri', '--hour', '9', '--time-zone', 'America/New_York', '--to', 'tiktok'],
    );
    vmv('sim', 'advance', '10m');
    const video = json(
      'videos',
      'create',
      '--template',
      'talking_avatar',
      '--text',
      'Opens Monday.',
      '--wait',
      '--advance',
      '--yes',
    ).id;
    vmv('videos', 'post', video, '--to', 'tiktok', '--to', 'instagram');
    const talk = json('assistant', 'send', 'how many calls did we get yesterday?', '--advance').conversation_id;
    vmv('sim', 'advance', '1m');
    views = [
      ['history', 'calls'],
      ['history', 'texts'],
      ['history', 'emails'],
      ['history', 'people'],
      ['contacts', 'list'],
      ['quick', 'status', call],
      ['quick', 'status', text],
      ['numbers', 'list'],
      ['videos', 'list'],
      ['videos', 'posts', video],
      ['schedules', 'list'],
      ['webhooks', 'list'],
      ['assistant', 'list'],
      ['assistant', 'get', talk],
      ['status'],
      ['sim', 'outbox'],
      ['sim', 'clock'],
      ['sim', 'pool'],
      ['config', 'list'],
    ];
    const q = (s: string) => JSON.stringify(s);
    const script = views.map((v) => `echo "@@ ${v.join(' ')}"; ${q(process.execPath)} ${q(BIN)} ${v.map(q).join(' ')}`);
    await Promise.all(WIDTHS.map((w) => capture(w, `${script.join('; ')}; echo "@@ [done]"; sleep 600`)));
  }, 240_000);

  /** Runs the views in a pane `columns` wide and keeps its screen (wrapped lines joined), view by view. */
  async function capture(columns: number, cmd: string) {
    tmux('new-session', '-d', '-s', `w${columns}`, '-x', String(columns), '-y', '50', cmd);
    let screen = '';
    for (let i = 0; i < 1200 && !screen.includes('@@ [done]'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      screen = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', `w${columns}`).stdout;
    }
    const byView = new Map<string, string[]>();
    let current = '';
    for (const line of screen.split('\n')) {
      if (line.startsWith('@@ ')) byView.set((current = line.slice(3)), []);
      else if (current && line.trim()) byView.get(current)!.push(line.trimEnd());
    }
    screens.set(columns, byView);
  }

  afterAll(() => {
    if (!can) return;
    tmux('kill-server'); // this test's own server (its socket), nobody else's
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(WIDTHS)('at %i columns: nothing wider, no value a reader copies cut', (columns) => {
    const byView = screens.get(columns)!;
    expect([...byView.keys()]).toHaveLength(views.length + 1);
    for (const [view, lines] of byView) {
      expect(lines.join('\n'), view).not.toMatch(/Error|error:/);
      for (const line of lines) {
        // the line under the emails list (a message from point 3) is prose the terminal may wrap
        if (line.startsWith('Emails the workspace sent')) continue;
        expect(width(line), `${view} at ${columns}: ${line}`).toBeLessThanOrEqual(columns);
        // whatever an ellipsis ends is free text: never a number, a time, an amount or an id
        for (const cut of line.matchAll(/(\S+)…/g))
          expect(cut[1], `${view} at ${columns}: ${line}`).not.toMatch(/^([+\d]|[0-9a-f]{6,}$)/);
        // a time (a date with a time of day; a calendar day alone is a day) is whole, in the one human
        // form, or to the minute in a table whose header says the zone; but a tool call's input
        // (`created_after=...`), shown as the API was sent it
        const time = lines[0].includes('(UTC)') ? MINUTE_TIME : HUMAN_TIME;
        for (const t of line.matchAll(/(?<!=)\d{4}-\d{2}-\d{2}(?=[T ]\d)/g))
          expect(line.slice(t.index), `${view}: ${line}`).toMatch(new RegExp(`^${time.source}`));
      }
    }
    // the five targets of a quick call told apart, whole; no SENT/RECEIVED for calls
    const job = byView.get(views[5].join(' '))!.join('\n');
    for (const p of PHONES) expect(job).toContain(p);
    expect(job).not.toMatch(/SENT|RECEIVED/);
    // every call row shows its whole time (at least to the minute) and its number
    const calls = byView.get('history calls')!;
    expect(calls.filter((l) => MINUTE_TIME.test(l) && /\+1\d{10}\b/.test(l))).toHaveLength(6);
    // someone reached without a name of their own: their number once, under PHONE (NAME a dash)
    const people = byView.get('history people')!;
    for (const p of PHONES.filter((n) => n !== PHONES[0] && n !== PHONES[2])) {
      const row = people.find((l) => l.includes(p));
      expect(row, `${p} at ${columns}`).toBeDefined();
      expect(row!.split(p), `${columns}: ${row}`).toHaveLength(2);
    }
    // status: the amounts whole on their line
    const status = byView.get('status')!.join('\n');
    expect(status).toMatch(/\d+\.\d{2} USD \(auto-recharge/);
    expect(status).toMatch(/video credits\s+\d+\.\d{2} USD/);
  });

  it('hides what does not fit and says so; 80 columns show a call summary (times to the minute), 120 whole times too', () => {
    const at60 = screens.get(60)!.get('history calls')!;
    const note = at60.slice(at60.findIndex((l) => l.startsWith('--wide shows'))).join(' ');
    expect(note).toMatch(/^--wide shows \d more columns: .*SUMMARY$/);
    const at80 = screens.get(80)!.get('history calls')!;
    expect(at80[0]).toMatch(/^ID +WHEN \(UTC\) +STATUS +FROM +TO +SUMMARY$/);
    expect(
      at80.slice(1, 7).every((l) => /^\S+ +\d{4}-\d{2}-\d{2} \d{2}:\d{2} +\S+ +\+1\d{10} +\+1\d{10} +\S/.test(l)),
    ).toBe(true);
    expect(at80.join(' ')).toMatch(/--wide shows 2 more columns: DIRECTION, SECONDS/);
    const at120 = screens.get(120)!.get('history calls')!;
    expect(at120[0]).toMatch(/SUMMARY$/);
    expect(at120.join('\n')).toMatch(/The recipient/);
    expect(screens.get(120)!.get('history people')!.join('\n')).toContain(LONG_EMAIL);
  });

  it('keeps ISO 8601 in --json and piped output', () => {
    expect(json('history', 'calls')[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(vmv('sim', 'clock').stdout).toMatch(/^now\t\d{4}-\d{2}-\d{2}T[\d:.]+Z$/m);
    expect(vmv('history', 'calls').stdout).toMatch(/\t\d{4}-\d{2}-\d{2}T[\d:.]+Z\t/);
    expect(vmv('sim', 'advance', '1s').stderr).toMatch(new RegExp(`now ${HUMAN_TIME.source}\\n$`));
  });
});
