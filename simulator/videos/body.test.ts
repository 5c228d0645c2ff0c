// A creation (or quote) body, from what a client sends to its price (spec Part 4 Videos, docs/spec-silent.md,
// "Videos and posts": The creation body, Price model): the defaults (vertical, 30 s, the template's first
// preset), the settings that move the price (length, a preset that decides who speaks, an own
// script) and those that do not (format, presenter, voice, background, subtitles, music, the
// freeform_ai model, caption, hashtags, review, cap); and the checks that span fields, each naming
// its field in one 400. Slide settings are left to machine.test.ts, where docs/spec-silent.md
// ("Videos and posts", Price model) says what they do to an estimate.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors.js';
import { TEMPLATES, type Template } from './catalog.js';
import { parseRecipe, videoInput } from './body.js';
import { priceVideo } from './machine.js';
import type { SlideSettings } from './writer.js';

/** A script of `n` words. */
const long = (n: number) => Array.from({ length: n }, () => 'a').join(' ');
const SOURCE = { source_text: 'Our espresso bar opens Monday on Main Street.' };

/** The quote of a body, the way creation prices it: parsed, turned into a new video's recipe, priced. */
function quote(body: Record<string, unknown>) {
  const b = parseRecipe({ ...SOURCE, ...body });
  const n = videoInput(b, b.template);
  return {
    ...priceVideo(
      n.template,
      n.preset,
      n.target_duration_seconds,
      n.content,
      n.ownScript,
      (n.settings.slide_settings ?? {}) as SlideSettings,
    ),
    preset: n.preset,
    format: n.format,
    target: n.target_duration_seconds,
  };
}

/** The fields a 400 names, with their explanations. */
function refused(body: Record<string, unknown>): Record<string, string> {
  try {
    parseRecipe(body);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return e.fields ?? {};
    throw e;
  }
  throw new Error('the body was accepted');
}

describe('defaults: vertical, 30 seconds, the first preset', () => {
  it.each([
    ['talking_avatar', 'site-capture'],
    ['remotion', 'diagram'],
    ['freeform_ai', 'cinematic'],
    ['meme_hook', 'reaction'],
    ['interview', 'two-way'],
    ['phone_mockup', 'hand'],
    ['slideshow', 'captioned'],
    ['real_footage', 'caption'],
  ] as const)('%s: preset %s', (template, preset) => {
    expect(quote({ template })).toMatchObject({ preset, format: 'vertical', target: 30, seconds: 30 });
  });
});

// settings a body may send that do not move the price, by template
const SAME_PRICE: [Template, Record<string, unknown>][] = [
  ['talking_avatar', { format: 'horizontal' }],
  ['talking_avatar', { music: { track_id: 'trk_upbeat_01' } }],
  ['talking_avatar', { music: { library: 'builtin', track_id: 'trk_calm_02' } }],
  ['talking_avatar', { voice_id: 'voice_ava', avatar_id: 'avatar_ava', avatar_provider: 'heygen' }],
  ['talking_avatar', { replica_id: 'r_2f9c1a', avatar_layout: 'picture_in_picture' }],
  ['talking_avatar', { background_mode: 'image', background_image: 'https://acme.example.com/bg.png', b_roll: true }],
  ['talking_avatar', { subtitle_style: 'karaoke', subtitles: { enabled: false } }],
  ['talking_avatar', { caption: 'Opening Monday', hashtags: ['#coffee', 'espresso'] }],
  ['talking_avatar', { script_review: 'manual', max_price_cents: 1 }],
  ['talking_avatar', { source_url: 'https://acme.example.com/espresso' }],
  ['talking_avatar', { demo_focus: 'the booking flow', demo_login: { username: 'demo', password: 'x' } }],
  ['freeform_ai', { video_model: 'veo-3' }],
  ['freeform_ai', { video_model: 'sora-2' }],
  ['freeform_ai', { video_model: 'hailuo-02', format: 'horizontal' }],
  ['meme_hook', { clip: { query: 'surprised cat', duration_seconds: 3 } }],
  ['real_footage', { clip: { clip_id: 'clip_8812', start_seconds: 4 } }],
  ['remotion', { preset: 'imessage', music: { track_id: 'trk_lofi_01' } }],
  ['interview', { preset: 'four-way' }],
  ['slideshow', { preset: 'ken-burns', music: { track_id: 'trk_funny_01' } }],
  // settings a template does not use are kept and have no effect
  ['slideshow', { video_model: 'kling-2.1', voice_id: 'voice_ava' }],
  ['phone_mockup', { slide_settings: { slide_count: 10 } }],
];

describe('settings that do not move the price', () => {
  it.each(SAME_PRICE)('%s with %o', (template, extra) => {
    const bare = quote({ template });
    const p = quote({ template, ...extra });
    expect(p.price_cents).toBe(bare.price_cents);
    expect(p.line_items.map((i) => i.cents)).toEqual(bare.line_items.map((i) => i.cents));
  });
});

// biome-ignore format: a table, its columns aligned
const MOVES: [string, Record<string, unknown>, number, number, boolean][] = [
  // what                                 body
  // seconds price  estimated
  ['the length',                          { template: 'talking_avatar', target_duration_seconds: 60 },  60,     558,   true],
  ['a preset that narrates',              { template: 'real_footage', preset: 'narrated' },             30,     130,   true],
  ['an own script (the target ignored)',  { template: 'talking_avatar', script: long(4), target_duration_seconds: 300 }, 3, 197, false],
  ['an own script narrates real_footage', { template: 'real_footage', script: long(10) },                  4,      59,    false],
];

describe('settings that move the price', () => {
  it.each(MOVES)('%s', (_what, body, seconds, cents, estimated) => {
    expect(quote(body)).toMatchObject({ seconds, price_cents: cents, estimated });
  });
});

// biome-ignore format: a table, its columns aligned
const REFUSED: [string, Record<string, unknown>, string, RegExp][] = [
  // what                                    body
  // field               explanation
  ['no source',                              { template: 'remotion' },                                        'source_url',       /source_url or source_text is required/],
  ['no source (both named)',                 { template: 'remotion' },                                        'source_text',      /source_url or source_text is required/],
  ['a source text without words',            { template: 'remotion', source_text: '!!! ...' },               'source_text',      /must contain words/],
  ['a script for a template that writes its own', { ...SOURCE, template: 'remotion', script: 'Hello there.' }, 'script',        /remotion writes its own script/],
  ['a script for freeform_ai',               { ...SOURCE, template: 'freeform_ai', script: 'Hello there.' }, 'script',           /freeform_ai writes its own script/],
  ['a script for interview',                 { ...SOURCE, template: 'interview', script: 'Hello there.' },   'script',           /interview writes its own script/],
  ['a script for slideshow',                 { ...SOURCE, template: 'slideshow', script: 'Hello there.' },   'script',           /slideshow writes its own script/],
  ['a script without words',                 { ...SOURCE, template: 'talking_avatar', script: '— …' },       'script',           /must contain words to speak/],
  // 1,501 words are 601 s at 150 words a minute; meme_hook's hook makes 1,493 words 601 s
  ['a script of more than 600 s',            { ...SOURCE, template: 'talking_avatar', script: long(1501) },  'script',           /601-second video/],
  ['a meme_hook script of more than 600 s',  { ...SOURCE, template: 'meme_hook', script: long(1493) },       'script',           /601-second video/],
  ['a preset of another template',           { ...SOURCE, template: 'slideshow', preset: 'narrated' },       'preset',           /must be one of captioned, ken-burns for slideshow/],
  ['a track not in the music list',          { ...SOURCE, template: 'remotion', music: { track_id: 'trk_nope' } }, 'music.track_id', /not a track of the music list/],
  ['a track of another library',             { ...SOURCE, template: 'remotion', music: { library: 'stock', track_id: 'trk_calm_01' } }, 'music.library', /must be builtin/],
  ['a target below 5 s',                     { ...SOURCE, template: 'remotion', target_duration_seconds: 4 }, 'target_duration_seconds', /5/],
  ['a target above 600 s',                   { ...SOURCE, template: 'remotion', target_duration_seconds: 601 }, 'target_duration_seconds', /600/],
  ['an unknown template',                    { ...SOURCE, template: 'self_recorded' },                        'template',         /one of/],
];

describe('the checks of a body name their field in one 400', () => {
  it.each(REFUSED)('%s', (_what, body, field, why) => {
    expect(refused(body)[field]).toMatch(why);
  });

  it.each([
    ['talking_avatar', 1500],
    ['meme_hook', 1492],
  ] as const)('%s: a script of %i words (600 s) is accepted', (template, n) => {
    expect(quote({ template, script: long(n) }).seconds).toBe(600);
  });

  it('lists every problem of a body at once', () => {
    const fields = refused({ template: 'slideshow', script: 'Hi there.', preset: 'hand', target_duration_seconds: 1 });
    expect(Object.keys(fields).sort()).toEqual([
      'preset',
      'script',
      'source_text',
      'source_url',
      'target_duration_seconds',
    ]);
  });

  it.each(TEMPLATES)('%s: a minimal body is accepted', (template) => {
    expect(() => parseRecipe({ ...SOURCE, template })).not.toThrow();
  });
});
