// Video schedules over HTTP on a manual clock, sentence by sentence (spec Part 2 Video schedule, Part 3
// Video schedule, Part 4 Video schedules, Limits; issue "Video schedules").
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

let sim: Sim;
// Thursday 2026-03-05, 12:00 UTC: the US changes to daylight saving time on Sunday 2026-03-08
const START = '2026-03-05T12:00:00.000Z';
beforeAll(async () => (sim = await startSim({ now: START })));
afterAll(() => sim.stop());
beforeEach(async () => {
  await sim
    .api('POST', '/_sim/reset', { body: { clock: 'manual', now: START } })
    .then((r) => (sim.key = r.json.api_key));
});

const connections = async () =>
  (await sim.api('GET', '/v1/social-connections')).json.data as { id: string; platform: string }[];
const connection = async (platform: string) => (await connections()).find((c) => c.platform === platform)!.id;
const base = async (extra: Record<string, unknown> = {}) => ({
  name: 'Espresso tips',
  days_of_week: [1, 3, 5],
  post_hour: 9,
  time_zone: 'America/New_York',
  connection_ids: [await connection('tiktok')],
  ...extra,
});
const create = async (extra: Record<string, unknown> = {}) => {
  const r = await sim.api('POST', '/v1/video-schedules', { body: await base(extra) });
  expect(r.status, r.text).toBe(201);
  return r.json.data;
};
const get = async (id: string) => (await sim.api('GET', `/v1/video-schedules/${id}`)).json.data;
const videosOf = async (id: string) =>
  (await sim.api('GET', `/v1/video-schedules/${id}/videos?limit=100`)).json.data as any[];
const setClock = (now: string) => sim.api('POST', '/_sim/clock', { body: { now } });
const patch = (id: string, body: unknown) => sim.api('PATCH', `/v1/video-schedules/${id}`, { body });

describe('the record', () => {
  it('has every field of the Part 2 table, plus id, next_run_at, next_planning_at, skipped_days, created_at, updated_at; direction, source_video_id and last_error are left out while they have no value (issue 23, point 1)', async () => {
    const s = await create();
    expect(Object.keys(s).sort()).toEqual([
      'allowed_templates',
      'connection_ids',
      'created_at',
      'days_of_week',
      'estimate_depends_on_template',
      'estimated_price_cents_per_video',
      'id',
      'last_run_at',
      'name',
      'next_plan',
      'next_planning_at',
      'next_run_at',
      'notify_by_email',
      'notify_hours_before',
      'post_hour',
      'skipped_days',
      'starts_on',
      'status',
      'time_zone',
      'updated_at',
      'video_settings',
      'videos_per_day',
    ]);
    expect(s).toMatchObject({
      videos_per_day: 1,
      notify_hours_before: 1,
      notify_by_email: false,
      status: 'active',
      allowed_templates: [],
      video_settings: {},
      skipped_days: [],
      starts_on: '2026-03-05',
      next_plan: null,
      // Friday 2026-03-06 09:00 in New York, still on standard time (UTC-5)
      next_run_at: '2026-03-06T14:00:00.000Z',
      next_planning_at: '2026-03-06T13:00:00.000Z',
    });
  });
  it('estimated_price_cents_per_video comes from the video price model; estimate_depends_on_template when the director picks', async () => {
    const one = await create({
      allowed_templates: ['talking_avatar'],
      video_settings: { target_duration_seconds: 30 },
    });
    const quote = (
      await sim.api('POST', '/v1/videos/quote', {
        body: { template: 'talking_avatar', source_text: 'x', target_duration_seconds: 30 },
      })
    ).json.data;
    expect(one.estimated_price_cents_per_video).toBe(quote.price_cents);
    expect(one.estimate_depends_on_template).toBe(false);
    const several = await create({ allowed_templates: ['slideshow', 'interview'] });
    expect(several.estimate_depends_on_template).toBe(true);
    const interview = (await sim.api('POST', '/v1/videos/quote', { body: { template: 'interview', source_text: 'x' } }))
      .json.data.price_cents;
    expect(several.estimated_price_cents_per_video).toBe(interview); // the highest of the two
    expect((await create()).estimate_depends_on_template).toBe(true);
  });
});

describe('validation: one 400 listing every bad field', () => {
  it('lists structural and cross-field problems together', async () => {
    const r = await sim.api('POST', '/v1/video-schedules', {
      body: {
        name: 'x',
        videos_per_day: 11,
        days_of_week: [1, 1, 8],
        post_hour: 24,
        time_zone: 'Mars/Olympus',
        starts_on: '2026-02-30',
        connection_ids: ['3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90'],
        allowed_templates: ['slideshow', 'hologram'],
        video_settings: { template: 'slideshow', script: 'no' },
        source_video_id: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c91',
        notify_hours_before: 49,
      },
    });
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.error.fields).sort()).toEqual([
      'allowed_templates[1]',
      'connection_ids[0]',
      'days_of_week[1]',
      'days_of_week[2]',
      'notify_hours_before',
      'post_hour',
      'source_video_id',
      'starts_on',
      'time_zone',
      'video_settings.script',
      'video_settings.template',
      'videos_per_day',
    ]);
    expect(r.json.error.fields['days_of_week[1]']).toBe('repeats days_of_week[0]');
    expect(r.json.error.fields.time_zone).toMatch(/IANA time zone/);
    expect((await sim.api('GET', '/v1/video-schedules')).json.data).toHaveLength(0);
  });
  it.each([
    [{ videos_per_day: 0 }, 'videos_per_day'],
    [{ videos_per_day: 1.5 }, 'videos_per_day'],
    [{ days_of_week: [] }, 'days_of_week'],
    [{ days_of_week: [0] }, 'days_of_week[0]'],
    [{ post_hour: -1 }, 'post_hour'],
    [{ time_zone: '+02:00' }, 'time_zone'],
    [{ starts_on: '5 March' }, 'starts_on'],
    [{ connection_ids: [] }, 'connection_ids'],
    [{ notify_hours_before: -1 }, 'notify_hours_before'],
    [{ notify_by_email: 'yes' }, 'notify_by_email'],
    [{ allowed_templates: ['slideshow', 'slideshow'] }, 'allowed_templates[1]'],
    [{ video_settings: { preset: 'captioned' } }, 'video_settings.preset'],
    [{ allowed_templates: ['talking_avatar'], video_settings: { preset: 'captioned' } }, 'video_settings.preset'],
    [{ video_settings: { music: { track_id: 'trk_nope' } } }, 'video_settings.music.track_id'],
    [{ video_settings: { format: 'square' } }, 'video_settings.format'],
    [{ colour: 'red' }, 'colour'],
    [{ video_settings: { script_review: 'manual' } }, 'video_settings.script_review'],
  ])('%j → 400 naming %s', async (extra, field) => {
    const r = await sim.api('POST', '/v1/video-schedules', { body: await base(extra) });
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.error.fields)).toEqual([field]);
  });
  it('needs name, days_of_week, post_hour, time_zone and connection_ids', async () => {
    const r = await sim.api('POST', '/v1/video-schedules', { body: {} });
    expect(Object.keys(r.json.error.fields).sort()).toEqual([
      'connection_ids',
      'days_of_week',
      'name',
      'post_hour',
      'time_zone',
    ]);
  });
  it('takes UTC, Etc/* zones, a pinned preset of the one allowed template, and a source video of the workspace', async () => {
    expect((await create({ time_zone: 'UTC' })).time_zone).toBe('UTC');
    expect((await create({ time_zone: 'Etc/GMT-3' })).next_run_at).toBe('2026-03-06T06:00:00.000Z');
    const v = (
      await sim.api('POST', '/v1/videos', {
        body: { template: 'slideshow', source_text: 'Our menu.', format: 'horizontal' },
      })
    ).json.data;
    const s = await create({
      allowed_templates: ['slideshow'],
      video_settings: { preset: 'ken-burns' },
      source_video_id: v.id,
    });
    expect([s.source_video_id, s.video_settings]).toEqual([v.id, { preset: 'ken-burns' }]);
  });
});

describe('posting days in the time zone, across a daylight-saving change', () => {
  it('09:00 New York is 14:00Z before the change and 13:00Z after; videos are made at those instants', async () => {
    const s = await create();
    await setClock('2026-03-06T13:59:59Z');
    expect(await videosOf(s.id)).toHaveLength(0);
    await sim.advance(1);
    const first = await videosOf(s.id);
    expect(first.map((v) => v.created_at)).toEqual(['2026-03-06T14:00:00.000Z']);
    expect((await get(s.id)).next_run_at).toBe('2026-03-09T13:00:00.000Z'); // Monday, daylight saving time (UTC-4)
    await setClock('2026-03-12T00:00:00Z');
    expect((await videosOf(s.id)).map((v) => v.created_at)).toEqual([
      '2026-03-11T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-06T14:00:00.000Z',
    ]);
    expect((await get(s.id)).last_run_at).toBe('2026-03-11T13:00:00.000Z');
  });
  it('and back in autumn: 09:00 Paris is 07:00Z in summer, 08:00Z from 2026-10-25', async () => {
    await sim
      .api('POST', '/_sim/reset', { body: { clock: 'manual', now: '2026-10-22T12:00:00Z' } })
      .then((r) => (sim.key = r.json.api_key));
    const s = await create({ time_zone: 'Europe/Paris', days_of_week: [5, 1] });
    expect(s.next_run_at).toBe('2026-10-23T07:00:00.000Z');
    await setClock('2026-10-24T00:00:00Z');
    expect((await get(s.id)).next_run_at).toBe('2026-10-26T08:00:00.000Z');
  });
  it('starts_on: no posting day before it', async () => {
    const s = await create({ starts_on: '2026-03-16' });
    expect(s.next_run_at).toBe('2026-03-16T13:00:00.000Z');
  });
});

describe('the director', () => {
  const madeOn = async (extra: Record<string, unknown>, until = '2026-03-12T00:00:00Z') => {
    const s = await create(extra);
    await setClock(until);
    return { s, videos: (await videosOf(s.id)).reverse() };
  };
  it('decides template, angle, script and caption, different across the videos of a day and across days', async () => {
    const { videos } = await madeOn({ videos_per_day: 3 });
    expect(videos).toHaveLength(9);
    for (let d = 0; d < 3; d++) {
      const day = videos.slice(d * 3, d * 3 + 3);
      expect(new Set(day.map((v) => v.template)).size).toBe(3);
      expect(new Set(day.map((v) => v.caption)).size).toBe(3);
    }
    expect(new Set(videos.map((v) => v.script)).size).toBe(9);
    expect(new Set(videos.map((v) => v.caption)).size).toBeGreaterThanOrEqual(6);
    for (const v of videos) {
      expect(v.schedule_id).not.toBeNull();
      expect(v.script_review).toBe('auto');
      expect(v.script).toMatch(/Acme Sandbox/);
    }
  });
  it('is deterministic: the same schedule on a fresh store makes the same videos', async () => {
    const a = (await madeOn({ videos_per_day: 2 })).videos.map((v) => [v.template, v.caption, v.script]);
    await sim
      .api('POST', '/_sim/reset', { body: { clock: 'manual', now: START } })
      .then((r) => (sim.key = r.json.api_key));
    const b = (await madeOn({ videos_per_day: 2 })).videos.map((v) => [v.template, v.caption, v.script]);
    expect(a).toHaveLength(6); // two a day for three days: the same, not two empty lists
    expect(b).toEqual(a);
  });
  it('respects allowed_templates: one pins it; several bound the choice', async () => {
    const pinned = await madeOn({ videos_per_day: 2, allowed_templates: ['slideshow'] });
    expect(new Set(pinned.videos.map((v) => v.template))).toEqual(new Set(['slideshow']));
    const two = await madeOn(
      { videos_per_day: 2, allowed_templates: ['remotion', 'phone_mockup'] },
      '2026-03-19T00:00:00Z',
    );
    expect(new Set(two.videos.map((v) => v.template))).toEqual(new Set(['remotion', 'phone_mockup']));
  });
  it('respects the pinned video_settings (format, length, preset, subtitles, music)', async () => {
    const { videos } = await madeOn({
      allowed_templates: ['talking_avatar'],
      video_settings: {
        format: 'horizontal',
        target_duration_seconds: 15,
        preset: 'photo',
        subtitle_style: 'bold',
        music: { track_id: 'trk_calm_01' },
      },
    });
    expect(videos).toHaveLength(3); // one a day for three days: the loop below checks something
    for (const v of videos) {
      expect(v).toMatchObject({
        format: 'horizontal',
        target_duration_seconds: 15,
        preset: 'photo',
        settings: { subtitle_style: 'bold' },
      });
      expect(v.music.track_id).toBe('trk_calm_01');
      expect(v.seconds).toBeLessThanOrEqual(20);
    }
  });
  it("a pinned caption and hashtags win over the director's", async () => {
    const { s, videos } = await madeOn({
      video_settings: { caption: 'Fresh from Main Street', hashtags: ['#coffee'] },
      notify_by_email: true,
    });
    expect(videos).toHaveLength(3);
    for (const v of videos) expect([v.caption, v.hashtags]).toEqual(['Fresh from Main Street', ['#coffee']]);
    expect(s.video_settings).toEqual({ caption: 'Fresh from Main Street', hashtags: ['#coffee'] });
  });
  it("reads direction and the workspace's marketing profile", async () => {
    await sim.api('PATCH', '/_sim/workspace', {
      body: { marketing_profile: { business_name: 'Pixel Bakery', topics: ['sourdough starters'], products: [] } },
    });
    const ws = (await sim.api('GET', '/_sim/workspace')).json;
    expect(ws.marketing_profile).toMatchObject({ business_name: 'Pixel Bakery', topics: ['sourdough starters'] });
    const { videos } = await madeOn({
      direction: 'Mention the Saturday tasting.',
      allowed_templates: ['talking_avatar'],
    });
    expect(videos[0].script).toMatch(/Pixel Bakery/);
    expect(videos[0].caption).toMatch(/sourdough starters/);
    expect(videos[0].source_text).toMatch(/Mention the Saturday tasting\./);
  });
  it('models the schedule on source_video_id: its template first, its format and length', async () => {
    const model = (
      await sim.api('POST', '/v1/videos', {
        body: {
          template: 'phone_mockup',
          preset: 'desk',
          source_text: 'Our app.',
          format: 'horizontal',
          target_duration_seconds: 20,
        },
      })
    ).json.data;
    const { videos } = await madeOn({ source_video_id: model.id });
    expect(videos[0]).toMatchObject({
      template: 'phone_mockup',
      preset: 'desk',
      format: 'horizontal',
      target_duration_seconds: 20,
    });
    expect(videos[1].template).not.toBe('phone_mockup');
  });
});

describe('planning, the notice, and a posting day', () => {
  it('plans notify_hours_before ahead and emails the owner with notify_by_email', async () => {
    const s = await create({ notify_hours_before: 3, notify_by_email: true, videos_per_day: 2 });
    expect(s.next_planning_at).toBe('2026-03-06T11:00:00.000Z');
    await setClock('2026-03-06T10:59:59Z');
    expect((await sim.api('GET', '/_sim/notifications')).json.data).toEqual([]);
    expect((await get(s.id)).next_plan).toBeNull();
    await sim.advance(1);
    const notes = (await sim.api('GET', '/_sim/notifications')).json.data;
    expect(notes).toHaveLength(1);
    const owner = (await sim.api('GET', '/_sim/workspace')).json.owner.email;
    expect(Object.keys(notes[0]).sort()).toEqual(['at', 'body', 'kind', 'schedule_id', 'subject', 'to']);
    expect(notes[0]).toMatchObject({
      kind: 'schedule_planned',
      to: owner,
      schedule_id: s.id,
      at: '2026-03-06T11:00:00.000Z',
    });
    expect(notes[0].subject).toBe('Espresso tips: 2 videos planned for 2026-03-06');
    const plan = (await get(s.id)).next_plan;
    expect(plan).toHaveLength(2);
    for (const p of plan) expect(notes[0].body).toContain(p.caption);
    // the videos made at post time are the ones planned
    await setClock('2026-03-06T14:00:00Z');
    const made = (await videosOf(s.id)).reverse();
    expect(made.map((v) => v.caption)).toEqual(plan.map((p: { caption: string }) => p.caption));
    expect((await get(s.id)).next_plan).toBeNull();
  });
  it('sends no notice without notify_by_email', async () => {
    await create();
    await setClock('2026-03-07T00:00:00Z');
    expect((await sim.api('GET', '/_sim/notifications')).json.data).toEqual([]);
  });
  it('each video is approved by the schedule, charged at approval, rendered, and posted to every connection once ready', async () => {
    const s = await create({
      connection_ids: [await connection('tiktok'), await connection('instagram')],
      allowed_templates: ['talking_avatar'],
    });
    await setClock('2026-03-06T14:00:00Z');
    const [v] = await videosOf(s.id);
    expect([v.status, v.billed_cents, v.posts]).toEqual(['queued', 0, []]);
    await setClock('2026-03-06T15:00:00Z');
    const done = (await videosOf(s.id))[0];
    expect(done.status).toBe('ready');
    expect(done.billed_cents).toBe(done.price_cents);
    expect(done.posts.map((p: { platform: string; status: string }) => `${p.platform}:${p.status}`).sort()).toEqual([
      'instagram:published',
      'tiktok:published',
    ]);
    const ledger = (await sim.api('GET', '/_sim/workspace')).json.ledger;
    expect(ledger.map((e: { reference_id: string }) => e.reference_id)).toEqual([done.id]);
  });
  it("a schedule's posts and a manual post of the same video carry the same caption: caption, then #hashtags (issue 23, point 11)", async () => {
    const tiktok = await connection('tiktok');
    const s = await create({
      connection_ids: [tiktok],
      allowed_templates: ['talking_avatar'],
      video_settings: { caption: 'Pinned cap', hashtags: ['coffee', '#espresso'] },
    });
    await setClock('2026-03-06T15:00:00Z');
    const [v] = await videosOf(s.id);
    expect(v.status).toBe('ready');
    const manual = await sim.api('POST', `/v1/videos/${v.id}/posts`, { body: { connection_ids: [tiktok] } });
    expect(manual.status).toBe(201);
    const posts = (await sim.api('GET', `/v1/videos/${v.id}/posts`)).json.data;
    expect(posts).toHaveLength(2);
    for (const p of posts) expect(p.caption).toBe('Pinned cap #coffee #espresso');
  });
});

describe('pause, resume and skip', () => {
  it('a paused schedule makes, charges and posts nothing; resuming continues from the next posting day, never catching up', async () => {
    const s = await create();
    const p = await patch(s.id, { status: 'paused' });
    expect(p.json.data).toMatchObject({ status: 'paused', next_run_at: null, next_planning_at: null });
    await setClock('2026-03-10T12:00:00Z');
    expect(await videosOf(s.id)).toHaveLength(0);
    expect((await sim.api('GET', '/_sim/workspace')).json.ledger).toEqual([]);
    const r = await patch(s.id, { status: 'active' });
    expect(r.json.data.next_run_at).toBe('2026-03-11T13:00:00.000Z');
    await setClock('2026-03-11T13:00:00Z');
    expect((await videosOf(s.id)).map((v) => v.created_at)).toEqual(['2026-03-11T13:00:00.000Z']);
  });
  it('skip {} skips the next posting day; nothing is made that day', async () => {
    const s = await create();
    const r = await sim.api('POST', `/v1/video-schedules/${s.id}/skip`, { body: {} });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ skipped_days: ['2026-03-06'], next_run_at: '2026-03-09T13:00:00.000Z' });
    await setClock('2026-03-09T12:00:00Z');
    expect(await videosOf(s.id)).toHaveLength(0);
    await setClock('2026-03-09T13:00:00Z');
    expect(await videosOf(s.id)).toHaveLength(1);
  });
  it('skip {day} skips a given future posting day; 400 for a day that is not one, or whose post time has passed', async () => {
    const s = await create();
    const r = await sim.api('POST', `/v1/video-schedules/${s.id}/skip`, { body: { day: '2026-03-11' } });
    expect(r.json.data).toMatchObject({ skipped_days: ['2026-03-11'], next_run_at: '2026-03-06T14:00:00.000Z' });
    const tuesday = await sim.api('POST', `/v1/video-schedules/${s.id}/skip`, { body: { day: '2026-03-10' } });
    expect([tuesday.status, Object.keys(tuesday.json.error.fields)]).toEqual([400, ['day']]);
    expect(tuesday.json.error.fields.day).toMatch(/not a posting day/);
    await setClock('2026-03-06T15:00:00Z');
    const past = await sim.api('POST', `/v1/video-schedules/${s.id}/skip`, { body: { day: '2026-03-06' } });
    expect(past.json.error.fields.day).toMatch(/has passed/);
    expect(
      (await sim.api('POST', `/v1/video-schedules/${s.id}/skip`, { body: { day: 'March 9' } })).json.error.fields.day,
    ).toMatch(/YYYY-MM-DD/);
    await setClock('2026-03-12T00:00:00Z');
    expect((await videosOf(s.id)).map((v) => v.created_at.slice(0, 10))).toEqual(['2026-03-09', '2026-03-06']);
  });
  it('skipping a planned day drops its plan: nothing is made, charged or posted', async () => {
    const s = await create({ notify_by_email: true });
    await setClock('2026-03-06T13:30:00Z');
    expect((await get(s.id)).next_plan).toHaveLength(1);
    const r = await sim.api('POST', `/v1/video-schedules/${s.id}/skip`, { body: {} });
    expect(r.json.data.next_plan).toBeNull();
    await setClock('2026-03-06T23:00:00Z');
    expect(await videosOf(s.id)).toHaveLength(0);
  });
});

describe('a video that cannot go out sets last_error; the schedule carries on', () => {
  it('a failed render (#fail-render in direction); the next day still posts once direction is fixed', async () => {
    const s = await create({ direction: 'Show the baristas #fail-render', allowed_templates: ['slideshow'] });
    await setClock('2026-03-06T15:00:00Z');
    const [v] = await videosOf(s.id);
    expect(v.status).toBe('failed');
    expect((await get(s.id)).last_error).toMatch(new RegExp(`Video ${v.id} failed: Rendering failed`));
    await patch(s.id, { direction: 'Show the baristas' });
    await setClock('2026-03-09T15:00:00Z');
    const next = (await videosOf(s.id))[0];
    expect(next.status).toBe('ready');
    expect(next.posts[0].status).toBe('published');
  });
  it('the workspace cannot pay: the video waits in script_review with the reason, nothing charged or posted', async () => {
    await sim.api('PATCH', '/_sim/workspace', {
      body: { wallet_usd: 0, plan: { video_credits_cents: 0 }, auto_recharge: false },
    });
    const s = await create();
    await setClock('2026-03-06T15:00:00Z');
    const [v] = await videosOf(s.id);
    expect([v.status, v.billed_cents, v.posts]).toEqual(['script_review', 0, []]);
    expect(v.error).toMatch(/cannot cover it/);
    expect((await get(s.id)).last_error).toContain(v.error);
    // the only movement: the wallet set to 0 through the control plane
    expect((await sim.api('GET', '/_sim/workspace')).json.ledger.map((e: { kind: string }) => e.kind)).toEqual([
      'wallet_set',
    ]);
  });
  it('a removed connection: the video is not posted there, the others are', async () => {
    const gone = (await sim.api('POST', '/_sim/social-connections', { body: { platform: 'x', name: 'Old Account' } }))
      .json.data.id;
    const s = await create({ connection_ids: [await connection('tiktok'), gone] });
    await sim.api('DELETE', `/_sim/social-connections/${gone}`);
    await setClock('2026-03-06T15:00:00Z');
    const [v] = await videosOf(s.id);
    expect(v.posts.map((p: { platform: string; status: string }) => `${p.platform}:${p.status}`)).toEqual([
      'tiktok:published',
    ]);
    expect((await get(s.id)).last_error).toMatch(/not posted to connection .* disconnected/);
  });
});

describe('changing and deleting', () => {
  it('PATCH changes any field; video_settings merges over the pinned ones, null unpins', async () => {
    const s = await create({ video_settings: { format: 'horizontal', subtitle_style: 'bold' } });
    const r = await patch(s.id, {
      name: 'Renamed',
      post_hour: 18,
      video_settings: { subtitle_style: null, target_duration_seconds: 45 },
    });
    expect(r.json.data).toMatchObject({
      name: 'Renamed',
      post_hour: 18,
      video_settings: { format: 'horizontal', target_duration_seconds: 45 },
    });
    expect(r.json.data.video_settings).not.toHaveProperty('subtitle_style');
    expect(r.json.data.next_run_at).toBe('2026-03-06T23:00:00.000Z');
    const bad = await patch(s.id, {
      days_of_week: [2, 2],
      time_zone: 'Nowhere/Land',
      video_settings: { preset: 'photo' },
    });
    expect(Object.keys(bad.json.error.fields).sort()).toEqual([
      'days_of_week[1]',
      'time_zone',
      'video_settings.preset',
    ]);
    expect((await get(s.id)).name).toBe('Renamed');
  });
  it('DELETE removes the schedule; its videos stay and GET /v1/videos lists them', async () => {
    const s = await create();
    await setClock('2026-03-06T14:00:00Z');
    const [v] = await videosOf(s.id);
    expect((await sim.api('DELETE', `/v1/video-schedules/${s.id}`)).status).toBe(204);
    expect((await sim.api('GET', `/v1/video-schedules/${s.id}`)).status).toBe(404);
    const all = (await sim.api('GET', '/v1/videos')).json.data;
    expect(all.map((x: { id: string }) => x.id)).toEqual([v.id]);
    await setClock('2026-03-12T00:00:00Z');
    expect((await sim.api('GET', '/v1/videos')).json.data).toHaveLength(1);
  });
  it('lists schedules newest first; the plan gate and scopes hold', async () => {
    const a = await create();
    await sim.advance(1);
    const b = await create({ status: 'paused' });
    expect((await sim.api('GET', '/v1/video-schedules')).json.data.map((x: { id: string }) => x.id)).toEqual([
      b.id,
      a.id,
    ]);
    expect(
      (await sim.api('GET', '/v1/video-schedules?status=paused')).json.data.map((x: { id: string }) => x.id),
    ).toEqual([b.id]);
    const read = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['videos:read'] } })).json.key;
    expect((await sim.api('GET', '/v1/video-schedules', { key: read })).status).toBe(200);
    expect((await sim.api('PATCH', `/v1/video-schedules/${a.id}`, { key: read, body: { name: 'x' } })).status).toBe(
      403,
    );
    await sim.api('PATCH', '/_sim/workspace', { body: { plan: { content: false } } });
    for (const [m, p] of [
      ['GET', '/v1/video-schedules'],
      ['POST', '/v1/video-schedules'],
      ['GET', `/v1/video-schedules/${a.id}`],
      ['PATCH', `/v1/video-schedules/${a.id}`],
      ['DELETE', `/v1/video-schedules/${a.id}`],
      ['POST', `/v1/video-schedules/${a.id}/skip`],
      ['GET', `/v1/video-schedules/${a.id}/videos`],
    ]) {
      const r = await sim.api(m, p, { body: m === 'GET' || m === 'DELETE' ? undefined : {} });
      expect(r.json.error.code, `${m} ${p}`).toBe('plan_not_included');
    }
  });
});

describe('many schedules over a month', () => {
  it("10 active schedules across 30 days make every posting day's videos", async () => {
    await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 10_000 } });
    for (let i = 0; i < 10; i++) await create({ name: `S${i}`, days_of_week: [1, 2, 3, 4, 5], post_hour: 8 + i });
    await sim.advance(30 * 86400);
    const all = (await sim.api('GET', '/v1/videos?limit=100&status=ready')).json;
    // weekdays from Thu 2026-03-05 (its post hours are still ahead at 12:00Z) to Fri 2026-04-03: 22 posting days
    let count = all.data.length;
    let cursor = all.meta.cursor;
    while (cursor) {
      const page = (await sim.api('GET', `/v1/videos?limit=100&status=ready&cursor=${cursor}`)).json;
      count += page.data.length;
      cursor = page.meta.cursor;
    }
    expect(count).toBe(220);
  });
});

describe('review fixes', () => {
  it('a posting day runs once, even when a change of hour or zone puts its post time ahead again', async () => {
    const s = await create();
    await setClock('2026-03-06T14:30:00Z');
    expect(await videosOf(s.id)).toHaveLength(1);
    const r = await patch(s.id, { post_hour: 18 });
    expect(r.json.data.next_run_at).toBe('2026-03-09T22:00:00.000Z');
    await setClock('2026-03-07T12:00:00Z');
    expect(await videosOf(s.id)).toHaveLength(1);
    expect((await sim.api('GET', '/_sim/workspace')).json.ledger).toHaveLength(1);
  });
  it('time zones are IANA names: abbreviations (BST, PST) are 400, not some other zone; the name is kept as written', async () => {
    for (const zone of ['BST', 'PST', 'IST', 'SystemV/EST5']) {
      const r = await sim.api('POST', '/v1/video-schedules', { body: await base({ time_zone: zone }) });
      expect(r.json.error?.fields.time_zone, zone).toMatch(/IANA/);
    }
    expect((await create({ time_zone: 'Asia/Kolkata' })).time_zone).toBe('Asia/Kolkata');
    expect((await create({ time_zone: 'america/new_york' })).time_zone).toBe('America/New_York');
    expect((await create({ time_zone: 'Asia/Kathmandu' })).next_run_at).toBe('2026-03-06T03:15:00.000Z');
  });
  it('a post_hour inside the hour a change skips posts at the hour after, as the zone does', async () => {
    const s = await create({ days_of_week: [7], post_hour: 2 });
    expect(s.next_run_at).toBe('2026-03-08T07:00:00.000Z'); // 02:00 does not exist on 2026-03-08 in New York: 03:00 EDT
  });
  it('the director walks through every template at one video a day, and alternates two allowed ones', async () => {
    const all = await create({ days_of_week: [1, 2, 3, 4, 5, 6, 7] });
    await setClock('2026-03-13T00:00:00Z');
    expect(new Set((await videosOf(all.id)).map((v) => v.template)).size).toBe(8);
    await sim
      .api('POST', '/_sim/reset', { body: { clock: 'manual', now: START } })
      .then((r) => (sim.key = r.json.api_key));
    const two = await create({
      days_of_week: [1, 2, 3, 4, 5, 6, 7],
      allowed_templates: ['slideshow', 'talking_avatar'],
    });
    await setClock('2026-03-09T00:00:00Z');
    expect((await videosOf(two.id)).reverse().map((v) => v.template)).toEqual([
      'slideshow',
      'talking_avatar',
      'slideshow',
      'talking_avatar',
    ]);
  });
  it('a schedule deleted or paused while its video is written: nobody approves it, nothing is charged; it waits for you', async () => {
    const s = await create();
    await setClock('2026-03-06T14:00:30Z');
    const [v] = await videosOf(s.id);
    await sim.api('DELETE', `/v1/video-schedules/${s.id}`);
    await setClock('2026-03-06T16:00:00Z');
    const held = (await sim.api('GET', `/v1/videos/${v.id}`)).json.data;
    expect([held.status, held.billed_cents]).toEqual(['script_review', 0]);
    expect(held.error).toMatch(/schedule was deleted before the script was approved/);
    const p = await create();
    await setClock('2026-03-09T13:00:30Z');
    const [w] = await videosOf(p.id);
    await patch(p.id, { status: 'paused' });
    await setClock('2026-03-09T16:00:00Z');
    expect((await sim.api('GET', `/v1/videos/${w.id}`)).json.data.status).toBe('script_review');
    expect((await get(p.id)).last_error).toMatch(/schedule was paused/);
    expect((await sim.api('GET', '/_sim/workspace')).json.ledger).toEqual([]);
  });
  it('skip lists a bad day and unknown fields in one 400; a blank name is 400', async () => {
    const s = await create();
    const r = await sim.api('POST', `/v1/video-schedules/${s.id}/skip`, { body: { day: '2026-03-10', x: 1 } });
    expect(Object.keys(r.json.error.fields).sort()).toEqual(['day', 'x']);
    expect(
      (await sim.api('POST', '/v1/video-schedules', { body: await base({ name: '   ' }) })).json.error.fields.name,
    ).toBe('must not be blank');
  });
  it('a pause and resume before the post time does not send the plan twice', async () => {
    const s = await create({ notify_by_email: true });
    await setClock('2026-03-06T13:30:00Z');
    await patch(s.id, { status: 'paused' });
    await patch(s.id, { status: 'active' });
    await setClock('2026-03-06T14:30:00Z');
    expect((await sim.api('GET', '/_sim/notifications')).json.data).toHaveLength(1);
    expect(await videosOf(s.id)).toHaveLength(1);
  });
});
