// `vmv numbers`, `vmv numbers config`, `vmv calls` and `vmv sim call|number|caller-id|defaults`
// on both targets (issue 4, part 5).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, useTargets } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });

const dir = tempDir();
const EDITOR = join(dir, 'edit.mjs');
writeFileSync(
  EDITOR,
  `
import { readFileSync, writeFileSync } from 'node:fs';
const f = process.argv[2];
const c = JSON.parse(readFileSync(f, 'utf8'));
if (process.env.EDIT_MODE === 'change') { c.voice.greeting_message = 'Edited greeting'; c.call_settings.recording_enabled = false; }
if (process.env.EDIT_MODE === 'break') { writeFileSync(f, '{ not json'); process.exit(0); }
if (process.env.EDIT_MODE === 'ivr') { c.ivr.enabled = true; c.ivr.greeting = 'Hi'; c.ivr.menus = [{ name: 'Main', options: [{ key: '1', label: 'sales', action: { type: 'hangup' } }] }]; }
writeFileSync(f, JSON.stringify(c, null, 2));
`,
);

describe('numbers', () => {
  it('sim number adds numbers; numbers list shows them; voices by stack', async () => {
    const a = (
      await both(['sim', 'number', '--stack', 't1', '--phone', '+14155550123', '--name', 'Front desk'])
    ).stdout.trim();
    expect(a).toMatch(/^\d+$/);
    await both(['sim', 'number', '--stack', 't2']);
    const list = await both(['numbers', 'list']);
    expect(list.stdout.split('\n')[1].split('\t').slice(0, 5)).toEqual([a, '+14155550123', 'Front desk', 't1', 'yes']);
    const voices = await both(['numbers', 'voices', a]);
    expect(voices.stdout.split('\n')[0].split('\t')[0]).toBe('ava');
    expect(voices.stdout).not.toContain('aria-hd');
  });

  it('numbers search prints the available numbers', async () => {
    const r = await both(['numbers', 'search', '--area-code', '415', '--limit', '3']);
    const rows = r.stdout.trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^\+1415\d{7}\tSan Francisco\tCA\tvoice,sms,mms$/);
    expect((await both(['numbers', 'search', '--area-code', '41'])).code).toBe(2); // checked before any request (issue 9)
    expect((await both(['numbers', 'search', '--limit', '51'])).code).toBe(2);
  });

  it('numbers release: refused without a terminal and --yes; asks on a terminal; --yes releases', async () => {
    const id = (await both(['sim', 'number', '--stack', 't2'])).stdout.trim();
    const refused = await both(['numbers', 'release', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const no = await both(['numbers', 'release', id], { tty: true, stdin: 'no\n' });
    expect(no.code).toBe(7); // declined at the prompt (issue 9)
    expect(no.stderr).toContain('Not released.');
    const yes = await both(['numbers', 'release', id], { tty: true, stdin: 'release\n' });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('');
    expect(yes.stderr).toMatch(/Released \+1\d+; 0 call records deleted\.\n$/);
    const id2 = (await both(['sim', 'number', '--stack', 't2'])).stdout.trim();
    expect((await both(['numbers', 'release', id2, '--yes'])).code).toBe(0);
    expect((await both(['numbers', 'list'])).stdout).toBe('');
  });
});

describe('numbers config', () => {
  it('get shows the configuration or one section', async () => {
    const id = (await both(['sim', 'number', '--stack', 't1'])).stdout.trim();
    const all = await both(['numbers', 'config', 'get', id]);
    expect(JSON.parse(all.stdout)).toMatchObject({ id: Number(id), stack: 't1' });
    const cs = await both(['numbers', 'config', 'get', id, '--section', 'call_settings']);
    expect(JSON.parse(cs.stdout)).toMatchObject({ recording_enabled: true, hd_voice_enabled: null });
    expect((await both(['numbers', 'config', 'get', id, '--section', 'nope'])).code).toBe(2);
  });

  it('set changes only the fields given, from assignments, a file and standard input', async () => {
    const id = (await both(['sim', 'number', '--stack', 't1'])).stdout.trim();
    const r = await both([
      'numbers',
      'config',
      'set',
      id,
      'call_settings.recording_enabled=false',
      'voice.speed=1.2',
      'voice.greeting_message=Hello there',
      'is_active=false',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `Updated number ${id}: call_settings.recording_enabled, voice.speed, voice.greeting_message, is_active\n`,
    );
    const c = JSON.parse((await both(['numbers', 'config', 'get', id])).stdout);
    expect(c).toMatchObject({
      is_active: false,
      call_settings: { recording_enabled: false, transcription_enabled: true },
      voice: { speed: 1.2, greeting_message: 'Hello there', inherits_workspace_default: false },
    });
    const file = join(dir, 'patch.json');
    writeFileSync(file, JSON.stringify({ transfers: { primary_transfer_number: '+12025550100' } }));
    expect(
      (await both(['numbers', 'config', 'set', id, '--file', file, 'transfers.office_hours_only=true'])).code,
    ).toBe(0);
    expect((await both(['numbers', 'config', 'set', id, '--file', '-'], { stdin: '{"name":"From stdin"}' })).code).toBe(
      0,
    );
    const after = JSON.parse((await both(['numbers', 'config', 'get', id])).stdout);
    expect(after).toMatchObject({
      name: 'From stdin',
      transfers: { primary_transfer_number: '+12025550100', office_hours_only: true },
    });
  });

  it("set reports the API's per-field errors (exit 1) and refuses bad assignments (exit 2)", async () => {
    const id = (await both(['sim', 'number', '--stack', 't1'])).stdout.trim();
    const hd = await both(['numbers', 'config', 'set', id, 'call_settings.hd_voice_enabled=true', 'voice.pitch=3']);
    expect(hd.code).toBe(1);
    expect(hd.stderr).toContain('call_settings.hd_voice_enabled: applies to t2 numbers only; this number is t1');
    expect(hd.stderr).toContain('voice.pitch: is not a known field');
    expect((await both(['numbers', 'config', 'set', id, 'novalue'])).code).toBe(2);
    expect((await both(['numbers', 'config', 'set', id, '__proto__.polluted=1'])).code).toBe(2);
    expect((await both(['numbers', 'config', 'set', id])).code).toBe(2);
  });

  it('edit opens the editor and sends only what changed', async () => {
    for (const t of Object.values(targets)) Object.assign(t.env, { EDITOR: `${process.execPath} ${EDITOR}` });
    const id = (await both(['sim', 'number', '--stack', 't2'])).stdout.trim();
    targets.embedded.env.EDIT_MODE = targets.remote.env.EDIT_MODE = 'none';
    expect((await both(['numbers', 'config', 'edit', id], { tty: true })).stderr).toBe('No changes.\n');
    targets.embedded.env.EDIT_MODE = targets.remote.env.EDIT_MODE = 'change';
    const r = await both(['numbers', 'config', 'edit', id], { tty: true });
    expect(r.stderr).toBe(`Updated number ${id}: call_settings.recording_enabled, voice.greeting_message\n`);
    const c = JSON.parse((await both(['numbers', 'config', 'get', id])).stdout);
    expect(c.voice).toMatchObject({ greeting_message: 'Edited greeting', inherits_workspace_default: false });
    // the phone menu's first enabling: the whole edited ivr section is sent (defaults included)
    targets.embedded.env.EDIT_MODE = targets.remote.env.EDIT_MODE = 'ivr';
    expect((await both(['numbers', 'config', 'edit', id], { tty: true })).code).toBe(0);
    expect(JSON.parse((await both(['numbers', 'config', 'get', id, '--section', 'ivr'])).stdout)).toMatchObject({
      enabled: true,
      timeout_seconds: 8,
      max_attempts: 3,
    });
    targets.embedded.env.EDIT_MODE = targets.remote.env.EDIT_MODE = 'break';
    expect((await both(['numbers', 'config', 'edit', id], { tty: true })).code).toBe(2);
    expect((await both(['numbers', 'config', 'edit', id])).code).toBe(2); // no terminal
  });
});

describe('calls and simulated callers', () => {
  it('calls place needs a verified caller ID; then it rings; hangup ends it', async () => {
    const bad = await both(['calls', 'place', '--caller-id', '+12025551111', '--to', '+12025550100']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('(caller_id_not_verified, HTTP 422)');
    expect(await both(['sim', 'caller-id', '+12025551111'])).toMatchObject({
      stdout: '',
      stderr: 'Verified +12025551111\n',
    });
    const id = (
      await both([
        'calls',
        'place',
        '--caller-id',
        '+12025551111',
        '--to',
        '+12025550100',
        '--metadata',
        '{"ticket":7}',
      ])
    ).stdout.trim();
    expect((await both(['history', 'call', id])).stdout).toContain('status\tRINGING');
    const h = await both(['calls', 'hangup', id]);
    expect(h).toMatchObject({ stdout: '', stderr: `Call ${id} ended: CANCELED\n` });
    expect((await both(['calls', 'hangup', id])).code).toBe(1);
    expect(
      (await both(['calls', 'place', '--caller-id', '+12025551111', '--to', '+12025550100', '--metadata', 'nope']))
        .code,
    ).toBe(2);
  });

  it("calls hangup ends a quick job's call too, and quick status shows its target canceled (issue 23, point 9)", async () => {
    const id = (await both(['quick', 'call', '+12025550102', '--goal', 'Confirm Tuesday'])).stdout.trim();
    const call = (await both(['quick', 'status', id, '--json'])).json.data.targets[0].last_call_id;
    const h = await both(['calls', 'hangup', call]);
    expect(h).toMatchObject({ code: 0, stdout: '', stderr: `Call ${call} ended: CANCELED\n` });
    const s = await both(['quick', 'status', id]);
    expect(s.stdout).toContain('status\tcompleted');
    expect(s.stdout).toMatch(/\+12025550102\t\+1415555015\d\tcanceled\t-\t1\t0\t0\tno\tcanceled/);
  });

  it('sim call rings a workspace number and says who answers', async () => {
    const n = (await both(['sim', 'number', '--stack', 't2', '--phone', '+14155550199'])).stdout.trim();
    await both(['numbers', 'config', 'set', n, 'transfers.primary_transfer_number="+12025550100"']);
    const r = await both([
      'sim',
      'call',
      '--from',
      '+12025559000',
      '--to',
      '+14155550199',
      '--says',
      'Can I speak to a person?',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^Ringing: the AI agent answers; goes to \+12025550100; ends COMPLETED \(transferred\)\.$/m,
    );
    await both(['sim', 'advance', '5m']);
    expect((await both(['history', 'calls', '--direction', 'inbound'])).stdout).toMatch(
      /\tinbound\tCOMPLETED\t\+12025559000\t\+14155550199\t/,
    );
  });

  it('sim defaults shows and changes what numbers inherit', async () => {
    const r = await both(['sim', 'defaults', 'voice.farewell_message=See you!', 'sms.reply_delay_seconds=5']);
    expect(JSON.parse(r.stdout)).toMatchObject({
      voice: { farewell_message: 'See you!' },
      sms: { reply_delay_seconds: 5 },
    });
    expect((await both(['sim', 'defaults', 'voice.speed=9'])).code).toBe(1);
  });
});
