// Videos and posts, declared: videos made from templates, their pipeline, posts and social
// connections, the media served; a new workspace starts with one connection per platform.
import type { Capability } from '../core/capability.js';
import { PLATFORMS } from './catalog.js';
import { addSocialConnection } from './social.js';

export const videos: Capability = {
  name: 'videos',
  resources: [
    {
      prefixes: ['/v1/videos', '/v1/posts', '/v1/social-connections', '/v1/media', '/_sim/social-connections'],
      load: async () => (await import('./routes.js')).videos,
    },
  ],
  machines: [{ types: ['video.stage', 'post.publish'], load: async () => (await import('./machine.js')).videoTimers }],
  collections: { records: ['videos', 'posts'], values: ['social_connections'] },
  workspaceAdded(world, ws, { rng, nowMs }) {
    for (const p of PLATFORMS) addSocialConnection(world, rng, nowMs, ws, p);
  },
  upgrade(world, { rng, had }) {
    if (had('social_connections')) return;
    for (const w of world.workspaces)
      for (const p of PLATFORMS) addSocialConnection(world, rng, Date.parse(w.created_at), w, p);
  },
};
