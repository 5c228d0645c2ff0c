// The store (issue 2, part 9): locked, atomic, durable writes shared by the server and embedded CLI processes.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createApp } from '../simulator/world.js';
import type { Resource } from '../simulator/core/http.js';
import { schedule } from '../simulator/core/scheduler.js';
import { Store } from '../simulator/world.js';
import { BIN, cli, startSim, tempDir } from './helpers.js';

const WRITER = new URL('./fixtures/writer.mjs', import.meta.url).pathname;

/** A test resource: POST /_test/tick schedules `count` timers, one a second from now on. */
const ticker: Resource = {
  routes: [
    {
      method: 'POST',
      path: '/_test/tick',
      summary: 'Schedule timers',
      responses: { 200: { description: 'Scheduled' } },
      body: z.strictObject({ count: z.number() }),
      handler: (c) => {
        for (let i = 1; i <= (c.body.count as number); i++) schedule(c.s, c.s.now + i * 1000, 'tick', { i });
        return { body: {} };
      },
    },
  ],
  timers: { tick: () => undefined },
};

function writer(file: string, prefix: string, count: number, compactEvery?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [WRITER, file, prefix, String(count), ...(compactEvery ? [String(compactEvery)] : [])],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${prefix} exited ${code}: ${err}`))));
  });
}

/** The contacts' names in a data file, as a new process would load it (snapshot and journal). */
const contactNames = async (file: string) =>
  await new Store(file).withLock(async (ss) => (await ss.begin()).data.contacts.map((c) => c.name ?? ''));

describe('concurrent writers on one data file', () => {
  it('two embedded processes writing 200 records each leave all 400', async () => {
    const file = join(tempDir(), 'sim.json');
    await Promise.all([writer(file, 'a', 200), writer(file, 'b', 200)]);
    const names = await contactNames(file);
    expect(names.filter((n) => n.startsWith('a-'))).toHaveLength(200);
    expect(names.filter((n) => n.startsWith('b-'))).toHaveLength(200);
    expect(new Set(names).size).toBe(400);
  });

  it('a server and an embedded process writing 200 each leave all 400', async () => {
    const sim = await startSim();
    try {
      const viaHttp = (async () => {
        for (let i = 0; i < 200; i++) {
          const r = await sim.api('POST', '/_sim/contacts', { body: { name: `http-${i}` } });
          expect(r.status).toBe(201);
        }
      })();
      await Promise.all([viaHttp, writer(sim.data, 'embedded', 200)]);
      const names = await contactNames(sim.data);
      expect(names.filter((n) => n.startsWith('http-'))).toHaveLength(200);
      expect(names.filter((n) => n.startsWith('embedded-'))).toHaveLength(200);
      // the server sees the other process's writes too
      const listed = await sim.api('GET', '/v1/contacts?limit=100');
      expect(listed.json.meta.total_results).toBe(400);
    } finally {
      await sim.stop();
    }
  });
});

describe('crash safety', () => {
  it('SIGKILL during writes leaves a valid file holding every acknowledged write', async () => {
    const dir = tempDir();
    const data = join(dir, 'sim.json');
    const acked: string[] = [];
    for (let round = 0; round < 3; round++) {
      const sim = await startSim({ data });
      let stop = false;
      // four concurrent writers keep requests in flight when the kill lands
      const writers = Array.from({ length: 4 }, (_, w) =>
        (async () => {
          for (let i = 0; !stop; i++) {
            const name = `r${round}-w${w}-${i}`;
            try {
              const r = await sim.api('POST', '/_sim/contacts', { body: { name } });
              if (r.status === 201) acked.push(name);
            } catch {
              return; // the connection died with the server
            }
          }
        })(),
      );
      while (acked.filter((n) => n.startsWith(`r${round}-`)).length < 40 + round * 25)
        await new Promise((r) => setTimeout(r, 2));
      sim.proc.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      await new Promise((r) =>
        sim.proc.exitCode !== null || sim.proc.signalCode !== null ? r(null) : sim.proc.once('exit', r),
      );
      const names = new Set(await contactNames(data)); // parses: never a torn file
      for (const n of acked) expect(names.has(n), `acknowledged ${n} is on disk`).toBe(true);
    }
    // a restarted server cleans up temp files a killed writer left behind and carries on
    const sim = await startSim({ data });
    try {
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'after' } })).status).toBe(201);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await sim.stop();
    }
  }, 60_000);
});

describe('file permissions', () => {
  it('the data file is readable by its owner only', async () => {
    const sim = await startSim();
    try {
      await sim.api('POST', '/_sim/contacts', { body: { name: 'x' } });
      expect(statSync(sim.data).mode & 0o777).toBe(0o600);
    } finally {
      await sim.stop();
    }
  });
});

describe('a data file that is not a simulator store', () => {
  it.each([
    ['invalid JSON', '{oops', /is not valid JSON \(/],
    ['an empty object', '{}', /holds a JSON object of another shape/],
    ['an array', '[]', /holds a JSON array/],
    ['null', 'null', /holds null/],
    ["someone's package.json", '{"name": "app", "version": "1.0.0"}', /holds a JSON object of another shape/],
  ])('%s is refused naming the file and how to start fresh, and left as it was', async (_what, content, why) => {
    const file = join(tempDir(), 'sim.json');
    writeFileSync(file, content);
    const r = await cli(['contacts', 'list'], { env: { VMV_SIM_DATA: file, VMV_CONFIG_DIR: join(tempDir(), 'cfg') } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('to start a fresh simulator');
    expect(r.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });
  it('an empty file (as mktemp makes) is taken as a new store', async () => {
    const file = join(tempDir(), 'sim.json');
    writeFileSync(file, '');
    const r = await cli(['sim', 'clock'], { env: { VMV_SIM_DATA: file, VMV_CONFIG_DIR: join(tempDir(), 'cfg') } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(3);
  });
});

describe('the journal', () => {
  const journalOf = (file: string) => `${file}.journal`;

  it('a commit costs what it changes, whatever the store holds: the 300th replayable write journals as much as the first', async () => {
    const data = join(tempDir(), 'sim.json');
    const sim = await startSim({ data });
    const sizes: number[] = [];
    for (let i = 0; i < 300; i++) {
      const before = (() => {
        try {
          return statSync(journalOf(data)).size;
        } catch {
          return 0;
        }
      })();
      const body = { template: 'slideshow', source_text: 'hello world' };
      expect(
        (await sim.api('POST', '/v1/videos/quote', { body, headers: { 'idempotency-key': `k${i}` } })).status,
      ).toBe(200);
      sizes.push(statSync(journalOf(data)).size - before);
    }
    await sim.stop();
    // each request keeps a replay record for 24 h: the collection grows, its entries do not
    expect(sizes[299]).toBeLessThan(sizes[0] * 1.5);
  });

  it('running a timer costs what it changes: one of 2,000 waiting journals as much as one of 2', async () => {
    const costOfOne = async (waiting: number) => {
      const file = join(tempDir(), 'sim.json');
      const app = createApp(new Store(file), [ticker]);
      const call = (method: string, url: string, body?: unknown) =>
        app.handle({ method, url, headers: {}, body: body === undefined ? undefined : JSON.stringify(body) });
      await call('POST', '/_sim/reset', { clock: 'manual', now: '2026-01-05T09:00:00Z' });
      expect((await call('POST', '/_test/tick', { count: waiting })).status).toBe(200);
      const before = statSync(journalOf(file)).size;
      expect((await call('POST', '/_sim/clock/advance', { seconds: 1 })).status).toBe(200); // the first (due in 1 s) runs
      return statSync(journalOf(file)).size - before;
    };
    const few = await costOfOne(2);
    const many = await costOfOne(2000);
    expect(many).toBeLessThan(few + 200);
  });

  it("a charge once the workspace's ledger keeps its 1,000 latest entries journals the new entry and one place, not the ledger", async () => {
    const data = join(tempDir(), 'sim.json');
    const sim = await startSim({ data });
    try {
      const setWallet = (usd: number) => sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: usd } });
      for (let i = 0; i < 1000; i++) expect((await setWallet(100 + (i % 2))).status).toBe(200);
      const before = statSync(journalOf(data)).size;
      expect((await setWallet(42)).status).toBe(200);
      const line = readFileSync(journalOf(data), 'utf8').slice(before);
      expect(line.length).toBeLessThan(3000);
      expect(JSON.parse(line).ops).toContainEqual(['del', 'ledger', [0]]);
      expect((await sim.api('GET', '/_sim/ledger?limit=1')).json.data[0]).toMatchObject({ kind: 'wallet_set' });
    } finally {
      await sim.stop();
    }
    // and the trimmed ledger reads back as a new process sees it: the latest 1,000
    const ledger = await new Store(data).withLock(async (ss) => (await ss.begin()).data.ledger);
    expect(ledger).toHaveLength(1000);
  }, 60_000);

  it('a snapshot written after a journal of clock moves alone keeps the people it saved (they are read back whole)', async () => {
    const file = join(tempDir(), 'sim.json');
    await writer(file, 'p', 3);
    await new Store(file).compact(); // the people index is saved beside the data
    const sim = await startSim({ data: file, clock: 'real' });
    await sim.advance(60); // a journal with no record in it: the index is taken from what was saved
    await sim.stop(); // a clean stop folds the journal in, saving the people again
    const again = await startSim({ data: file, clock: 'real' });
    try {
      const people = await again.api('GET', '/v1/history/people');
      expect(people.status, people.text).toBe(200);
      expect(people.json.data.map((p: { name: string }) => p.name).sort()).toEqual(['p-0', 'p-1', 'p-2']);
    } finally {
      await again.stop();
    }
  });

  it('a kill in the middle of appending loses nothing acknowledged: the half-written line is discarded with a warning naming the file', async () => {
    const data = join(tempDir(), 'sim.json');
    const sim = await startSim({ data });
    const acked: string[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await sim.api('POST', '/_sim/contacts', { body: { name: `kept-${i}` } });
      expect(r.status).toBe(201);
      acked.push(`kept-${i}`);
    }
    await sim.stop('SIGKILL');
    // what a writer killed mid-append leaves: the start of a line, never acknowledged
    const whole = readFileSync(journalOf(data), 'utf8');
    expect(whole.endsWith('\n')).toBe(true);
    appendFileSync(journalOf(data), '{"ops":[["push","contacts",[{"id":"torn","name":"tor');
    const env = { ...process.env, VMV_SIM_DATA: data, VMV_CONFIG_DIR: join(tempDir(), 'cfg'), NO_COLOR: '1' };
    const r = spawnSync(process.execPath, [BIN, 'contacts', 'list', '--limit', '100', '--json'], {
      env,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`the journal ${journalOf(data)}`);
    expect(r.stderr).toMatch(/half-written last entry, never acknowledged/);
    const names = JSON.parse(r.stdout).data.map((c: { name: string }) => c.name);
    expect(names.sort()).toEqual([...acked].sort());
    // the tail is cut off: later entries are whole lines, and the next process warns no more
    expect(readFileSync(journalOf(data), 'utf8')).toBe(whole);
    const w = spawnSync(process.execPath, [BIN, 'contacts', 'list', '--json'], { env, encoding: 'utf8' });
    expect(w.stderr).toBe('');
  });

  it('a commit appends one line for what it changed, not the whole store', async () => {
    const file = join(tempDir(), 'sim.json');
    await writer(file, 'a', 50);
    const before = statSync(journalOf(file)).size;
    const snapshot = statSync(file).mtimeMs;
    await writer(file, 'one-more', 1);
    const grown = statSync(journalOf(file)).size - before;
    expect(grown).toBeGreaterThan(0);
    expect(grown).toBeLessThan(3000); // the new contact and the counters it moved
    expect(statSync(file).mtimeMs).toBe(snapshot);
    expect(statSync(journalOf(file)).mode & 0o777).toBe(0o600);
  });

  it('compaction racing a second process loses nothing', async () => {
    const file = join(tempDir(), 'sim.json');
    // one process folds the journal into a new snapshot every 5 writes while the other writes
    await Promise.all([writer(file, 'compactor', 150, 5), writer(file, 'plain', 150)]);
    const names = await contactNames(file);
    expect(names.filter((n) => n.startsWith('compactor-'))).toHaveLength(150);
    expect(names.filter((n) => n.startsWith('plain-'))).toHaveLength(150);
    expect(readdirSync(dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a process that slept while another wrote sees every change before its next request', async () => {
    const sim = await startSim({ data: join(tempDir(), 'sim.json') });
    try {
      expect((await sim.api('GET', '/v1/contacts?limit=100')).json.meta.total_results).toBe(0);
      await writer(sim.data, 'while-asleep', 40);
      expect((await sim.api('GET', '/v1/contacts?limit=100')).json.meta.total_results).toBe(40);
      // and after another process folded the journal into a new snapshot
      await writer(sim.data, 'then-compacted', 10, 10);
      const listed = await sim.api('GET', '/v1/contacts?limit=100');
      expect(listed.json.meta.total_results).toBe(50);
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'server' } })).status).toBe(201);
    } finally {
      await sim.stop();
    }
    // a clean shutdown leaves everything in the snapshot
    expect((JSON.parse(readFileSync(sim.data, 'utf8')).contacts as unknown[]).length).toBe(51);
  });

  it('a data file written before the journal existed (version 1, whole) loads and gets its first journal; its first snapshot says version 3, so that that vmv, which reads no journal, refuses it instead of writing over it', async () => {
    const file = join(tempDir(), 'sim.json');
    await writer(file, 'old', 3);
    await new Store(file).compact();
    const old = JSON.parse(readFileSync(file, 'utf8'));
    delete old.store;
    old.version = 1; // as an older vmv wrote it: one JSON document, no journal
    writeFileSync(file, JSON.stringify(old));
    rmSync(journalOf(file));
    await writer(file, 'new', 2);
    expect((await contactNames(file)).sort()).toEqual(['new-0', 'new-1', 'old-0', 'old-1', 'old-2']);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{"store":{"generation":')).toBe(true);
    expect(JSON.parse(text).version).toBe(3);
  });
});

describe('the format version', () => {
  it('a store of version 2 (a vmv that knew no removals in its journal) is written as version 3 before its first new journal entry, so that vmv refuses it instead of cutting the journal', async () => {
    const file = join(tempDir(), 'sim.json');
    await writer(file, 'v2', 2);
    await new Store(file).compact();
    // as that vmv wrote it (one JSON document: no checksums to keep)
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), version: 2 }));
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(2);
    await writer(file, 'v3', 1);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(3);
    expect((await contactNames(file)).sort()).toEqual(['v2-0', 'v2-1', 'v3-0']);
  });
});

describe('reads without the lock', () => {
  it('a read-only request runs while another process holds the lock; a write waits for it', async () => {
    const sim = await startSim();
    try {
      expect((await sim.api('POST', '/_sim/contacts', { body: { name: 'before' } })).status).toBe(201);
      // another process in the middle of a unit of work
      const release = await lockfile.lock(sim.data, { realpath: false, stale: 10_000, update: 1_000 });
      let wrote = false;
      const write = sim.api('POST', '/_sim/contacts', { body: { name: 'after' } }).then((r) => ((wrote = true), r));
      try {
        const t = performance.now();
        const read = await sim.api('GET', '/v1/contacts');
        expect(read.status).toBe(200);
        expect(read.json.data.map((p: { name: string }) => p.name)).toEqual(['before']);
        const env = { ...process.env, VMV_SIM_DATA: sim.data, VMV_CONFIG_DIR: join(tempDir(), 'cfg'), NO_COLOR: '1' };
        const embedded = spawnSync(process.execPath, [BIN, 'contacts', 'list', '--json'], {
          env,
          encoding: 'utf8',
          timeout: 10_000,
        });
        expect(embedded.status, embedded.stderr).toBe(0);
        expect(JSON.parse(embedded.stdout).data).toHaveLength(1);
        expect(performance.now() - t).toBeLessThan(5_000);
        expect(wrote).toBe(false);
      } finally {
        await release();
      }
      expect((await write).status).toBe(201);
      expect((await sim.api('GET', '/v1/contacts')).json.data).toHaveLength(2);
    } finally {
      await sim.stop();
    }
  });
});

describe('the snapshot', () => {
  it('a value edited by hand to another length (the first line kept) is read whole, not at offsets that no longer fit', async () => {
    const file = join(tempDir(), 'sim.json');
    await writer(file, 'big', 300);
    await new Store(file).compact();
    await writer(file, 'after', 1); // in the journal, which follows this snapshot
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"name":"big-7"');
    writeFileSync(file, text.replace('"name":"big-7"', '"name":"big-seven, renamed by hand"'));
    const names = await contactNames(file);
    expect(names).toContain('big-seven, renamed by hand');
    expect(names).toContain('after-0');
    expect(names).toHaveLength(301);
  });
  it('is one JSON document whose first line says where the large values are; a file reformatted by hand still loads', async () => {
    const file = join(tempDir(), 'sim.json');
    await writer(file, 'big', 300);
    await new Store(file).compact();
    const text = readFileSync(file, 'utf8');
    const header = JSON.parse(`${text.slice(0, text.indexOf('\n')).replace(/,$/, '')}}`).store;
    expect(Object.keys(header.lazy)).toContain('contacts');
    const [start, end] = header.lazy.contacts.map(Number);
    const whole = JSON.parse(text);
    expect(JSON.parse(Buffer.from(text).subarray(start, end).toString())).toEqual(whole.contacts);
    expect(whole.contacts).toHaveLength(300);
    expect(whole.meta.default_api_key).toMatch(/^sk_sim_/);
    expect((await contactNames(file)).filter((n) => n.startsWith('big-'))).toHaveLength(300);
    // pretty-printed by someone (jq .): read whole, and written in the layout again at the next compaction
    writeFileSync(file, JSON.stringify(whole, null, 2));
    await writer(file, 'more', 2);
    expect(await contactNames(file)).toHaveLength(302);
    await new Store(file).compact();
    expect(readFileSync(file, 'utf8').startsWith('{"store":{"generation":')).toBe(true);
    expect(await contactNames(file)).toHaveLength(302);
  });
});
