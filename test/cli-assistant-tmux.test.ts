// `vmv assistant chat` in a real terminal: tmux runs it (send-keys types, capture-pane reads the
// screen) on the embedded simulator with a manual clock, through one question and one action
// approved with y; colours (and bold, dim, inverse) only without NO_COLOR; Ctrl-C while a run works
// exits 130 and prints the conversation's id; wide characters at 60x20; and send's Ctrl-C at its
// y/N prompt. Skipped where tmux is missing.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, T0, tempDir } from './helpers.js';
import { requires } from './skips.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const TEXT = 'text +14155550100 and ask whether Tuesday works';
const SOCKET = `vmv-test-${process.pid}`;
let dir: string;
let env: NodeJS.ProcessEnv;

const tmux = (...args: string[]) =>
  spawnSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
const vmv = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
/** The terminal's screen, lines the terminal wrapped joined again (-J) */
const screen = (session: string, o: { escapes?: boolean } = {}) =>
  tmux('capture-pane', '-p', '-J', ...(o.escapes ? ['-e'] : []), '-t', session).stdout;
/** The screen's words, however the chat wrapped them */
const words = (s: string) => s.replace(/\s+/g, ' ');

/** Waits until the session's screen shows `what`; the screen. */
async function until(session: string, what: string | RegExp, ms = 10_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const s = screen(session);
    if (typeof what === 'string' ? s.includes(what) : what.test(s)) return s;
    if (Date.now() > end) throw new Error(`the terminal never showed ${what}; it shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `vmv assistant chat ARGS` in a terminal (100x30 unless told); when it ends, the shell prints [exit N]. */
function chat(session: string, args: string[], extraEnv = '', size = { columns: 100, rows: 30 }): void {
  run(session, ['assistant', 'chat', ...args], extraEnv, size);
}

/** Starts `vmv ARGS` in a terminal; when it ends, the shell prints [exit N]. */
function run(session: string, args: string[], extraEnv = '', size = { columns: 100, rows: 30 }): void {
  const cmd = `${extraEnv} ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} ${args.map((a) => JSON.stringify(a)).join(' ')}; echo "[exit $?]"; sleep 600`;
  const r = tmux('new-session', '-d', '-s', session, '-x', String(size.columns), '-y', String(size.rows), cmd);
  expect(r.status, r.stderr).toBe(0);
}

/** Where the terminal's cursor is, and whether it shows. */
const cursor = (session: string) => {
  const [x, y, shown] = tmux('display', '-p', '-t', session, '#{cursor_x},#{cursor_y},#{cursor_flag}')
    .stdout.trim()
    .split(',')
    .map(Number);
  return { x, y, shown: shown === 1 };
};

const type = (session: string, text: string) => tmux('send-keys', '-t', session, '-l', text);
const key = (session: string, ...keys: string[]) => tmux('send-keys', '-t', session, ...keys);

describe('vmv assistant chat in a terminal (tmux)', () => {
  const can = requires(hasTmux ? null : 'tmux is not installed (.ci/run installs it: apt-get install tmux)');
  beforeAll(() => {
    if (!can) return;
    dir = tempDir();
    env = { ...process.env, VMV_SIM_DATA: join(dir, 'sim.json'), VMV_CONFIG_DIR: join(dir, 'config'), TMUX: '' };
    // ink draws only the last frame where it thinks it runs in CI; a person is at this terminal
    for (const k of ['CI', 'CONTINUOUS_INTEGRATION', 'NO_COLOR', 'FORCE_COLOR', 'VMV_BASE_URL', 'VMV_API_KEY'])
      delete env[k];
    expect(vmv('sim', 'reset', '--clock', 'manual', '--now', T0).status).toBe(0);
  });
  afterAll(() => {
    if (!can) return;
    tmux('kill-server'); // this test's own server (its socket), nobody else's
    rmSync(dir, { recursive: true, force: true });
  });

  it('one question, then one action approved with y; /quit exits 0', async () => {
    chat('plain', [], 'NO_COLOR=1');
    await until('plain', 'Ask in plain English');
    expect(screen('plain')).toContain('manual clock: moved while the assistant works');
    type('plain', 'how many calls did we get yesterday?');
    await until('plain', '› how many calls did we get yesterday?');
    key('plain', 'Enter');
    let s = await until('plain', 'You got 0 inbound calls yesterday (2026-01-04, UTC).');
    expect(s).toMatch(/✓ list_calls direction=inbound/);

    type('plain', 'text +14155550100 and ask whether Tuesday works');
    key('plain', 'Enter');
    s = await until('plain', 'Approval: create_quick_ai_text');
    expect(words(s)).toContain('0.05 USD per message the agent sends');
    expect(s).toContain('y approve · n decline');
    key('plain', 'y');
    s = await until('plain', /I started an AI text to \+14155550100 toward "ask whether Tuesday works"/);
    expect(s).toContain('· approved: create_quick_ai_text to_numbers=+14155550100');
    expect(s).toContain('✓ create_quick_ai_text to_numbers=+14155550100');
    // NO_COLOR: no colour, nor bold, dim or inverse (as the rest of the CLI); the cursor is the terminal's own
    expect(screen('plain', { escapes: true })).not.toMatch(/\u001b\[[0-9;]*m/);
    type('plain', 'ok');
    await until('plain', /^› ok$/m);
    const lines = screen('plain').split('\n');
    expect(cursor('plain')).toEqual({ x: 4, y: lines.findIndex((l) => l === '› ok'), shown: true });
    key('plain', 'C-u');

    type('plain', '/quit');
    key('plain', 'Enter');
    await until('plain', '[exit 0]');
    // the service has it: the action was taken, the conversation is idle
    const list = JSON.parse(vmv('assistant', 'list', '--json').stdout).data;
    expect(list[0]).toMatchObject({
      status: 'idle',
      title: 'how many calls did we get yesterday?',
      actions: [{ tool: 'create_quick_ai_text', status: 'completed' }],
    });
  });

  it('colours without NO_COLOR; Ctrl-C while the assistant works exits 130 and says how to resume', async () => {
    chat('colour', ['--no-auto-advance']);
    await until('colour', 'manual clock: not moved (--no-auto-advance)');
    type('colour', 'who texted us today?');
    key('colour', 'Enter');
    await until('colour', /working · \d+s · waiting for the clock/);
    expect(screen('colour', { escapes: true })).toMatch(/\u001b\[[0-9;]*3[0-7][0-9;]*m/);
    key('colour', 'C-c');
    const s = await until('colour', '[exit 130]');
    const id = /Left the chat while the assistant was working; it goes on in conversation ([0-9a-f-]{36})\./.exec(
      s,
    )?.[1];
    expect(id).toBeDefined();
    expect(s).toMatch(/Resume it: vmv assistant chat --conversation [0-9a-f-]{36}/);
    // the id alone on stdout, as every wait Ctrl-C stops prints it
    expect(s.split('\n')).toContain(id);
  });

  it('60x20: a message in Chinese with emoji stays whole and the header stays; y pressed twice answers once', async () => {
    const size = { columns: 60, rows: 20 };
    chat('wide', [], 'NO_COLOR=1', size);
    await until('wide', 'Ask in plain English');
    const message =
      '请帮我查一下昨天我们接到了多少个电话😀🎉谢谢你的帮助，我非常感激你为我们做的一切工作 how many calls did we get yesterday?';
    type('wide', message);
    await until('wide', 'did we get yesterday?');
    expect(cursor('wide').shown).toBe(true);
    key('wide', 'Enter');
    let s = await until('wide', 'You got 0 inbound calls yesterday');
    expect(s.split('\n')[0]).toMatch(/^vmv assistant · 请帮我.* · [0-9a-f]{8} · manual clock$/);
    expect(s.replace(/[\s›]/g, '')).toContain(message.replace(/\s/g, ''));
    expect(s).not.toMatch(/^\s*…\s*$/m);

    type('wide', TEXT);
    key('wide', 'Enter');
    await until('wide', 'Approval: create_quick_ai_text');
    // two presses in one piece, as a terminal delivers keys typed faster than it is read (and as two
    // separate send-keys arrive on a loaded machine): the first answers, the second finds nothing to answer
    key('wide', 'yy');
    s = await until('wide', /I started an AI text to \+14155550100/);
    expect(s.split('\n')[0]).toMatch(/^vmv assistant · /);
    expect(words(s)).not.toMatch(/conflict|answer again|TypeError/);
    key('wide', 'C-c');
    await until('wide', '[exit 0]');
  });

  it('a call it started: once the call ends the chat says how, unasked; Ctrl-D leaves and says how to resume', async () => {
    chat('ended', [], 'NO_COLOR=1', { columns: 120, rows: 30 });
    await until('ended', 'Ask in plain English');
    type('ended', 'call +14155550100 to confirm the appointment');
    key('ended', 'Enter');
    await until('ended', 'Approval: create_quick_ai_call');
    key('ended', 'y');
    // the chat moves the manual clock on until the call has ended, then says what came of it
    let s = await until('ended', /→ The call to \+14155550100 has ended/);
    expect(words(s)).toMatch(
      /→ The call to \+14155550100 has ended: \+14155550100 (answered, goal (not )?achieved|did not answer)[^;]*; it cost \d+\.\d\d USD\./,
    );
    expect(s.match(/has ended/g)).toHaveLength(1);
    // what the chat said matches the service's record of the job
    const conversation = JSON.parse(vmv('assistant', 'list', '--json').stdout).data[0];
    const job = JSON.parse(vmv('quick', 'status', conversation.actions[0].output.data.id, '--json').stdout).data;
    expect(words(s)).toContain(`it cost ${job.cost_usd.toFixed(2)} USD.`);
    key('ended', 'C-d');
    s = await until('ended', '[exit 0]');
    expect(s).toContain(`Resume it: vmv assistant chat --conversation ${conversation.conversation_id}`);
  });

  it('send on a terminal: Ctrl-C at the y/N prompt exits 130 at once; nothing more is asked', async () => {
    run(
      'send',
      ['assistant', 'send', `${TEXT} then call +14155550101 to confirm the appointment`, '--advance'],
      'NO_COLOR=1',
    );
    await until('send', 'Approve (1 of 2)');
    key('send', 'C-c');
    const s = await until('send', '[exit 130]', 3000);
    expect(s).toContain('Stopped waiting (interrupted)');
    expect(s).not.toMatch(/Why not\?|Approve \(2 of 2\)/);
  });
});
