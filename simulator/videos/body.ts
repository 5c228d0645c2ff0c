// What a client sends to make a video: the creation body (also the quote's; a video schedule's
// video_settings pin the same fields, less template and script) and the checks that span its
// fields, which come in the same 400 as the structural ones.
import { type Fields, validationError } from '../core/errors.js';
import type { NewVideo } from './machine.js';
import { arr, bool, int, isPlainObject, num, obj, oneOf, str, type Infer } from '../core/schema.js';
import { check, newFields, requiredOf } from '../core/check.js';
import {
  AVATAR_LAYOUTS,
  BACKGROUND_MODES,
  DEFAULTS,
  defaultPreset,
  DURATION,
  FORMATS,
  MUSIC,
  secondsOfScript,
  SUBTITLE_STYLES,
  TEMPLATE_INFO,
  TEMPLATES,
  VIDEO_MODELS,
  wordCount,
  type Template,
} from './catalog.js';

const url = (description: string) =>
  str({
    min: 1,
    max: 2048,
    pattern: /^https?:\/\/[^\s]+$/i,
    patternMessage: 'must be an http(s) URL',
    description,
    example: 'https://acme.example.com/espresso',
  });
const POSITIONS = ['top', 'middle', 'bottom'] as const;
/** Script templates: a user may write the script (the spec's list). */
export const OWN_SCRIPT = TEMPLATES.filter((t) => TEMPLATE_INFO[t].ownScript);
const WRITES_OWN = TEMPLATES.filter((t) => !TEMPLATE_INFO[t].ownScript);

/**
 * The creation body's fields (also what a video schedule's video_settings may pin, less template and
 * script), in the order the API description lists them, in groups.
 */
export const recipe = () => ({
  ...whatItIs(),
  ...sources(),
  ...scriptAndPrice(),
  ...look(),
  ...posting(),
  ...siteDemo(),
  ...namedSettings(),
});

/** What the video is: its template, the template's style, the shape and the length to aim for. */
const whatItIs = () => ({
  template: oneOf(TEMPLATES, `one of ${TEMPLATES.join(', ')}`),
  preset: str({
    min: 1,
    max: 50,
    description: "the template's style; omit for its default (see the template list in the API guide)",
    example: 'site-capture',
  }),
  format: oneOf(FORMATS, `vertical (9:16, the default) or horizontal (16:9)`),
  target_duration_seconds: num({
    min: DURATION.min,
    max: DURATION.max,
    description: `length to aim for, ${DURATION.min} to ${DURATION.max} seconds (default ${DEFAULTS.target_duration_seconds}); an own script sets the length instead`,
    example: 30,
  }),
});

/** What the video is about: a page, text, images and videos (at least one of the page and the text). */
const sources = () => ({
  source_url: url('a page the video is about'),
  source_text: str({
    min: 1,
    max: 20_000,
    description:
      'text the video is about (at least one of source_url and source_text). `#fail-render` in it fails the first render (simulator scenario)',
    example: 'Our new espresso bar opens Monday on Main Street.',
  }),
  source_image_urls: arr(url('an image already stored in the service'), { max: 20 }),
  source_video_urls: arr(url('a video already stored in the service'), { max: 20 }),
});

/** The script (an own one, or one written and reviewed) and the price it may reach. */
const scriptAndPrice = () => ({
  script: str({
    min: 1,
    max: 10_000,
    description: `own script, spoken word for word; only for ${OWN_SCRIPT.join(', ')} (400 for ${WRITES_OWN.join(', ')}). The video is charged at creation`,
    example: 'Our espresso bar opens Monday. Come say hi!',
  }),
  script_review: oneOf(
    ['auto', 'manual'],
    'without a script: approve the written script automatically (auto, the default) or wait in script_review for POST /approve (manual)',
  ),
  max_price_cents: int({
    min: 0,
    max: 10_000_000,
    description: 'price cap in cents: an own script above it is refused; a written one waits in script_review',
    example: 500,
  }),
});

/** How the video looks: the presenter, the background, cutaways and the subtitles' style. */
const look = () => ({
  avatar_provider: str({ min: 1, max: 50, description: 'presenter provider', example: 'heygen' }),
  replica_id: str({
    min: 1,
    max: 100,
    description: 'presenter replica (omit with avatar_id for the default presenter)',
    example: 'r_2f9c1a',
  }),
  avatar_id: str({ min: 1, max: 100, description: 'presenter avatar', example: 'avatar_ava' }),
  voice_id: str({ min: 1, max: 100, description: 'presenter or narrator voice', example: 'voice_ava' }),
  avatar_layout: oneOf(AVATAR_LAYOUTS, 'where the presenter sits'),
  background_mode: oneOf(BACKGROUND_MODES, 'what is behind the presenter'),
  background_image: url('background_mode image: the picture'),
  b_roll: bool('cut away to footage from the sources'),
  subtitle_style: oneOf(SUBTITLE_STYLES, 'how the subtitles look'),
});

/** What goes with the video when it is posted: the caption, hashtags and the music. */
const posting = () => ({
  caption: str({
    min: 1,
    max: 2200,
    description: 'posting text (the default caption of its posts)',
    example: 'Our espresso bar opens Monday',
  }),
  hashtags: arr(
    str({
      min: 1,
      max: 100,
      // one word: no space and no ASCII punctuation but _ (letters and digits of any script), a pattern every JSON Schema engine reads alike
      pattern: /^#?[^\s!-\/:-@\[-^`{-~]+$/,
      patternMessage: 'must be one word of letters, digits or _ (with or without #)',
    }),
    { max: 30, example: ['#coffee', '#mainstreet'] },
  ),
  music: obj(
    {
      library: str({ min: 1, max: 50, description: "the track's library (default builtin)", example: 'builtin' }),
      track_id: str({
        min: 1,
        max: 100,
        description: 'a track_id from GET /v1/videos/music',
        example: 'trk_upbeat_01',
      }),
    },
    { required: ['track_id'] },
  ),
});

/** A site demo: what to show, and how to sign in. */
const siteDemo = () => ({
  demo_focus: str({ min: 1, max: 500, description: 'site demo: what to show', example: 'the booking flow' }),
  demo_login: obj(
    {
      url: url('where to sign in'),
      username: str({ min: 1, max: 200, example: 'demo@acme.example.com' }),
      password: str({ min: 1, max: 200, description: 'never shown back (masked on the record)', example: 'hunter2' }),
    },
    { required: ['username', 'password'] },
  ),
});

/** Settings also accepted by name (spec Part 4): the subtitles, freeform_ai's model, a slideshow's slides, a clip. */
const namedSettings = () => ({
  subtitles: obj(
    {
      enabled: bool('burn subtitles in (default true)'),
      style: oneOf(SUBTITLE_STYLES),
      position: oneOf(POSITIONS),
      highlight_color: str({
        max: 7,
        pattern: /^#[0-9a-f]{6}$/i,
        patternMessage: 'must be a colour such as #ffcc00',
        example: '#ffcc00',
      }),
      max_words_per_line: int({ min: 1, max: 12, example: 4 }),
    },
    { description: 'subtitle settings' },
  ),
  video_model: oneOf(VIDEO_MODELS, 'freeform_ai: the model that makes each scene'),
  slide_settings: obj(
    {
      slide_count: int({ min: 2, max: 20, description: 'how many slides (default one per 5 seconds)', example: 6 }),
      seconds_per_slide: int({ min: 1, max: 30, example: 5 }),
      transition: oneOf(['cut', 'fade', 'slide', 'zoom']),
      text_position: oneOf(POSITIONS),
    },
    { description: 'slideshow: slide settings' },
  ),
  clip: obj(
    {
      query: str({ min: 1, max: 200, description: 'what stock or viral clip to find', example: 'surprised cat' }),
      clip_id: str({ min: 1, max: 100, example: 'clip_8812' }),
      start_seconds: num({ min: 0, max: 3600, example: 0 }),
      duration_seconds: num({ min: 1, max: 60, example: 3 }),
    },
    { description: 'real_footage and meme_hook: the clip' },
  ),
});

/** What a video is about: a page, a text, or both. */
const SOURCE = requiredOf('anyOf', ['source_url', 'source_text']);
const createBody = () => SOURCE.on(obj(recipe(), { required: ['template'] }));
let built: ReturnType<typeof createBody> | undefined;
/**
 * The creation (and quote) body's schema, built at its first use: about 60 fields of zod schemas
 * cost some 10 ms to build, and every command that loads the simulator (a schedule's director
 * reaches this module) would pay it, though only the video and schedule routes read it.
 */
export const CreateBody = () => (built ??= createBody());
export type CreateInput = Infer<ReturnType<typeof createBody>>;
/** Body fields kept on the record under `settings` (everything that is not the recipe's core). */
export const SETTING_KEYS = [
  'avatar_provider',
  'replica_id',
  'avatar_id',
  'voice_id',
  'avatar_layout',
  'background_mode',
  'background_image',
  'b_roll',
  'subtitle_style',
  'demo_focus',
  'demo_login',
  'subtitles',
  'video_model',
  'slide_settings',
  'clip',
] as const;

/**
 * The checks that span fields of a creation body. They run on the raw body whenever its template
 * reads, so that one 400 lists them with the structural problems (whose explanations come first).
 */
export function checkRecipe(raw: Record<string, unknown>, errs: Fields): void {
  const template = raw.template as Template;
  const add = (field: string, why: string) => (errs[field] ??= why);
  SOURCE.check(raw, errs);
  if (typeof raw.source_text === 'string' && wordCount(raw.source_text) === 0) add('source_text', 'must contain words');
  if (raw.script !== undefined && !TEMPLATE_INFO[template].ownScript)
    add('script', `${template} writes its own script; send script only with ${OWN_SCRIPT.join(', ')}`);
  else if (typeof raw.script === 'string') checkSpoken(template, 'script', raw.script, errs);
  if (typeof raw.preset === 'string' && !TEMPLATE_INFO[template].presets.includes(raw.preset))
    add('preset', `must be one of ${TEMPLATE_INFO[template].presets.join(', ')} for ${template}`);
  checkMusic(raw.music, errs);
}

/** A `music` value names a track of the music list, in its library. */
export function checkMusic(music: unknown, errs: Fields, at = 'music'): void {
  if (!isPlainObject(music) || typeof music.track_id !== 'string') return;
  const track = MUSIC.find((t) => t.track_id === music.track_id);
  if (!track) errs[`${at}.track_id`] ??= 'is not a track of the music list (GET /v1/videos/music)';
  else if (typeof music.library === 'string' && music.library !== track.library)
    errs[`${at}.library`] ??= `must be ${track.library} for ${track.track_id}`;
}

/** A script to be spoken has words, and makes a video no longer than the longest allowed. */
export function checkSpoken(template: Template, field: string, text: string, errs: Fields): void {
  const words = wordCount(text);
  if (words === 0) errs[field] ??= 'must contain words to speak';
  else if (secondsOfScript(template, words) > DURATION.max)
    errs[field] ??=
      `makes a ${secondsOfScript(template, words)}-second video at 150 words a minute; at most ${DURATION.max} seconds`;
}

/** Parses and checks a creation (or quote) body: every problem in one 400. */
export function parseRecipe(raw: unknown): CreateInput {
  const errs = newFields();
  const b = check(CreateBody(), raw, errs);
  if (isPlainObject(raw) && typeof raw.template === 'string' && (TEMPLATES as readonly string[]).includes(raw.template))
    checkRecipe(raw, errs);
  if (Object.keys(errs).length > 0 || !b) throw validationError(errs);
  return b;
}

/** What a creation body (or a schedule's pinned settings) says a video is made of, for newVideo(). */
export function videoInput(
  b: Omit<CreateInput, 'template'>,
  template: Template,
  scheduleId: string | null = null,
): NewVideo {
  const settings: Record<string, unknown> = {};
  for (const k of SETTING_KEYS) if (b[k] !== undefined) settings[k] = b[k];
  if (b.demo_login) settings.demo_login = { ...b.demo_login, password: '********' };
  const track = b.music ? (MUSIC.find((t) => t.track_id === b.music!.track_id) ?? null) : null;
  return {
    template,
    preset: b.preset ?? defaultPreset(template),
    format: b.format ?? DEFAULTS.format,
    target_duration_seconds: b.target_duration_seconds ?? DEFAULTS.target_duration_seconds,
    content: b.script === undefined ? null : { script: b.script, scenes: null, slides: null, interview: null },
    ownScript: b.script !== undefined,
    source_url: b.source_url ?? null,
    source_text: b.source_text ?? null,
    source_image_urls: b.source_image_urls ?? [],
    source_video_urls: b.source_video_urls ?? [],
    script_review: b.script_review ?? DEFAULTS.script_review,
    max_price_cents: b.max_price_cents ?? null,
    caption: b.caption ?? null,
    hashtags: b.hashtags ?? [],
    music: track ? { library: track.library, track_id: track.track_id, title: track.title } : null,
    settings,
    schedule_id: scheduleId,
  };
}
