// Nothing lost under faults (issue 20): each fault injected for real — a full disk (a 2 MiB tmpfs),
// damaged journal files, a symbolic link, a read-only file system and a folder the user may not
// write — through `vmv sim serve` and the CLI as processes. What must hold: no acknowledged write is
// lost, what cannot be read is never overwritten, and every failure is a message naming the file.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../simulator/world.js';
import { BIN, startSim, T0, tempDir, type Sim } from './helpers.js';
import { fill, NO_MOUNT, tmpfs, until } from './full-disk.js';
import { requires } from './skips.js';

/** The CLI as a process on data file `data` (the embedded target). */
function vmv(
  args: string[],
  data: string,
  o: { uid?: number; input?: string } = {},
): SpawnSyncReturns<string> & { ms: number } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VMV_SIM_DATA: data,
    // another user may not even look into this user's temporary folders (an unreadable settings
    // file stops a command): theirs is a folder that does not exist
    VMV_CONFIG_DIR: o.uid === undefined ? join(tempDir(), 'cfg') : '/nonexistent/vmv-config',
    NO_COLOR: '1',
  };
  delete env.VMV_BASE_URL;
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
    uid: o.uid,
    input: o.input,
  });
  return Object.assign(r, { ms: performance.now() - t });
}

/** The contacts' names in a data file, as a new process reads it (snapshot and journal). */
const contactNames = async (file: string) =>
  new Store(file).withLock(async (ss) => (await ss.begin()).data.contacts.map((c) => c.name ?? ''));
const journalOf = (file: string) => `${file}.journal`;
const keyOf = (file: string) => new Store(file).withLock(async (ss) => (await ss.begin()).data.meta.default_api_key);
const tmpFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

/** A world with `n` contacts named `prefix-i`, each written by its own command (so each is a journal line). */
async function world(n: number, prefix = 'c'): Promise<string> {
  const data = join(tempDir(), 'sim.json');
  const store = new Store(data);
  const { createApp } = await import('../simulator/world.js');
  const app = createApp(store);
  await app.handle({
    method: 'POST',
    url: '/_sim/reset',
    headers: {},
    body: JSON.stringify({ clock: 'manual', now: T0 }),
  });
  for (let i = 0; i < n; i++) {
    const r = await app.handle({
      method: 'POST',
      url: '/_sim/contacts',
      headers: {},
      body: JSON.stringify({ name: `${prefix}-${i}` }),
    });
    expect(r.status).toBe(201);
  }
  return data;
}

/** Every file beside a data file, as bytes: to prove a refusal changed nothing. */
const filesOf = (data: string) =>
  Object.fromEntries(
    readdirSync(join(data, '..')).map((f) => [f, readFileSync(join(data, '..', f)).toString('base64')]),
  );

// ---- a real full disk: a small tmpfs (root only: test/full-disk.ts) ----

describe('a full disk (a 2 MiB tmpfs)', () => {
  requires(NO_MOUNT);
  it('refuses writes it cannot make whole (507 naming the disk and the file), loses no acknowledged write, and carries on once space returns', async () => {
    const dir = tmpfs('2m')!;
    const data = join(dir, 'sim.json');
    const filler = join(dir, 'filler');
    const sim = await startSim({ data });
    try {
      writeFileSync(filler, Buffer.alloc(256 * 1024));
      // a journal over 1 MiB asks for a compaction, which needs room for a whole new snapshot
      const bulk = await sim.api('POST', '/_sim/contacts', {
        body: Array.from({ length: 2500 }, (_, i) => ({ name: `bulk-${i}`, email: `bulk-${i}@example.com` })),
      });
      expect(bulk.status).toBe(201);
      const acked: string[] = [];
      const refused: string[] = [];
      for (let i = 0; refused.length < 30 && i < 5000; i++) {
        const r = await sim.api('POST', '/_sim/contacts', { body: { name: `c-${i}` } });
        if (r.status === 201) acked.push(`c-${i}`);
        else {
          expect(r.status, r.text).toBe(507);
          expect(r.json.error.code).toBe('insufficient_storage');
          expect(r.json.error.message).toContain(`The disk holding ${dir} is full`);
          expect(r.json.error.message).toContain(journalOf(data));
          refused.push(`c-${i}`);
        }
      }
      expect(refused).toHaveLength(30);
      // the server serves what the disk holds: no refused write, every acknowledged one
      const listed = await sim.api('GET', `/v1/contacts?limit=1`);
      expect(listed.json.meta.total_results).toBe(2500 + acked.length);
      // a paid request on a full disk: refused, and not charged
      const wallet = (await sim.api('GET', '/_sim/workspace')).json.wallet_usd;
      const email = { to: ['ada@example.com'], subject: 'Hello', body: 'On a full disk' };
      expect((await sim.api('POST', '/v1/quick/emails', { body: email })).status).toBe(507);
      expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBe(wallet);
      expect(tmpFiles(dir)).toEqual([]);

      // space returns: the next writes succeed, nothing restarted
      rmSync(filler);
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'after-space' } })).status).toBe(201);
      expect((await sim.api('POST', '/v1/quick/emails', { body: email })).status).toBe(200);
      expect((await sim.api('GET', '/_sim/workspace')).json.wallet_usd).toBeCloseTo(wallet - 0.01, 2);
      // a failed compaction is said once, however many writes follow it, and leaves no temp file
      expect(sim.stderr().split('could not fold the journal').length - 1).toBeLessThanOrEqual(1);
      expect(tmpFiles(dir)).toEqual([]);
      await sim.stop('SIGKILL');

      // as a new process reads the disk: every acknowledged write, no refused one
      const names = new Set(await contactNames(data));
      for (const n of [...acked, 'after-space']) expect(names.has(n), `acknowledged ${n}`).toBe(true);
      for (const n of refused) expect(names.has(n), `refused ${n}`).toBe(false);
      expect(names.size).toBe(2500 + acked.length + 1);
    } finally {
      await sim.stop();
    }
  }, 60_000);

  it('a journal with no room to fold it in: the command that asked succeeds, and the warning says so truly (never "send it again")', async () => {
    const dir = tmpfs('2m')!;
    const data = join(dir, 'sim.json');
    const many = Array.from({ length: 1200 }, (_, i) => ({ name: `p-${i}`, company: 'x'.repeat(190) }));
    expect(vmv(['sim', 'contact', '--file', '-'], data, { input: JSON.stringify(many) }).status).toBe(0);
    const r = vmv(['email', 'send', '--to', 'ada@example.com', '--subject', 's', '--body', 'b'], data);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/has no room to fold the journal into .* The journal keeps every change/);
    expect(r.stderr).not.toMatch(/send the request again|Nothing was applied/);
    expect(tmpFiles(dir)).toEqual([]);
    const ledger = JSON.parse(vmv(['api', '/_sim/ledger?limit=100'], data).stdout).data.filter(
      (e: { kind: string }) => e.kind === 'email',
    );
    expect(ledger).toHaveLength(1);
  });

  it('an embedded command on a full disk fails with the message and exit 1, and nothing it refused is on disk', async () => {
    const dir = tmpfs('256k')!;
    const data = join(dir, 'sim.json');
    expect(vmv(['sim', 'contact', '--name', 'first'], data).status).toBe(0);
    writeFileSync(
      join(dir, 'filler'),
      Buffer.alloc(
        Math.max(
          0,
          Number(spawnSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' }).stdout.split('\n')[1]) - 512,
        ),
      ),
    );
    const r = vmv(['email', 'send', '--to', 'ada@example.com', '--subject', 'x', '--body', 'y'.repeat(4000)], data);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/The disk holding .* is full/);
    expect(r.stderr).toContain('(insufficient_storage, HTTP 507)');
    expect(tmpFiles(dir)).toEqual([]);
    rmSync(join(dir, 'filler'));
    expect(JSON.parse(vmv(['history', 'emails', '--email', 'ada@example.com', '--json'], data).stdout).data).toEqual(
      [],
    );
  });
});

describe('due work on a full disk (a 2 MiB tmpfs)', () => {
  requires(NO_MOUNT);
  it('reads answer from the disk (Vmv-Stale) while what fell due cannot be saved, also after a restart; said once; the work runs once space returns, nothing lost', async () => {
    const dir = tmpfs('2m')!;
    const data = join(dir, 'sim.json');
    const filler = join(dir, 'filler');
    let sim = await startSim({ data });
    try {
      expect((await sim.api('POST', '/v1/sms/webhooks', { body: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(
        201,
      );
      const job = { to_numbers: ['+12025550101'], goal: 'Book a table' };
      const text = (await sim.api('POST', '/v1/quick/ai-texts', { body: job })).json.data.id;
      const call = (await sim.api('POST', '/v1/quick/ai-calls', { body: { ...job, to_numbers: ['+12025550100'] } }))
        .json.data.id;
      // a real clock a second before the first step falls due, then not one byte left on the disk
      const due = Date.parse((await sim.api('GET', '/_sim/clock')).json.next_due_at);
      const real = { mode: 'real', now: new Date(due - 1000).toISOString() };
      expect((await sim.api('POST', '/_sim/clock', { body: real })).status).toBe(200);
      fill(filler);
      const reads = async (s: Sim) => {
        for (const path of [
          '/_sim/workspace',
          `/v1/quick/actions/${text}`,
          '/v1/history/texts?phone_number=%2B12025550101',
          '/_sim/clock',
        ]) {
          const r = await s.api('GET', path);
          expect(r.status, `${path}: ${r.text}`).toBe(200);
          expect(r.headers.get('vmv-stale'), path).toBe('due work could not be saved (disk full)');
        }
      };
      await until(async () => (await sim.api('GET', '/_sim/workspace')).headers.has('vmv-stale'));
      // reads for over two retry pauses: every one answered, one warning
      for (let end = Date.now() + 5000; Date.now() < end; ) await reads(sim);
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'refused' } })).status).toBe(507);
      expect(sim.stderr().split('what fell due on the clock cannot be saved').length - 1).toBe(1);
      expect((await sim.api('GET', '/_sim/clock')).json.next_due_at).toBe(new Date(due).toISOString());
      await sim.stop('SIGKILL');

      // a restart on the full disk: the same
      sim = await startSim({ data, clock: 'real' });
      await until(async () => (await sim.api('GET', '/_sim/workspace')).headers.has('vmv-stale'));
      for (let end = Date.now() + 3000; Date.now() < end; ) await reads(sim);
      expect(sim.stderr().split('what fell due on the clock cannot be saved').length - 1).toBe(1);
      expect(sim.stderr()).not.toContain('room on the disk again');

      // space returns: what fell due runs by itself, said once
      rmSync(filler);
      await until(async () => sim.stderr().includes('there is room on the disk again'));
      const after = await sim.api('GET', '/_sim/workspace');
      expect(after.headers.has('vmv-stale')).toBe(false);
      // the step that fell due has run: the clock's next one is later
      const next = (await sim.api('GET', '/_sim/clock')).json.next_due_at;
      expect(next === null || Date.parse(next) > due, next).toBe(true);
      await sim.stop('SIGKILL');
      const store = new Store(data);
      const world = await store.withLock(async (ss) => (await ss.begin()).data);
      expect(world.contacts.map((c) => c.name)).not.toContain('refused');
      expect(world.quick_jobs.map((j) => j.id).sort()).toEqual([text, call].sort());
      expect(world.ledger.length).toBeGreaterThan(0);
      expect(tmpFiles(dir)).toEqual([]);
    } finally {
      await sim.stop();
    }
  }, 90_000);
});

const canStrace = spawnSync('strace', ['-V']).status === 0;
const NO_STRACE = canStrace
  ? null
  : 'strace is not installed (.ci/run installs it: apt-get install strace); it injects the faults';

describe('a journal write that fails, and its cut-back too (faults injected with strace)', () => {
  requires(NO_STRACE);
  it('says so at the time, naming the journal and the byte, and never claims the change was not applied; the next command works', async () => {
    const data = await world(1, 'first');
    const env: NodeJS.ProcessEnv = { ...process.env, VMV_SIM_DATA: data, VMV_CONFIG_DIR: join(tempDir(), 'cfg') };
    delete env.VMV_BASE_URL;
    const faults = ['-f', '-o', '/dev/null', '-e', 'trace=fdatasync,ftruncate'];
    const inject = ['-e', 'inject=fdatasync:error=EIO', '-e', 'inject=ftruncate:error=EIO'];
    const r = spawnSync('strace', [...faults, ...inject, process.execPath, BIN, 'sim', 'contact', '--name', 'second'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `could not cut the journal ${journalOf(data).replace(/[.]/g, '\\.')} back to its last whole entry \\(byte \\d+\\)`,
      ),
    );
    expect(r.stderr).toContain('this change may have been applied after all');
    expect(r.stderr).not.toContain('the request was not applied');
    // the line was written whole: it stands, and the next command appends after it
    const next = vmv(['sim', 'contact', '--name', 'third'], data);
    expect(next.status, next.stderr).toBe(0);
    expect((await contactNames(data)).sort()).toEqual(['first-0', 'second', 'third']);
  });
});

// ---- a damaged journal ----

describe('a damaged journal is refused, never cut or written over', () => {
  it('a bad line in the middle: refused naming the file, the line and `vmv sim repair`; nothing changes, not even on a read', async () => {
    const data = await world(6);
    const lines = readFileSync(journalOf(data), 'utf8').split('\n');
    lines[4] = lines[4].slice(0, 40) + '#' + lines[4].slice(41); // one byte of an entry flipped: not JSON any more
    writeFileSync(journalOf(data), lines.join('\n'));
    const before = filesOf(data);
    for (const args of [
      ['contacts', 'list'],
      ['sim', 'contact', '--name', 'new'],
    ]) {
      const r = vmv(args, data);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(`journal ${journalOf(data)} is damaged: line 5`);
      expect(r.stderr).toMatch(/more lines follow it/);
      expect(r.stderr).toContain(`vmv sim repair --data ${data}`);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+|TypeError/);
    }
    expect(filesOf(data)).toEqual(before);
  });

  // (lines[k] is line k + 1 of the journal and, past the header, entry k)
  it.each([
    [
      'a line deleted',
      (l: string[], k: number) => l.splice(k, 1),
      (k: number) => `line ${k + 1} \\(byte \\d+\\) is entry ${k + 1} where entry ${k} belongs`,
    ],
    [
      'a line repeated',
      (l: string[], k: number) => l.splice(k, 0, l[k]),
      (k: number) => `line ${k + 2} \\(byte \\d+\\) is entry ${k} where entry ${k + 1} belongs`,
    ],
    [
      'two lines swapped',
      (l: string[], k: number) => l.splice(k, 2, l[k + 1], l[k]),
      (k: number) => `line ${k + 1} \\(byte \\d+\\) is entry ${k + 1} where entry ${k} belongs`,
    ],
    [
      'a byte changed inside a string (still valid JSON)',
      (l: string[], k: number) => void (l[k] = l[k].replace('"c-2"', '"c-X"')),
      (k: number) => `line ${k + 1} \\(byte \\d+\\) is an entry whose bytes changed \\(its checksum does not match\\)`,
    ],
  ])('%s: still JSON, but not the journal written; refused', async (_what, edit, why) => {
    const data = await world(6);
    const lines = readFileSync(journalOf(data), 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"c-2"'));
    edit(lines, k);
    writeFileSync(journalOf(data), lines.join('\n'));
    const before = filesOf(data);
    const r = vmv(['contacts', 'list'], data);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(why(k)));
    expect(filesOf(data)).toEqual(before);
  });

  it('a last entry whole but for its newline is kept (it may have been acknowledged), and its newline written', async () => {
    const data = await world(3);
    const whole = readFileSync(journalOf(data));
    writeFileSync(journalOf(data), whole.subarray(0, whole.length - 1));
    const r = vmv(['contacts', 'list', '--json'], data);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(
      JSON.parse(r.stdout)
        .data.map((c: { name: string }) => c.name)
        .sort(),
    ).toEqual(['c-0', 'c-1', 'c-2']);
    expect(vmv(['sim', 'contact', '--name', 'next'], data).status).toBe(0);
    expect((await contactNames(data)).sort()).toEqual(['c-0', 'c-1', 'c-2', 'next']);
  });

  it('a byte of the data file changed, the JSON still valid (an id, a name): refused by its checksum, small part or large', async () => {
    const data = await world(0);
    const big = await new Store(data).withLock(async (ss) => {
      const s = await ss.begin();
      return s.data;
    });
    expect(big.contacts).toEqual([]);
    // enough contacts that they are a large part of their own, read when first used
    const { createApp } = await import('../simulator/world.js');
    const app = createApp(new Store(data));
    const many = Array.from({ length: 600 }, (_, i) => ({ name: `person-${i}`, email: `p${i}@example.com` }));
    expect(
      (await app.handle({ method: 'POST', url: '/_sim/contacts', headers: {}, body: JSON.stringify(many) })).status,
    ).toBe(201);
    await new Store(data).compact();
    const text = readFileSync(data, 'utf8');
    expect(JSON.parse(text.slice(0, text.indexOf('\n')).replace(/,$/, '}')).store.lazy).toHaveProperty('contacts');
    // (a people list reads the people saved beside the data; adding a contact reads the contacts)
    for (const [from, to, part] of [
      ['"person-42"', '"person-4X"', 'its part "contacts"'],
      ['"Acme Sandbox"', '"Acme Sandbos"', 'its first part'],
    ]) {
      writeFileSync(data, text.replace(from, to));
      const r = vmv(['sim', 'contact', '--name', 'more'], data);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`The simulator data file ${data} is damaged: ${part}`);
      expect(r.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
      expect(vmv(['sim', 'repair'], data).stderr).toContain('restore the data file from a copy');
    }
  });

  it('two repairs in one second keep two copies, never one over the other', async () => {
    const data = await world(3);
    const damage = () => appendFileSync(journalOf(data), 'garbage\n');
    damage();
    expect(vmv(['sim', 'repair'], data).status).toBe(0);
    damage();
    expect(vmv(['sim', 'repair'], data).status).toBe(0);
    expect(readdirSync(join(data, '..')).filter((f) => f.includes('.damaged-'))).toHaveLength(2);
  });

  it('a server refuses it too: at its start (exit 1), and, damaged while it runs, each request answers 500 with the same message', async () => {
    const data = await world(3);
    appendFileSync(journalOf(data), 'garbage that is not an entry\n{"ops":[]}\n');
    const before = filesOf(data);
    const serve = spawnSync(process.execPath, [BIN, 'sim', 'serve', '--port', '0', '--data', data], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(serve.status).toBe(1);
    expect(serve.stderr).toContain('is damaged: line');
    expect(filesOf(data)).toEqual(before);

    const live = await world(2);
    const sim = await startSim({ data: live });
    try {
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'ok' }, key: null })).status).toBe(201);
      const key = await keyOf(live);
      appendFileSync(journalOf(live), 'not an entry\n');
      const r = await sim.api('GET', '/v1/contacts', { key });
      expect(r.status).toBe(500);
      expect(r.json.error.code).toBe('internal_error');
      expect(r.json.error.message).toContain(`journal ${journalOf(live)} is damaged: line`);
      expect(sim.stderr()).not.toMatch(/at .*\.js:\d+/);
    } finally {
      await sim.stop('SIGKILL');
    }
  });

  it('`vmv sim repair` keeps every entry before the damaged line, sets it and the rest aside, and keeps a copy of the journal', async () => {
    const data = await world(6);
    const lines = readFileSync(journalOf(data), 'utf8').split('\n');
    const n = lines.findIndex((l) => l.includes('"c-2"'));
    lines[n] = '{"ops": [["push", "contacts", [{"id": "x", "name": "half';
    writeFileSync(journalOf(data), lines.join('\n'));
    const original = readFileSync(journalOf(data));
    const after = lines.length - 1 - (n + 1); // complete lines after the damaged one (the last is empty)
    const dry = vmv(['sim', 'repair', '--dry-run', '--json'], data);
    expect(dry.status, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      needed: true,
      dry_run: true,
      copy: null,
      damaged: { line: n + 1, reason: 'not valid JSON' },
      after,
    });
    expect(readFileSync(journalOf(data))).toEqual(original);

    const r = vmv(['sim', 'repair'], data);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `those before line ${n + 1} (not valid JSON); set aside that line and the ${after} journal entries after it (lines ${n + 2} to ${n + 1 + after}).`,
    );
    const copy = readdirSync(join(data, '..')).find((f) => /^sim\.json\.journal\.damaged-\d{8}T\d{6}Z$/.test(f))!;
    expect(readFileSync(join(data, '..', copy))).toEqual(original);
    expect(statSync(join(data, '..', copy)).mode & 0o777).toBe(0o600);
    expect((await contactNames(data)).sort()).toEqual(['c-0', 'c-1']);
    expect(vmv(['sim', 'contact', '--name', 'after-repair'], data).status).toBe(0);
    expect(vmv(['sim', 'repair'], data).stderr).toContain('Nothing to repair');
  });

  it('after a repair the money adds up: nothing a lost entry did is half kept, nothing is charged twice', async () => {
    const data = join(tempDir(), 'sim.json');
    expect(vmv(['sim', 'reset', '--clock', 'manual', '--now', T0], data).status).toBe(0);
    expect(vmv(['sim', 'contact', '--name', 'early'], data).status).toBe(0);
    expect(vmv(['quick', 'call', '+14155550100', '--goal', 'confirm', '--wait', '--advance'], data).status).toBe(0);
    expect(vmv(['email', 'send', '--to', 'ada@example.com', '--subject', 's', '--body', 'b'], data).status).toBe(0);
    const lines = readFileSync(journalOf(data), 'utf8').split('\n');
    const n = lines.findIndex((l) => l.includes('"early"'));
    lines[n] = lines[n].replace('"early"', '"ear\u0001');
    writeFileSync(journalOf(data), lines.join('\n'));
    expect(vmv(['sim', 'repair'], data).status).toBe(0);
    // whatever state the repair leaves, the job runs on from it and the ledger and the wallet agree
    vmv(['sim', 'advance', '1h'], data);
    const ws = JSON.parse(vmv(['sim', 'workspace', 'show', '--json'], data).stdout);
    const ledger = JSON.parse(vmv(['api', '/_sim/ledger?limit=100'], data).stdout).data as {
      kind: string;
      reference_id: string;
      description: string;
      wallet_cents: number;
    }[];
    const spent = ledger.reduce((sum, e) => sum + e.wallet_cents, 0);
    expect(5000 - Math.round(ws.wallet_usd * 100)).toBe(spent);
    // each thing paid for once: no charge for the same thing twice
    const charges = ledger.map((e) => `${e.kind} ${e.reference_id} ${e.description}`);
    expect(new Set(charges).size).toBe(charges.length);
  });

  it.each([
    ['a header whose generation lost a character', (j: string) => j.replace(/"generation":"(\w)/, '"generation":"')],
    ['a journal of garbage', () => 'lorem ipsum dolor sit amet\nconsectetur\n'],
  ])(
    '%s: every entry would be ignored, so the store refuses to open; repair sets the journal aside whole',
    async (_what, damage) => {
      const data = await world(3);
      writeFileSync(journalOf(data), damage(readFileSync(journalOf(data), 'utf8')));
      const before = filesOf(data);
      const r = vmv(['contacts', 'list'], data);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/is damaged: line 1 (says it follows snapshot generation|is not a journal header)/);
      expect(filesOf(data)).toEqual(before);
      const fixed = vmv(['sim', 'repair'], data);
      expect(fixed.stderr).toMatch(/Set the whole journal aside/);
      expect(vmv(['contacts', 'list'], data).status).toBe(0);
    },
  );

  it('an empty data file beside a journal: even a read is refused (a fresh world would write over the journal); repair starts afresh and keeps the journal', async () => {
    const data = await world(3);
    writeFileSync(data, '');
    const journal = readFileSync(journalOf(data));
    const r = vmv(['contacts', 'list'], data);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `The simulator's data file ${data} is missing or empty, but its journal ${journalOf(data)} holds`,
    );
    expect(readFileSync(journalOf(data))).toEqual(journal);
    expect(readFileSync(data, 'utf8')).toBe('');
    const fixed = vmv(['sim', 'repair'], data);
    expect(fixed.stderr).toMatch(/Started a fresh world/);
    const copy = readdirSync(join(data, '..')).find((f) => f.includes('.damaged-'))!;
    expect(readFileSync(join(data, '..', copy))).toEqual(journal);
    expect(vmv(['contacts', 'list', '--json'], data).stdout).toContain('"data":[]');
  });

  it('a snapshot from before it named the journal it folded in: a journal of another generation is spent only if nothing was written to it since', async () => {
    const data = await world(2);
    await new Store(data).compact();
    // as a vmv before `previous` wrote it (edited, the file is read whole)
    writeFileSync(data, readFileSync(data, 'utf8').replace(/"previous":(null|"\w+"),/, ''));
    expect(vmv(['sim', 'contact', '--name', 'since'], data).status).toBe(0);
    const journal = readFileSync(journalOf(data), 'utf8');
    const damagedHeader = journal.replace(/"generation":"(\w)/, '"generation":"');
    const old = new Date(Date.now() - 100_000);
    // entries written after the snapshot: a changed header is damage, refused
    writeFileSync(journalOf(data), damagedHeader);
    utimesSync(data, old, old);
    const r = vmv(['contacts', 'list'], data);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('line 1 says it follows snapshot generation');
    // a journal no newer than the snapshot: what a compaction stopped between its renames leaves
    utimesSync(journalOf(data), new Date(old.getTime() - 1000), new Date(old.getTime() - 1000));
    expect(vmv(['contacts', 'list'], data).status).toBe(0);
  });

  it('a compaction stopped between its two renames (a new snapshot beside the journal it folded in) is no damage', async () => {
    const data = await world(3);
    const spent = readFileSync(journalOf(data));
    await new Store(data).compact();
    writeFileSync(journalOf(data), spent); // the journal the new snapshot names as folded in
    expect((await contactNames(data)).sort()).toEqual(['c-0', 'c-1', 'c-2']);
    expect(vmv(['sim', 'contact', '--name', 'more'], data).status).toBe(0);
    expect(await contactNames(data)).toHaveLength(4);
  });
});

// ---- links, permissions, modes ----

describe('a data file that is a symbolic link', () => {
  it('is worked on where it points: the journal sits beside the target, and a compaction replaces the target, never the link', async () => {
    const real = join(tempDir(), 'worlds');
    mkdirSync(real);
    const link = join(tempDir(), 'sim.json');
    symlinkSync(join(real, 'sim.json'), link);
    const sim = await startSim({ data: link });
    try {
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'through-the-link' } })).status).toBe(201);
      expect(vmv(['sim', 'contact', '--name', 'embedded'], link).status).toBe(0);
      expect(existsSync(join(real, 'sim.json.journal'))).toBe(true);
      expect(existsSync(`${link}.journal`)).toBe(false);
    } finally {
      await sim.stop(); // a clean stop folds the journal into a new snapshot
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(
      JSON.parse(readFileSync(join(real, 'sim.json'), 'utf8'))
        .contacts.map((c: { name: string }) => c.name)
        .sort(),
    ).toEqual(['embedded', 'through-the-link']);
    expect((await contactNames(link)).sort()).toEqual(['embedded', 'through-the-link']);
  });
});

describe('a data file the process may not use fails at once, naming the file and the permission (exit 2)', () => {
  it('a read-only file system: a write fails in well under a second, a read still works; sim serve exits 2', async (ctx) => {
    if (NO_MOUNT) return ctx.skip(NO_MOUNT);
    const dir = tmpfs('1m')!;
    const data = join(dir, 'sim.json');
    expect(vmv(['sim', 'contact', '--name', 'before'], data).status).toBe(0);
    await new Store(data).compact();
    expect(spawnSync('mount', ['-o', 'remount,ro', dir]).status).toBe(0);
    const w = vmv(['sim', 'contact', '--name', 'after'], data);
    expect(w.status, w.stderr).toBe(2);
    expect(w.stderr).toContain(
      `The simulator cannot use its data file ${data}: ${dir} is on a read-only file system (EROFS)`,
    );
    expect(w.stderr).not.toMatch(/internal_error|Warning|at .*\.js/);
    expect(w.ms).toBeLessThan(5_000); // (it waited 51 s before)
    const r = vmv(['contacts', 'list', '--json'], data);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data.map((c: { name: string }) => c.name)).toEqual(['before']);
    const serve = spawnSync(process.execPath, [BIN, 'sim', 'serve', '--port', '0', '--data', data], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(serve.status).toBe(2);
    expect(serve.stderr).toContain('read-only file system (EROFS)');
    // a copy of it can still be taken (it is only read)
    const out = join(tempDir(), 'copy.json');
    const ex = vmv(['sim', 'export', out], data);
    expect(ex.status, ex.stderr).toBe(0);
    expect(await contactNames(out)).toEqual(['before']);
  });

  it('a folder the user may not write: permission denied (EACCES), at once', async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip('needs root, to run as another user: runs as root in CI');
    const dir = tempDir();
    const data = join(dir, 'sim.json');
    expect(vmv(['sim', 'contact', '--name', 'x'], data).status).toBe(0);
    chmodSync(dir, 0o755);
    // as another user, who may read the folder but not write in it
    chownSync(data, 65534, 65534);
    chownSync(journalOf(data), 65534, 65534);
    const w = vmv(['sim', 'contact', '--name', 'y'], data, { uid: 65534 });
    expect(w.status, w.stderr).toBe(2);
    expect(w.stderr).toMatch(/cannot use its data file .*: permission denied \(EACCES\)/);
    expect(w.ms).toBeLessThan(5_000);
  });

  it('a directory given as the data file is named as such', () => {
    const dir = tempDir();
    const r = vmv(['sim', 'contact', '--name', 'x'], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `${dir} is a directory, not a data file: point --data (VMV_SIM_DATA) at a file, such as ${join(dir, 'sim.json')}`,
    );
  });
});

describe('modes', () => {
  it('a snapshot replaced by hand (0644) is readable by its owner only again at the next write', async () => {
    const data = await world(1);
    const text = readFileSync(data);
    rmSync(data);
    writeFileSync(data, text, { mode: 0o644 });
    expect(statSync(data).mode & 0o777).toBe(0o644);
    expect(vmv(['sim', 'contact', '--name', 'y'], data).status).toBe(0);
    expect(statSync(data).mode & 0o777).toBe(0o600);
    expect(statSync(journalOf(data)).mode & 0o777).toBe(0o600);
  });
});

// ---- a consistent copy of a world ----

describe('vmv sim export and import', () => {
  it('export copies the whole world (journal included) while a server writes to it; the copy is a data file of its own', async () => {
    const sim = await startSim();
    try {
      for (let i = 0; i < 20; i++)
        expect((await sim.api('POST', '/_sim/contacts', { body: { name: `live-${i}` } })).status).toBe(201);
      await sim.advance(3600);
      expect(existsSync(journalOf(sim.data))).toBe(true);
      const out = join(tempDir(), 'world.json');
      const r = vmv(['sim', 'export', out, '--data', sim.data, '--json'], sim.data);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ file: out, data_file: sim.data });
      expect(existsSync(journalOf(out))).toBe(false);
      expect((await contactNames(out)).sort()).toEqual((await contactNames(sim.data)).sort());
      const clock = JSON.parse(vmv(['sim', 'clock', '--json'], out).stdout);
      expect(clock).toMatchObject({ mode: 'manual', now: '2026-01-05T10:00:00.000Z' });
      // to standard output, as bytes a pipe carries
      const piped = vmv(['sim', 'export', '-'], sim.data);
      expect(piped.stdout.startsWith('{"store":{"generation":')).toBe(true);
    } finally {
      await sim.stop();
    }
  });

  it('import writes a new data file, refuses to replace a world without --yes, and a running server sees the imported world', async () => {
    const fixture = await world(4, 'fixture');
    const sim = await startSim({ data: join(tempDir(), 'sim.json') });
    try {
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'mine' } })).status).toBe(201);
      const refused = vmv(['sim', 'import', fixture, '--data', sim.data], sim.data);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`To replace the world in ${sim.data} without a terminal, pass --yes`);
      expect(await contactNames(sim.data)).toEqual(['mine']);
      const r = vmv(['sim', 'import', fixture, '--data', sim.data, '--yes'], sim.data);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^Imported .* into .* \(.*\)\. Its full-access key: sk_sim_…\w{4}\n$/);
      // the world's own key is its key now
      const key = await new Store(fixture).withLock(async (ss) => (await ss.begin()).data.meta.default_api_key);
      const listed = await sim.api('GET', '/v1/contacts?limit=100', { key });
      expect(listed.json.data.map((c: { name: string }) => c.name).sort()).toEqual([
        'fixture-0',
        'fixture-1',
        'fixture-2',
        'fixture-3',
      ]);
      // (the control plane refuses a key that is not the world's: the imported world has its own)
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'after-import' }, key: null })).status).toBe(201);
    } finally {
      await sim.stop();
    }
    expect((await contactNames(sim.data)).sort()).toEqual([
      'after-import',
      'fixture-0',
      'fixture-1',
      'fixture-2',
      'fixture-3',
    ]);
    // from standard input (an export piped) into a new file: no question
    const fresh = join(tempDir(), 'new.json');
    const piped = vmv(['sim', 'export', '-'], fixture).stdout;
    expect(vmv(['sim', 'import', '-'], fresh, { input: piped }).status).toBe(0);
    expect((await contactNames(fresh)).sort()).toEqual(['fixture-0', 'fixture-1', 'fixture-2', 'fixture-3']);
  });

  it('export over a file that holds a world asks first (--yes), and leaves one world that opens: the journal beside it is spent and goes', async () => {
    const source = await world(2, 'src');
    const fixture = await world(1, 'old');
    expect(vmv(['sim', 'contact', '--name', 'in-journal'], fixture).status).toBe(0);
    const refused = vmv(['sim', 'export', fixture], source);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`To replace the world in ${fixture} without a terminal, pass --yes`);
    expect(vmv(['sim', 'export', fixture, '--yes'], source).status).toBe(0);
    expect(existsSync(journalOf(fixture))).toBe(false);
    expect(vmv(['sim', 'contact', '--name', 'used-since'], fixture).status).toBe(0);
    expect(vmv(['sim', 'export', fixture, '--yes'], source).status).toBe(0);
    expect((await contactNames(fixture)).sort()).toEqual(['src-0', 'src-1']);
  });

  it('import takes a file that holds no world for what it is: refused, and neither file is touched', async () => {
    const data = await world(1, 'mine');
    const blank = join(tempDir(), 'blank.json');
    writeFileSync(blank, '\n');
    const before = filesOf(data);
    const r = vmv(['sim', 'import', blank, '--yes'], data);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${blank} holds no simulator world`);
    expect(readFileSync(blank, 'utf8')).toBe('\n');
    expect(existsSync(journalOf(blank))).toBe(false);
    expect(filesOf(data)).toEqual(before);
  });

  it("a SIGKILLed import leaves its temp file; a running server removes it (its writer gone) at its next compaction, and keeps a live writer's", async (ctx) => {
    if (NO_STRACE) return ctx.skip(NO_STRACE);
    const fixture = await world(2, 'fixture');
    const sim = await startSim({ data: join(tempDir(), 'sim.json') });
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, VMV_CONFIG_DIR: join(tempDir(), 'cfg') };
      delete env.VMV_BASE_URL;
      // killed for real as it renames its temp file over the data file
      const args = ['sim', 'import', fixture, '--data', sim.data, '--yes'];
      const killed = spawnSync(
        'strace',
        [
          '-f',
          '-o',
          '/dev/null',
          '-e',
          'trace=rename',
          '-e',
          'inject=rename:signal=SIGKILL',
          process.execPath,
          BIN,
          ...args,
        ],
        { env, encoding: 'utf8', timeout: 30_000 },
      );
      expect(killed.status, killed.stderr).not.toBe(0);
      const dir = join(sim.data, '..');
      expect(tmpFiles(dir)).toHaveLength(1);
      const live = `.sim.json.${process.pid}.1.tmp`;
      writeFileSync(join(dir, live), 'a live writer');
      // the server's next compaction (a journal past 1 MiB) removes the orphan, and only it
      const bulk = Array.from({ length: 2500 }, (_, i) => ({ name: `bulk-${i}`, email: `bulk-${i}@example.com` }));
      expect((await sim.api('POST', '/_sim/contacts', { body: bulk })).status).toBe(201);
      for (let i = 0; i < 100 && tmpFiles(dir).length > 1; i++) await new Promise((r) => setTimeout(r, 50));
      expect(tmpFiles(dir)).toEqual([live]);
    } finally {
      await sim.stop();
    }
  });

  it('hostile worlds are refused before anything is replaced: exit 2, the file and the JSON path named, no foreign byte echoed', async () => {
    const data = await world(1, 'mine');
    const source = await world(1, 'theirs');
    const exported = join(tempDir(), 'export.json');
    expect(vmv(['sim', 'export', exported], source).status).toBe(0);
    const doc = () => {
      const d = JSON.parse(readFileSync(exported, 'utf8'));
      delete d.store;
      for (const k of Object.keys(d)) if (k.startsWith('$')) delete d[k];
      return d;
    };
    const dir = tempDir();
    const file = (name: string, d: unknown) => {
      const f = join(dir, name);
      writeFileSync(f, typeof d === 'string' ? d : JSON.stringify(d));
      return f;
    };
    const edit = (f: (d: any) => void) => {
      const d = doc();
      f(d);
      return d;
    };
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'SECRET-TOKEN=hunter2 not json');
    const fifo = join(dir, 'fifo');
    spawnSync('mkfifo', [fifo]);
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 129 * 1024 * 1024);
    const deep = 100_000;
    const cases: [string, string, string][] = [
      [
        file(
          'name.json',
          edit((d) => (d.contacts[0].name = 'x'.repeat(60e6))),
        ),
        '$.contacts[0].name',
        '',
      ],
      [
        file(
          'wallet.json',
          edit((d) => (d.organizations[0].wallet_cents = 'lots')),
        ),
        '$.organizations[0].wallet_cents',
        '',
      ],
      [
        file(
          'clock.json',
          edit((d) => (d.meta.clock = { mode: 'manual', offset_ms: 0, frozen_ms: 8.64e15 })),
        ),
        '$.meta.clock',
        '',
      ],
      [
        file('proto.json', JSON.stringify(doc()).replace('"name":"theirs-0"', '"name":"theirs-0","__proto__":{"x":1}')),
        '$.contacts[0].__proto__',
        '',
      ],
      [
        file(
          'shape.json',
          edit((d) => (d.contacts = { a: 1 })),
        ),
        '$.contacts',
        '',
      ],
      [
        file(
          'deep.json',
          JSON.stringify(doc()).replace(
            '"custom_fields":{}',
            `"custom_fields":${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`,
          ),
        ),
        'nests deeper than 64 levels',
        '',
      ],
      [fifo, 'is a FIFO (named pipe), not a regular file', ''],
      [dir, 'is a directory, not a regular file', ''],
      [big, 'vmv sim import reads at most 134217728', ''],
      [join(dir, 'link.json'), 'is not valid JSON', 'hunter2'],
    ];
    symlinkSync(secret, join(dir, 'link.json'));
    const before = filesOf(data);
    for (const [f, says, never] of cases) {
      const t = performance.now();
      const r = vmv(['sim', 'import', f, '--yes'], data);
      expect(r.status, `${f}: ${r.stderr}`).toBe(2);
      expect(r.stderr, f).toContain(f);
      expect(r.stderr, f).toContain(says);
      if (never) expect(r.stderr).not.toContain(never);
      expect(performance.now() - t, f).toBeLessThan(20_000);
      expect(filesOf(data), f).toEqual(before);
    }
    // the problems all at once, as many as there are (up to the cap)
    const many = vmv(
      [
        'sim',
        'import',
        file(
          'many.json',
          edit((d) => {
            d.organizations[0].wallet_cents = 'lots';
            d.meta.next_seq = -1;
          }),
        ),
        '--yes',
      ],
      data,
    );
    expect(many.stderr).toContain('$.organizations[0].wallet_cents');
    expect(many.stderr).toContain('$.meta.next_seq');
    // and a world as exported still imports
    expect(vmv(['sim', 'import', exported, '--yes'], data).status).toBe(0);
  }, 120_000);

  it('export and import against a base URL need --data: they work on files', () => {
    const env = { ...process.env, VMV_BASE_URL: 'http://127.0.0.1:9', VMV_CONFIG_DIR: join(tempDir(), 'cfg') };
    const r = spawnSync(process.execPath, [BIN, 'sim', 'export', 'out.json'], { env, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('pass --data FILE');
  });
});
