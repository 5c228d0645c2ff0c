// The inspector in a real browser: a headless Chromium (playwright-core) on the page an in-process
// `vmv sim serve` serves, on a manual clock. Each pane is opened and used as a person would, and
// what the page shows is checked against what the simulator holds; changes made elsewhere (the
// API, a CLI command on the same data file) must arrive over the live link without a reload.
import { gzipSync } from 'node:zlib';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN, cli, T0, tempDir } from './helpers.js';

let currentData = '';
import { findChromium, HOW_TO_GET_ONE } from './inspector-browser.js';
import { startReceiver } from './receiver.js';
import { requires } from './skips.js';

const DIST = new URL('../dist/inspector/', import.meta.url).pathname;

describe('the page', () => {
  it('its assets (JavaScript and CSS) are at most 40 KB gzipped in all, and load nothing from elsewhere', () => {
    const files = readdirSync(DIST).filter((f) => /\.(js|css)$/.test(f));
    expect(files.sort()).toEqual(['inspector.css', 'inspector.js']);
    const gz = files.reduce((n, f) => n + gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length, 0);
    expect(gz).toBeLessThanOrEqual(40 * 1024);
    for (const f of [...files, 'index.html'])
      expect(readFileSync(join(DIST, f), 'utf8')).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });
});

const chromium = findChromium();
if (!chromium) {
  if (process.env.CI) throw new Error(`CI needs a browser for the inspector's tests: ${HOW_TO_GET_ONE}`);
  console.warn(HOW_TO_GET_ONE);
}

describe('the inspector in a browser', { timeout: 60_000 }, () => {
  const can = requires(chromium ? null : HOW_TO_GET_ONE);
  let browser: Browser;
  let page: Page;
  let url = '';
  let data = '';
  let close: () => Promise<void>;
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, json: (await r.json().catch(() => null)) as any };
  };
  const v1 = (method: string, path: string, body?: unknown) => api(method, `/_sim/inspector${path}`, body);

  beforeAll(async () => {
    if (!can) return;
    const { Store, startServer } = await import('../simulator/world.js');
    const { realClock, setMode } = await import('../simulator/core/clock.js');
    data = join(tempDir(), 'sim.json');
    currentData = data;
    const store = new Store(data, { clock: setMode(realClock(), 'manual', Date.parse(T0)) });
    const server = await startServer({ store });
    url = server.url;
    close = server.close;
    const { chromium: pw } = await import('playwright-core');
    browser = await pw.launch({ executablePath: chromium! });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 60_000);
  afterAll(async () => {
    if (!can) return;
    await browser?.close();
    await close?.();
  });

  const open = async (path: string) => {
    await page.goto(url + path);
    await page.getByRole('status', { name: 'Live updates' }).getByText('live').waitFor();
  };

  it('serves the page at / behind the door, with a strict CSP', async () => {
    const r = await fetch(`${url}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect((await fetch(`${url}/`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    // a foreign page's <img> or <audio> sends no Origin, but the browser says it is cross-site
    const img = await fetch(`${url}/_sim/inspector/v1/history/people`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(img.status).toBe(403);
    expect(
      (await fetch(`${url}/_sim/inspector/v1/history/people`, { headers: { 'sec-fetch-site': 'same-origin' } })).status,
    ).toBe(200);
    const deep = await fetch(`${url}/calls/abc`);
    expect(await deep.text()).toMatch(/<div id="app">/);
  });

  it('shows hostile content as text, never as markup, its control characters as escapes', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold</b>';
    const controls = ' \u001b]0;pwned\u0007 \u009b2J \u202eevil\u202c \u0000';
    await api('POST', '/_sim/texts', {
      direction: 'inbound',
      from_number: '+14155550177',
      to_number: '+14155550100',
      body: hostile + controls,
    });
    await api('POST', '/_sim/emails', {
      direction: 'inbound',
      from_address: 'mallory@example.com',
      to: 'ops@example.com',
      subject: hostile,
      body: hostile,
    });
    await open('/');
    await expect.poll(() => page.locator('.feed .item').count()).toBe(2);
    expect(await page.locator('.feed').innerText()).toContain('<script>window.__pwned=2</script>');
    // a bidi override cannot reorder what follows it, nor an ESC or NUL hide: each shows as its escape (src/visible.ts)
    const feed = await page.locator('.feed').innerText();
    expect(feed).toContain(' \\u001b]0;pwned\\u0007 \\u009b2J \\u202eevil\\u202c \\u0000');
    expect(feed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    // filtered by person: the text from +14155550177 alone
    await page.getByRole('combobox', { name: 'Person or number' }).selectOption('+14155550177');
    await expect.poll(() => page.locator('.feed .item').count()).toBe(1);
    expect(await page.locator('.feed .item').getAttribute('data-kind')).toBe('text');
    await page.getByRole('combobox', { name: 'Kind' }).selectOption('email');
    await expect.poll(() => page.locator('.feed .item').count()).toBe(0);
  });

  it('a change made over the API, and by a CLI command (another process) on the same data file, shows up live', async () => {
    await open('/activity');
    await api('POST', '/_sim/texts', {
      direction: 'inbound',
      from_number: '+14155550178',
      to_number: '+14155550100',
      body: 'made over the API',
    });
    await page.getByText('made over the API').waitFor({ timeout: 2000 });
    await open('/money');
    const r = await vmv(['sim', 'wallet', '--set', '42']);
    expect(r.code, r.stderr).toBe(0);
    await page.getByTestId('wallet').getByText('$42.00').waitFor({ timeout: 2000 });
  });

  it('a text answered as the other party, and the agent answering it, arrive live', async () => {
    const n = await api('POST', '/_sim/phone-numbers', { stack: 't2', phone_number: '+14155550142' });
    expect(n.status).toBe(201);
    const cfg = await v1('PATCH', `/v1/phone-numbers/${n.json.id}/config`, {
      sms: { auto_reply_enabled: true, reply_delay_seconds: 20 },
    });
    expect(cfg.status).toBe(200);
    const first = await vmv([
      'sim',
      'text',
      '--from',
      '+14155550199',
      '--to',
      '+14155550142',
      '--body',
      'Hi, are you open?',
    ]);
    expect(first.code, first.stderr).toBe(0);
    await open('/conversations');
    await page.getByRole('link', { name: /\+14155550199/ }).click();
    const thread = page.getByRole('region', { name: /^Conversation with/ });
    await thread.getByText('Hi, are you open?').waitFor();
    const outbound = async () => thread.locator('.bubble.outbound').count();
    await page.getByRole('button', { name: '+1 min' }).click();
    await expect.poll(outbound, { timeout: 3000 }).toBe(1);
    await page.getByRole('textbox', { name: /^Reply as/ }).fill('Great, see you at 3');
    await page.getByRole('button', { name: /^Send as/ }).click();
    await thread.getByText('Great, see you at 3').waitFor({ timeout: 2000 });
    await page.getByRole('button', { name: '+1 min' }).click();
    await expect.poll(outbound, { timeout: 3000 }).toBe(2);
    await expect
      .poll(() => page.getByRole('status', { name: 'What the last move set off' }).innerText())
      .toMatch(/texts 1/);
  });

  it("the persona shows beside a person's thread: the built-in, then one set for the number, live", async () => {
    const who = '+14155550177';
    await api('POST', '/_sim/contacts', { name: 'Pat Persona', phone_number: who });
    await api('POST', '/_sim/texts', { direction: 'inbound', from_number: who, to_number: '+14155550142', body: 'Hi' });
    await open('/conversations');
    await page.getByRole('link', { name: /Pat Persona/ }).click();
    const card = page.getByRole('complementary', { name: `Persona of ${who}` });
    await card.getByText('Persona: Any other number').waitFor();
    await card
      .getByText(/built-in/)
      .first()
      .waitFor();
    const r = await api('PUT', `/_sim/personas/${encodeURIComponent(who)}`, {
      name: 'Asks a question',
      call: { attempts: [{ result: 'busy' }, { result: 'answer' }], lines: [{ says: 'Who is calling?' }] },
      text: { replies: [{ says: 'What time?', after_seconds: 60 }] },
    });
    expect(r.status).toBe(200);
    await card.getByText('Persona: Asks a question').waitFor({ timeout: 3000 });
    expect(await card.innerText()).toMatch(
      /set for this number[\s\S]*1\. busy, 2\. answer[\s\S]*Who is calling\?[\s\S]*"What time\?" after 60 s/,
    );
  });

  it("a call's turn clicked seeks the recording; the turn being spoken is highlighted", async () => {
    // (a recording is 3 s long whatever the call's length: the turns are within it)
    const turns = [
      { speaker: 'agent', text: 'Hello, this is Acme.', seconds_from_start: 0 },
      { speaker: 'person', text: 'Hi, I would like to book.', seconds_from_start: 1.2 },
      { speaker: 'agent', text: 'Tuesday at 3 works.', seconds_from_start: 2.4 },
    ];
    const c = await api('POST', '/_sim/calls', {
      direction: 'outbound',
      from_number: '+14155550100',
      to_number: '+14155550188',
      duration_seconds: 15,
      has_recording: true,
      transcript_turns: turns,
      summary: 'Booked Tuesday',
      tags: ['booking_requested'],
    });
    expect(c.status, JSON.stringify(c.json)).toBe(201);
    await open(`/calls/${c.json.data.id}`);
    const audio = page.locator('audio');
    await audio.waitFor();
    await page.waitForFunction("document.querySelector('audio').readyState >= 1");
    await page.getByRole('button', { name: /Tuesday at 3 works/ }).click();
    await expect.poll(() => audio.evaluate((a: any) => a.currentTime)).toBeCloseTo(2.4, 1);
    await expect(page.locator('.turns li[aria-current="true"]').innerText()).resolves.toContain('Tuesday at 3 works');
    expect(await page.locator('main').innerText()).toContain('Booked Tuesday');
  });

  it('a video plays, and its charge links to it', async () => {
    const v = await v1('POST', '/v1/videos', {
      template: 'slideshow',
      source_text: 'Three tips for a calmer morning.',
    });
    expect(v.status).toBe(201);
    for (let i = 0; i < 200; i++) {
      if ((await v1('GET', `/v1/videos/${v.json.data.id}`)).json.data.status === 'ready') break;
      const clock = (await api('GET', '/_sim/clock')).json;
      await api('POST', '/_sim/clock', { now: clock.next_due_at });
    }
    await open('/money');
    await page.locator(`a[href="/videos/${v.json.data.id}"]`).first().click();
    const video = page.locator('video');
    await video.waitFor();
    await page.waitForFunction("document.querySelector('video').readyState >= 1");
    expect(await video.evaluate((e: any) => e.videoWidth)).toBeGreaterThan(0);
    await video.evaluate((e: any) => ((e.muted = true), e.play()));
    await expect.poll(() => video.evaluate((e: any) => e.currentTime)).toBeGreaterThan(0);
  });

  it('a delivery: its exact request, its signature checked in the page, resent with its new attempt shown, copied as curl', async () => {
    const rx = await startReceiver();
    try {
      rx.answer = () => ({ status: 500 });
      const hook = await v1('POST', '/v1/voice/calls/webhooks', { url: `${rx.url}/hooks` });
      expect(hook.status).toBe(201);
      expect((await v1('POST', `/v1/voice/calls/webhooks/${hook.json.data.id}/test`, {})).status).toBe(200);
      await open('/webhooks');
      const attempts = page.getByRole('list', { name: 'Deliveries' }).locator('li');
      await expect.poll(() => attempts.count()).toBe(1);
      await attempts.first().getByText('Request and answer').click();
      await page.getByLabel(/^Webhook secret/).fill(hook.json.data.secret);
      await attempts.first().getByText('signature valid ✓').waitFor();
      await page.getByLabel(/^Webhook secret/).fill('whsec_wrong');
      await attempts.first().getByText('signature does not match ✗').waitFor();
      rx.answer = () => ({ status: 200 });
      await attempts.first().getByRole('button', { name: 'Resend' }).click();
      await expect.poll(() => attempts.count()).toBe(2);
      expect(await attempts.first().innerText()).toMatch(/attempt 2 \(resend of att_\d+\).*HTTP 200/s);
      expect(rx.received.map((r) => r.body.toString())).toEqual([
        rx.received[0].body.toString(),
        rx.received[0].body.toString(),
      ]);
      // copy as curl: the command sends the same bytes and headers
      await attempts.last().getByRole('button', { name: 'Copy as curl' }).click();
      const command = await attempts.last().getByLabel('curl command').innerText();
      await new Promise<void>((resolve, reject) => execFile('sh', ['-c', command], (e) => (e ? reject(e) : resolve())));
      expect(rx.received).toHaveLength(3);
      expect(rx.received[2].body.toString()).toBe(rx.received[0].body.toString());
      expect(rx.received[2].headers['x-service-signature-256']).toBe(rx.received[0].headers['x-service-signature-256']);
    } finally {
      await rx.close();
    }
  });

  it('an inbound call placed as a person runs in its view: ringing, then on as the clock moves', async () => {
    await open('/place-call');
    await page.getByRole('combobox', { name: /^To/ }).selectOption('+14155550142');
    await page.getByRole('textbox', { name: 'What they say' }).fill('Can I book for Friday?');
    await page.getByRole('button', { name: 'Place the call' }).click();
    await page.waitForURL(/\/calls\/[0-9a-f-]{36}$/);
    const state = page.locator('dt:text-is("State") + dd');
    await expect.poll(() => state.innerText()).toBe('RINGING');
    await page.getByRole('button', { name: '+5 min' }).click();
    await expect.poll(() => state.innerText(), { timeout: 3000 }).not.toBe('RINGING');
  });

  it('is driven by the keyboard: Tab reaches the panes, Enter opens one', async () => {
    await open('/activity');
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate('document.activeElement.textContent')) === 'Money') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/money$/);
    await page.getByRole('heading', { name: 'Money' }).waitFor();
  });

  it("the assistant's approvals are answered from the page, and its run goes on live", async () => {
    const c = await v1('POST', '/v1/assistant/messages', {
      message: 'text +14155550100 and ask whether Tuesday works',
    });
    expect(c.status, JSON.stringify(c.json)).toBeLessThan(300);
    await api('POST', '/_sim/clock/advance', { seconds: 10 });
    await open('/assistant');
    const card = page.getByRole('listitem', { name: /^Assistant conversation/ }).first();
    await expect.poll(() => card.getByTestId('status').innerText()).toBe('awaiting_approval');
    await card.getByText(/Waiting for approval: create_quick_ai_text/).waitFor();
    await card.getByRole('button', { name: 'Approve all' }).click();
    await expect.poll(() => card.getByTestId('status').innerText()).toBe('working');
    await page.getByRole('button', { name: '+1 min' }).click();
    await expect.poll(() => card.getByTestId('status').innerText()).toBe('idle');
    expect(await card.innerText()).toContain('create_quick_ai_text (completed)');
  });

  it('a clock button advances the clock, and the change arrives over the live link', async () => {
    await open('/');
    const now = page.getByLabel('Simulated time');
    const before = Date.parse((await api('GET', '/_sim/clock')).json.now);
    await expect.poll(() => now.innerText()).toBe(shown(before));
    await page.getByRole('button', { name: '+1 h' }).click();
    await expect.poll(async () => Date.parse((await api('GET', '/_sim/clock')).json.now)).toBe(before + 3600_000);
    // the page learns of it over the live link (no reload, no request of its own until the change arrives)
    await expect.poll(() => now.innerText()).toBe(shown(before + 3600_000));
  });

  it("fits a phone's width: no pane scrolls sideways", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const path of ['/activity', '/conversations', '/money', '/webhooks', '/videos']) {
        await open(path);
        await page.waitForTimeout(300);
        expect(await page.evaluate('document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(390);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('says when it is disconnected (the server went away)', async () => {
    await open('/');
    await close();
    close = async () => {};
    await page.getByRole('status', { name: 'Live updates' }).getByText('disconnected').waitFor({ timeout: 5000 });
  });
});

describe('GET /_sim/events', () => {
  /** Reads a stream's events until `until` says it has what it needs, then closes it. */
  async function events(url: string, headers: Record<string, string>, until: (text: string) => boolean) {
    const ac = new AbortController();
    const r = await fetch(`${url}/_sim/events`, { headers, signal: ac.signal });
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = r.body!.getReader();
    let text = '';
    while (!until(text)) text += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    return text;
  }
  const ids = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);

  it('follows the journal: a change by another process arrives; a reconnect with Last-Event-ID gets what it missed', async () => {
    const { Store, startServer } = await import('../simulator/world.js');
    const data = join(tempDir(), 'sim.json');
    const server = await startServer({ store: new Store(data) });
    try {
      const hello = await events(server.url, {}, (t) => t.includes('event: hello'));
      expect(hello).toMatch(/^retry: 1000\n\nid: [0-9a-f]+\.0\nevent: hello\n/);
      const [first] = ids(hello);
      // two changes while nobody listens: a CLI process on the same data file, then a request to the server
      currentData = data;
      expect((await vmv(['sim', 'wallet', '--set', '12'])).code).toBe(0);
      await fetch(`${server.url}/_sim/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"seconds":60}',
      });
      const resumed = await events(
        server.url,
        { 'last-event-id': first },
        (t) => (t.match(/event: change/g) ?? []).length >= 2,
      );
      expect(resumed).not.toContain('event: hello');
      const changes = resumed.split('\n\n').filter((b) => b.includes('event: change'));
      expect(changes[0]).toContain('"units":[');
      expect(changes.join()).toContain('"organizations"');
      expect(changes.join()).toContain('"meta"');
      // a reconnect from a server that knows nothing of the id given: a reset
      const reset = await events(server.url, { 'last-event-id': 'feedbeef.3' }, (t) => t.includes('event: reset'));
      expect(reset).toContain('event: reset');
    } finally {
      await server.close();
    }
  });

  it('in-process (the embedded target) answers the opening only, as the API description says', async () => {
    const r = await cli(['api', 'GET', '/_sim/events'], { env: { VMV_SIM_DATA: join(tempDir(), 'sim.json') } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('retry: 1000\n\nevent: hello\ndata: {}\n\n');
  });
});

describe('vmv sim ui', () => {
  it('prints the address of the page of a simulator already listening, and opens nothing with --no-open', async () => {
    const { Store, startServer } = await import('../simulator/world.js');
    const server = await startServer({ store: new Store(join(tempDir(), 'sim.json')) });
    try {
      const port = new URL(server.url).port;
      const r = await cli(['sim', 'ui', '--no-open', '--port', port]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`http://127.0.0.1:${port}/\n`);
      expect((await fetch(r.stdout.trim())).headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      await server.close();
    }
  });

  it('starts a server on the data file when none answers, and serves the page until stopped', async () => {
    const data = join(tempDir(), 'sim.json');
    const child = spawn(process.execPath, [BIN, 'sim', 'ui', '--no-open', '--port', '0', '--data', data], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    try {
      const line = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout! }).once('line', resolve),
      );
      expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await fetch(line);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app">');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});

/** A time as the clock bar shows it. */
const shown = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/** The CLI as a process of its own on the test's data file. */
function vmv(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, VMV_SIM_DATA: currentData, NO_COLOR: '1' } },
      (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
