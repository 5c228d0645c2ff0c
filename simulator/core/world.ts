// The world the simulator keeps: one document of every capability's collections and values, what the
// store persists and every unit of work reads and changes. Core holds what every capability stands on
// (the format, the clock and generator state, organizations, workspaces, users, API keys, the replay
// records and the timers); each capability adds its own collections and fields to these interfaces
// where it declares them (`declare module '../core/world.js'` in its records), so that core imports
// no capability and the whole shape is still one type. Money is integer cents inside; dollars
// appear only at the API edge.
import type { ClockState } from './clock.js';
import type { RngState } from './rng.js';

export const SCOPES = [
  'videos:read',
  'videos:write',
  'phone_numbers:read',
  'phone_numbers:write',
  'contacts:read',
  'calls:read',
  'sms:read',
  'email:read',
  'assistant:read',
  'assistant:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** An organization: it pays for its workspaces (billing adds its wallet). */
export interface Organization {
  id: string;
  name: string;
}

/** A workspace: what API keys act in (each capability adds its settings and state). */
export interface Workspace {
  id: string;
  organization_id: string;
  name: string;
  /** the workspace's time zone (IANA), for "today" and "yesterday" in the assistant's answers; null: UTC */
  time_zone: string | null;
  created_at: string;
}

export interface User {
  id: string;
  organization_id: string;
  name: string;
  email: string;
}

export interface ApiKey {
  id: string;
  workspace_id: string;
  user_id: string;
  /** sha-256 of the key: the key itself is only ever shown at creation */
  hash: string;
  last4: string;
  /** null means full access */
  scopes: Scope[] | null;
  created_at: string;
}

/** Stored records carry their workspace and creation order (`seq` breaks ties between records made at the same instant). */
export interface Stored {
  seq: number;
  workspace_id: string;
}

/** A reply kept for an Idempotency-Key (24 hours), to answer a retry with it. */
export interface IdempotencyRecord {
  api_key_id: string;
  key: string;
  fingerprint: string;
  request_id: string;
  status: number;
  body: string;
  created_at_ms: number;
}

/** A transition that falls due on the simulator clock (scheduler.ts). */
export interface Timer {
  id: string;
  at_ms: number;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
}

/** What the world keeps of itself (capabilities add theirs). */
export interface Meta {
  seed: number;
  rng: RngState;
  /** signs cursors so they stay opaque and tamper-evident */
  secret: string;
  clock: ClockState;
  /** the seeded workspace's full-access key, for the embedded CLI and `sim serve --json` */
  default_api_key: string;
  default_workspace_id: string;
  next_seq: number;
}

export interface World {
  /**
   * The format, so that a vmv that cannot read a file refuses it rather than write over what it
   * does not understand: 3 since the journal holds removals (`del`, `trunc`: a vmv of version 2
   * would take the first as a torn tail and cut the journal there); 2 since the journal (a vmv
   * from before it reads only the snapshot); 1 a whole file without a journal. Older versions load
   * and are written as 3.
   */
  version: 3;
  meta: Meta;
  organizations: Organization[];
  workspaces: Workspace[];
  users: User[];
  api_keys: ApiKey[];
  idempotency: IdempotencyRecord[];
  timers: Timer[];
}
