// A workspace's social connections: the accounts videos are posted to (one per platform is seeded;
// the control plane adds more).
import { slug } from '../core/accounts.js';
import { iso } from '../core/clock.js';
import type { Rng } from '../core/rng.js';
import type { Workspace, World } from '../core/world.js';
import { PLATFORM_NAMES, type Platform } from './catalog.js';

/** A connected social account of the workspace. */
export function addSocialConnection(
  data: World,
  rng: Rng,
  nowMs: number,
  workspace: Workspace,
  platform: Platform,
  name?: string,
) {
  const handle = `@${slug(name ?? workspace.name)}`;
  const conn = {
    id: rng.uuid(),
    seq: data.meta.next_seq++,
    workspace_id: workspace.id,
    platform,
    name: name ?? `${workspace.name} on ${PLATFORM_NAMES[platform]}`,
    handle,
    created_at: iso(nowMs),
  };
  data.social_connections.push(conn);
  return conn;
}
