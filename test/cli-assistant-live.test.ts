// `vmv assistant` with standard input left open, as a person's terminal or a script's pipe leaves it,
// on both targets: Ctrl-C at send's y/N prompt takes the question back (nothing more is asked or
// read); the chat's line mode lets standard input go however it ends (a failed run, approvals
// nobody answers, Ctrl-C), so the process ends with it; and the full-screen chat, run by the command
// itself on a stand-in terminal (Ink draws on it, keys are written to it): Ctrl-C prints the
// conversation's id, a y pressed twice answers once, and approvals answered from another shell do
// not trap it.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bufferIO } from '../src/io.js';
import { main } from '../src/main.js';
import { BIN, useTargets, type Target } from './helpers.js';

const { targets } = useTargets({ resetEach: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEXT = 'text +14155550100 and ask whether Tuesday works';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g, '');

/** A terminal's output, as Ink sees one: its size, and everything written to it. */
class Screen extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 30;
  written = '';
  write = (s: string) => {
    this.written += s;
    return true;
  };
}

/** A terminal's input, as Ink reads one (keys written here arrive as typed). */
class Keys extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(d: string) {
    this.data = d;
    this.emit('readable');
    this.emit('data', d);
  }
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/**
 * Runs `vmv ARGS` in this process on target `t`, its standard input a stream that stays open until
 * the test ends it. `tty`: stdin, stdout and stderr are terminals (the CLI asks); `screen`: also a
 * stand-in terminal for the full-screen chat.
 */
async function session(t: Target, args: string[], o: { tty?: boolean; screen?: boolean } = {}) {
  const ac = new AbortController();
  const io = await bufferIO({ tty: o.tty || o.screen, interrupt: ac.signal });
  const stdin = new PassThrough();
  io.stdin = stdin;
  const screen = o.screen ? { stdin: new Keys(), stdout: new Screen(), stderr: new Screen() } : null;
  if (screen) io.tty = screen as unknown as NonNullable<typeof io.tty>;
  const code = main(args, io, { PATH: process.env.PATH, HOME: process.env.HOME, ...t.env });
  const wait = async (what: RegExp | string, text: () => string, ms = 5000) => {
    const end = Date.now() + ms;
    for (;;) {
      const s = text();
      if (typeof what === 'string' ? s.includes(what) : what.test(s)) return s;
      if (Date.now() > end) throw new Error(`never saw ${what}; saw:\n${s}`);
      await sleep(5);
    }
  };
  return {
    io,
    stdin,
    screen,
    code,
    interrupt: () => ac.abort(),
    /** waits for `what` on stderr */
    until: (what: RegExp | string) => wait(what, () => io.stderr()),
    /** waits for `what` on the screen, drawn after `from` (a length of what was written) */
    onScreen: (what: RegExp | string, from = 0) => wait(what, () => plain(screen!.stdout.written.slice(from))),
    /** how much the screen has been written so far, to look only at what comes next */
    mark: () => screen!.stdout.written.length,
    /** keys, each written as a terminal sends it, after the chat took the one before */
    type: async (...keys: string[]) => {
      for (const k of keys) {
        screen!.stdin.write(k);
        await sleep(20);
      }
    },
  };
}

const status = async (t: Target, id: string) => (await t.run(['assistant', 'get', id, '--json'])).json.data;

describe('send on a terminal: Ctrl-C at the y/N prompt (review item 4)', () => {
  it('stops there: exit 130, the id alone on stdout; nothing more is asked or read, and nothing was answered', async () => {
    for (const t of Object.values(targets)) {
      const s = await session(
        t,
        ['assistant', 'send', `${TEXT} then call +14155550101 to confirm the appointment`, '--advance'],
        { tty: true },
      );
      await s.until('Approve (1 of 2)');
      s.interrupt();
      expect(await s.code, t.name).toBe(130);
      const id = s.io.stdout().trim();
      expect(id).toMatch(UUID);
      expect(s.io.stderr()).toContain(
        `Stopped waiting (interrupted); the assistant's run in conversation ${id} continues.`,
      );
      // what is typed now answers nothing: the question was taken back, standard input let go
      s.stdin.write('n\n');
      await sleep(50);
      expect(s.io.stderr()).not.toMatch(/Why not\?|Approve \(2 of 2\)/);
      expect(s.stdin.listenerCount('data')).toBe(0);
      expect((await status(t, id)).status).toBe('awaiting_approval');
      s.stdin.end();
    }
  });
});

describe("the chat's line mode lets standard input go however it ends (review item 3)", () => {
  it.each([
    ['a failed run', 5, 'hello #fail-run'],
    ['approvals nobody answers', 7, TEXT],
  ] as const)('%s: the chat ends (exit %i) with its standard input still open', async (_what, exit, line) => {
    for (const t of Object.values(targets)) {
      const s = await session(t, ['assistant', 'chat']);
      s.stdin.write(`${line}\n`);
      expect(await s.code, t.name).toBe(exit);
      expect(s.stdin.listenerCount('data')).toBe(0);
      s.stdin.end();
    }
  });

  it('Ctrl-C while the run works: exit 130, the id alone on stdout, standard input let go', async () => {
    for (const t of Object.values(targets)) {
      const s = await session(t, ['assistant', 'chat', '--no-auto-advance']);
      s.stdin.write('who texted us today?\n');
      const id = /^conversation (\S+)$/m.exec(await s.until(/^conversation \S+$/m))![1];
      s.interrupt();
      expect(await s.code, t.name).toBe(130);
      expect(s.io.stdout()).toBe(`${id}\n`);
      expect(s.stdin.listenerCount('data')).toBe(0);
      s.stdin.end();
    }
  });

  it('a real process ends with the chat, its standard input still open (a pipe whose writer is not done)', async () => {
    for (const t of Object.values(targets)) {
      const child = spawn(process.execPath, [BIN, 'assistant', 'chat'], {
        env: { ...process.env, ...t.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.write('hello #fail-run\n');
      const started = Date.now();
      const code = await Promise.race([
        new Promise((r) => child.once('exit', r)),
        sleep(5000).then(() => 'still running after 5 s'),
      ]);
      child.stdin.end();
      child.kill();
      expect(code, t.name).toBe(5);
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });
});

describe('the full-screen chat, run by the command', () => {
  it("Ctrl-C while the run works: exit 130, and the conversation's id alone on stdout (review item 5)", async () => {
    for (const t of Object.values(targets)) {
      const s = await session(t, ['assistant', 'chat', '--no-auto-advance'], { screen: true });
      await s.onScreen('Ask in plain English');
      await s.type('who texted us today?', '\r');
      await s.onScreen(/working · \d+s · waiting for the clock/);
      await s.type('\u0003');
      expect(await s.code, t.name).toBe(130);
      const id = s.io.stdout().trim();
      expect(id).toMatch(UUID);
      expect(s.io.stderr()).toContain(
        `Left the chat while the assistant was working; it goes on in conversation ${id}.`,
      );
      expect((await status(t, id)).status).toBe('working');
    }
  });

  it('y pressed twice at the last approval answers once, and the chat goes on (review item 1)', async () => {
    for (const t of Object.values(targets)) {
      const s = await session(t, ['assistant', 'chat'], { screen: true });
      await s.onScreen('Ask in plain English');
      await s.type(TEXT, '\r');
      await s.onScreen('Approval: create_quick_ai_text');
      const from = s.mark();
      s.screen!.stdin.write('y');
      s.screen!.stdin.write('y'); // before the screen is drawn again
      const f = await s.onScreen(/I started an AI text to \+14155550100[^]*›/, from);
      expect(f).not.toMatch(/conflict|answer again|TypeError/);
      await s.type('\u0015', '/quit', '\r');
      expect(await s.code, `${t.name}: ${s.io.stderr()}`).toBe(0);
      const id = JSON.parse((await t.run(['assistant', 'list', '--json'])).stdout).data[0].conversation_id;
      expect(await status(t, id)).toMatchObject({
        status: 'idle',
        actions: [{ tool: 'create_quick_ai_text', status: 'completed' }],
      });
    }
  });

  it('approvals answered from another shell: y reads the conversation again and the chat goes on, not asking again (review item 2)', async () => {
    for (const t of Object.values(targets)) {
      const s = await session(t, ['assistant', 'chat'], { screen: true });
      await s.onScreen('Ask in plain English');
      await s.type(TEXT, '\r');
      await s.onScreen('Approval: create_quick_ai_text');
      const id = JSON.parse((await t.run(['assistant', 'list', '--json'])).stdout).data[0].conversation_id;
      const other = await t.run(['assistant', 'approve', id, '--advance']);
      expect(other.code, other.stderr).toBe(0);
      const from = s.mark();
      await s.type('y');
      const f = await s.onScreen(/read again: it is idle\.[^]*Enter send/, from);
      expect(f).toContain('conflict (HTTP 409): No approval is pending in this conversation.');
      expect(f).not.toContain('answer again');
      // nothing is under way: leaving is exit 0
      await s.type('\u0003');
      expect(await s.code, t.name).toBe(0);
      expect(s.io.stdout()).toBe('');
    }
  });
});
