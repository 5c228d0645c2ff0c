// How videos, posts and social connections are shown: what the store keeps beside them stays in.
import { withoutNulls } from '../core/schema.js';
import type { World } from '../core/world.js';
import type { PostRecord, SocialConnection, VideoRecord } from './records.js';
import { usdAmount } from '../billing/index.js';
import { MEDIA_FILES, signedLink } from './links.js';
import type { PostOut, VideoOut } from './records.js';

/** A video as the API shows it: its links signed for `origin`, its posts, its price in dollars. */
export function presentVideo(data: World, origin: string, v: VideoRecord): VideoOut {
  const { seq: _s, workspace_id: _w, failures_spent: _f, ...rest } = v;
  const ready = v.status === 'ready';
  const secret = data.meta.secret;
  // error, caption and the links (strings in the spec: "signed links, set when ready") are typed
  // without |null: left out when there is none (docs/spec-silent.md)
  return withoutNulls(
    {
      ...rest,
      price_usd: usdAmount(v.price_cents),
      video_url: ready ? signedLink(origin, secret, v.id, MEDIA_FILES.video) : null,
      thumbnail_url: ready ? signedLink(origin, secret, v.id, MEDIA_FILES.thumbnail) : null,
      posts: postsOf(data, v.id).map(presentPost),
    },
    ['error', 'caption', 'video_url', 'thumbnail_url'],
  );
}

export const presentPost = ({ seq: _s, workspace_id: _w, ...p }: PostRecord): PostOut => p;
export const presentConnection = ({ seq: _s, workspace_id: _w, ...x }: SocialConnection) => x;
/** A video's posts, newest first (as GET /v1/videos/{id}/posts lists them). */
export const postsOf = (data: World, videoId: string) =>
  data.posts.filter((p) => p.video_id === videoId).sort((a, b) => b.seq - a.seq);
