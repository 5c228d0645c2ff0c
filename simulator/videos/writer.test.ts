// What research writes (docs/spec-silent.md, "Videos and posts", The writer): the same words for the same
// sources; a hook (the source text's first sentence, or what the linked page's name says), the
// source's own sentences, sentences on its most frequent words, and "Follow for more.", about
// target_duration_seconds × 2.5 words; freeform_ai one scene per 6 s (1 to 20), slideshow one slide
// per 5 s (2 to 20), interview a host and 1 to 3 others by preset; scenario markers such as
// #fail-render are not part of the script.
import { describe, expect, it } from 'vitest';
import { TEMPLATE_INFO, TEMPLATES, wordCount } from './catalog.js';
import { write } from './writer.js';

const SOURCE = {
  source_text:
    'Our espresso bar opens Monday on Main Street. We roast our own beans every morning. Come taste the difference. #fail-render',
  source_url: null,
};
const PAGE = { source_text: null, source_url: 'https://www.acme-coffee.example.com/cold-brew_guide.html' };

describe('how many scenes, slides and speakers', () => {
  it.each([
    // template, preset, seconds, scenes, slides (and their seconds in all), speakers
    ['freeform_ai', 'cinematic', 5, 1, null, null],
    ['freeform_ai', 'cinematic', 10, 2, null, null],
    ['freeform_ai', 'animated', 30, 5, null, null],
    ['freeform_ai', 'documentary', 60, 10, null, null],
    ['freeform_ai', 'cinematic', 120, 20, null, null],
    ['freeform_ai', 'cinematic', 600, 20, null, null],
    ['slideshow', 'captioned', 10, null, [2, 10], null],
    ['slideshow', 'captioned', 30, null, [6, 30], null],
    ['slideshow', 'ken-burns', 60, null, [12, 60], null],
    ['slideshow', 'captioned', 120, null, [20, 120], null],
    ['slideshow', 'captioned', 600, null, [20, 600], null],
    ['interview', 'two-way', 30, null, null, 2],
    ['interview', 'three-way', 30, null, null, 3],
    ['interview', 'four-way', 30, null, null, 4],
  ] as const)(
    '%s (%s), %i s: scenes %s, slides %o, speakers %s',
    (template, preset, seconds, scenes, slides, speakers) => {
      const w = write(template, preset, SOURCE, seconds);
      expect(w.scenes?.length ?? null).toBe(scenes);
      expect(w.slides ? [w.slides.length, w.slides.reduce((a, s) => a + s.seconds, 0)] : null).toEqual(slides);
      expect(w.interview?.speakers.length ?? null).toBe(speakers);
    },
  );

  it.each(['two-way', 'three-way', 'four-way'])('interview (%s): the host opens and closes', (preset) => {
    const parts = write('interview', preset, SOURCE, 30).interview!.parts;
    expect([parts[0].speaker, parts[parts.length - 1].speaker]).toEqual([0, 0]);
    expect(new Set(parts.map((p) => p.speaker)).size).toBeGreaterThan(1);
  });
});

// templates spoken from a narration (an interview's lines carry speaker names in its script)
const NARRATED = [
  ['talking_avatar', 'site-capture'],
  ['remotion', 'diagram'],
  ['meme_hook', 'reaction'],
  ['phone_mockup', 'hand'],
  ['real_footage', 'narrated'],
] as const;

describe('about target_duration_seconds × 2.5 words, from the hook to "Follow for more."', () => {
  const rows = NARRATED.flatMap(([t, p]) => [10, 30, 60, 120].map((s) => [t, p, s] as const));
  it.each(rows)('%s (%s), %i s', (template, preset, seconds) => {
    const script = write(template, preset, SOURCE, seconds).script;
    const words = wordCount(script);
    expect(words).toBeGreaterThanOrEqual(seconds * 2.5 - 2);
    expect(words).toBeLessThanOrEqual(seconds * 2.5 + 12);
    expect(script.startsWith('Stop scrolling. Our espresso bar opens Monday on Main Street.')).toBe(true);
    expect(script.endsWith('Follow for more.')).toBe(true);
  });

  it('a link alone: the hook says what the page’s name says', () => {
    expect(write('talking_avatar', 'photo', PAGE, 10).script).toMatch(
      /^Stop scrolling: here is what acme coffee example cold brew guide can do for you\. /,
    );
  });

  it('real_footage with its caption preset: the caption over the clip is the topic', () => {
    expect(write('real_footage', 'caption', SOURCE, 30).script).toBe('Our espresso bar opens Monday on Main Street.');
  });
});

const ALL = TEMPLATES.flatMap((t) => TEMPLATE_INFO[t].presets.map((p) => [t, p] as const));

describe('the same sources give the same words, without the scenario markers', () => {
  it.each(ALL)('%s (%s)', (template, preset) => {
    const w = write(template, preset, SOURCE, 30);
    expect(write(template, preset, { ...SOURCE }, 30)).toEqual(w);
    expect(JSON.stringify(w)).not.toContain('#fail');
  });
});
