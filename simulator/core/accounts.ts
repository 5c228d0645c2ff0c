// Organizations, their owners, workspaces and API keys: what every request is made as. Core makes
// the parts every capability stands on; each capability adds its own settings to a new organization
// or workspace through the world's seeding (world.ts gathers them: core knows no capability).
import { createHash, randomBytes } from 'node:crypto';
import { iso } from './clock.js';
import type { Rng } from './rng.js';
import type { ApiKey, Organization, Scope, User, Workspace, World } from './world.js';

/** API keys are credentials, not simulation: they come from the OS's secure random source. */
export function newKeySecret(): string {
  return `sk_sim_${randomBytes(20).toString('hex')}`;
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function addApiKey(
  data: World,
  rng: Rng,
  nowMs: number,
  workspaceId: string,
  userId: string,
  scopes: Scope[] | null,
): string {
  const key = newKeySecret();
  const record: ApiKey = {
    id: rng.uuid(),
    workspace_id: workspaceId,
    user_id: userId,
    hash: hashKey(key),
    last4: key.slice(-4),
    scopes,
    created_at: iso(nowMs),
  };
  data.api_keys.push(record);
  return key;
}

export const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'workspace';

/** The organization that pays for a workspace. */
export function orgOfWorkspace(data: World, workspaceId: string): Organization {
  const ws = data.workspaces.find((w) => w.id === workspaceId)!;
  return data.organizations.find((o) => o.id === ws.organization_id)!;
}

/** What a new organization and workspace start with, beyond what core gives them: each capability's part (world.ts). */
export interface AccountParts {
  organization(org: Organization, rng: Rng, nowMs: number): void;
  workspace(ws: Workspace, rng: Rng, nowMs: number): void;
  /** once the workspace is in the world (what it starts with elsewhere: its social connections) */
  added(data: World, ws: Workspace, rng: Rng, nowMs: number): void;
}

/**
 * Adds an organization, its owner and a workspace, each with every capability's part (`parts`), and
 * a full-access key; returns the workspace and the key.
 */
export function addWorkspace(
  data: World,
  rng: Rng,
  nowMs: number,
  name: string,
  parts: AccountParts,
): { workspace: Workspace; user: User; key: string } {
  const org = { id: rng.uuid(), name } as Organization;
  parts.organization(org, rng, nowMs);
  data.organizations.push(org);
  const user: User = {
    id: rng.uuid(),
    organization_id: org.id,
    name: 'Workspace Owner',
    email: `owner@${slug(name)}.example.com`,
  };
  data.users.push(user);
  const workspace = { id: rng.uuid(), organization_id: org.id, name, time_zone: null } as Workspace;
  parts.workspace(workspace, rng, nowMs);
  workspace.created_at = iso(nowMs);
  data.workspaces.push(workspace);
  parts.added(data, workspace, rng, nowMs);
  const key = addApiKey(data, rng, nowMs, workspace.id, user.id, null);
  return { workspace, user, key };
}
