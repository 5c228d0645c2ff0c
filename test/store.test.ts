// The store (issue 2, part 9): locked, atomic, durable writes shared by the server and embedded CLI processes.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, startSim, tempDir } from './helpers.js';

const WRITER = new URL('./fixtures/writer.mjs', import.meta.url).pathname;

function writer(file: string, prefix: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [WRITER, file, prefix, String(count)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${prefix} exited ${code}: ${err}`))));
  });
}

const contactNames = (file: string) => (JSON.parse(readFileSync(file, 'utf8')).contacts as { name: string }[]).map((c) => c.name);

describe('concurrent writers on one data file', () => {
  it('two embedded processes writing 200 records each leave all 400', async () => {
    const file = join(tempDir(), 'sim.json');
    await Promise.all([writer(file, 'a', 200), writer(file, 'b', 200)]);
    const names = contactNames(file);
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
      const names = contactNames(sim.data);
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
      const writers = Array.from({ length: 4 }, (_, w) => (async () => {
        for (let i = 0; !stop; i++) {
          const name = `r${round}-w${w}-${i}`;
          try {
            const r = await sim.api('POST', '/_sim/contacts', { body: { name } });
            if (r.status === 201) acked.push(name);
          } catch {
            return; // the connection died with the server
          }
        }
      })());
      while (acked.filter((n) => n.startsWith(`r${round}-`)).length < 40 + round * 25) await new Promise((r) => setTimeout(r, 2));
      sim.proc.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      await new Promise((r) => sim.proc.exitCode !== null || sim.proc.signalCode !== null ? r(null) : sim.proc.once('exit', r));
      const names = new Set(contactNames(data)); // parses: never a torn file
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
    ['someone\'s package.json', '{"name": "app", "version": "1.0.0"}', /holds a JSON object of another shape/],
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
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
  });
});
