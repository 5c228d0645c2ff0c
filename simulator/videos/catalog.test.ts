// The video price model (docs/spec-silent.md, "Videos and posts", Price model; spec Part 4 pricing
// rules): the provider cost is the template's base, plus each second of length at the template's
// rate, plus narration at 1¢ per 2 spoken words rounded up (voiced templates only), plus 30¢ per AI
// scene (freeform_ai); the service adds 20% of the provider cost, rounded up; the line items sum to
// the price. Also the length rules the price reads: words at 2.5 a second (at least 3 s, plus the 3
// s hook of meme_hook), one freeform_ai scene per 6 s (1 to 20), one slide per 5 s (2 to 20). Every
// expected value below is worked out by hand from those rules, not read off the code.
import { describe, expect, it } from 'vitest';
import {
  defaultPreset,
  type Price,
  priceOf,
  scenesFor,
  secondsOfScript,
  slidesFor,
  TEMPLATE_INFO,
  TEMPLATES,
  type Template,
  wordCount,
} from './catalog.js';

/** The price's line items by kind (the label up to its details), to compare with a row. */
const kind = (label: string) => /^(Template|Length|Narration|AI scenes|Service markup)/.exec(label)?.[1] ?? label;
const parts = (p: Price) => Object.fromEntries(p.line_items.map((i) => [kind(i.label), i.cents]));

const sum = (p: Price) => p.line_items.reduce((a, i) => a + i.cents, 0);

describe('each template has its base and per-second rate (docs/spec-silent.md price table)', () => {
  it.each([
    ['talking_avatar', 150, 4],
    ['remotion', 60, 2],
    ['freeform_ai', 80, 2],
    ['meme_hook', 120, 4],
    ['interview', 200, 5],
    ['phone_mockup', 80, 2],
    ['slideshow', 30, 1],
    ['real_footage', 40, 1],
  ] as const)('%s: %i¢ base, %i¢ a second', (template, base, perSecond) => {
    expect(TEMPLATE_INFO[template]).toMatchObject({ baseCents: base, perSecondCents: perSecond });
    const p = priceOf(template, defaultPreset(template), { seconds: 1, words: 0, scenes: 0, hasScript: false });
    expect(parts(p)).toMatchObject({ Template: base, Length: perSecond });
  });

  it('covers the eight templates of the spec', () => {
    expect([...TEMPLATES].sort()).toEqual(
      [
        'talking_avatar',
        'remotion',
        'freeform_ai',
        'meme_hook',
        'interview',
        'phone_mockup',
        'slideshow',
        'real_footage',
      ].sort(),
    );
  });
});

// One video a row: what it contains (seconds, spoken words, AI scenes, an own script), then the
// line items in cents (0: no such line) and the price.
type Row = [Template, string, number, number, number, boolean, number, number, number, number, number, number];
// biome-ignore format: a table, its columns aligned
const PRICES: Row[] = [
  // template        preset          s     words scenes own    base  length narr. scenes markup price
  // docs/spec-silent.md's worked example: 150 + 120 + 38 (75 words) = 308¢, plus 62¢ markup = 370¢
  ['talking_avatar', 'site-capture', 30,   75,   0,     false, 150,  120,   38,   0,     62,    370],
  ['remotion',       'diagram',      30,   75,   0,     false, 60,   60,    38,   0,     32,    190],
  ['freeform_ai',    'cinematic',    30,   75,   5,     false, 80,   60,    38,   150,   66,    394],
  ['meme_hook',      'reaction',     33,   75,   0,     true,  120,  132,   38,   0,     58,    348],
  ['interview',      'four-way',     30,   75,   0,     false, 200,  150,   38,   0,     78,    466],
  ['phone_mockup',   'desk',         30,   75,   0,     false, 80,   60,    38,   0,     36,    214],
  // a slideshow is never voiced, whatever words its slides show
  ['slideshow',      'captioned',    30,   40,   0,     false, 30,   30,    0,    0,     12,    72],
  // real_footage speaks only with preset narrated or an own script
  ['real_footage',   'caption',      30,   3,    0,     false, 40,   30,    0,    0,     14,    84],
  ['real_footage',   'narrated',     30,   75,   0,     false, 40,   30,    38,   0,     22,    130],
  ['real_footage',   'caption',      4,    10,   0,     true,  40,   4,     5,    0,     10,    59],
  // 11 words are 6¢ (rounded up); 176¢ of provider cost, 35.2¢ of markup: 36¢
  ['talking_avatar', 'photo',        5,    11,   0,     true,  150,  20,    6,    0,     36,    212],
  // the longest video: 600 s, 1,500 words, and freeform_ai's 20 scenes at most
  ['talking_avatar', 'site-capture', 600,  1500, 0,     true,  150,  2400,  750,  0,     660,   3960],
  ['freeform_ai',    'documentary',  600,  1500, 20,    false, 80,   1200,  750,  600,   526,   3156],
  // no words at all: no narration line, even on a voiced template
  ['remotion',       'imessage',     10,   0,    0,     false, 60,   20,    0,    0,     16,    96],
  // a provider cost the markup divides exactly: 200¢, 40¢
  ['phone_mockup',   'hand',         40,   80,   0,     true,  80,   80,    40,   0,     40,    240],
];

const measureOf = ([, , seconds, words, scenes, hasScript]: Row) => ({ seconds, words, scenes, hasScript });
/** The line items a row expects (a 0¢ narration or scenes line is not listed). */
function expectedParts([, , , , , , base, length, narration, scenes, markup]: Row): Record<string, number> {
  const out: Record<string, number> = { Template: base, Length: length };
  if (narration) out.Narration = narration;
  if (scenes) out['AI scenes'] = scenes;
  return { ...out, 'Service markup': markup };
}

describe('priceOf: base + length + narration + AI scenes, plus 20% markup rounded up', () => {
  it.each(PRICES)('%s (%s), %i s, %i words, %i scenes, own script %s', (...row) => {
    const p = priceOf(row[0], row[1], measureOf(row));
    expect(parts(p)).toEqual(expectedParts(row));
    expect(p.price_cents).toBe(row[11]);
    expect(p.seconds).toBe(row[2]);
  });

  it.each(PRICES)('%s (%s), %i s: the line items sum to the price', (...row) => {
    const p = priceOf(row[0], row[1], measureOf(row));
    expect(sum(p)).toBe(p.price_cents);
  });

  it.each(PRICES)('%s (%s), %i s: the markup is 20%% of the rest, rounded up', (...row) => {
    const p = priceOf(row[0], row[1], measureOf(row));
    const markup = p.line_items[p.line_items.length - 1];
    expect(markup.label).toBe('Service markup (20% of the provider cost)');
    expect(markup.cents).toBe(Math.ceil((p.price_cents - markup.cents) * 0.2));
  });

  it('names the template and its preset, the length and rate, the words and the scenes', () => {
    const p = priceOf('freeform_ai', 'animated', { seconds: 12, words: 30, scenes: 2, hasScript: false });
    expect(p.line_items.map((i) => i.label)).toEqual([
      'Template freeform_ai (animated)',
      'Length: 12 s at 2¢ a second',
      'Narration: 30 words at 1¢ per 2 words',
      'AI scenes: 2 at 30¢',
      'Service markup (20% of the provider cost)',
    ]);
  });
});

describe('who speaks: narration is priced on voiced templates only', () => {
  it.each([
    ['talking_avatar', 'site-capture', false, true],
    ['remotion', 'diagram', false, true],
    ['freeform_ai', 'cinematic', false, true],
    ['meme_hook', 'reaction', false, true],
    ['interview', 'two-way', false, true],
    ['phone_mockup', 'hand', false, true],
    ['slideshow', 'captioned', false, false],
    ['slideshow', 'ken-burns', true, false],
    ['real_footage', 'caption', false, false],
    ['real_footage', 'caption', true, true],
    ['real_footage', 'narrated', false, true],
  ] as const)('%s (%s), own script %s: voiced %s', (template, preset, hasScript, voiced) => {
    expect(TEMPLATE_INFO[template].voiced(preset, hasScript)).toBe(voiced);
  });
});

describe('secondsOfScript: words at 2.5 a second, at least 3 s, plus 3 s for the meme_hook hook', () => {
  it.each([
    ['talking_avatar', 1, 3],
    ['talking_avatar', 7, 3],
    ['talking_avatar', 8, 4],
    ['talking_avatar', 10, 4],
    ['talking_avatar', 11, 5],
    ['talking_avatar', 75, 30],
    ['talking_avatar', 1500, 600],
    ['phone_mockup', 25, 10],
    ['real_footage', 3, 3],
    ['interview', 76, 31],
    ['meme_hook', 1, 6],
    ['meme_hook', 75, 33],
    ['meme_hook', 1493, 601],
  ] as const)('%s, %i words: %i s', (template, words, seconds) => {
    expect(secondsOfScript(template, words)).toBe(seconds);
  });
});

describe('scenesFor: one freeform_ai scene per 6 s, 1 to 20', () => {
  it.each([
    [1, 1],
    [5, 1],
    [6, 1],
    [7, 2],
    [30, 5],
    [60, 10],
    [120, 20],
    [121, 20],
    [600, 20],
  ])('%i s: %i scenes', (seconds, scenes) => expect(scenesFor(seconds)).toBe(scenes));
});

describe('slidesFor: one slide per 5 s, 2 to 20', () => {
  it.each([
    [5, 2],
    [10, 2],
    [15, 3],
    [30, 6],
    [100, 20],
    [600, 20],
  ])('%i s: %i slides', (seconds, slides) => expect(slidesFor(seconds)).toBe(slides));
});

describe('wordCount: what counts as a spoken word', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['Hello', 1],
    ['Stop scrolling. Our espresso bar opens Monday!', 7],
    ["don't we're it's", 3],
    ['state-of-the-art', 1],
    ['Open 7 days, 24/7', 5],
    ['café naïve Zürich', 3],
    ['— — !!', 0],
  ])('%j: %i', (text, n) => expect(wordCount(text)).toBe(n));
});
