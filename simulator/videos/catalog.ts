// What the video service offers: the eight templates with their presets, the built-in music, the
// platforms a video is posted to, and the price model. Pure data and arithmetic: the routes
// validate against it, the pipeline prices with it, docs/spec-silent.md ("Videos and posts") and
// the API description quote it.

export const TEMPLATES = [
  'talking_avatar',
  'remotion',
  'freeform_ai',
  'meme_hook',
  'interview',
  'phone_mockup',
  'slideshow',
  'real_footage',
] as const;
export type Template = (typeof TEMPLATES)[number];

export const FORMATS = ['vertical', 'horizontal'] as const;

/** A video's states (spec Part 3). */
export const VIDEO_STATES = [
  'queued',
  'researching',
  'script_review',
  'rendering',
  'compositing',
  'ready',
  'failed',
] as const;
/** A post's states. */
export const POST_STATES = ['scheduled', 'published', 'canceled', 'failed'] as const;

// the choices of the creation body's settings (the CLI checks them before sending)
export const AVATAR_LAYOUTS = ['fullscreen', 'picture_in_picture', 'split', 'circle'] as const;
export const BACKGROUND_MODES = ['source', 'image', 'blur', 'solid', 'green_screen'] as const;
export const SUBTITLE_STYLES = ['classic', 'bold', 'karaoke', 'minimal', 'none'] as const;
export const VIDEO_MODELS = ['veo-3', 'kling-2.1', 'runway-gen-4', 'sora-2', 'hailuo-02'] as const;
export const TIKTOK_PRIVACY = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export type VideoFormat = (typeof FORMATS)[number];

export interface TemplateInfo {
  /** what it makes (docs/spec-silent.md, "Videos and posts"; API description) */
  what: string;
  /** the first is the default, used when none is sent */
  presets: readonly [string, ...string[]];
  /** a user may write the script (spoken word for word); the others write their own */
  ownScript: boolean;
  /** someone speaks: narration words are priced and set the length */
  voiced: (preset: string, hasScript: boolean) => boolean;
  /** price parts, in cents: the template's setup, and each second of finished video */
  baseCents: number;
  perSecondCents: number;
  /** simulated seconds of rendering per second of video */
  renderFactor: number;
}

const always = () => true;

export const TEMPLATE_INFO: Record<Template, TemplateInfo> = {
  talking_avatar: {
    what: 'a presenter over a site capture, photo, footage or demo',
    presets: ['site-capture', 'photo', 'footage', 'demo'],
    ownScript: true,
    voiced: always,
    baseCents: 150,
    perSecondCents: 4,
    renderFactor: 4,
  },
  remotion: {
    what: 'motion graphics with a narrator',
    presets: ['diagram', 'imessage', 'site-demo'],
    ownScript: false,
    voiced: always,
    baseCents: 60,
    perSecondCents: 2,
    renderFactor: 2,
  },
  freeform_ai: {
    what: 'one AI-generated clip per scene',
    presets: ['cinematic', 'animated', 'documentary'],
    ownScript: false,
    voiced: always,
    baseCents: 80,
    perSecondCents: 2,
    renderFactor: 2,
  },
  meme_hook: {
    what: 'a viral clip leading into a presenter',
    presets: ['reaction', 'top-caption'],
    ownScript: true,
    voiced: always,
    baseCents: 120,
    perSecondCents: 4,
    renderFactor: 4,
  },
  interview: {
    what: 'a 2, 3 or 4-way split screen conversation',
    presets: ['two-way', 'three-way', 'four-way'],
    ownScript: false,
    voiced: always,
    baseCents: 200,
    perSecondCents: 5,
    renderFactor: 4,
  },
  phone_mockup: {
    what: 'a hand holding a phone showing the source',
    presets: ['hand', 'desk'],
    ownScript: true,
    voiced: always,
    baseCents: 80,
    perSecondCents: 2,
    renderFactor: 2,
  },
  slideshow: {
    what: 'captioned slides (no narration)',
    presets: ['captioned', 'ken-burns'],
    ownScript: false,
    voiced: () => false,
    baseCents: 30,
    perSecondCents: 1,
    renderFactor: 1,
  },
  real_footage: {
    what: 'a stock clip with a caption and an optional narrator (preset narrated, or an own script)',
    presets: ['caption', 'narrated'],
    ownScript: true,
    voiced: (preset, hasScript) => hasScript || preset === 'narrated',
    baseCents: 40,
    perSecondCents: 1,
    renderFactor: 1,
  },
};

export const defaultPreset = (t: Template): string => TEMPLATE_INFO[t].presets[0];

/** How many speakers an interview preset has. */
export const INTERVIEW_SPEAKERS: Record<string, number> = { 'two-way': 2, 'three-way': 3, 'four-way': 4 };

export const DEFAULTS = {
  format: 'vertical' as VideoFormat,
  target_duration_seconds: 30,
  script_review: 'auto' as const,
};
export const DURATION = { min: 5, max: 600 };

/** Speaking pace: 150 words a minute. */
export const WORDS_PER_SECOND = 2.5;
/** A meme_hook opens with this many seconds of viral clip before the presenter speaks. */
export const HOOK_SECONDS = 3;

// ---- price model: provider cost (template base + length + narration + AI scenes) plus a markup ----

export const PRICE = {
  /** narration: one cent per two spoken words (rounded up) */
  wordsPerCent: 2,
  /** freeform_ai: each AI-generated scene clip */
  sceneCents: 30,
  /** the service's markup on the provider cost, in percent (rounded up to the cent) */
  markupPercent: 20,
};

export interface LineItem {
  label: string;
  cents: number;
}
export interface Price {
  price_cents: number;
  seconds: number;
  line_items: LineItem[];
}

/** What a video costs, from what it will contain: its length, spoken words and AI scenes. */
export function priceOf(
  template: Template,
  preset: string,
  o: { seconds: number; words: number; scenes: number; hasScript: boolean },
): Price {
  const t = TEMPLATE_INFO[template];
  const items: LineItem[] = [
    { label: `Template ${template} (${preset})`, cents: t.baseCents },
    { label: `Length: ${o.seconds} s at ${t.perSecondCents}¢ a second`, cents: o.seconds * t.perSecondCents },
  ];
  if (t.voiced(preset, o.hasScript) && o.words > 0)
    items.push({
      label: `Narration: ${o.words} words at 1¢ per ${PRICE.wordsPerCent} words`,
      cents: Math.ceil(o.words / PRICE.wordsPerCent),
    });
  if (template === 'freeform_ai')
    items.push({ label: `AI scenes: ${o.scenes} at ${PRICE.sceneCents}¢`, cents: o.scenes * PRICE.sceneCents });
  const provider = items.reduce((a, i) => a + i.cents, 0);
  items.push({
    label: `Service markup (${PRICE.markupPercent}% of the provider cost)`,
    cents: Math.ceil((provider * PRICE.markupPercent) / 100),
  });
  return { price_cents: items.reduce((a, i) => a + i.cents, 0), seconds: o.seconds, line_items: items };
}

export const wordCount = (text: string): number => (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;

/** Seconds of finished video a spoken script makes (at least 3). */
export function secondsOfScript(template: Template, words: number): number {
  return Math.max(3, Math.ceil(words / WORDS_PER_SECOND)) + (template === 'meme_hook' ? HOOK_SECONDS : 0);
}

/** Scenes a freeform_ai video of this length has: one per 6 seconds, 1 to 20. */
export const scenesFor = (seconds: number) => Math.min(20, Math.max(1, Math.ceil(seconds / 6)));
/** Slides a slideshow of this length has: one per 5 seconds, 2 to 20. */
export const slidesFor = (seconds: number) => Math.min(20, Math.max(2, Math.round(seconds / 5)));

// ---- the pipeline's stage durations (simulated seconds; docs/spec-silent.md, "Videos and posts",
// The pipeline) ----

export const STAGE_SECONDS = {
  queued: 30,
  /** reading the sources and writing the script: 90 s, plus 30 s to capture a source_url */
  researching: 90,
  researchingUrl: 30,
  /** rendering: 120 s, plus renderFactor seconds per second of video, plus 60 s per AI scene */
  rendering: 120,
  renderingPerScene: 60,
  /** compositing: 60 s plus one second per second of video */
  compositing: 60,
};

export function renderSeconds(template: Template, seconds: number, scenes: number): number {
  return (
    STAGE_SECONDS.rendering +
    TEMPLATE_INFO[template].renderFactor * seconds +
    (template === 'freeform_ai' ? scenes * STAGE_SECONDS.renderingPerScene : 0)
  );
}
export const compositeSeconds = (seconds: number) => STAGE_SECONDS.compositing + seconds;

// ---- music ----

export interface Track {
  track_id: string;
  library: string;
  title: string;
  mood: string;
  bpm: number;
  duration_seconds: number;
}

export const MUSIC_LIBRARY = 'builtin';
export const MUSIC: readonly Track[] = [
  { track_id: 'trk_upbeat_01', title: 'Bright Side', mood: 'upbeat', bpm: 120, duration_seconds: 150 },
  { track_id: 'trk_upbeat_02', title: 'Launch Day', mood: 'upbeat', bpm: 128, duration_seconds: 135 },
  { track_id: 'trk_calm_01', title: 'Morning Desk', mood: 'calm', bpm: 84, duration_seconds: 180 },
  { track_id: 'trk_calm_02', title: 'Slow Tide', mood: 'calm', bpm: 72, duration_seconds: 200 },
  { track_id: 'trk_dramatic_01', title: 'Big Reveal', mood: 'dramatic', bpm: 96, duration_seconds: 120 },
  { track_id: 'trk_corporate_01', title: 'Quarterly', mood: 'corporate', bpm: 110, duration_seconds: 160 },
  { track_id: 'trk_lofi_01', title: 'Study Loop', mood: 'lofi', bpm: 78, duration_seconds: 210 },
  { track_id: 'trk_funny_01', title: 'Banana Peel', mood: 'playful', bpm: 140, duration_seconds: 95 },
].map((t) => ({ ...t, library: MUSIC_LIBRARY }));

// ---- social platforms ----

export const PLATFORMS = ['tiktok', 'instagram', 'youtube', 'x', 'facebook', 'linkedin'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLATFORM_NAMES: Record<Platform, string> = {
  tiktok: 'TikTok',
  instagram: 'Instagram',
  youtube: 'YouTube',
  x: 'X',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
};
/** Longest caption each platform takes (characters). */
export const CAPTION_LIMITS: Record<Platform, number> = {
  tiktok: 2200,
  instagram: 2200,
  youtube: 5000,
  x: 280,
  facebook: 63206,
  linkedin: 3000,
};
/** Platforms that take a slideshow as a carousel of slides. */
export const CAROUSEL_PLATFORMS: readonly Platform[] = ['tiktok', 'instagram'];
/** A post made now is published this many simulated seconds later. */
export const PUBLISH_SECONDS = 30;
