// node scripts/screenshots.mjs: the inspector's screenshots in docs/inspector/ (each pane at
// 1280x800, light and dark), taken from a small world seeded here on a manual clock. Run after
// the build, with a Chromium (test/inspector-browser.ts says where one is looked for).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Store, startServer } from '../dist/simulator.js';

const browserPath = process.env.VMV_CHROMIUM ?? '/usr/lib/chromium/chromium-headless-shell';
const out = new URL('../docs/inspector/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });

const server = await startServer({ store: new Store(join(mkdtempSync(join(tmpdir(), 'vmv-shots-')), 'sim.json')) });
const url = server.url;
async function api(method, path, body) {
  const r = await fetch(url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json().catch(() => null);
  if (r.status >= 400) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}
const v1 = (method, path, body) => api(method, `/_sim/inspector${path}`, body);
const toNextDue = async () => {
  const c = await api('GET', '/_sim/clock');
  if (c.next_due_at) await api('POST', '/_sim/clock', { now: c.next_due_at });
};

// a small world: a number whose agent answers texts, a quick call, a conversation, an email, a video, a webhook that fails once
await api('POST', '/_sim/reset', { clock: 'manual', now: '2026-03-02T09:00:00Z' });
const n = await api('POST', '/_sim/phone-numbers', { stack: 't2', phone_number: '+14155550142', name: 'Front desk' });
await v1('PATCH', `/v1/phone-numbers/${n.id}/config`, { sms: { auto_reply_enabled: true, reply_delay_seconds: 20 } });
await api('POST', '/_sim/contacts', { name: 'Zoë Martín', phone_number: '+14155550199', email: 'zoe@example.com' });
const hook = await v1('POST', '/v1/voice/calls/webhooks', { url: 'http://127.0.0.1:9/hooks', description: 'CRM sync' });
await api('POST', '/_sim/inbound/texts', {
  from: '+14155550199',
  to: '+14155550142',
  body: 'Hi! Do you have a table for 4 on Friday? 🍝',
});
await api('POST', '/_sim/clock/advance', { seconds: 30 });
await api('POST', '/_sim/inbound/texts', { from: '+14155550199', to: '+14155550142', body: 'Great, 7pm please.' });
await api('POST', '/_sim/clock/advance', { seconds: 30 });
const call = await api('POST', '/_sim/calls', {
  direction: 'inbound',
  from_number: '+14155550199',
  to_number: '+14155550142',
  duration_seconds: 3,
  has_recording: true,
  summary: 'Zoë booked a table for 4 on Friday at 7pm.',
  tags: ['booking_requested'],
  transcript_turns: [
    { speaker: 'agent', text: 'Thanks for calling Trattoria Uno, how can I help?', seconds_from_start: 0 },
    { speaker: 'person', text: 'I would like to book a table for four on Friday.', seconds_from_start: 1 },
    { speaker: 'agent', text: 'Friday at 7pm for four is booked. See you then!', seconds_from_start: 2 },
  ],
});
await v1('POST', '/v1/quick/emails', {
  to: ['zoe@example.com'],
  subject: 'Your booking on Friday',
  body: 'Hi Zoë,\n\nYour table for 4 on Friday at 7pm is booked.\n\nTrattoria Uno',
});
await v1('POST', '/v1/quick/ai-calls', {
  to_numbers: ['+12025550100'],
  goal: 'Confirm Friday 7pm',
  contact_name: 'Ada Lovelace',
});
await v1('POST', `/v1/voice/calls/webhooks/${hook.data.id}/test`, {});
await v1('POST', '/v1/assistant/messages', { message: 'text +14155550100 and ask whether Friday works' });
const video = await v1('POST', '/v1/videos', {
  template: 'slideshow',
  source_text: 'Three dishes to try at Trattoria Uno this spring.',
});
for (let i = 0; i < 30; i++) {
  const v = await v1('GET', `/v1/videos/${video.data.id}`);
  if (v.data.status === 'ready') break;
  await toNextDue();
}
await api('POST', '/_sim/clock/advance', { seconds: 300 });

const panes = [
  ['activity', '/activity'],
  ['conversations', null],
  ['call', `/calls/${call.data.id}`],
  ['place-call', '/place-call'],
  ['videos', '/videos'],
  ['webhooks', '/webhooks'],
  ['money', '/money'],
  ['assistant', '/assistant'],
];
const people = await v1('GET', '/v1/history/people');
const zoe = people.data.find((p) => p.phone_number === '+14155550199');
panes[1][1] = `/conversations/${zoe.contact_id}`;

const browser = await chromium.launch({ executablePath: browserPath });
for (const scheme of ['light', 'dark']) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
  for (const [name, path] of panes) {
    await page.goto(url + path);
    await page.getByRole('status', { name: 'Live updates' }).getByText('live').waitFor();
    await page.waitForTimeout(700);
    if (name === 'webhooks') await page.getByText('Request and answer').first().click();
    await page.screenshot({ path: join(out, `${name}-${scheme}.png`) });
  }
  await page.close();
}
await browser.close();
await server.close();
console.log(`screenshots in ${out}`);
