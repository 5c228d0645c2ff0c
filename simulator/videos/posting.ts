// Posting a video (spec Part 4 Videos, posts): a post per social account now or later, a video's
// posts, cancelling a scheduled post; the workspace's social connections, and connecting and
// disconnecting one through the control plane (/_sim).
import * as z from 'zod/mini';
import { iso } from '../core/clock.js';
import { ApiError, notFound, validationError } from '../core/errors.js';
import { route, type Ctx } from '../core/http.js';
import type { SocialConnection } from './records.js';
import { listParams, paginate } from '../core/pagination.js';
import {
  arr,
  bool,
  dataOf,
  doc,
  freeInput,
  isoTime,
  listOf,
  obj,
  oneOf,
  str,
  uuid,
  type Infer,
} from '../core/schema.js';
import { newFields } from '../core/check.js';
import {
  CAPTION_LIMITS,
  CAROUSEL_PLATFORMS,
  PLATFORM_NAMES,
  PLATFORMS,
  TIKTOK_PRIVACY,
  type Platform,
} from './catalog.js';
import { PostSchema, SocialConnectionSchema } from './records.js';
import { cancelPost, failPostsOf, makePost, postCaption, postById } from './machine.js';
import { addSocialConnection } from './social.js';
import { postsOf, presentConnection, presentPost } from './present.js';
import { Id, PostId, findVideo } from './route-parts.js';

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

// ---- the routes ----

export const createPostsRoute = route({
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
});

export const listPostsRoute = route({
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
});

export const cancelRoute = route({
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
});

export const listConnectionsRoute = route({
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
});

export const connectRoute = route({
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
});

export const disconnectRoute = route({
  method: 'DELETE',
  path: '/_sim/social-connections/{id}',
  summary: 'Disconnect a social account',
  description:
    'Removes the account, as when it is disconnected on the platform: its scheduled posts fail with a reason.',
  params: obj({ id: uuid() }, { required: ['id'] }),
  responses: { 204: { description: 'Disconnected' } },
  handler: (c) => {
    const conn = c.data.social_connections.find((x) => x.id === c.params.id && x.workspace_id === c.auth.workspace.id);
    if (!conn) throw notFound(`No social connection ${c.params.id} in this workspace.`);
    failPostsOf(c.s, conn.id, `The ${PLATFORM_NAMES[conn.platform]} account ${conn.handle} was disconnected.`);
    c.data.social_connections = c.data.social_connections.filter((x) => x !== conn);
    c.s.markDirty();
    return { status: 204 };
  },
});
