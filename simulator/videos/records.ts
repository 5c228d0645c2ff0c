// The video records the API returns: videos, quotes, posts, social connections and music tracks.
// One definition each: the API description, the contract tests, the presenters' types and the
// store's types (model.ts) all come from these.
import * as z from 'zod/mini';
import {
  absent,
  arr,
  doc,
  freeObject,
  named,
  nullable,
  oneOf,
  record,
  timestamp,
  uuid,
  type Infer,
} from '../core/schema.js';
import { FORMATS, PLATFORMS, POST_STATES, TEMPLATES, VIDEO_STATES } from './catalog.js';
import type { Stored } from '../core/world.js';
import type { Interview, Scene, Slide } from './writer.js';

export type VideoState = (typeof VIDEO_STATES)[number];
/** The stages a failure can happen in, and a retry resumes from. */
export const FAILABLE_STAGES = ['researching', 'rendering', 'compositing'] as const;
export type FailableStage = (typeof FAILABLE_STAGES)[number];

export type PostState = (typeof POST_STATES)[number];

const text = (d?: string | { description?: string; example?: unknown }) => doc(z.string(), d);
const cents = (description: string, example = 370) => doc(z.int(), { description, example });

export const LineItemSchema = named(
  'VideoLineItem',
  () =>
    record({
      label: text({ example: 'Template talking_avatar (site-capture)' }),
      cents: cents('this part of the price, in cents', 150),
    }),
  "One part of a video's price; the parts always sum to price_cents.",
);

export const SceneSchema = named(
  'VideoScene',
  () =>
    record({
      prompt: text({ description: 'what the AI clip shows', example: 'cinematic shot: a barista pouring latte art' }),
      narration: text({
        description: 'what is said over it',
        example: 'Here is what you need to know about our new espresso bar.',
      }),
      seconds: doc(z.int(), {
        description: "the scene's length: its narration at 150 words a minute, at least 3 s",
        example: 5,
      }),
    }),
  'A freeform_ai scene: one AI clip.',
);

export const SlideSchema = named(
  'VideoSlide',
  () =>
    record({
      title: text({ example: 'Intro' }),
      text: text({ description: 'the caption shown on the slide', example: 'Our new espresso bar opens Monday.' }),
      seconds: doc(z.int(), { description: 'how long the slide shows', example: 5 }),
    }),
  'A slideshow slide.',
);

export const InterviewSchema = named(
  'VideoInterview',
  () =>
    record({
      speakers: doc(
        z.array(record({ name: text({ example: 'Alex' }), role: text({ example: 'host' }) })),
        '2 to 4 people on a split screen',
      ),
      parts: doc(
        z.array(
          record({
            speaker: doc(z.int(), { description: 'index into speakers', example: 0 }),
            text: text({ example: 'Here is what you need to know about our new espresso bar.' }),
          }),
        ),
        'who says what, in order',
      ),
    }),
  "An interview's speakers and lines.",
);

const usd = () => text({ description: 'the price in dollars, formatted', example: '3.70' });

export const VideoQuoteSchema = named(
  'VideoQuote',
  () =>
    record({
      price_cents: cents('what the video costs (exact with an own script; an estimate without one)'),
      price_usd: usd(),
      estimated: doc(z.boolean(), 'true without an own script: the price is estimated from target_duration_seconds'),
      seconds: doc(z.int(), { description: 'length of the finished video', example: 30 }),
      line_items: arr(LineItemSchema),
      template: oneOf(TEMPLATES),
      preset: text({ example: 'site-capture' }),
    }),
  'What a video would cost; making nothing, free.',
);
export type VideoQuoteOut = Infer<typeof VideoQuoteSchema>;

export const PostSchema = named(
  'Post',
  () =>
    record({
      id: uuid(),
      video_id: uuid(),
      connection_id: uuid('the social connection posted to'),
      platform: oneOf(PLATFORMS),
      status: oneOf(
        POST_STATES,
        '`scheduled` until published; `canceled` by DELETE /v1/posts/{id}; `failed` with error',
      ),
      caption: doc(nullable(z.string()), {
        description: 'the text posted with the video (null: none)',
        example: 'Our espresso bar opens Monday #coffee',
      }),
      media_type: oneOf(['video', 'carousel'], '`carousel` sends a slideshow as slides'),
      settings: freeObject("the platform's own settings sent with the post"),
      scheduled_for: doc(nullable(timestamp()), 'when it publishes; null when posted now'),
      published_at: nullable(timestamp()),
      permalink: doc(nullable(z.string()), {
        description: 'the post on the platform, once published',
        example: 'https://www.tiktok.com/@acme-sandbox/video/7301234567890123456',
      }),
      error: doc(nullable(z.string()), 'why it failed'),
      created_at: timestamp(),
      updated_at: timestamp(),
    }),
  "A video's post to one social account.",
);
export type PostOut = Infer<typeof PostSchema>;

export const SocialConnectionSchema = named(
  'SocialConnection',
  () =>
    record({
      id: uuid('use it in connection_ids'),
      platform: oneOf(PLATFORMS),
      name: text({ example: 'Acme Sandbox on TikTok' }),
      handle: text({ example: '@acme-sandbox' }),
      created_at: timestamp(),
    }),
  'A connected social account.',
);
export type SocialConnectionOut = Infer<typeof SocialConnectionSchema>;

export const MusicTrackSchema = named(
  'MusicTrack',
  () =>
    record({
      track_id: text({ description: 'use it as music.track_id', example: 'trk_upbeat_01' }),
      library: text({ description: 'use it as music.library', example: 'builtin' }),
      title: text({ example: 'Bright Side' }),
      mood: text({ example: 'upbeat' }),
      bpm: doc(z.int(), { example: 120 }),
      duration_seconds: doc(z.int(), { example: 150 }),
    }),
  'A built-in royalty-free track.',
);
export type MusicTrackOut = Infer<typeof MusicTrackSchema>;

export const VideoSchema = named(
  'Video',
  () =>
    record({
      id: uuid(),
      status: oneOf(
        VIDEO_STATES,
        'queued → researching → (script_review) → rendering → compositing → ready; failed with error',
      ),
      template: oneOf(TEMPLATES),
      preset: text({ description: "the template's style (its default when none was sent)", example: 'site-capture' }),
      format: oneOf(FORMATS),
      target_duration_seconds: doc(z.number(), { example: 30 }),
      seconds: doc(z.int(), {
        description: 'length of the finished video: from the script once written, else target_duration_seconds',
        example: 30,
      }),
      script: doc(
        nullable(z.string()),
        'the spoken words (own or written); null until written. For freeform_ai, slideshow and interview, their scenes, slides or lines as text',
      ),
      scenes: doc(nullable(z.array(SceneSchema)), 'freeform_ai only'),
      slides: doc(nullable(z.array(SlideSchema)), 'slideshow only'),
      interview: doc(nullable(InterviewSchema), 'interview only'),
      source_url: nullable(z.string()),
      source_text: nullable(z.string()),
      source_image_urls: z.array(z.string()),
      source_video_urls: z.array(z.string()),
      script_review: oneOf(['auto', 'manual']),
      max_price_cents: doc(nullable(z.int()), 'the price cap, if any'),
      price_cents: cents('the price: an estimate until the script exists, then exact; what was charged once released'),
      price_usd: usd(),
      estimated: doc(z.boolean(), 'true while the price is estimated (no script yet)'),
      line_items: arr(LineItemSchema),
      billed_cents: cents('what was charged (once, at release); 0 before', 0),
      paid_from: doc(
        nullable(record({ credits_cents: z.int(), wallet_cents: z.int() })),
        'how the charge was paid: plan video credits first, then the wallet',
      ),
      video_url: doc(absent(z.string()), {
        description: 'signed link to the MP4, needing no API key and not expiring; set when ready, absent before',
        example: 'http://127.0.0.1:4010/v1/media/videos/3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90/video.mp4?sig=Xk3…',
      }),
      thumbnail_url: doc(absent(z.string()), 'signed link to the PNG thumbnail; set when ready, absent before'),
      error: doc(absent(z.string()), 'why it failed, or why an approval is held; absent when there is no such reason'),
      failed_stage: doc(
        nullable(oneOf(['researching', 'rendering', 'compositing'])),
        'where it failed: retry resumes there',
      ),
      caption: doc(absent(z.string()), 'the posting text; absent when none was given'),
      hashtags: z.array(z.string()),
      music: nullable(record({ library: z.string(), track_id: z.string(), title: z.string() })),
      settings: freeObject(
        'the presenter, background, subtitle, demo and named settings as sent (demo_login.password masked)',
      ),
      schedule_id: doc(nullable(uuid()), 'the video schedule that made it, if any'),
      posts: arr(PostSchema),
      status_changed_at: timestamp(),
      released_at: doc(nullable(timestamp()), 'when it was released to render (and charged)'),
      ready_at: nullable(timestamp()),
      created_at: timestamp(),
      updated_at: timestamp(),
    }),
  'A video: its recipe, script, price and state; video_url and thumbnail_url once ready.',
);
export type VideoOut = Infer<typeof VideoSchema>;

// ---- as stored ----

/** A video as stored: the API's record without what is derived when presented (links, posts, dollars). */
export type VideoRecord = Omit<
  VideoOut,
  'video_url' | 'thumbnail_url' | 'posts' | 'price_usd' | 'scenes' | 'slides' | 'interview' | 'error' | 'caption'
> &
  Stored & {
    error: string | null;
    caption: string | null;
    scenes: Scene[] | null;
    slides: Slide[] | null;
    interview: Interview | null;
    /** scenario markers (#fail-render …) that have failed their stage once already */
    failures_spent: string[];
  };

export type PostRecord = PostOut & Stored;

export type SocialConnection = SocialConnectionOut & Stored;

declare module '../core/world.js' {
  interface World {
    videos: VideoRecord[];
    posts: PostRecord[];
    social_connections: SocialConnection[];
  }
}
