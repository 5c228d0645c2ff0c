// A video's recipe on the command line, shared by `videos quote` and `videos create`: one flag per
// body field (kebab case of the API's names, short ones for the sources), or the whole body from
// --file (flags given as well override its fields). Enumerations are checked here against the
// simulator's catalog, which is pure data (no zod, no simulator at start-up).
import type { Command } from 'commander';
import { choiceArg, collect, intArg, readFileArg } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import {
  AVATAR_LAYOUTS,
  BACKGROUND_MODES,
  DURATION,
  FORMATS,
  SUBTITLE_STYLES,
  TEMPLATES,
  VIDEO_MODELS,
} from '../../simulator/vocabulary.js';

export interface RecipeOptions {
  file?: string;
  template?: string;
  preset?: string;
  format?: string;
  duration?: number;
  url?: string;
  text?: string;
  imageUrl?: string[];
  videoUrl?: string[];
  script?: string;
  scriptFile?: string;
  review?: string;
  maxPriceCents?: number;
  caption?: string;
  hashtag?: string[];
  music?: string;
  avatarProvider?: string;
  replicaId?: string;
  avatarId?: string;
  voiceId?: string;
  avatarLayout?: string;
  backgroundMode?: string;
  backgroundImage?: string;
  bRoll?: boolean;
  subtitleStyle?: string;
  demoFocus?: string;
  videoModel?: string;
}

export type Body = Record<string, unknown>;

function durationArg(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < DURATION.min || n > DURATION.max)
    throw usage(`--duration must be a number of seconds from ${DURATION.min} to ${DURATION.max}, got "${v}".`);
  return n;
}

/** The recipe's flags on a command (quote and create take the same, so a quote prices exactly what create makes). */
export function withRecipe(cmd: Command): Command {
  return cmd
    .option(
      '--template <name>',
      `what kind of video (this or "template" in --file is required): ${TEMPLATES.join(', ')}`,
      choiceArg('--template', TEMPLATES),
    )
    .option('--preset <name>', "the template's style (default: its first; `vmv videos create --help` lists them)")
    .option('--format <format>', 'vertical (9:16, the default) or horizontal (16:9)', choiceArg('--format', FORMATS))
    .option(
      '--duration <seconds>',
      `length to aim for, ${DURATION.min}-${DURATION.max} s (default 30); an own script sets the length instead`,
      durationArg,
    )
    .option('--url <url>', 'a page the video is about (this or --text is required)')
    .option('--text <text>', 'text the video is about (this or --url is required)')
    .option('--image-url <url>', 'an image to use (repeat for more)', collect)
    .option('--video-url <url>', 'a video clip to use (repeat for more)', collect)
    .option(
      '--script <text>',
      'own script, spoken word for word (talking_avatar, meme_hook, phone_mockup, real_footage): charged at creation',
    )
    .option('--script-file <file>', 'read the own script from a file (- for standard input)')
    .option(
      '--review <mode>',
      'without a script: auto (the default; charged once the script is written) or manual (wait for `vmv videos approve`)',
      choiceArg('--review', ['auto', 'manual']),
    )
    .option(
      '--max-price-cents <n>',
      'price cap in cents: an own script above it is refused; a written one waits for approval',
      intArg('--max-price-cents', 0, 10_000_000),
    )
    .option('--caption <text>', 'posting text (the default caption of its posts)')
    .option('--hashtag <tag>', 'a hashtag for its posts (repeat for more)', collect)
    .option('--music <track-id>', 'background music: a track id from `vmv videos music`')
    .option('--avatar-provider <name>', 'presenter provider')
    .option('--avatar-id <id>', 'presenter avatar')
    .option('--replica-id <id>', 'presenter replica')
    .option('--voice-id <id>', 'presenter or narrator voice')
    .option(
      '--avatar-layout <layout>',
      `where the presenter sits: ${AVATAR_LAYOUTS.join(', ')}`,
      choiceArg('--avatar-layout', AVATAR_LAYOUTS),
    )
    .option(
      '--background-mode <mode>',
      `behind the presenter: ${BACKGROUND_MODES.join(', ')}`,
      choiceArg('--background-mode', BACKGROUND_MODES),
    )
    .option('--background-image <url>', 'with --background-mode image: the picture')
    .option('--b-roll', 'cut away to footage from the sources')
    .option(
      '--subtitle-style <style>',
      `how the subtitles look: ${SUBTITLE_STYLES.join(', ')}`,
      choiceArg('--subtitle-style', SUBTITLE_STYLES),
    )
    .option('--demo-focus <text>', 'site demo: what to show')
    .option(
      '--video-model <model>',
      `freeform_ai: the model that makes each scene (${VIDEO_MODELS.join(', ')})`,
      choiceArg('--video-model', VIDEO_MODELS),
    )
    .option(
      '--file <file>',
      'the whole request body as JSON (- for standard input); flags given as well override its fields',
    );
}

/** A JSON object from a file named by a flag (or stdin for `-`). */
export async function readJsonObject(ctx: Context, flag: string, file: string): Promise<Body> {
  const text = await readFileArg(ctx.io, flag, file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw usage(`${flag} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw usage(`${flag} must hold a JSON object.`);
  return value as Body;
}

/** An own script from --script or --script-file (its trailing newline dropped); undefined when neither is given. */
export async function scriptOf(
  ctx: Context,
  o: { script?: string; scriptFile?: string; file?: string },
): Promise<string | undefined> {
  if (o.script !== undefined && o.scriptFile !== undefined)
    throw usage('Give the script with one of --script or --script-file.');
  if (o.scriptFile === '-' && o.file === '-') throw usage('--file and --script-file cannot both read standard input.');
  if (o.scriptFile === undefined) return o.script;
  return (await readFileArg(ctx.io, '--script-file', o.scriptFile)).replace(/\s+$/, '');
}

/** Fields set by flags over the fields of --file (a flag not given leaves the file's field). */
export function overlay(base: Body, flags: Body): Body {
  const body: Body = { ...base };
  for (const [k, v] of Object.entries(flags)) if (v !== undefined) body[k] = v;
  return body;
}

/** The body of POST /v1/videos (and /quote) from --file and the flags; checks what can be checked here. */
export async function recipeBody(ctx: Context, o: RecipeOptions): Promise<Body> {
  if (o.scriptFile === '-' && o.file === '-') throw usage('--file and --script-file cannot both read standard input.');
  if (o.script !== undefined && o.scriptFile !== undefined)
    throw usage('Give the script with one of --script or --script-file.');
  const file = o.file === undefined ? {} : await readJsonObject(ctx, '--file', o.file);
  const body = overlay(file, {
    template: o.template,
    preset: o.preset,
    format: o.format,
    target_duration_seconds: o.duration,
    source_url: o.url,
    source_text: o.text,
    source_image_urls: o.imageUrl,
    source_video_urls: o.videoUrl,
    script: await scriptOf(ctx, o),
    script_review: o.review,
    max_price_cents: o.maxPriceCents,
    caption: o.caption,
    hashtags: o.hashtag,
    music: o.music === undefined ? undefined : { track_id: o.music },
    avatar_provider: o.avatarProvider,
    avatar_id: o.avatarId,
    replica_id: o.replicaId,
    voice_id: o.voiceId,
    avatar_layout: o.avatarLayout,
    background_mode: o.backgroundMode,
    background_image: o.backgroundImage,
    b_roll: o.bRoll,
    subtitle_style: o.subtitleStyle,
    demo_focus: o.demoFocus,
    video_model: o.videoModel,
  });
  if (body.template === undefined)
    throw usage(`--template is required (or "template" in --file): one of ${TEMPLATES.join(', ')}.`);
  if (body.source_url === undefined && body.source_text === undefined)
    throw usage('Say what the video is about: --url URL or --text TEXT (source_url or source_text in --file).');
  return body;
}

/** Whether making this video charges without a further step: an own script at once, an automatic review once the script is written. */
export const charges = (body: Body) => body.script !== undefined || (body.script_review ?? 'auto') === 'auto';
