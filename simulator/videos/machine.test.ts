// What a video costs before and after its script exists (priceVideo; spec Part 4 pricing rule 4,
// docs/spec-silent.md, "Videos and posts", Price model): without content the quote is an estimate
// (estimated true) whose length is target_duration_seconds and whose narration is that length at
// 2.5 words a second; with an own script, or once research has written the script, scenes, slides
// or lines, the price is exact (estimated false) and the content sets the length. A preset moves
// the price only where it decides who speaks (real_footage narrated). Expected values are worked
// out by hand from those rules.
import { describe, expect, it } from 'vitest';
import { TEMPLATE_INFO, TEMPLATES, type Template } from './catalog.js';
import { type Content, priceVideo } from './machine.js';
import { type Interview, type Scene, type Slide, write } from './writer.js';

/** `n` distinct short words. */
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const script = (text: string): Content => ({ script: text, scenes: null, slides: null, interview: null });
const scenes = (list: Scene[]): Content => ({ script: null, scenes: list, slides: null, interview: null });
const slides = (list: Slide[]): Content => ({ script: null, scenes: null, slides: list, interview: null });
const interview = (i: Interview): Content => ({ script: null, scenes: null, slides: null, interview: i });
const scene = (n: number, seconds: number): Scene => ({ prompt: 'a shot', narration: words(n), seconds });
const slide = (seconds: number): Slide => ({ title: 'A slide', text: 'Three words here', seconds });

// biome-ignore format: a table, its columns aligned
const ESTIMATES: [Template, string, number, number][] = [
  // template        preset          target  price (cents)
  // talking_avatar: 150¢ + 4¢/s + narration; 30 s is docs/spec-silent.md's 308¢ + 62¢ = 370¢
  ['talking_avatar', 'site-capture', 10,     244],  // 150 + 40 + 13 (25 words) = 203, + 41
  ['talking_avatar', 'site-capture', 30,     370],
  ['talking_avatar', 'site-capture', 60,     558],  // 150 + 240 + 75 = 465, + 93
  ['talking_avatar', 'site-capture', 600,    3960], // 150 + 2400 + 750 = 3300, + 660
  ['remotion',       'diagram',      10,     112],  // 60 + 20 + 13 = 93, + 19
  ['remotion',       'diagram',      30,     190],  // 60 + 60 + 38 = 158, + 32
  ['remotion',       'diagram',      60,     306],  // 60 + 120 + 75 = 255, + 51
  ['remotion',       'diagram',      600,    2412], // 60 + 1200 + 750 = 2010, + 402
  // freeform_ai adds 30¢ a scene, one per 6 s (1 to 20)
  ['freeform_ai',    'cinematic',    10,     208],  // 80 + 20 + 13 + 60 (2) = 173, + 35
  ['freeform_ai',    'cinematic',    30,     394],  // 80 + 60 + 38 + 150 (5) = 328, + 66
  ['freeform_ai',    'cinematic',    60,     690],  // 80 + 120 + 75 + 300 (10) = 575, + 115
  ['freeform_ai',    'cinematic',    600,    3156], // 80 + 1200 + 750 + 600 (20) = 2630, + 526
  // an estimate's length is the target: meme_hook's 3 s hook comes with a script
  ['meme_hook',      'reaction',     10,     208],  // 120 + 40 + 13 = 173, + 35
  ['meme_hook',      'reaction',     30,     334],  // 120 + 120 + 38 = 278, + 56
  ['meme_hook',      'reaction',     60,     522],  // 120 + 240 + 75 = 435, + 87
  ['meme_hook',      'reaction',     600,    3924], // 120 + 2400 + 750 = 3270, + 654
  ['interview',      'two-way',      10,     316],  // 200 + 50 + 13 = 263, + 53
  ['interview',      'two-way',      30,     466],  // 200 + 150 + 38 = 388, + 78
  ['interview',      'two-way',      60,     690],  // 200 + 300 + 75 = 575, + 115
  ['interview',      'two-way',      600,    4740], // 200 + 3000 + 750 = 3950, + 790
  ['phone_mockup',   'hand',         10,     136],  // 80 + 20 + 13 = 113, + 23
  ['phone_mockup',   'hand',         30,     214],  // 80 + 60 + 38 = 178, + 36
  ['phone_mockup',   'hand',         60,     330],  // 80 + 120 + 75 = 275, + 55
  ['phone_mockup',   'hand',         600,    2436], // 80 + 1200 + 750 = 2030, + 406
  // no narration: slideshow, and real_footage's caption preset
  ['slideshow',      'captioned',    10,     48],   // 30 + 10 = 40, + 8
  ['slideshow',      'captioned',    30,     72],   // 30 + 30 = 60, + 12
  ['slideshow',      'captioned',    60,     108],  // 30 + 60 = 90, + 18
  ['slideshow',      'captioned',    600,    756],  // 30 + 600 = 630, + 126
  ['real_footage',   'caption',      10,     60],   // 40 + 10 = 50, + 10
  ['real_footage',   'caption',      30,     84],   // 40 + 30 = 70, + 14
  ['real_footage',   'caption',      60,     120],  // 40 + 60 = 100, + 20
  ['real_footage',   'caption',      600,    768],  // 40 + 600 = 640, + 128
  ['real_footage',   'narrated',     10,     76],   // 40 + 10 + 13 = 63, + 13
  ['real_footage',   'narrated',     30,     130],  // 40 + 30 + 38 = 108, + 22
  ['real_footage',   'narrated',     60,     210],  // 40 + 60 + 75 = 175, + 35
  ['real_footage',   'narrated',     600,    1668], // 40 + 600 + 750 = 1390, + 278
];

describe('an estimate without content: the length is target_duration_seconds, estimated true', () => {
  it.each(ESTIMATES)('%s (%s), %i s: %i¢', (template, preset, target, cents) => {
    const p = priceVideo(template, preset, target, null, false);
    expect(p).toMatchObject({ price_cents: cents, seconds: target, estimated: true });
    expect(p.line_items.reduce((a, i) => a + i.cents, 0)).toBe(cents);
  });

  it.each([12.4, 29.5, 5.01])('a target of %f s is quoted in whole seconds (spec: seconds is an integer)', (target) => {
    for (const t of TEMPLATES) {
      const p = priceVideo(t, TEMPLATE_INFO[t].presets[0], target, null, false);
      expect(Number.isInteger(p.seconds), t).toBe(true);
    }
  });
});

/** Every template and preset: does the preset price like the template's default? */
const PRESETS = TEMPLATES.flatMap((t) =>
  TEMPLATE_INFO[t].presets.map((p) => [t, p, !(t === 'real_footage' && p === 'narrated')] as const),
);

describe('a preset moves the estimate only where it decides who speaks', () => {
  it.each(PRESETS)('%s (%s): same price as the default preset: %s', (template, preset, same) => {
    const def = priceVideo(template, TEMPLATE_INFO[template].presets[0], 30, null, false);
    const p = priceVideo(template, preset, 30, null, false);
    expect(p.price_cents === def.price_cents).toBe(same);
    expect(p.line_items[0].label).toBe(`Template ${template} (${preset})`);
  });
});

const FOUR = script('Our espresso bar opens.');
const TWO_SCENES = scenes([scene(10, 4), scene(5, 3)]);
const LINES = interview({
  speakers: [{ name: 'Alex', role: 'host' }],
  parts: [
    { speaker: 0, text: words(12) },
    { speaker: 0, text: words(8) },
  ],
});

// biome-ignore format: a table, its columns aligned
const EXACT: [string, Template, string, Content, boolean, number, number][] = [
  // what                               template          preset       content            own    s    price
  // an own script sets the length (the target, 600 s here, is ignored): at least 3 s
  ['own script, 4 words',               'talking_avatar', 'photo',     FOUR,              true,  3,   197], // 150 + 12 + 2 = 164, + 33
  ['own script, 75 words',              'talking_avatar', 'photo',     script(words(75)), true,  30,  370],
  ['own script plus the 3 s hook',      'meme_hook',      'reaction',  FOUR,              true,  6,   176], // 120 + 24 + 2 = 146, + 30
  ['own script, 25 words',              'phone_mockup',   'desk',      script(words(25)), true,  10,  136], // 80 + 20 + 13 = 113, + 23
  // real_footage with an own script is narrated whatever its preset
  ['own script on the caption preset',  'real_footage',   'caption',   script(words(10)), true,  4,   59],  // 40 + 4 + 5 = 49, + 10
  ['own script on the narrated preset', 'real_footage',   'narrated',  script(words(10)), true,  4,   59],
  // written by research: a caption over the clip is not spoken, the length stays the target
  ['written caption',                   'real_footage',   'caption',   script('Fresh.'),  false, 600, 768], // 40 + 600 = 640, + 128
  ['written narration, 25 words',       'remotion',       'site-demo', script(words(25)), false, 10,  112], // 60 + 20 + 13 = 93, + 19
  // scenes add up their own seconds and words; 30¢ each
  ['two scenes, 15 words in 7 s',       'freeform_ai',    'animated',  TWO_SCENES,        false, 7,   195], // 80 + 14 + 8 + 60 = 162, + 33
  // slides add up their seconds; their words are shown, not spoken
  ['three slides of 5 s',               'slideshow',      'ken-burns', slides([slide(5), slide(5), slide(5)]),  false, 15, 54], // 30 + 15 = 45, + 9
  ['slides of 4, 6 and 10 s',           'slideshow',      'captioned', slides([slide(4), slide(6), slide(10)]), false, 20, 60], // 30 + 20 = 50, + 10
  // an interview's lines are spoken: their words set the length
  ['interview lines, 20 words',         'interview',      'three-way', LINES,             false, 8,   300], // 200 + 40 + 10 = 250, + 50
];

describe('with content the price is exact (estimated false) and the content sets the length', () => {
  it.each(EXACT)('%s: %s (%s)', (_what, template, preset, content, own, seconds, cents) => {
    const p = priceVideo(template, preset, 600, content, own);
    expect(p).toMatchObject({ price_cents: cents, seconds, estimated: false });
    expect(p.line_items.reduce((a, i) => a + i.cents, 0)).toBe(cents);
  });
});

const SOURCES = {
  source_text: 'Our espresso bar opens Monday on Main Street. We roast our own beans.',
  source_url: null,
};
const WRITTEN = TEMPLATES.flatMap((t) =>
  TEMPLATE_INFO[t].presets.flatMap((p) => [10, 30, 90].map((seconds) => [t, p, seconds] as const)),
);

describe('the script research writes is priced exactly, its line items summing to the price', () => {
  it.each(WRITTEN)('%s (%s), %i s', (template, preset, seconds) => {
    const w = write(template, preset, SOURCES, seconds);
    const p = priceVideo(template, preset, seconds, w, false);
    expect(p.estimated).toBe(false);
    expect(Number.isInteger(p.seconds)).toBe(true);
    expect(p.line_items.reduce((a, i) => a + i.cents, 0)).toBe(p.price_cents);
  });
});

// A slideshow (no words) is estimated at the length of the slides the writer would make, as
// docs/spec-silent.md ("Videos and posts", Price model) says: one slide per 5 s (2 to 20), each
// round(target / n) seconds, or slide_settings. So its estimate is the price it will have, also
// when the target does not divide evenly.
// biome-ignore format: a table, its columns aligned
const SLIDESHOW_ESTIMATES: [number, Record<string, number>, number, number][] = [
  // target  slide_settings                              seconds  price
  [33,       {},                                         35,      78],  // 7 × 5 s: 30 + 35 = 65, + 13
  [7,        {},                                         8,       46],  // 2 × 4 s: 30 + 8 = 38, + 8
  [101,      {},                                         100,     156], // 20 × 5 s: 30 + 100 = 130, + 26
  [30,       { slide_count: 4, seconds_per_slide: 10 }, 40,      84],  // 4 × 10 s: 30 + 40 = 70, + 14
];

describe('a slideshow estimate is priced on the slides it would have (docs/spec-silent.md)', () => {
  it.each(SLIDESHOW_ESTIMATES)('%i s, slide settings %o: %i s, %i¢', (target, slide, seconds, cents) => {
    const p = priceVideo('slideshow', 'captioned', target, null, false, slide);
    expect(p).toMatchObject({ price_cents: cents, seconds, estimated: true });
  });
});
