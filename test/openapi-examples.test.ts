// Every request example of openapi.json (the file the build writes at the package root from the
// route declarations: scripts/build.mjs) sent to a simulator is a success (issue 32, point 3): a
// generated client or fuzzer starting from the examples meets no refusal. Each operation gets the
// world it needs (a number, a caller ID, a contact, a video, a social connection, a schedule) and
// the ids it names: the example's placeholder ids are replaced with the seeded ones, since a
// document cannot know them.
import { readFileSync } from 'node:fs';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** The example of a parameter: its own, else its schema's first. */
const exampleOfParam = (p: Json) => p.example ?? p.schema?.examples?.[0];

/** Each operation with a request example: its body's, or its query parameters'. */
const cases = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([m]) => METHODS.includes(m))
    .flatMap(([method, op]) => {
      const body = (op as Json).requestBody?.content?.['application/json']?.example;
      const query = ((op as Json).parameters ?? []).filter(
        (p: Json) => p.in === 'query' && exampleOfParam(p) !== undefined,
      );
      return body !== undefined || query.length > 0
        ? [{ method: method.toUpperCase(), path, op: op as Json, body }]
        : [];
    }),
);

/** The world an operation needs: the ids its path names, and the value of each id field its example names. */
interface Seeded {
  ids: Record<'phone' | 'video' | 'review' | 'schedule', string | number>;
  /** an example's id fields (placeholders: a document cannot know the ids) by name, as seeded */
  byField: Record<string, unknown>;
  /** the ready video's signed links */
  media: Record<string, string>;
}

const json = async (method: string, path: string, body?: unknown) => {
  const r = await sim.api(method, path, body === undefined ? {} : { body });
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
  return r.json;
};

async function seed(): Promise<Seeded> {
  await sim.reset();
  const contact = (
    await json('POST', '/_sim/contacts', {
      name: 'Ada Lovelace',
      phone_number: '+14155550123',
      email: 'ada@example.com',
    })
  ).data;
  await json('POST', '/_sim/caller-ids', { phone_number: '+14155550100' });
  const bought = (await json('POST', '/v1/quick/ai-numbers', { area_code: '415' })).data;
  const conn = (await json('POST', '/_sim/social-connections', { platform: 'tiktok', name: 'Acme on TikTok' })).data;
  const source_text = 'Our new espresso bar opens Monday on Main Street.';
  const video = (await json('POST', '/v1/videos', { template: 'talking_avatar', source_text })).data;
  const review = (
    await json('POST', '/v1/videos', { template: 'talking_avatar', source_text, script_review: 'manual' })
  ).data;
  await sim.advance(3600);
  const ready = (await json('GET', `/v1/videos/${video.id}`)).data;
  const schedule = (
    await json('POST', '/v1/video-schedules', {
      name: 'Weekday tips',
      days_of_week: [1, 2, 3, 4, 5],
      post_hour: 9,
      time_zone: 'America/New_York',
      connection_ids: [conn.id],
    })
  ).data;
  const number = (await json('GET', '/v1/phone-numbers')).data.find((n: Json) => n.id === bought.id);
  return {
    ids: { phone: number.id, video: video.id, review: review.id, schedule: schedule.id },
    byField: {
      phone_number_id: number.id,
      connection_ids: [conn.id],
      source_video_id: video.id,
      contact_id: contact.id,
    },
    media: { 'video.mp4': ready.video_url, 'thumbnail.png': ready.thumbnail_url },
  };
}

/** The example with the seeded ids in its id fields, at any depth. */
function substituted(v: unknown, s: Seeded): unknown {
  if (Array.isArray(v)) return v.map((x) => substituted(x, s));
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, Object.hasOwn(s.byField, k) ? s.byField[k] : substituted(x, s)]),
    );
  return v;
}

/** The path with its {id} filled: the seeded record of its resource (a video to approve waits in script_review). */
function pathOf(path: string, s: Seeded): string {
  let id = s.ids.video;
  if (path.startsWith('/v1/phone-numbers')) id = s.ids.phone;
  else if (path.startsWith('/v1/video-schedules')) id = s.ids.schedule;
  else if (path.endsWith('/approve')) id = s.ids.review;
  return path.replace('{id}', encodeURIComponent(String(id)));
}

/** Filters of which one is given at a time (a person: by contact, or by number or address). */
const EXCLUSIVE = ['contact_id', 'phone_number', 'email'];

/** The queries an operation's parameter examples make: all together, each exclusive filter in a query of its own. */
function queriesOf(op: Json, s: Seeded): string[] {
  const params = ((op.parameters ?? []) as Json[]).filter(
    (p) => p.in === 'query' && exampleOfParam(p) !== undefined && p.name !== 'cursor',
  );
  const value = (p: Json) => String(s.byField[p.name] ?? exampleOfParam(p));
  const common = params.filter((p) => !EXCLUSIVE.includes(p.name));
  const exclusive = params.filter((p) => EXCLUSIVE.includes(p.name));
  return (exclusive.length ? exclusive.map((e) => [...common, e]) : [common]).map((ps) =>
    ps.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(value(p))}`).join('&'),
  );
}

describe('every request example of openapi.json succeeds against the simulator', () => {
  it.each(cases.map((c) => [`${c.method} ${c.path}`, c] as const))('%s', async (_, c) => {
    const s = await seed();
    // a media link's signature is the record's (the example's is a placeholder)
    const media = c.path.startsWith('/v1/media/') ? s.media[c.path.split('/').pop()!] : undefined;
    const urls = media
      ? [new URL(media, 'http://x').pathname + new URL(media, 'http://x').search]
      : queriesOf(c.op, s).map((q) => pathOf(c.path, s) + (q ? `?${q}` : ''));
    for (const url of urls) {
      const r = await sim.api(c.method, url, {
        ...(c.body === undefined ? {} : { body: substituted(c.body, s) }),
        ...(media ? { key: null } : {}),
      });
      expect(r.status, `${c.method} ${url}: ${r.text}`).toBeLessThan(300);
    }
  });
});

describe('the description is as strict as the server (issue 32, point 3): what it allows is not always refused', () => {
  const body = (method: string, path: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
  const param = (path: string, name: string) =>
    doc.paths[path].get.parameters.find((p: Json) => p.name === name).schema as Json;
  it('says each rule the server enforces', () => {
    expect(body('post', '/v1/videos').anyOf).toEqual([{ required: ['source_url'] }, { required: ['source_text'] }]);
    expect(body('post', '/v1/videos/quote').anyOf).toHaveLength(2);
    expect(body('post', '/v1/assistant/messages').oneOf).toEqual([
      { required: ['message'] },
      { required: ['approvals'] },
    ]);
    for (const path of ['/v1/quick/ai-calls', '/v1/quick/ai-texts'])
      expect(body('post', path).properties.to_numbers.uniqueItems).toBe(true);
    expect(body('post', '/v1/videos/{id}/posts').properties.connection_ids.uniqueItems).toBe(true);
    expect(body('post', '/v1/video-schedules').properties.connection_ids.uniqueItems).toBe(true);
    expect(body('patch', '/v1/phone-numbers/{id}/config').properties.stack.readOnly).toBe(true);
    for (const path of ['/v1/calls', '/v1/history/calls', '/v1/messages', '/v1/emails'])
      for (const name of ['created_after', 'created_before']) expect(param(path, name).format).toBe('date-time');
    expect(body('post', '/v1/videos/{id}/posts').properties.scheduled_for.format).toBe('date-time');
    expect(body('post', '/v1/video-schedules').properties.starts_on.format).toBe('date');
    expect(body('post', '/v1/video-schedules/{id}/skip').properties.day.format).toBe('date');
    expect(body('post', '/v1/videos').properties.hashtags.items.pattern).toBeDefined();
    expect(param('/v1/phone-numbers/search', 'country').pattern).toBe('^(?:[Uu][Ss]|[Cc][Aa])$');
  });

  it('and the server refuses what the rules leave out, and takes what they allow', async () => {
    await sim.reset();
    const hashtag = (h: string) =>
      sim.api('POST', '/v1/videos/quote', {
        body: { template: 'talking_avatar', source_text: 'Espresso.', hashtags: [h] },
      });
    const pattern = new RegExp(
      doc.paths['/v1/videos'].post.requestBody.content['application/json'].schema.properties.hashtags.items.pattern,
    );
    for (const [h, ok] of [
      ['#café_2', true],
      ['coffee', true],
      ['#two words', false],
      ['#a-b', false],
      ['##x', false],
    ] as const) {
      expect(pattern.test(h), h).toBe(ok);
      expect((await hashtag(h)).status, h).toBe(ok ? 200 : 400);
    }
    for (const [c, ok] of [
      ['US', true],
      ['ca', true],
      ['FR', false],
    ] as const)
      expect((await sim.api('GET', `/v1/phone-numbers/search?country=${c}`)).status, c).toBe(ok ? 200 : 400);
    const both = await sim.api('POST', '/v1/assistant/messages', {
      body: { message: 'hello', approvals: [{ approval_id: '8c1e4f2a-6b3d-4e5f-9a7b-1c2d3e4f5a6b', approved: true }] },
    });
    expect(both.status).toBe(400);
    const none = await sim.api('POST', '/v1/videos/quote', { body: { template: 'talking_avatar' } });
    expect(none.json.error.fields).toMatchObject({ source_url: expect.any(String), source_text: expect.any(String) });
  });
});
