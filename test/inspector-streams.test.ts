// Readers of the live feed (GET /_sim/events) that stop reading, against a real `vmv sim serve`:
// 100 raw TCP connections that read their reply's head and then nothing, while writes each make a
// change event. What the server holds with them stalled is compared with what it holds once they
// are gone, after the same writes, each measured after a full garbage collection; a stalled reader
// that reads again gets a bounded amount and learns it must read everything again (a `reset`); a
// stream past the cap is refused with the error envelope and Retry-After.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_BYTES } from '../simulator/inspector/routes.js';
import { startSim, type Sim } from './helpers.js';

/** As many as the server holds at once (docs/inspector.md). */
const READERS = 100;
/**
 * Enough that a feed with no bound on what waits for a reader would hold 15 MB more for them (each
 * event's bytes are shared by every stream: a reader's queue holds about 260 bytes of its own per
 * event, 26 KB a write for 100), more than the bounds allow; and few enough to take seconds.
 */
const WRITES = 600;
/** Texts per write: each change event names their ids (at most 50, about 40 bytes each): 2 KB. */
const BATCH = 50;
const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(1);
const READERS_PY = new URL('./fixtures/stalled-readers.py', import.meta.url).pathname;
const PROBE = new URL('./fixtures/memory-probe.cjs', import.meta.url).pathname;

/**
 * What the server holds (JS heap in use plus memory outside it: buffers), after it collected all
 * garbage (test/fixtures/memory-probe.cjs, asked by SIGUSR2); its resident memory then, and the CPU
 * time it has used (s). Unlike resident memory, what it holds does not move with when the collector
 * last ran: 0.2 MB between runs, where resident memory moved by 50 MB.
 */
async function held(sim: Sim, file: string): Promise<{ held: number; rss: number; cpu: number }> {
  rmSync(file, { force: true });
  sim.proc.kill('SIGUSR2');
  await expect.poll(() => existsSync(file), { timeout: 10_000, interval: 20 }).toBe(true);
  const m = JSON.parse(readFileSync(file, 'utf8')) as NodeJS.MemoryUsage & { cpu: NodeJS.CpuUsage };
  return { held: m.heapUsed + m.external, rss: m.rss, cpu: (m.cpu.user + m.cpu.system) / 1e6 };
}

/** `n` readers of the feed that stop reading (test/fixtures/stalled-readers.py), each one's answer's status. */
async function stalledReaders(url: string, n: number) {
  const { port } = new URL(url);
  const proc = spawn('python3', [READERS_PY, '127.0.0.1', port, String(n)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string);
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await next()).status);
  return {
    statuses,
    /** reads reader `i` again until the server ends its stream (or 2 s of nothing) */
    async resume(i: number): Promise<{ bytes: number; reset: boolean; last_id: string | null }> {
      proc.stdin!.write(`resume ${i}\n`);
      return next();
    },
    /** closes reader `i`'s connection ('all': resets every one still open) */
    async close(i: number | 'all'): Promise<void> {
      proc.stdin!.write(`close ${i}\n`);
      await next();
    },
    stop: () => proc.kill(),
  };
}

/** Reads a stream's first bytes with fetch until `until` holds, then closes it. */
async function firstEvents(url: string, headers: Record<string, string>, until: (t: string) => boolean) {
  const ac = new AbortController();
  const r = await fetch(`${url}/_sim/events`, { headers, signal: ac.signal });
  if (r.status !== 200) return { status: r.status, text: '' };
  const reader = r.body!.getReader();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  ac.abort();
  return { status: 200, text };
}

/** `WRITES` writes of `BATCH` text records each, four at a time: one journal line, one change, each. */
async function writes(sim: Sim): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < WRITES) {
      const i = next++;
      const texts = Array.from({ length: BATCH }, (_, j) => ({
        direction: 'inbound',
        from_number: `+1415555${String(1000 + ((i * BATCH + j) % 9000)).padStart(4, '0')}`,
        to_number: '+14155550100',
        body: `write ${i}, text ${j}`,
      }));
      const r = await fetch(`${sim.url}/_sim/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(texts),
      });
      await r.arrayBuffer();
      if (r.status !== 201) throw new Error(`write ${i}: ${r.status}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** The feed's last change number, from a fresh stream's opening (-1 while every stream is taken). */
async function feedLast(url: string): Promise<number> {
  const r = await firstEvents(url, {}, (t) => t.includes('event: hello'));
  return r.status === 200 ? Number(/^id: [0-9a-f]+\.(\d+)$/m.exec(r.text)![1]) : -1;
}

/** Reads what the server holds until two reads agree within 256 KB (it has seen every reader go). */
async function settled(sim: Sim, file: string) {
  let last = await held(sim, file);
  for (let i = 0; i < 20; i++) {
    await new Promise((done) => setTimeout(done, 100));
    const now = await held(sim, file);
    if (Math.abs(now.held - last.held) < 256 * 1024) return now;
    last = now;
  }
  return last;
}

/** The readers are python's (node cannot make a socket's receive buffer small); without python3 the test is skipped. */
const python = spawnSync('python3', ['--version']).status === 0;
if (!python) console.warn('the stalled readers test is skipped: it needs python3 on PATH');

describe.skipIf(!python)('stalled readers of GET /_sim/events', { timeout: 120_000 }, () => {
  it(`${READERS} readers that never read cost the server under 50 MB over ${WRITES} writes; one more is refused; one that reads again gets a bounded amount, then a reset`, async () => {
    // (on tmpfs where there is one: the writes' fsyncs cost nothing there, the test's time is the
    // server's work)
    const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'vmv-streams-'));
    const probe = join(dir, 'memory.json');
    const env = {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc --require ${PROBE}`,
      VMV_MEMORY_PROBE: probe,
    };
    const sim = await startSim({ data: join(dir, 'sim.json'), env });
    const r = await stalledReaders(sim.url, READERS);
    try {
      expect(r.statuses).toEqual(Array(READERS).fill(200));
      // the cap: one stream more is refused, with the error envelope and when to try again
      const over = await fetch(`${sim.url}/_sim/events`);
      expect(over.status).toBe(503);
      expect(over.headers.get('retry-after')).toBe('5');
      expect(((await over.json()) as { error: { code: string } }).error.code).toBe('too_many_streams');

      const before = await held(sim, probe);
      await writes(sim);
      // every write has reached the feed (its journal is read every 200 ms) before memory is read: a
      // fresh stream's opening says how far it is (one reader leaves to make room for it). Its number
      // stops moving rather than reaching WRITES: a journal folded between two reads stands for the
      // lines it replaced with one reset (a quiet CI machine wrote 600 and the feed said 590)
      await r.close(READERS - 1);
      let seen = -1;
      await expect
        .poll(
          async () => {
            const now = await feedLast(sim.url);
            const still = now === seen && now > 0;
            seen = now;
            return still;
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toBe(true);
      const stalled = await held(sim, probe);

      // one reads again (before its 5 s of grace have passed: it takes what waited for it), then
      // reconnects as a browser does, with the last id it saw
      const resumed = await r.resume(0);
      const headers = { 'last-event-id': resumed.last_id ?? '' };
      const again = resumed.reset ? '' : (await firstEvents(sim.url, headers, (t) => /\n\n[^]*\n\n/.test(t))).text;

      // the same server after the same writes, its readers gone: what they cost is the difference
      await r.close('all');
      const gone = await settled(sim, probe);
      const cost = stalled.held - gone.held;
      console.info(
        `server held ${mb(before.held)} MB before the writes, ${mb(stalled.held)} MB after them with ${READERS} stalled readers, ` +
          `${mb(gone.held)} MB once they left: they cost ${mb(cost)} MB (RSS ${mb(stalled.rss)} MB, ${mb(gone.rss)} MB); ` +
          `the resumed reader got ${(resumed.bytes / 1024).toFixed(0)} KB; the writes took the server ${(stalled.cpu - before.cpu).toFixed(1)} s of CPU`,
      );
      expect(cost).toBeLessThan(50 * MB);
      // what the bounds allow, and what a queue that grows with the writes breaks first: each reader
      // holds at most MAX_QUEUED_BYTES and an event past it, with its queue's own bookkeeping
      expect(cost).toBeLessThan(READERS * (MAX_QUEUED_BYTES + 32 * 1024));
      expect(resumed.bytes).toBeLessThan(MAX_QUEUED_BYTES + 256 * 1024);
      expect(resumed.reset || again.includes('event: reset')).toBe(true);
    } finally {
      r.stop();
      await sim.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
