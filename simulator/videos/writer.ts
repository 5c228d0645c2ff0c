// The research stage's writer: turns a video's sources into its script, scenes, slides or interview,
// deterministically (the same sources always give the same words), about the source (its topic,
// its own sentences and key words), and as long as target_duration_seconds asks at 150 words a
// minute. No randomness: two videos from one source get the same script, as a real writer given the
// same brief would come close to.
import { INTERVIEW_SPEAKERS, scenesFor, slidesFor, WORDS_PER_SECOND, wordCount, type Template } from './catalog.js';

export interface Scene {
  prompt: string;
  narration: string;
  seconds: number;
}
export interface Slide {
  title: string;
  text: string;
  seconds: number;
}
export interface Speaker {
  name: string;
  role: string;
}
export interface InterviewPart {
  speaker: number;
  text: string;
}
export interface Interview {
  speakers: Speaker[];
  parts: InterviewPart[];
}

export interface Written {
  script: string;
  scenes: Scene[] | null;
  slides: Slide[] | null;
  interview: Interview | null;
}

export interface Sources {
  source_text: string | null;
  source_url: string | null;
}

const STOP = new Set(
  (
    'a an the and or but if then so of to in on at by for with from as is are was were be been being it its this that these those ' +
    'you your we our they their he she his her i me my not no do does did have has had will would can could should may might must about into ' +
    'over than also just more most very much many such what which who whom when where why how all any each some other only own same too there here ' +
    // days, months and everyday verbs make poor subjects for "Remember one word: …"
    'monday tuesday wednesday thursday friday saturday sunday today tomorrow week weekend january february march april june july august ' +
    'september october november december open opens opened make makes made take takes come comes came want wants need needs know knows ' +
    'like likes used uses find finds give gives tell tells work works call calls look looks start starts help helps show shows keep keeps ' +
    'love loves every really great best better new'
  ).split(' '),
);

/** Scenario markers (#fail-render …) steer the simulation; they are not part of the story. */
const stripMarkers = (text: string) => text.replace(/#fail-[a-z]+/gi, ' ');

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

function sentencesOf(text: string): string[] {
  return stripMarkers(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map(clean)
    .filter((s) => wordCount(s) >= 3)
    .map((s) => (/[.!?]$/.test(s) ? s : `${s}.`));
}

function urlWords(url: string): string[] {
  try {
    const u = new URL(url);
    const host = u.hostname
      .replace(/^www\./, '')
      .split('.')
      .slice(0, -1)
      .join(' ');
    const path = decodeURIComponent(u.pathname)
      .split(/[/_\-.]+/)
      .filter((w) => /^[a-z][a-z0-9]*$/i.test(w) && !/^(html?|php|aspx?)$/i.test(w));
    return [...host.split(/[\s-]+/), ...path].filter(Boolean);
  } catch {
    return [];
  }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What the video is about: the source text's first sentence (up to 10 words), else the link's words. */
export function topicOf(src: Sources): string {
  const first = src.source_text ? sentencesOf(src.source_text)[0] : undefined;
  if (first)
    return first
      .replace(/[.!?]+$/, '')
      .split(' ')
      .slice(0, 10)
      .join(' ');
  const words = src.source_url ? urlWords(src.source_url) : [];
  return words.length ? words.join(' ') : 'our product';
}

/** The source's most frequent meaningful words, most frequent first (ties in order of appearance). */
export function keywordsOf(src: Sources, n = 5): string[] {
  const text =
    `${stripMarkers(src.source_text ?? '')} ${src.source_url ? urlWords(src.source_url).join(' ') : ''}`.toLowerCase();
  const counts = new Map<string, number>();
  for (const w of text.match(/[\p{L}][\p{L}\p{N}'-]+/gu) ?? [])
    if (w.length > 3 && !STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  // most frequent first; among equals the longer word (more likely the subject than a filler)
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)
    .slice(0, n)
    .map(([w]) => w);
}

/** Sentences about the source, as many as wanted: its own (from the `from`th), then ones built on its key words. */
function sentenceStream(src: Sources, topic: string, from = 0): () => string {
  const own = src.source_text ? sentencesOf(src.source_text).slice(from) : [];
  const kws = keywordsOf(src);
  const kw = (i: number) => (kws.length ? kws[i % kws.length] : topic);
  const built = [
    (i: number) => `Remember one word: ${kw(i)}.`,
    () => 'Here is why that matters to you.',
    () => 'Save this so you have it when you need it.',
    (i: number) => `Ask yourself what ${kw(i)} would change for you.`,
    () => 'Most people find out too late.',
    () => 'You can start today, and it takes minutes.',
    (i: number) => `It all comes back to ${kw(i)}.`,
    () => 'Share it with someone who needs to hear it.',
    () => 'Tell us what you think in the comments.',
    () => 'We would love to see you there.',
  ];
  let i = 0;
  return () => {
    const s = i < own.length ? own[i] : built[(i - own.length) % built.length](i - own.length);
    i++;
    return s;
  };
}

/** Where the body starts: after the first sentence when it opened the video. */
const afterFirst = (src: Sources) => (src.source_text && sentencesOf(src.source_text).length ? 1 : 0);

export const CALL_TO_ACTION = 'Follow for more.';

/** The opening line: the source's first sentence, or what the linked page offers. */
function hookOf(src: Sources, topic: string): string {
  const first = src.source_text ? sentencesOf(src.source_text)[0] : undefined;
  return first ? `Stop scrolling. ${first}` : `Stop scrolling: here is what ${topic} can do for you.`;
}

/**
 * About `words` words of whole sentences (a sentence over at most): a hook, sentences about the
 * source, and a call to action.
 */
export function writeNarration(src: Sources, words: number): string {
  const topic = topicOf(src);
  const hook = hookOf(src, topic);
  const next = sentenceStream(src, topic, afterFirst(src));
  const body: string[] = [];
  let count = wordCount(hook) + wordCount(CALL_TO_ACTION);
  for (let guard = 0; count < words - 2 && guard < 1000; guard++) {
    const s = next();
    body.push(s);
    count += wordCount(s);
  }
  return clean([hook, ...body, CALL_TO_ACTION].join(' '));
}

/** Splits text into n parts of nearly equal word counts, at sentence ends where there are enough sentences. */
function splitWords(text: string, n: number): string[] {
  const sentences = text.split(/(?<=[.!?])\s+/);
  if (sentences.length >= n) {
    const total = wordCount(text);
    const groups: string[][] = Array.from({ length: n }, () => []);
    let before = 0;
    sentences.forEach((s, i) => {
      const w = wordCount(s);
      // by the middle of the sentence, keeping the last n-i sentences for the last groups
      const g = Math.max(Math.min(Math.floor(((before + w / 2) / total) * n), n - 1), n - (sentences.length - i));
      groups[Math.min(g, n - 1)].push(s);
      before += w;
    });
    if (groups.every((g) => g.length > 0)) return groups.map((g) => g.join(' '));
  }
  const words = text.split(' ');
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(words.slice(Math.round((i * words.length) / n), Math.round(((i + 1) * words.length) / n)).join(' '));
  return out.filter(Boolean);
}

export const sceneSeconds = (narration: string) => Math.max(3, Math.ceil(wordCount(narration) / WORDS_PER_SECOND));

const SPEAKERS: Speaker[] = [
  { name: 'Alex', role: 'host' },
  { name: 'Sam', role: 'guest' },
  { name: 'Priya', role: 'expert' },
  { name: 'Jordan', role: 'customer' },
];

/** A slideshow's slide_settings that shape what is written. */
export interface SlideSettings {
  slide_count?: number;
  seconds_per_slide?: number;
}

/** How many slides a slideshow gets and how long each shows. */
function slideLayout(seconds: number, slide: SlideSettings) {
  const n = slide.slide_count ?? slidesFor(seconds);
  return { n, each: slide.seconds_per_slide ?? Math.max(1, Math.round(seconds / n)) };
}

/** A slideshow's length before its slides are written. */
export function slideshowSeconds(target: number, slide: SlideSettings): number {
  const { n, each } = slideLayout(target, slide);
  return n * each;
}

/** A text's first `count` words, without the punctuation that ended them: a scene's prompt, a slide's title. */
const firstWords = (text: string, count: number) =>
  text
    .split(' ')
    .slice(0, count)
    .join(' ')
    .replace(/[.!?,]+$/, '');

/**
 * Slide `i` of `n`: the topic opens, the call to action closes, and the sources' sentences
 * between are titled by their first words.
 */
function slideWords(i: number, n: number, topic: string, next: () => string): { title: string; text: string } {
  if (i === 0) return { title: 'Intro', text: cap(topic) };
  if (i === n - 1) return { title: 'Follow', text: CALL_TO_ACTION };
  const text = next();
  return { title: firstWords(text, 4), text };
}

/** The research stage's output for a template, `seconds` long. */
export function write(
  template: Template,
  preset: string,
  src: Sources,
  seconds: number,
  slide: SlideSettings = {},
): Written {
  const words = Math.round(seconds * WORDS_PER_SECOND);
  const topic = topicOf(src);
  switch (template) {
    case 'freeform_ai': {
      const n = scenesFor(seconds);
      const scenes = splitWords(writeNarration(src, words), n).map((narration) => ({
        prompt: `${preset} shot: ${firstWords(narration, 8)}`,
        narration,
        seconds: sceneSeconds(narration),
      }));
      return { script: scenes.map((s) => s.narration).join('\n\n'), scenes, slides: null, interview: null };
    }
    case 'slideshow': {
      const { n, each } = slideLayout(seconds, slide);
      const next = sentenceStream(src, topic, afterFirst(src));
      const slides = Array.from({ length: n }, (_, i) => ({ ...slideWords(i, n, topic, next), seconds: each }));
      return { script: scriptOfSlides(slides), scenes: null, slides, interview: null };
    }
    case 'interview': {
      const speakers = SPEAKERS.slice(0, INTERVIEW_SPEAKERS[preset] ?? 2);
      const lines = writeNarration(src, words).split(/(?<=[.!?])\s+/);
      // the host opens and closes; the others take the sentences between in turn
      const parts: InterviewPart[] = lines.map((text, i) => ({
        speaker: i === 0 || i === lines.length - 1 ? 0 : 1 + ((i - 1) % (speakers.length - 1)),
        text,
      }));
      return interviewWritten({ speakers, parts });
    }
    case 'real_footage':
      // without a narrator the "script" is the caption laid over the clip
      return {
        script: preset === 'narrated' ? writeNarration(src, words) : `${cap(topic)}.`,
        scenes: null,
        slides: null,
        interview: null,
      };
    default:
      return { script: writeNarration(src, words), scenes: null, slides: null, interview: null };
  }
}

/** A slideshow's text: what its slides show, one a line. */
export const scriptOfSlides = (slides: Slide[]) => slides.map((s) => s.text).join('\n');
export const scriptOfScenes = (scenes: Scene[]) => scenes.map((s) => s.narration).join('\n\n');
export const interviewWritten = (interview: Interview): Written => ({
  script: interview.parts
    .map((p) => `${interview.speakers[p.speaker]?.name ?? `Speaker ${p.speaker + 1}`}: ${p.text}`)
    .join('\n'),
  scenes: null,
  slides: null,
  interview,
});
