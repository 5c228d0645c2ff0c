// Videos (spec capability 6, Part 4 Videos): quote, create, read, list, approve, retry, delete, the
// music list, social connections and posts, and the signed media links. Every route needs a plan
// that includes Content (403 plan_not_included otherwise).
import * as z from 'zod/mini';
import { iso } from '../core/clock.js';
import { ApiError, notFound, validationError } from '../core/errors.js';
import { route, type Ctx, type Resource } from '../core/http.js';
import { byteRange, rangeNotSatisfiable } from '../core/request.js';
import type { SocialConnection, VideoRecord } from './records.js';
import { listParams, paginate } from '../core/pagination.js';
import {
  arr,
  bool,
  dataOf,
  doc,
  freeInput,
  int,
  isoTime,
  listOf,
  newFields,
  obj,
  oneOf,
  str,
  uuid,
  type Infer,
} from '../core/schema.js';
import {
  CAPTION_LIMITS,
  CAROUSEL_PLATFORMS,
  DEFAULTS,
  defaultPreset,
  DURATION,
  INTERVIEW_SPEAKERS,
  MUSIC,
  PLATFORM_NAMES,
  PLATFORMS,
  TEMPLATES,
  TIKTOK_PRIVACY,
  VIDEO_STATES,
  type Platform,
  type Template,
} from './catalog.js';
import { MEDIA_FILES, mediaPath, validSignature, type MediaFile } from './links.js';
import { MusicTrackSchema, PostSchema, SocialConnectionSchema, VideoQuoteSchema, VideoSchema } from './records.js';
import { interviewWritten, sceneSeconds, scriptOfScenes, scriptOfSlides } from './writer.js';
import {
  cancelPost,
  cancelPostsOf,
  cannotPayMessage,
  failPostsOf,
  enter,
  makePost,
  newVideo,
  priceVideo,
  release,
  reprice,
  resume,
  usdText,
  type Content,
  postCaption,
  postById,
  videoById,
} from './machine.js';
import { cancelTimers } from '../core/scheduler.js';
import { addSocialConnection } from './social.js';
import { CreateBody, checkSpoken, parseRecipe, videoInput, type CreateInput } from './body.js';
import { postsOf, presentConnection, presentPost, presentVideo } from './present.js';
import { clone, removeWhere } from '../store/tracker.js';

// ---- what a client sends (the creation body: videos/body.ts) ----

const SceneEdit = obj(
  {
    prompt: str({ min: 1, max: 1000, description: 'what the AI clip shows (default: made from the narration)' }),
    narration: str({ min: 1, max: 2000, description: 'what is said over it' }),
  },
  { required: ['narration'] },
);
const SlideEdit = obj(
  {
    title: str({ min: 1, max: 100 }),
    text: str({ min: 1, max: 500 }),
    seconds: int({ min: 1, max: 60, description: 'default 5' }),
  },
  { required: ['text'] },
);
const InterviewEdit = obj(
  {
    speakers: arr(obj({ name: str({ min: 1, max: 60 }), role: str({ min: 1, max: 60 }) }, { required: ['name'] }), {
      min: 2,
      max: 4,
    }),
    parts: arr(
      obj(
        { speaker: int({ min: 0, max: 3, description: 'index into speakers' }), text: str({ min: 1, max: 2000 }) },
        { required: ['speaker', 'text'] },
      ),
      { min: 1, max: 200 },
    ),
  },
  { required: ['parts'] },
);

const ApproveBody = obj(
  {
    script: str({
      min: 1,
      max: 10_000,
      description:
        'the script as edited (templates spoken from a script: all but freeform_ai, slideshow and interview)',
    }),
    scenes: arr(SceneEdit, { min: 1, max: 20, description: 'freeform_ai: the scenes as edited (replacing them all)' }),
    slides: arr(SlideEdit, { min: 2, max: 20, description: 'slideshow: the slides as edited (replacing them all)' }),
    interview: InterviewEdit,
    max_price_cents: int({
      min: 0,
      max: 10_000_000,
      description: 'refuse (400) if the price is above it',
      example: 500,
    }),
    // (the example edits a talking_avatar's script: one template's edit, not every kind at once)
  },
  { example: { script: 'Our espresso bar opens Monday on Main Street. Come say hi!', max_price_cents: 500 } },
);

const PostBody = obj(
  {
    connection_ids: arr(uuid('a social connection id (GET /v1/social-connections)'), {
      min: 1,
      max: 20,
      unique: true,
      description: 'the accounts to post to; each gets its own post',
    }),
    caption: str({
      min: 1,
      max: 63_206,
      description: "the text posted (default: the video's caption and hashtags)",
      example: 'Opening Monday! #coffee',
    }),
    captions: obj(
      Object.fromEntries(
        PLATFORMS.map((p) => [
          p,
          str({
            min: 1,
            max: CAPTION_LIMITS[p],
            description: `the caption on ${PLATFORM_NAMES[p]} (at most ${CAPTION_LIMITS[p]} characters)`,
          }),
        ]),
      ),
      { description: 'a caption per platform, over caption' },
    ),
    scheduled_for: doc(isoTime(), 'when to publish (in the future); omit to post now'),
    settings: obj(
      {
        tiktok: obj({
          privacy_level: oneOf(TIKTOK_PRIVACY),
          disable_comment: bool(),
          disable_duet: bool(),
          disable_stitch: bool(),
        }),
        youtube: obj({ title: str({ min: 1, max: 100 }), privacy_status: oneOf(['public', 'unlisted', 'private']) }),
        instagram: freeInput(),
        x: freeInput(),
        facebook: freeInput(),
        linkedin: freeInput(),
      },
      { description: 'per-platform settings, for example tiktok.privacy_level' },
    ),
    media_type: oneOf(
      ['video', 'carousel'],
      '`carousel` sends a slideshow as slides (TikTok and Instagram only); default video',
    ),
  },
  { required: ['connection_ids'] },
);

const Id = obj({ id: uuid('the video id') }, { required: ['id'] });
const PostId = obj({ id: uuid('the post id') }, { required: ['id'] });

function findVideo(c: Ctx<{ id: string }, any, any>): VideoRecord {
  const v = videoById(c.data, c.params.id);
  if (!v || v.workspace_id !== c.auth.workspace.id) throw notFound(`No video ${c.params.id} in this workspace.`);
  return v;
}

// ---- creating ----
function ownContent(b: CreateInput): Content | null {
  return b.script === undefined ? null : { script: b.script, scenes: null, slides: null, interview: null };
}

function quote(b: CreateInput) {
  const preset = b.preset ?? defaultPreset(b.template);
  const target = b.target_duration_seconds ?? DEFAULTS.target_duration_seconds;
  return {
    ...priceVideo(b.template, preset, target, ownContent(b), b.script !== undefined, b.slide_settings),
    template: b.template,
    preset,
  };
}

const capMessage = (price: number, cap: number) =>
  `the price ${usdText(price)} USD (${price} cents) is above max_price_cents ${cap}`;

function create(c: Ctx<{}, {}, unknown>) {
  const b = parseRecipe(c.body);
  const q = quote(b);
  if (b.script !== undefined && b.max_price_cents !== undefined && q.price_cents > b.max_price_cents)
    throw validationError(
      { max_price_cents: capMessage(q.price_cents, b.max_price_cents) },
      "The script's price is above max_price_cents; nothing was created.",
    );
  const v = newVideo(c.s, c.auth.workspace.id, videoInput(b, b.template));
  if (b.script !== undefined) {
    // an own script is released at once: charged now, rendering begins, review skipped
    if (!release(c.s, v)) throw cannotPay(c, v);
  } else {
    enter(c.s, v, 'queued');
  }
  c.data.videos.push(v);
  return { status: 201, body: { data: presentVideo(c.data, c.origin, v) } };
}

function cannotPay(c: Ctx<any, any, any>, v: VideoRecord) {
  return new ApiError(400, 'insufficient_funds', cannotPayMessage(c.s, v).replace(/, then approve it\.$/, '.'));
}

// ---- approving ----

type ApproveInput = Infer<typeof ApproveBody>;
/** The field a video's written content is edited through on approval, by template: the script unless named here. */
const EDITED_THROUGH: Partial<Record<Template, 'scenes' | 'slides' | 'interview'>> = {
  freeform_ai: 'scenes',
  slideshow: 'slides',
  interview: 'interview',
};
const EDIT_FIELD = (t: Template) => EDITED_THROUGH[t] ?? 'script';

function applyEdits(v: VideoRecord, b: ApproveInput): void {
  const errs = newFields();
  const field = EDIT_FIELD(v.template);
  for (const f of ['script', 'scenes', 'slides', 'interview'] as const)
    if (b[f] !== undefined && f !== field) errs[f] = `${v.template} videos are edited through \`${field}\``;
  if (b.interview) {
    const speakers = b.interview.speakers?.length ?? v.interview?.speakers.length ?? INTERVIEW_SPEAKERS[v.preset] ?? 2;
    b.interview.parts.forEach((p, i) => {
      if (p.speaker >= speakers)
        errs[`interview.parts[${i}].speaker`] = `must be below ${speakers} (the number of speakers)`;
    });
  }
  if (b.script !== undefined && field === 'script') checkSpoken(v.template, 'script', b.script, errs);
  if (Object.keys(errs).length > 0) throw validationError(errs);
  if (b.script !== undefined) v.script = b.script;
  if (b.scenes) {
    v.scenes = b.scenes.map((s) => ({
      prompt: s.prompt ?? `${v.preset} shot: ${s.narration.split(' ').slice(0, 8).join(' ')}`,
      narration: s.narration,
      seconds: sceneSeconds(s.narration),
    }));
    v.script = scriptOfScenes(v.scenes);
  }
  if (b.slides) {
    v.slides = b.slides.map((s, i) => ({ title: s.title ?? `Slide ${i + 1}`, text: s.text, seconds: s.seconds ?? 5 }));
    v.script = scriptOfSlides(v.slides);
  }
  if (b.interview) {
    const speakers =
      b.interview.speakers?.map((s) => ({ name: s.name, role: s.role ?? 'guest' })) ?? v.interview!.speakers;
    Object.assign(v, interviewWritten({ speakers, parts: b.interview.parts }));
  }
}

function approve(c: Ctx<{ id: string }, {}, ApproveInput>) {
  const v = findVideo(c);
  if (v.status !== 'script_review')
    throw new ApiError(409, 'conflict', `Only a video in script_review can be approved; this one is ${v.status}.`);
  const before = clone(v);
  applyEdits(v, c.body);
  reprice(v, false);
  if (v.seconds > DURATION.max) {
    const seconds = v.seconds;
    Object.assign(v, before);
    throw validationError({
      [EDIT_FIELD(v.template)]: `makes a ${seconds}-second video; at most ${DURATION.max} seconds`,
    });
  }
  // the approve body's cap, else the one given at creation: a cap is never ignored (issue 23)
  const sent = c.body.max_price_cents;
  const cap = sent ?? v.max_price_cents ?? undefined;
  if (cap !== undefined && v.price_cents > cap) {
    const price = v.price_cents;
    Object.assign(v, before);
    throw validationError(
      {
        max_price_cents:
          sent === undefined
            ? `${capMessage(price, cap)}, given at creation; send a higher max_price_cents to approve it`
            : capMessage(price, cap),
      },
      'The price is above max_price_cents; the video was not approved.',
    );
  }
  if (sent !== undefined) v.max_price_cents = sent;
  if (!release(c.s, v)) {
    const err = cannotPay(c, v);
    Object.assign(v, before);
    throw err;
  }
  return { body: { data: presentVideo(c.data, c.origin, v) } };
}

// ---- posting ----

type PostInput = Infer<typeof PostBody>;

function createPosts(c: Ctx<{ id: string }, {}, PostInput>) {
  const v = findVideo(c);
  const b = c.body;
  const errs = newFields();
  const conns: SocialConnection[] = [];
  b.connection_ids.forEach((id, i) => {
    const conn = c.data.social_connections.find((x) => x.id === id && x.workspace_id === c.auth.workspace.id);
    if (!conn)
      errs[`connection_ids[${i}]`] ??= 'is not a social connection of this workspace (GET /v1/social-connections)';
    else conns.push(conn);
  });
  const at = b.scheduled_for === undefined ? null : Date.parse(b.scheduled_for);
  if (at !== null && at <= c.s.now) errs.scheduled_for = `must be in the future (now is ${iso(c.s.now)})`;
  const mediaType = b.media_type ?? 'video';
  if (mediaType === 'carousel') {
    if (v.template !== 'slideshow') errs.media_type = 'carousel is only for slideshow videos';
    else {
      const other = conns.find((x) => !CAROUSEL_PLATFORMS.includes(x.platform));
      if (other) errs.media_type = `carousel posts only to TikTok and Instagram, not ${PLATFORM_NAMES[other.platform]}`;
    }
  }
  const defaultCaption = postCaption(v);
  const captionFor = (p: Platform) => b.captions?.[p] ?? b.caption ?? defaultCaption;
  for (const conn of conns) {
    const text = captionFor(conn.platform) ?? '';
    const where = b.captions?.[conn.platform] !== undefined ? `captions.${conn.platform}` : 'caption';
    if ([...text].length > CAPTION_LIMITS[conn.platform])
      errs[where] ??=
        `is ${[...text].length} characters; ${PLATFORM_NAMES[conn.platform]} takes at most ${CAPTION_LIMITS[conn.platform]}`;
  }
  if (Object.keys(errs).length > 0) throw validationError(errs);
  if (at === null && v.status !== 'ready')
    throw new ApiError(
      409,
      'video_not_ready',
      `The video is ${v.status.replace('_', ' ')}, not ready: it can be posted now once ready, or scheduled for later.`,
    );
  const posts = conns.map((conn) =>
    makePost(c.s, v, conn, {
      caption: captionFor(conn.platform),
      media_type: mediaType,
      settings: (b.settings?.[conn.platform] as Record<string, unknown> | undefined) ?? {},
      at,
    }),
  );
  return { status: 201, body: { data: posts.map(presentPost) } };
}

function cancelPostRoute(c: Ctx<{ id: string }>) {
  const p = postById(c.data, c.params.id);
  if (!p || p.workspace_id !== c.auth.workspace.id) throw notFound(`No post ${c.params.id} in this workspace.`);
  if (p.status === 'published')
    throw new ApiError(
      409,
      'conflict',
      'This post is already published; it cannot be cancelled (delete it on the platform).',
    );
  if (p.status === 'failed') throw new ApiError(409, 'conflict', 'This post failed; there is nothing to cancel.');
  if (p.status === 'scheduled') cancelPost(c.s, p);
  return { body: { data: presentPost(p) } };
}

// ---- the media links ----

/** A ready video's file, at its signed link; one byte range when asked (players seek with them). */
async function media(c: Ctx<{ id: string }, { sig?: string }>, file: MediaFile) {
  const path = mediaPath(c.params.id, file);
  if (!c.query.sig || !validSignature(c.data.meta.secret, path, c.query.sig))
    throw new ApiError(
      403,
      'forbidden',
      'This media link is not valid (its signature does not match); use video_url or thumbnail_url as returned.',
    );
  const v = videoById(c.data, c.params.id);
  if (!v || v.status !== 'ready') throw notFound('This video does not exist, or is not ready.');
  const m = await import('./media/index.js');
  const bytes = file === MEDIA_FILES.video ? m.videoFile(v.format) : m.thumbnailFile(v.format);
  const contentType = file === MEDIA_FILES.video ? m.VIDEO_TYPE : m.THUMBNAIL_TYPE;
  // the file behind a link never changes: caches may keep it
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'cache-control': 'public, max-age=31536000, immutable',
  };
  const range = byteRange(c.header('range'), bytes.length);
  if (range === 'unsatisfiable') throw rangeNotSatisfiable(bytes.length);
  if (!range) return { headers, raw: { bytes, contentType } };
  return {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}` },
    raw: { bytes: bytes.subarray(range.start, range.end + 1), contentType },
  };
}

const mediaRoute = (file: MediaFile, what: string, contentType: string) =>
  route({
    method: 'GET',
    path: `/v1/media/videos/{id}/${file}`,
    public: true,
    summary: `Download a video's ${what} (signed link)`,
    description:
      `The ${what} of a ready video, at the signed link the video record gives. No API key; the link does not expire; a changed link is 403. ` +
      'HEAD is answered too, and a single `Range: bytes=…` is served as 206 Partial Content (players seek with them).',
    params: Id,
    query: obj({ sig: str({ min: 1, max: 100, description: "the link's signature" }) }, { required: ['sig'] }),
    responses: {
      200: { description: `The ${what}`, contentType },
      206: {
        description: 'The range asked for',
        contentType,
        headers: {
          'Content-Range': {
            description: 'which bytes of the file these are',
            schema: { type: 'string', example: 'bytes 0-1023/4704' },
          },
        },
      },
    },
    errors: { 403: ['forbidden'], 416: ['range_not_satisfiable'] },
    handler: (c) => media(c, file),
  });

const video = (description: string) => ({ 200: { description, schema: dataOf(VideoSchema) } });

export const videos: Resource = {
  tag: {
    name: 'Videos',
    description:
      'Template-based short social videos: price, make, approve, retry, download, delete; social accounts and posts. Each operation needs a plan that includes Content.',
  },
  routes: [
    route({
      method: 'POST',
      path: '/v1/videos/quote',
      scope: 'videos:read',
      plan: 'content',
      summary: 'Price a video',
      description:
        'The price of the video this body would make, with its line items (template base, length, narration words, AI scenes, the service markup). ' +
        'Exact with an own script; without one an estimate from target_duration_seconds (`estimated` true). Makes nothing; free.',
      body: CreateBody(),
      bodyCheckedByHandler: true,
      responses: { 200: { description: 'The price', schema: dataOf(VideoQuoteSchema) } },
      handler: (c) => {
        const q = quote(parseRecipe(c.body));
        return {
          body: {
            data: {
              price_cents: q.price_cents,
              price_usd: usdText(q.price_cents),
              estimated: q.estimated,
              seconds: q.seconds,
              line_items: q.line_items,
              template: q.template,
              preset: q.preset,
            },
          },
        };
      },
    }),
    route({
      method: 'POST',
      path: '/v1/videos',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Make a video',
      description:
        'With an own `script` the video is charged at once (plan video credits first, then the wallet) and rendering begins; 400 when the price is above ' +
        '`max_price_cents` (nothing is created) or the workspace cannot pay (`insufficient_funds`). Without a script it is queued, its script written from the sources, ' +
        'then approved automatically (`script_review` auto: charged then, or held in script_review with `error` when over the cap) or left in script_review (manual).',
      body: CreateBody(),
      bodyCheckedByHandler: true,
      responses: { 201: { description: 'The video', schema: dataOf(VideoSchema) } },
      errors: { 400: ['insufficient_funds'] },
      handler: create,
    }),
    route({
      method: 'GET',
      path: '/v1/videos/music',
      scope: 'videos:read',
      plan: 'content',
      summary: 'List the built-in music',
      description: "Royalty-free tracks; use a track's `library` and `track_id` as a video's `music`.",
      query: obj({ ...listParams() }),
      responses: { 200: { description: 'Tracks', schema: listOf(MusicTrackSchema) } },
      // in catalog order: the list's default (desc) order runs from the highest key
      handler: (c) => ({
        body: paginate(c.s, MUSIC, c.query, {
          key: (t) => MUSIC.length - MUSIC.indexOf(t),
          tie: (t) => t.track_id,
          scope: 'music',
          present: (t) => t,
        }),
      }),
    }),
    route({
      method: 'GET',
      path: '/v1/videos',
      scope: 'videos:read',
      plan: 'content',
      summary: 'List videos',
      description: 'Every video of the workspace, newest first.',
      query: obj({
        ...listParams(),
        status: oneOf(VIDEO_STATES, 'only videos in this state'),
        template: oneOf(TEMPLATES, 'only videos of this template'),
      }),
      responses: { 200: { description: 'Videos', schema: listOf(VideoSchema) } },
      handler: (c) => {
        const ws = c.auth.workspace.id;
        const q = c.query;
        const items = c.data.videos.filter(
          (v) =>
            v.workspace_id === ws && (!q.status || v.status === q.status) && (!q.template || v.template === q.template),
        );
        return {
          body: paginate(c.s, items, q, {
            key: (v) => Date.parse(v.created_at),
            tie: (v) => v.seq,
            scope: `videos:${q.status ?? ''}:${q.template ?? ''}`,
            present: (v) => presentVideo(c.data, c.origin, v),
          }),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/v1/videos/{id}',
      scope: 'videos:read',
      plan: 'content',
      summary: 'Read a video',
      description: 'Its state, script, price, links once ready, and posts.',
      params: Id,
      responses: video('The video'),
      handler: (c) => ({ body: { data: presentVideo(c.data, c.origin, findVideo(c)) } }),
    }),
    route({
      method: 'POST',
      path: '/v1/videos/{id}/approve',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Approve a written script and render',
      description:
        'For a video in script_review: `{}` approves the script as written; edits replace the `script` (or the `scenes`, `slides` or `interview` of those templates), ' +
        'and the price is recomputed from them. The video is charged once (credits, then wallet) and rendering begins. 400 when the price is above `max_price_cents` ' +
        '(the one sent, else the one given at creation) ' +
        'or the workspace cannot pay (nothing bought, the video stays in script_review); 409 for a video in another state.',
      params: Id,
      body: ApproveBody,
      responses: video('The video, rendering'),
      errors: { 400: ['insufficient_funds'], 409: ['conflict'] },
      handler: approve,
    }),
    route({
      method: 'POST',
      path: '/v1/videos/{id}/retry',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Resume a failed video',
      description:
        'Resumes a failed video from the stage it failed in; free (it was charged once already, if released). 409 for a video that has not failed.',
      params: Id,
      responses: video('The video, resumed'),
      errors: { 409: ['conflict'] },
      handler: (c) => {
        const v = findVideo(c);
        if (v.status !== 'failed')
          throw new ApiError(409, 'conflict', `Only a failed video can be retried; this one is ${v.status}.`);
        resume(c.s, v);
        return { body: { data: presentVideo(c.data, c.origin, v) } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/v1/videos/{id}',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Delete a video',
      description:
        'Removes the video in any state (stopping its pipeline) and cancels its scheduled posts; published posts stay on their platforms. No refund.',
      params: Id,
      responses: { 204: { description: 'Deleted' } },
      handler: (c) => {
        const v = findVideo(c);
        cancelPostsOf(c.s, v.id);
        cancelTimers(c.s, (type, p) => type === 'video.stage' && p.id === v.id);
        removeWhere(c.data.videos, (x) => x === v);
        return { status: 204 };
      },
    }),
    route({
      method: 'POST',
      path: '/v1/videos/{id}/posts',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Post a video now or later',
      description:
        'One post per account in `connection_ids`. Without `scheduled_for` the video must be ready (409 `video_not_ready` otherwise) and publishes within a minute; ' +
        'with it (in the future) the post publishes then, failing with a reason if the video is not ready by then. `media_type` carousel: slideshow videos, TikTok and ' +
        "Instagram only. Captions are checked against each platform's limit. Free.",
      params: Id,
      body: PostBody,
      responses: { 201: { description: 'The posts made, one per account', schema: dataOf(z.array(PostSchema)) } },
      errors: { 409: ['video_not_ready'] },
      handler: createPosts,
    }),
    route({
      method: 'GET',
      path: '/v1/videos/{id}/posts',
      scope: 'videos:read',
      plan: 'content',
      summary: "List a video's posts",
      description: 'Its posts with their state and permalinks, newest first.',
      params: Id,
      query: obj({ ...listParams() }),
      responses: { 200: { description: 'Posts', schema: listOf(PostSchema) } },
      handler: (c) => {
        const v = findVideo(c);
        return {
          body: paginate(c.s, postsOf(c.data, v.id), c.query, {
            key: (p) => Date.parse(p.created_at),
            tie: (p) => p.seq,
            scope: `posts:${v.id}`,
            present: presentPost,
          }),
        };
      },
    }),
    route({
      method: 'DELETE',
      path: '/v1/posts/{id}',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Cancel a scheduled post',
      description:
        'A scheduled post becomes `canceled` (cancelling it again returns it unchanged); a published or failed one is 409.',
      params: PostId,
      responses: { 200: { description: 'The post', schema: dataOf(PostSchema) } },
      errors: { 409: ['conflict'] },
      handler: cancelPostRoute,
    }),
    route({
      method: 'GET',
      path: '/v1/social-connections',
      scope: 'videos:read',
      plan: 'content',
      summary: 'List social connections',
      description: 'The accounts videos can be posted to; use their ids as connection_ids.',
      query: obj({ ...listParams(), platform: oneOf(PLATFORMS, "only this platform's accounts") }),
      responses: { 200: { description: 'Accounts', schema: listOf(SocialConnectionSchema) } },
      handler: (c) => {
        const items = c.data.social_connections.filter(
          (x) => x.workspace_id === c.auth.workspace.id && (!c.query.platform || x.platform === c.query.platform),
        );
        return {
          body: paginate(c.s, items, c.query, {
            key: (x) => Date.parse(x.created_at),
            tie: (x) => x.seq,
            scope: `social:${c.query.platform ?? ''}`,
            present: presentConnection,
          }),
        };
      },
    }),
    route({
      method: 'POST',
      path: '/_sim/social-connections',
      summary: 'Connect a social account',
      description:
        'Adds a connected account of the workspace (one per platform is seeded). Its handle is made from `name`.',
      body: obj(
        {
          platform: oneOf(PLATFORMS, `one of ${PLATFORMS.join(', ')}`),
          name: str({
            min: 1,
            max: 100,
            description: "the account's name (default: the workspace's name on the platform)",
            example: 'Acme Coffee',
          }),
        },
        { required: ['platform'] },
      ),
      responses: { 201: { description: 'The account', schema: dataOf(SocialConnectionSchema) } },
      handler: (c) => {
        const conn = addSocialConnection(c.data, c.s.rng, c.s.now, c.auth.workspace, c.body.platform, c.body.name);
        c.s.markDirty();
        return { status: 201, body: { data: presentConnection(conn) } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/_sim/social-connections/{id}',
      summary: 'Disconnect a social account',
      description:
        'Removes the account, as when it is disconnected on the platform: its scheduled posts fail with a reason.',
      params: obj({ id: uuid() }, { required: ['id'] }),
      responses: { 204: { description: 'Disconnected' } },
      handler: (c) => {
        const conn = c.data.social_connections.find(
          (x) => x.id === c.params.id && x.workspace_id === c.auth.workspace.id,
        );
        if (!conn) throw notFound(`No social connection ${c.params.id} in this workspace.`);
        failPostsOf(c.s, conn.id, `The ${PLATFORM_NAMES[conn.platform]} account ${conn.handle} was disconnected.`);
        c.data.social_connections = c.data.social_connections.filter((x) => x !== conn);
        c.s.markDirty();
        return { status: 204 };
      },
    }),
    mediaRoute(MEDIA_FILES.video, 'MP4 (H.264; 9:16 vertical or 16:9 horizontal)', 'video/mp4'),
    mediaRoute(MEDIA_FILES.thumbnail, 'PNG thumbnail', 'image/png'),
  ],
};
