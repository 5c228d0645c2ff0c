// The live feed's streams (docs/inspector.md): what a stream says first (a hello, the changes a
// reconnect missed, or a reset and why), how a reader that falls behind is dropped (its stream ends
// with a reset; its socket is reset if it does not take that in time), and the cap on streams. On
// stand-ins for a response (whose queue the test fills) and for the feed; test/inspector-streams.test.ts
// does it for real, with a server and readers that stop reading.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Change, JournalFeed } from './feed.js';
import { MAX_QUEUED_BYTES, MAX_STREAMS } from './routes.js';
import { eventStreams } from './stream.js';

/** A response whose bytes are never taken: what is written stays queued. */
class Res extends EventEmitter {
  status = 0;
  headers: Record<string, string> = {};
  text = '';
  writableLength = 0;
  writableFinished = false;
  destroyed = false;
  ended = false;
  socket = { destroyed: false, _httpMessage: null as unknown, resetAndDestroy: vi.fn(() => this.close()) };
  writeHead(status: number, headers: Record<string, string>) {
    this.status = status;
    this.headers = headers;
  }
  write(t: string | Buffer) {
    this.text += t.toString();
    this.writableLength += t.length;
    return true;
  }
  end(t = '') {
    this.write(t);
    this.ended = true;
  }
  destroy() {
    this.close();
  }
  close() {
    this.destroyed = true;
    this.emit('close');
  }
}

/** A feed holding changes 1..`last`, each naming `ids` record ids (36 characters, as uuids); `push` makes one more. */
function feed(last: number, ids = 1) {
  const listeners = new Set<(c: Change) => void>();
  const make = (seq: number): Change => ({
    seq,
    units: ['texts'],
    ids: Array.from({ length: ids }, (_, i) => `${seq}-${i}-`.padEnd(36, '0')),
  });
  const kept = Array.from({ length: last }, (_, i) => make(i + 1));
  return {
    get last() {
      return kept.length;
    },
    since: (seq: number) => (seq > kept.length ? null : kept.slice(seq)),
    async listen(fn: (c: Change) => void, first: (last: number) => void) {
      first(kept.length);
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    push() {
      const c = make(kept.length + 1);
      kept.push(c);
      for (const fn of listeners) fn(c);
    },
    listeners,
  };
}

async function open(serve: ReturnType<typeof eventStreams>, lastEventId?: string) {
  const res = new Res();
  const headers = lastEventId === undefined ? {} : { 'last-event-id': lastEventId };
  await serve({ headers } as IncomingMessage, res as unknown as ServerResponse);
  return res;
}

/** Changes until the stream ends (at most 1,000); how many it took. */
function fillUp(f: ReturnType<typeof feed>, res: Res): number {
  let n = 0;
  while (!res.ended && n < 1000) {
    f.push();
    n++;
  }
  return n;
}

const events = (text: string) => [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('what a stream says first', () => {
  // a change naming 50 ids is about 2 KB: the 110 after b00t.10 are more than MAX_REPLAY_BYTES
  it.each([
    ['no Last-Event-ID: a hello with the last change id', undefined, ['hello'], 'b00t.120'],
    ['a reconnect that missed 3 changes: those', 'b00t.117', ['change', 'change', 'change'], 'b00t.120'],
    ['a reconnect that missed nothing: nothing', 'b00t.120', [], null],
    ['one that missed more than MAX_REPLAY_BYTES: a reset', 'b00t.10', ['reset'], 'b00t.120'],
    ["another server's id: a reset", 'f00d.117', ['reset'], 'b00t.120'],
    ['an id past the last: a reset', 'b00t.999', ['reset'], 'b00t.120'],
  ])('%s', async (_, lastId, want, lastSent) => {
    const res = await open(eventStreams(feed(120, 50) as unknown as JournalFeed, 'b00t'), lastId);
    expect(res.status).toBe(200);
    expect(res.text.startsWith('retry: 1000\n\n')).toBe(true);
    expect(events(res.text)).toEqual(want);
    expect([...res.text.matchAll(/^id: (.+)$/gm)].pop()?.[1] ?? null).toBe(lastSent);
    expect(res.ended).toBe(false);
  });

  it('says why it resets', async () => {
    const serve = eventStreams(feed(120, 50) as unknown as JournalFeed, 'b00t');
    expect((await open(serve, 'b00t.10')).text).toContain('data: {"reason":"missed_too_many"}');
    expect((await open(serve, 'f00d.1')).text).toContain('data: {"reason":"unknown_event_id"}');
  });
});

describe('a reader that falls behind', () => {
  it(`is dropped past ${MAX_QUEUED_BYTES / 1024} KiB queued: its stream ends with a reset whose id is the last change written`, async () => {
    const f = feed(0, 50);
    const res = await open(eventStreams(f as unknown as JournalFeed, 'b00t'));
    const n = fillUp(f, res);
    expect(res.writableLength).toBeGreaterThan(MAX_QUEUED_BYTES);
    expect(res.writableLength).toBeLessThan(MAX_QUEUED_BYTES + 5000);
    expect(res.text).toMatch(new RegExp(`id: b00t\\.${n}\\nevent: reset\\ndata: \\{"reason":"fell_behind"\\}\\n\\n$`));
    expect(f.listeners.size).toBe(0);
    f.push(); // nothing more is written to it
    expect(res.text.endsWith('"fell_behind"}\n\n')).toBe(true);
    // a reader that does not take it within 5 s has its connection reset
    vi.advanceTimersByTime(4999);
    expect(res.socket.resetAndDestroy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(res.socket.resetAndDestroy).toHaveBeenCalledOnce();
  });

  it('that came back on the same connection (it took its reset) keeps it', async () => {
    const f = feed(0, 50);
    const res = await open(eventStreams(f as unknown as JournalFeed, 'b00t'));
    fillUp(f, res);
    res.socket._httpMessage = { another: 'response' };
    vi.advanceTimersByTime(10_000);
    expect(res.socket.resetAndDestroy).not.toHaveBeenCalled();
  });

  it('is not dropped for a heartbeat while it keeps up', async () => {
    const res = await open(eventStreams(feed(0) as unknown as JournalFeed, 'b00t'));
    vi.advanceTimersByTime(15_000);
    expect(res.text.endsWith(': still here\n\n')).toBe(true);
    expect(res.ended).toBe(false);
  });
});

describe('the cap on streams', () => {
  it(`answers stream ${MAX_STREAMS + 1} 503 with Retry-After; one closed makes room`, async () => {
    const serve = eventStreams(feed(0) as unknown as JournalFeed, 'b00t');
    const open_ = await Promise.all(Array.from({ length: MAX_STREAMS }, () => open(serve)));
    expect(open_.every((r) => r.status === 200)).toBe(true);
    const over = await open(serve);
    expect(over.status).toBe(503);
    expect(over.headers['retry-after']).toBe('5');
    expect(JSON.parse(over.text).error).toMatchObject({ code: 'too_many_streams' });
    open_[0].close();
    expect((await open(serve)).status).toBe(200);
  });

  it('counts a dropped reader until its connection closes', async () => {
    const f = feed(0, 50);
    const serve = eventStreams(f as unknown as JournalFeed, 'b00t');
    const first = await open(serve);
    await Promise.all(Array.from({ length: MAX_STREAMS - 1 }, () => open(serve)));
    fillUp(f, first);
    expect((await open(serve)).status).toBe(503);
    vi.advanceTimersByTime(5000);
    expect((await open(serve)).status).toBe(200);
  });
});
