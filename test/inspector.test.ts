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

  it("a call's turn clicked seeks inside the recording (the call's whole length); the turn being spoken is highlighted", async () => {
    const turns = [
      { speaker: 'agent', text: 'Hello, this is Acme.', seconds_from_start: 0 },
      { speaker: 'person', text: 'Hi, I would like to book.', seconds_from_start: 21.5 },
      { speaker: 'agent', text: 'Tuesday at 3 works.', seconds_from_start: 43.2 },
    ];
    const c = await api('POST', '/_sim/calls', {
      direction: 'outbound',
      from_number: '+14155550100',
      to_number: '+14155550188',
      duration_seconds: 52,
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
    expect(await audio.evaluate((a: any) => a.duration)).toBeCloseTo(52, 1);
    await page.getByRole('button', { name: /Tuesday at 3 works/ }).click();
    await expect.poll(() => audio.evaluate((a: any) => a.currentTime)).toBeCloseTo(43.2, 1);
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

  it('the Money pane reads as a person reads it: amounts as money, features as words, days as dates', async () => {
    await open('/money');
    const plan = await page.getByTestId('plan').innerText();
    expect(plan).toMatch(
      /^Content included · assistant included · \$\d+\.\d\d of video credits left · 100 minutes and 100 texts a month · then \$0\.10 a minute, \$0\.02 a text$/,
    );
    const usage = await page.getByTestId('usage').innerText();
    expect(usage).toMatch(
      /^[\d.]+ minutes? used, [\d.]+ left · \d+ texts? sent, \d+ left · \d{4}-\d\d-\d\d UTC to \d{4}-\d\d-\d\d UTC/,
    );
    // no raw dump: no field names, no true or false, no quoted ISO times
    expect(`${plan} ${usage}`).not.toMatch(/_|true|false|"|T\d\d:/);
    expect(await page.getByTestId('wallet').innerText()).toMatch(/^\$\d+\.\d\d$/);
  });

  it('Conversations names each person once: the name, then the number or address when it is not the name', async () => {
    await api('POST', '/_sim/emails', {
      direction: 'inbound',
      from_address: 'ada@example.com',
      to: 'ops@example.com',
      subject: 'Hello',
      body: 'Hi there',
    });
    await open('/conversations');
    const people = page.getByRole('navigation', { name: 'People' });
    await people.getByRole('link', { name: /ada@example\.com/ }).waitFor();
    expect(await people.getByRole('link', { name: /ada@example\.com/ }).innerText()).toBe('ada@example.com');
    expect(await people.getByRole('link', { name: /^\+14155550199/ }).innerText()).toBe('+14155550199');
    // a contact: the name, then the number
    expect(await people.getByRole('link', { name: /Pat Persona/ }).innerText()).toBe('Pat Persona +14155550177');
    const lines = (await people.innerText()).split('\n').filter(Boolean);
    for (const line of lines)
      expect(
        line.split(' ').filter((w, i, all) => all.indexOf(w) !== i),
        line,
      ).toEqual([]);
  });

  it("the Assistant pane says a declined action's reason once", async () => {
    const c = await v1('POST', '/v1/assistant/messages', { message: 'text +14155550100 and ask whether Friday works' });
    expect(c.status, JSON.stringify(c.json)).toBeLessThan(300);
    await api('POST', '/_sim/clock/advance', { seconds: 10 });
    const id = c.json.data.conversation_id;
    let pending: { approval_id: string }[] = [];
    await expect
      .poll(
        async () =>
          (pending = (await v1('GET', `/v1/assistant/conversations/${id}`)).json.data.pending_approvals).length,
      )
      .toBeGreaterThan(0);
    const r = await v1('POST', '/v1/assistant/messages', {
      conversation_id: id,
      approvals: pending.map((a) => ({ approval_id: a.approval_id, approved: false, reason: 'not now' })),
    });
    expect(r.status, JSON.stringify(r.json)).toBeLessThan(300);
    await open('/assistant');
    const card = page.getByRole('listitem', { name: /^Assistant conversation/ }).filter({ hasText: 'declined' });
    await card.getByText('create_quick_ai_text (declined: not now)').waitFor();
    expect(await card.innerText()).not.toContain('declined: declined');
  });

  it('Activity asks the server for one page a screen, whoever is in the world; Older brings the next page', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      direction: 'inbound',
      from_number: `+1415555${2000 + i}`,
      to_number: '+14155550100',
      body: `bulk ${i}`,
    }));
    expect((await api('POST', '/_sim/texts', many)).status).toBe(201);
    await page.waitForTimeout(500); // (the live link's word of it comes before the page opens)
    const asked: string[] = [];
    const note = (r: { url(): string }) => void asked.push(new URL(r.url()).pathname);
    page.on('request', note);
    await open('/activity');
    await expect.poll(() => page.locator('.feed .item').count()).toBe(50);
    page.off('request', note);
    expect(asked.filter((p) => p === '/_sim/activity')).toHaveLength(1);
    expect(asked.filter((p) => /\/v1\/history\/(texts|calls|emails)/.test(p))).toEqual([]);
    await page.getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => page.locator('.feed .item').count()).toBeGreaterThan(50);
    const keys = await page.locator('.feed .item').allInnerTexts();
    expect(new Set(keys).size).toBe(keys.length);
    const times = await page.locator('.feed .item time').allInnerTexts();
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('an email opens from one read of it, however many people the world has (the oldest of 150 too)', async () => {
    const mail = (i: number) => ({
      direction: 'inbound',
      from_address: `person${i}@example.com`,
      to: 'ops@example.com',
      subject: `Question ${i}`,
      body: `Body ${i}`,
      created_at: new Date(Date.parse(T0) - (200 - i) * 60_000).toISOString(),
    });
    const added = await api(
      'POST',
      '/_sim/emails',
      Array.from({ length: 150 }, (_, i) => mail(i)),
    );
    expect(added.status).toBe(201);
    const oldest = added.json.ids[0];
    await page.waitForTimeout(500); // (the live link's word of them comes before the page opens)
    const asked: string[] = [];
    const note = (r: { url(): string }) => void asked.push(new URL(r.url()).pathname);
    page.on('request', note);
    const started = performance.now();
    await open(`/emails/${oldest}`);
    await page.getByRole('heading', { name: 'Question 0' }).waitFor();
    const ms = performance.now() - started;
    page.off('request', note);
    expect(await page.locator('pre.body').innerText()).toBe('Body 0');
    // (read again only when the live link says emails changed)
    const reads = asked.filter((p) => p.startsWith('/_sim/emails/') || p.includes('/v1/history/'));
    expect(reads[0], `${ms.toFixed(0)} ms`).toBe(`/_sim/emails/${oldest}`);
    expect(new Set(reads)).toEqual(new Set([`/_sim/emails/${oldest}`]));
  });

  it("fits a phone's width: no pane scrolls sideways, and nothing in it is cut off", async () => {
    expect((await api('PATCH', '/_sim/workspace', { wallet_usd: 61.5 })).status).toBe(200); // (a ledger entry)
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await open('/activity');
      const tabs = await page.getByRole('navigation', { name: 'Panes' }).getByRole('link').all();
      const paths = await Promise.all(tabs.map((t) => t.getAttribute('href')));
      expect(paths).toHaveLength(7);
      for (const path of paths) {
        await open(path!);
        await page.waitForTimeout(300);
        expect(await page.evaluate('document.scrollingElement.scrollWidth'), path!).toBeLessThanOrEqual(390);
        // no box scrolls sideways inside the page either (a table or the tabs cut at the edge)
        const cut = await page.evaluate(`[...document.querySelectorAll('body *')]
          .filter((e) => getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
          .map((e) => e.tagName + '.' + e.className)`);
        expect(cut, path!).toEqual([]);
        // every tab within the screen
        for (const t of tabs)
          expect((await t.boundingBox())!.x + (await t.boundingBox())!.width, path!).toBeLessThanOrEqual(390);
      }
      // the ledger's every column is on the screen
      await open('/money');
      // (the pane loads its data after the live link opens: wait for the table, not a moment)
      await page.locator('table.ledger td').first().waitFor();
      const cells = await page.locator('table.ledger td').all();
      expect(cells.length).toBeGreaterThan(0);
      for (const c of cells.slice(0, 10)) {
        const box = (await c.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('reads everything again when its live link says reset (as after the server dropped it for falling behind)', async () => {
    // the page's link is the test's own: it hears of no change, until a reconnect is answered `reset`
    let reset = false;
    let opened = 0;
    await page.route('**/_sim/events', (route) => {
      opened++;
      const event = reset ? 'reset\ndata: {"reason":"fell_behind"}' : 'hello\ndata: {}';
      return route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: `retry: 200\n\nid: test.${opened}\nevent: ${event}\n\n`,
      });
    });
    try {
      // (not open(): each of these streams ends as soon as it opens, so the page is live only for a moment)
      await page.goto(`${url}/money`);
      const wallet = page.getByTestId('wallet');
      await wallet.getByText('$').waitFor();
      const before = await wallet.innerText();
      expect((await api('PATCH', '/_sim/workspace', { wallet_usd: 77 })).status).toBe(200);
      // the stream ends and is resumed again and again with nothing heard: the page keeps what it read
      const seen = opened;
      await expect.poll(() => opened, { timeout: 5000 }).toBeGreaterThan(seen + 2);
      expect(await wallet.innerText()).toBe(before);
      reset = true;
      await wallet.getByText('$77.00').waitFor({ timeout: 5000 });
    } finally {
      await page.unroute('**/_sim/events');
    }
  });

  it('opens its live link again after a refusal (the cap on streams), and reads everything again then', async () => {
    let refuse = true;
    await page.route('**/_sim/events', (route) =>
      refuse
        ? route.fulfill({
            status: 503,
            headers: { 'retry-after': '5' },
            contentType: 'application/json',
            body: '{"error":{"code":"too_many_streams","message":"full"}}',
          })
        : route.continue(),
    );
    try {
      await page.goto(`${url}/money`);
      const wallet = page.getByTestId('wallet');
      await wallet.getByText('$').waitFor();
      await page.getByRole('status', { name: 'Live updates' }).getByText('disconnected').waitFor();
      expect((await api('PATCH', '/_sim/workspace', { wallet_usd: 78 })).status).toBe(200);
      refuse = false;
      // the browser gives a refused stream up; the page opens a new one 5 s later, which knows nothing of the change
      await page.getByRole('status', { name: 'Live updates' }).getByText('live').waitFor({ timeout: 10_000 });
      await wallet.getByText('$78.00').waitFor({ timeout: 5000 });
    } finally {
      await page.unroute('**/_sim/events');
    }
  });

  it('says when it is disconnected (the server went away)', async () => {
    await open('/');
    await close();
    close = async () => {};
    await page.getByRole('status', { name: 'Live updates' }).getByText('disconnected').waitFor({ timeout: 5000 });
  });
});

describe('GET /_sim/activity', () => {
  it('pages everything the workspace did, newest first, each item once; narrowed by kind, person or words', async () => {
    const { Store, startServer } = await import('../simulator/world.js');
    const server = await startServer({ store: new Store(join(tempDir(), 'sim.json')) });
    const get = async (path: string) => {
      const r = await fetch(server.url + path);
      return { status: r.status, json: (await r.json()) as any };
    };
    const post = (path: string, body: unknown) =>
      fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    try {
      await post('/_sim/contacts', { name: 'Ada Lovelace', email: 'ada@example.com', phone_number: '+14155550111' });
      const texts = Array.from({ length: 23 }, (_, i) => ({
        direction: i % 2 ? 'inbound' : 'outbound',
        from_number: i % 2 ? `+1415555${3000 + i}` : '+14155550100',
        to_number: i % 2 ? '+14155550100' : `+1415555${3000 + i}`,
        body: i === 7 ? 'Is Tuesday still good?' : `text ${i}`,
      }));
      expect((await post('/_sim/texts', texts)).status).toBe(201);
      const calls = Array.from({ length: 5 }, () => ({
        direction: 'outbound',
        from_number: '+14155550100',
        to_number: '+14155550111',
        summary: 'Booked for Tuesday',
      }));
      expect((await post('/_sim/calls', calls)).status).toBe(201);
      const mail = {
        direction: 'inbound',
        from_address: 'ada@example.com',
        to: 'ops@example.com',
        subject: 'Hi',
        body: 'b',
      };
      expect((await post('/_sim/emails', [mail, mail])).status).toBe(201);
      // one page of everything, and the same walked seven at a time
      const all = (await get('/_sim/activity?limit=100')).json;
      expect(all.data).toHaveLength(30);
      expect(all.meta.cursor).toBeUndefined();
      const ats = all.data.map((i: { at: string }) => i.at);
      expect([...ats].sort().reverse()).toEqual(ats);
      const walked: unknown[] = [];
      let page = (await get('/_sim/activity?limit=7')).json;
      walked.push(...page.data);
      while (page.meta.cursor) {
        page = (await get(`/_sim/activity?limit=7&cursor=${page.meta.cursor}`)).json;
        walked.push(...page.data);
      }
      expect(walked).toEqual(all.data);
      // narrowed
      const calls5 = (await get('/_sim/activity?kind=call')).json.data;
      expect(calls5.map((i: { kind: string }) => i.kind)).toEqual(Array(5).fill('call'));
      expect(calls5[0]).toMatchObject({
        person: 'Ada Lovelace',
        text: 'Booked for Tuesday',
        link: `/calls/${calls5[0].id}`,
      });
      const ada = (await get(`/_sim/activity?person=${encodeURIComponent('ada@example.com')}`)).json.data;
      expect(ada.map((i: { kind: string }) => i.kind).sort()).toEqual([
        'call',
        'call',
        'call',
        'call',
        'call',
        'email',
        'email',
      ]);
      const tuesday = (await get('/_sim/activity?q=TUESDAY%20good')).json.data;
      expect(tuesday.map((i: { text: string }) => i.text)).toEqual(['Is Tuesday still good?']);
      // a cursor fits its own filters only
      const first = (await get('/_sim/activity?limit=2&kind=text')).json;
      const other = await get(`/_sim/activity?limit=2&kind=call&cursor=${first.meta.cursor}`);
      expect(other.status).toBe(400);
      expect(other.json.error.fields.cursor).toMatch(/another list or other filters/);
      expect((await get('/_sim/activity?kind=fax')).json.error.fields.kind).toMatch(/must be one of/);
    } finally {
      await server.close();
    }
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
