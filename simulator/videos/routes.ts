// Videos (spec capability 6, Part 4 Videos): quote, create, read, list, approve, retry, delete, the
// music list, social connections and posts, and the signed media links. Every route needs a plan
// that includes Content (403 plan_not_included otherwise). The resource lists every route in the
// order of the API description; reading, listing, retrying and deleting are declared here, making
// (quote, create, approve) in making.ts, posts and social connections in posting.ts, the media
// links in media-route.ts.
import { ApiError } from '../core/errors.js';
import { route, type Resource } from '../core/http.js';
import { listParams, paginate } from '../core/pagination.js';
import { listOf, obj, oneOf } from '../core/schema.js';
import { MUSIC, TEMPLATES, VIDEO_STATES } from './catalog.js';
import { MEDIA_FILES } from './links.js';
import { MusicTrackSchema, VideoSchema } from './records.js';
import { cancelPostsOf, resume } from './machine.js';
import { cancelTimers } from '../core/scheduler.js';
import { presentVideo } from './present.js';
import { removeWhere } from '../store/tracker.js';
import { Id, findVideo, video } from './route-parts.js';
import { approveRoute, createRoute, quoteRoute } from './making.js';
import {
  cancelRoute,
  connectRoute,
  createPostsRoute,
  disconnectRoute,
  listConnectionsRoute,
  listPostsRoute,
} from './posting.js';
import { mediaRoute } from './media-route.js';

export const videos: Resource = {
  tag: {
    name: 'Videos',
    description:
      'Template-based short social videos: price, make, approve, retry, download, delete; social accounts and posts. Each operation needs a plan that includes Content.',
  },
  routes: [
    quoteRoute,
    createRoute,
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
    approveRoute,
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
    createPostsRoute,
    listPostsRoute,
    cancelRoute,
    listConnectionsRoute,
    connectRoute,
    disconnectRoute,
    mediaRoute(MEDIA_FILES.video, 'MP4 (H.264; 9:16 vertical or 16:9 horizontal)', 'video/mp4'),
    mediaRoute(MEDIA_FILES.thumbnail, 'PNG thumbnail', 'image/png'),
  ],
};
