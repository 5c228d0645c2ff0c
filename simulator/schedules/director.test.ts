// How the schedule's director picks each posting day's videos (docs/spec-silent.md,
// "Video schedules", Planning): templates, angles (ten) and topics (the profile's topics and
// products) rotate with the posting day and the video's place in it, so the videos of a day differ
// from each other and from the day before, and the same schedule and profile always plan the same;
// the trend is a fixed rotation of seven; allowed_templates pins the choice (empty: all eight), a
// model video's template is tried first with its preset, format and length unless pinned; a pinned
// caption or hashtags replace the director's. The director picks the template when
// allowed_templates is empty or has several (estimate_depends_on_template).
import { describe, expect, it } from 'vitest';
import type { Template } from '../videos/index.js';
import {
  ANGLES,
  candidates,
  DEFAULT_PROFILE,
  DIRECTOR_TEMPLATES,
  type PlanInput,
  picksTemplate,
  planDay,
  rotate,
  TRENDS,
} from './director.js';

/** The seeded espresso bar's plan for posting day `dayIndex`, with what the case changes. */
const plan = (dayIndex: number, count: number, p: Partial<PlanInput> = {}) =>
  planDay({
    dayIndex,
    day: '2025-01-13',
    count,
    profile: DEFAULT_PROFILE('Acme Espresso'),
    direction: null,
    allowed: [],
    pins: {},
    model: null,
    ...p,
  });
/** The video a schedule is modelled on (source_video_id). */
const model = {
  template: 'interview' as Template,
  preset: 'three-way',
  format: 'horizontal' as const,
  target_duration_seconds: 45,
};
const templatesOf = (videos: { template: Template }[]) => videos.map((v) => v.template);

describe('rotate: the k-th of count choices on day d among n, each day starting where the last stopped', () => {
  it.each([
    // day, count, k, n, choice
    [0, 1, 0, 8, 0],
    [1, 1, 0, 8, 1],
    [7, 1, 0, 8, 7],
    [8, 1, 0, 8, 0],
    [0, 2, 1, 8, 1],
    [1, 2, 0, 8, 2],
    [1, 2, 1, 8, 3],
    [4, 2, 0, 8, 0],
    [3, 3, 2, 5, 1],
    // whole rounds a day (count a multiple of n): one further on each day
    [0, 8, 0, 8, 0],
    [1, 8, 0, 8, 1],
    [1, 8, 7, 8, 0],
    [2, 8, 0, 8, 2],
    [1, 3, 0, 3, 1],
    [2, 3, 0, 3, 2],
    [1, 16, 0, 8, 1],
    [5, 1, 0, 1, 0],
  ])('day %i, %i a day, choice %i of %i: %i', (day, count, k, n, choice) => {
    expect(rotate(day, count, k, n)).toBe(choice);
  });

  // every number of videos a day (1 to 10) among 2 to 10 options, over three weeks of posting days
  const SHAPES = [2, 3, 5, 6, 8, 10].flatMap((n) =>
    Array.from({ length: 10 }, (_, i) => [i + 1, n] as [number, number]),
  );
  it.each(SHAPES)('%i a day among %i: distinct within a day, each choice moves from the day before', (count, n) => {
    for (let day = 0; day < 21; day++) {
      const today = Array.from({ length: count }, (_, k) => rotate(day, count, k, n));
      const tomorrow = Array.from({ length: count }, (_, k) => rotate(day + 1, count, k, n));
      expect(new Set(today).size).toBe(Math.min(count, n));
      for (let k = 0; k < count; k++) expect(tomorrow[k], `day ${day}, video ${k}`).not.toBe(today[k]);
    }
  });
});

describe('candidates: what the director may choose from, in order', () => {
  it.each([
    ['nothing pinned: all eight', [], null, DIRECTOR_TEMPLATES],
    ['allowed_templates as given', ['slideshow', 'remotion'], null, ['slideshow', 'remotion']],
    ['allowed_templates win over the model', ['slideshow'], model, ['slideshow']],
    [
      'the model video’s template first',
      [],
      model,
      [
        'interview',
        'talking_avatar',
        'slideshow',
        'remotion',
        'phone_mockup',
        'meme_hook',
        'real_footage',
        'freeform_ai',
      ],
    ],
  ] as const)('%s', (_what, allowed, m, expected) => {
    expect(candidates(allowed as readonly Template[], m)).toEqual(expected);
  });

  it.each([
    [[], true],
    [['slideshow'], false],
    [['slideshow', 'remotion'], true],
    [['talking_avatar', 'meme_hook', 'interview'], true],
  ] as const)('allowed %o: the director picks the template: %s', (allowed, picks) => {
    expect(picksTemplate(allowed as readonly Template[])).toBe(picks);
  });
});

describe('planDay: templates, angles, topics and trends rotate with the day and the video', () => {
  // biome-ignore format: a table, its columns aligned
  it.each([
    // day count  templates                                          angles
    // topics
    [0,   3,     ['talking_avatar', 'slideshow', 'remotion'],        ['Quick tip', 'Behind the scenes', 'Customer question'],    ['brewing better coffee at home', 'how we roast our beans', 'the new seasonal menu']],
    [1,   3,     ['phone_mockup', 'meme_hook', 'real_footage'],      ['Myth vs fact', 'Product spotlight', 'How-to in 30 seconds'], ['cold brew', 'the house espresso blend', 'oat milk lattes']],
    [2,   1,     ['remotion'],                                       ['A day in the life'],                                      ['the new seasonal menu']],
    // angles wrap round the ten; topics come round again after the six
    [3,   2,     ['interview', 'freeform_ai'],                       ['Story time', 'Quick tip'],                                ['brewing better coffee at home', 'how we roast our beans']],
  ] as const)('day %i, %i videos', (day, count, templates, angles, topics) => {
    const videos = plan(day, count);
    expect(templatesOf(videos)).toEqual(templates);
    expect(videos.map((v) => v.angle)).toEqual(angles);
    expect(videos.map((v) => v.topic)).toEqual(topics);
  });

  it.each(Array.from({ length: 15 }, (_, d) => d))('day %i: the trend of the day, one of seven in turn', (day) => {
    expect(plan(day, 2).every((v) => v.trend === TRENDS[day % 7])).toBe(true);
  });

  it.each([1, 2, 3, 8, 10])('%i a day: no video planned like the one in its place the day before', (count) => {
    for (let day = 0; day < 14; day++) {
      const [a, b] = [plan(day, count), plan(day + 1, count)];
      for (let k = 0; k < count; k++) {
        expect(b[k].template, `day ${day} video ${k}`).not.toBe(a[k].template);
        expect(b[k].angle, `day ${day} video ${k}`).not.toBe(a[k].angle);
      }
    }
  });

  it.each([1, 4, 10])('%i a day: the same schedule and profile always plan the same', (count) => {
    expect(plan(5, count)).toEqual(plan(5, count));
  });

  it('angles come from the ten, three further on each day', () => {
    expect(ANGLES).toHaveLength(10);
    expect(plan(4, 1)[0].angle).toBe(ANGLES[2]);
  });
});

describe('planDay: what is pinned, and the model video', () => {
  // biome-ignore format: a table, its columns aligned
  it.each([
    // what                                        input
    // first video's (template, preset, format, seconds)
    ['defaults: first preset, vertical, 30 s',     {},                                                          ['talking_avatar', 'site-capture', 'vertical', 30]],
    ['one allowed template',                       { allowed: ['slideshow'] },                                  ['slideshow', 'captioned', 'vertical', 30]],
    ['a pinned preset, format and length',         { allowed: ['remotion'], pins: { preset: 'imessage', format: 'horizontal', target_duration_seconds: 20 } }, ['remotion', 'imessage', 'horizontal', 20]],
    ['the model video first, as it was made',      { model },                                                   ['interview', 'three-way', 'horizontal', 45]],
    ['pins win over the model',                    { model, pins: { format: 'vertical', target_duration_seconds: 15 } }, ['interview', 'three-way', 'vertical', 15]],
  ] as const)('%s', (_what, input, [template, preset, format, seconds]) => {
    const [v] = plan(0, 1, input as Partial<PlanInput>);
    expect([v.template, v.preset, v.format, v.target_duration_seconds]).toEqual([template, preset, format, seconds]);
  });

  it('the other templates of a modelled schedule take their own default preset, and the model’s format and length', () => {
    const videos = plan(0, 2, { model });
    expect(videos[1]).toMatchObject({
      template: 'talking_avatar',
      preset: 'site-capture',
      format: 'horizontal',
      target_duration_seconds: 45,
    });
  });

  it.each([
    [
      'the director’s',
      {},
      'Quick tip: brewing better coffee at home',
      ['#acmeespresso', '#brewingbettercoffeeathome', '#quicktip'],
    ],
    ['pinned', { caption: 'Fresh today', hashtags: ['#coffee'] }, 'Fresh today', ['#coffee']],
  ] as const)('caption and hashtags: %s', (_what, pins, caption, hashtags) => {
    const [v] = plan(0, 1, { pins: pins as PlanInput['pins'] });
    expect([v.caption, v.hashtags]).toEqual([caption, hashtags]);
  });

  it('the brief carries the angle, topic, business, audience, tone, trend, direction and call to action', () => {
    const [v] = plan(0, 1, { direction: 'Mention the loyalty card' });
    expect(v.brief).toBe(
      'Quick tip: brewing better coffee at home at Acme Espresso. ' +
        'Acme Espresso is a neighbourhood espresso bar and roastery on Main Street. ' +
        'Made for busy commuters and people working from home, in a friendly tone, riding the trend of POV videos. ' +
        'Mention the loyalty card. Visit us on Main Street.',
    );
  });
});
