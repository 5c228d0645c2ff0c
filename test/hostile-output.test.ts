// Hostile bytes never reach a terminal (issue 31, point 5): texts, an email, a contact and an
// assistant conversation carrying escape sequences (a window title, an OSC 52 clipboard write, a
// screen clear, a colour, C1 CSI, a bidi override, CR, DEL, NUL) are put into the simulator, then
// bin/vmv prints them on both targets, piped and on a pty (`script`): no raw control byte comes
// out, each shows as its escape (\u001b), --json parses back to the exact strings; an error
// envelope from a service says its words the same way; the chat on a pty too, and the line chat on
// a pty through a service whose ended call carries a redraw in its end_reason (review point 9).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, childEnv, startSim, T0, tempDir, type Sim } from './helpers.js';
import { requires } from './skips.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
const NO_SCRIPT = 'script (util-linux) is not installed: it gives the command a pty';

/** A body, a subject and a name as an attacker writes them. */
const BODY =
  'Hi \u001b]0;pwned\u0007 clip \u001b]52;c;ZXZpbA==\u0007 \u001b[2J\u001b[H clear \u009b2J C1 ' +
  '\u202eevil\u202c tab\there\nnext \r cr \u007f del \u0000 nul \u001b[31mred\u001b[0m';
const SUBJECT = 'Invoice \u001b]0;pwned\u0007 \u009b2J \u202eevil\u202c \u001b[31mred';
const NAME = 'Eve \u001b]0;pwned\u0007\u202erevE\u202c \u009b2J';
/** What each shows as, at least in part (a terminal may clip the rest). */
const SHOWN = ['\\u001b]0;pwned\\u0007', '\\u202e'];

/** A raw control byte of the kinds the rule covers (line feed and tab are the formats' own). */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** vmv's own colours on a terminal, and the pty's line ends: what a terminal capture may hold besides text. */
const OWN_TTY = /\u001b\[(?:0|1|2|31|32|33)m|\r(?=\n)/g;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface How {
  cmd: string;
  args: string[];
  env: Record<string, string>;
}

/** bin/vmv ARGS as a child process, stdout and stderr piped. */
const pipedOf = (env: Record<string, string>, args: string[]): How => ({
  cmd: process.execPath,
  args: [BIN, ...args],
  env,
});

/** bin/vmv ARGS on a pty of 120x40 (util-linux `script`), in colour: stdout is all it wrote to the terminal. */
const ptyOf = (env: Record<string, string>, args: string[]): How => ({
  cmd: 'script',
  args: [
    '-qfec',
    `stty cols 120 rows 40; exec ${[process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ')}`,
    '/dev/null',
  ],
  env: colour(env),
});

function runSync(h: How): Run {
  const r = spawnSync(h.cmd, h.args, { env: h.env, input: '', encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same without blocking this process (the error test's service answers from here). */
function runAsync(h: How): Promise<Run> {
  const p = spawn(h.cmd, h.args, { env: h.env });
  p.stdin.end();
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => (stdout += d));
  p.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => p.once('close', (code) => resolve({ code, stdout, stderr })));
}

const piped = (env: Record<string, string>, args: string[]) => runSync(pipedOf(env, args));
const onPty = (env: Record<string, string>, args: string[]) => runSync(ptyOf(env, args));

/** `env` for a terminal that shows colour. */
function colour(env: Record<string, string>): Record<string, string> {
  const { NO_COLOR: _, ...rest } = env;
  return { ...rest, TERM: 'xterm-256color' };
}

/** What a terminal capture holds once vmv's own colours and the pty's CRs are taken out. */
const unstyled = (s: string) => s.replace(OWN_TTY, '');

function expectNoRawControl(what: string, text: string): void {
  const at = RAW.exec(text);
  expect(at && JSON.stringify(text.slice(Math.max(0, at.index - 30), at.index + 30)), what).toBeNull();
}

interface World {
  name: string;
  env: Record<string, string>;
  email: string;
}

const worlds: World[] = [];
let sim: Sim;
let dir: string;

/** Puts the hostile values in through the API: a contact, an inbound text to a workspace number (/_sim traffic), an email fixture. */
function seed(env: Record<string, string>): void {
  const api = (method: string, path: string, body: unknown) => {
    const file = join(dir, `body-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(body));
    const r = piped(env, ['api', method, path, '--input', file]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  const json = (args: string[]) => JSON.parse(piped(env, [...args, '--json']).stdout);
  api('POST', '/_sim/contacts', { name: NAME, phone_number: '+12025550177' });
  const number = json(['quick', 'number', '--area-code', '415']).data.id;
  json(['sim', 'advance', '1m']);
  const phone = json(['quick', 'status', String(number)]).data.phone_number;
  api('POST', '/_sim/inbound/texts', { from: '+12025550177', to: phone, body: BODY });
  api('POST', '/_sim/emails', {
    direction: 'inbound',
    from_address: 'eve@example.com',
    to: 'ops@example.com',
    subject: SUBJECT,
    body: BODY,
  });
}

beforeAll(async () => {
  dir = tempDir();
  const embedded = childEnv(join(dir, 'embedded'));
  expect(piped(embedded, ['sim', 'reset', '--clock', 'manual', '--now', T0]).code).toBe(0);
  sim = await startSim();
  const remote = childEnv(join(dir, 'remote'), { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key });
  for (const [name, env] of [
    ['embedded', embedded],
    ['remote', remote],
  ] as const) {
    seed(env);
    worlds.push({ name, env, email: 'eve@example.com' });
  }
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const COMMANDS: [string, string[], string][] = [
  ['history texts', ['history', 'texts'], BODY],
  ['history emails', ['history', 'emails', '--email', 'eve@example.com'], SUBJECT],
  ['contacts list', ['contacts', 'list'], NAME],
];

describe.each(['embedded', 'remote'])('on the %s target', (target) => {
  const world = () => worlds.find((w) => w.name === target)!;

  it.each(COMMANDS)('%s piped: tab-separated rows, no raw control byte, every value shown escaped', (_, args) => {
    const r = piped(world().env, args);
    expect(r.code, r.stderr).toBe(0);
    expectNoRawControl('stdout', r.stdout);
    expectNoRawControl('stderr', r.stderr);
    for (const s of SHOWN) expect(r.stdout).toContain(s);
    // a value's own tab and line break do not break the row: each row has the same number of columns
    const rows = r.stdout.trimEnd().split('\n');
    expect(new Set(rows.map((l) => l.split('\t').length)).size).toBe(1);
  });

  it.for(COMMANDS)('%s on a terminal: only vmv’s own colours, values escaped', ([, args], ctx) => {
    if (!hasScript) return ctx.skip(NO_SCRIPT);
    const r = onPty(world().env, args);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\u001b[1m'); // in colour: the header is bold
    expectNoRawControl('terminal', unstyled(r.stdout));
    expect(r.stdout).not.toContain('\u001b[31mred'); // a value's colour is not obeyed either
    expect(r.stdout).toContain(SHOWN[0].slice(0, 12));
  });

  it.each(COMMANDS)('%s --json: exact JSON (escaped), parsing back to the original strings', (_, args, original) => {
    for (const r of [
      piped(world().env, [...args, '--json']),
      ...(hasScript ? [onPty(world().env, [...args, '--json'])] : []),
    ]) {
      expect(r.code).toBe(0);
      const text = r.stdout.replace(/\r\n/g, '\n');
      expectNoRawControl('--json', text);
      const body = JSON.parse(text);
      const values = JSON.stringify(body.data);
      expect(values).toContain(JSON.stringify(original).slice(1, -1));
      expect(
        body.data.some((x: Record<string, unknown>) => Object.values(x).includes(original)),
        'one record holds the exact original',
      ).toBe(true);
    }
  });

  it('a single record (contacts get): key<TAB>value piped, aligned on a terminal, escaped both ways', () => {
    const id = JSON.parse(piped(world().env, ['contacts', 'list', '--json']).stdout).data.find(
      (c: { name: string }) => c.name === NAME,
    ).contact_id;
    const p = piped(world().env, ['contacts', 'get', id]);
    expect(p.code, p.stderr).toBe(0);
    expectNoRawControl('piped', p.stdout);
    expect(p.stdout).toContain('Eve \\u001b]0;pwned\\u0007\\u202erevE\\u202c \\u009b2J');
    if (hasScript) expectNoRawControl('terminal', unstyled(onPty(world().env, ['contacts', 'get', id]).stdout));
  });
});

describe("a service's error envelope", () => {
  let server: Server;
  let url: string;
  const envelope = {
    error: {
      code: 'invalid_request',
      message: 'No such thing: \u001b]0;pwned\u0007 \u001b[2J \u009b2J \u202eevil\u202c',
      fields: { ['name\u001b[31m']: 'bad \u001b]52;c;ZXZpbA==\u0007' },
    },
  };
  beforeAll(async () => {
    server = createServer((_, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(envelope)),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('is said escaped on stderr (piped and on a terminal); with --json it is the exact envelope', async () => {
    const env = childEnv(join(dir, 'errors'), { VMV_BASE_URL: url, VMV_API_KEY: 'sk_test_x' });
    const p = await runAsync(pipedOf(env, ['contacts', 'list']));
    expect(p.code).not.toBe(0);
    expectNoRawControl('stderr', p.stderr);
    expect(p.stderr).toContain('No such thing: \\u001b]0;pwned\\u0007 \\u001b[2J \\u009b2J \\u202eevil\\u202c');
    expect(p.stderr).toContain('bad \\u001b]52;c;ZXZpbA==\\u0007');
    if (hasScript) {
      const t = await runAsync(ptyOf(env, ['contacts', 'list']));
      expectNoRawControl('terminal', unstyled(t.stdout));
      expect(t.stdout).toContain('\u001b[31merror');
      expect(t.stdout).not.toContain('name\u001b[31m');
    }
    const j = await runAsync(pipedOf(env, ['contacts', 'list', '--json']));
    expectNoRawControl('--json stderr', j.stderr);
    expect(JSON.parse(j.stderr)).toEqual(envelope);
  });
});

describe('vmv assistant chat on a terminal', () => {
  requires(hasScript ? null : NO_SCRIPT);
  it('shows a conversation written elsewhere with its title and message escaped; nothing raw but its own drawing', async () => {
    const env = worlds.find((w) => w.name === 'embedded')!.env;
    const file = join(dir, 'message.json');
    writeFileSync(file, JSON.stringify({ message: `who is ${NAME}?` }));
    const sent = piped(env, ['api', 'POST', '/v1/assistant/messages', '--input', file]);
    expect(sent.code, sent.stderr).toBe(0);
    const id = JSON.parse(sent.stdout).data.conversation_id;

    const capture = join(dir, 'chat.out');
    const cmd = `stty cols 100 rows 30; exec '${process.execPath}' '${BIN}' assistant chat --conversation ${id}`;
    const proc = spawn('script', ['-qfec', cmd, capture], {
      env: colour(env),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise<number | null>((r) => proc.once('exit', r));
    const read = () => {
      try {
        return readFileSync(capture, 'utf8');
      } catch {
        return '';
      }
    };
    const end = Date.now() + 20_000;
    while (!read().includes('revE') && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    proc.stdin.write('\u0003'); // Ctrl-C leaves
    await exited;
    const out = read();
    expect(out).toContain('\\u001b]0;pwned\\u0007\\u202erevE\\u202c');
    // the chat draws with Ink: its colours and cursor moves, nothing else
    const drawing = /\u001b\[(?:\d+(?:;\d+)*)?[mABGK]|\u001b\[\?(?:25|2026|1049)[hl]|\r(?=\n)/g;
    expectNoRawControl('chat', out.replace(drawing, ''));
    expect(out).not.toContain('\u001b]0;pwned');
    expect(out).not.toContain('\u202e');
  }, 30_000);
});

describe('the line chat on a terminal, through a service whose ended call carries escape sequences (review point 9)', () => {
  requires(hasScript ? null : NO_SCRIPT);
  /** What a hostile service puts where the chat reads why a call ended: a redraw that would erase and rewrite the lines above, a colour. */
  const HOSTILE = '\r\u001b[2K\u001b[1A\u001b[0J\u001b[31mforged: goal achieved';
  let proxy: Server;
  let url: string;
  beforeAll(async () => {
    // passes every request on to the simulator; a quick job's read comes back with each target
    // not reached, for HOSTILE reasons
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
      ) as Record<string, string>;
      const r = await fetch(sim.url + req.url, { method: req.method, headers, body });
      let text = await r.text();
      if (req.method === 'GET' && req.url?.startsWith('/v1/quick/actions/') && r.status === 200) {
        const j = JSON.parse(text);
        if (j.data.status !== 'running')
          for (const t of j.data.targets) Object.assign(t, { status: 'failed', end_reason: HOSTILE });
        text = JSON.stringify(j);
      }
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(text);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

  it('says the end_reason and a line not understood escaped: no raw ESC but its own colours reaches the terminal', async () => {
    const env = childEnv(join(dir, 'line-chat'), { VMV_BASE_URL: url, VMV_API_KEY: sim.key });
    const input = join(dir, 'line-chat.txt');
    writeFileSync(input, 'call +14155550188 to confirm the appointment\nsing \u001b[2K\u001b[31ma song\n');
    // standard input from a file: the line chat, with stdout and stderr on the pty
    const cmd = `stty cols 120 rows 40; exec '${process.execPath}' '${BIN}' assistant chat --approve-all < '${input}'`;
    const t = await runAsync({ cmd: 'script', args: ['-qfec', cmd, '/dev/null'], env: colour(env) });
    expect(t.code, t.stdout).toBe(0);
    expect(t.stdout).toContain('\u001b[33m'); // in colour: the notes are yellow
    expect(t.stdout).toContain(
      '+14155550188 could not be reached (\\u000d\\u001b[2K\\u001b[1A\\u001b[0J\\u001b[31mforged: goal achieved)',
    );
    expect(t.stdout).toContain('\\u001b[2K\\u001b[31ma song');
    expectNoRawControl('terminal', unstyled(t.stdout));
    expect(t.stdout).not.toContain('\u001b[31mforged');
    expect(t.stdout).not.toContain('\u001b[31ma song');
  }, 60_000);
});
