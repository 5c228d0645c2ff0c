// The freshly seeded state: one organization with a 50.00 USD wallet, one workspace whose plan
// includes Content (with video credits) and the assistant, its owner, and one full-access API key.
import { createHash, randomBytes } from 'node:crypto';
import { nextCharge, PLAN_RATES } from './billing/plans.js';
import { timerRow } from './core/scheduler.js';
import { realClock, iso, clockNow, type ClockState } from './core/clock.js';
import type { ApiKey, World, Scope, User, Workspace } from './core/world.js';
import type { PhoneNumber } from './numbers/records.js';
import { Rng, seedRng } from './core/rng.js';
import { seedSharedPool } from './quick/shared-pool.js';
import { newConfig, workspaceDefaults } from './numbers/config.js';
import { PLATFORM_NAMES, PLATFORMS, type Platform } from './videos/catalog.js';
import { DEFAULT_PROFILE } from './schedules/director.js';

export interface SeedOptions {
  seed?: number;
  clock?: ClockState;
}

export const DEFAULT_SEED = 1;

/** API keys are credentials, not simulation: they come from the OS's secure random source. */
export function newKeySecret(): string {
  return `sk_sim_${randomBytes(20).toString('hex')}`;
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function addApiKey(data: World, rng: Rng, nowMs: number, workspaceId: string, userId: string, scopes: Scope[] | null): string {
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

/** Adds an organization, its owner and a workspace; returns the workspace and a full-access key. */
export function addWorkspace(data: World, rng: Rng, nowMs: number, name: string): { workspace: Workspace; user: User; key: string } {
  const orgId = rng.uuid();
  data.organizations.push({
    id: orgId,
    name,
    wallet_cents: 5000,
    auto_recharge: { enabled: false, amount_cents: 2500, threshold_cents: 500, card_declined: false },
  });
  const user: User = { id: rng.uuid(), organization_id: orgId, name: 'Workspace Owner', email: `owner@${slug(name)}.example.com` };
  data.users.push(user);
  const workspace: Workspace = {
    id: rng.uuid(),
    organization_id: orgId,
    name,
    plan: { content: true, assistant: true, video_credits_cents: 2000, ...PLAN_RATES },
    usage: { period_start: iso(nowMs), call_seconds: 0, texts: 0 },
    rate_limits: { quick_emails_per_minute: 60 },
    recordings_disabled: false,
    recent_quick_emails: [],
    defaults: workspaceDefaults(),
    caller_ids: [],
    time_zone: null,
    marketing_profile: DEFAULT_PROFILE(name),
    ...workspaceLibrary(rng),
    created_at: iso(nowMs),
  };
  data.workspaces.push(workspace);
  for (const p of PLATFORMS) addSocialConnection(data, rng, nowMs, workspace, p);
  const key = addApiKey(data, rng, nowMs, workspace.id, user.id, null);
  return { workspace, user, key };
}

/** A connected social account of the workspace (one per platform is seeded). */
export function addSocialConnection(data: World, rng: Rng, nowMs: number, workspace: Workspace, platform: Platform, name?: string) {
  const handle = `@${slug(name ?? workspace.name)}`;
  const conn = {
    id: rng.uuid(), seq: data.meta.next_seq++, workspace_id: workspace.id, platform,
    name: name ?? `${workspace.name} on ${PLATFORM_NAMES[platform]}`, handle, created_at: iso(nowMs),
  };
  data.social_connections.push(conn);
  return conn;
}

/** The knowledge bases, FAQs and event types a workspace starts with. */
function workspaceLibrary(rng: Rng): Pick<Workspace, 'knowledge_bases' | 'faqs' | 'event_types'> {
  return {
    knowledge_bases: [{ id: `kb_${rng.hex(6)}`, name: 'Product handbook' }, { id: `kb_${rng.hex(6)}`, name: 'Pricing and plans' }],
    faqs: [{ id: `faq_${rng.hex(6)}`, question: 'What are your opening hours?' }, { id: `faq_${rng.hex(6)}`, question: 'Where are you located?' }],
    event_types: [{ id: `evt_type_${rng.hex(6)}`, name: 'Intro call', minutes: 15 }, { id: `evt_type_${rng.hex(6)}`, name: 'Demo', minutes: 30 }],
  };
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'workspace';

export function seedData(o: SeedOptions = {}): World {
  const seed = o.seed ?? DEFAULT_SEED;
  const clock = o.clock ?? realClock();
  const data: World = {
    version: 3,
    meta: {
      seed,
      rng: seedRng(seed),
      secret: randomBytes(32).toString('hex'),
      clock,
      default_api_key: '',
      default_workspace_id: '',
      next_seq: 1,
      next_phone_number_id: 1001,
    },
    organizations: [],
    workspaces: [],
    users: [],
    api_keys: [],
    contacts: [],
    calls: [],
    texts: [],
    emails: [],
    suppressions: [],
    idempotency: [],
    audit_log: [],
    timers: [],
    shared_numbers: [],
    quick_jobs: [],
    phone_numbers: [],
    opt_outs: [],
    webhooks: [],
    webhook_outbox: [],
    webhook_deliveries: [],
    hosts: [],
    videos: [],
    posts: [],
    social_connections: [],
    ledger: [],
    video_schedules: [],
    notifications: [],
    assistant_conversations: [],
  };
  const rng = new Rng(data.meta.rng);
  const { workspace, key } = addWorkspace(data, rng, clockNow(clock), 'Acme Sandbox');
  data.meta.default_api_key = key;
  data.meta.default_workspace_id = workspace.id;
  data.shared_numbers = seedSharedPool(clockNow(clock));
  return data;
}

interface OldAgent { id: string; name: string; prompt: string }

/**
 * An AI number's agent, once a copy, keeps what the user saw where its configuration still holds what
 * purchase put there: the agent's prompt over the workspace default prompt, and its name ("<business>
 * assistant", or the name given) over the configuration's default "<business> AI line". A configuration
 * that inherits the workspace's voice settings, or was changed, stays as it is.
 */
function keepAgent(n: PhoneNumber, agent: OldAgent, ws: Workspace): void {
  const voice = n.config.voice;
  if (voice === null) return;
  if (voice.prompt === ws.defaults.voice.prompt) voice.prompt = agent.prompt;
  if (n.config.name === agent.name.replace(/ assistant$/, ' AI line')) n.config.name = [...agent.name].slice(0, 100).join('');
}

/** Brings a data file written by an earlier version up to the current shape (new collections start empty). */
export function upgrade(data: World): World {
  // the next snapshot tells an older vmv, which could not read its journal, to keep away (model.ts World.version)
  if (data.version !== 3) data.version = 3;
  const hadSocial = Array.isArray(data.social_connections);
  const shape = seedData({ seed: data.meta.seed, clock: data.meta.clock });
  for (const k of Object.keys(shape) as (keyof World)[]) {
    // (`in`: a large value of the snapshot is parsed only when used)
    if (!(k in data)) (data as unknown as Record<string, unknown>)[k] = k === 'shared_numbers' ? shape.shared_numbers : Array.isArray(shape[k]) ? [] : shape[k];
  }
  data.meta.next_phone_number_id ??= shape.meta.next_phone_number_id;
  const rng = new Rng(data.meta.rng);
  for (const o of data.organizations) o.auto_recharge.card_declined ??= false;
  for (const w of data.workspaces) {
    w.plan = { ...PLAN_RATES, ...w.plan };
    w.usage ??= { period_start: w.created_at, call_seconds: 0, texts: 0 };
    w.defaults ??= workspaceDefaults();
    w.caller_ids ??= [];
    w.marketing_profile ??= DEFAULT_PROFILE(w.name);
    w.time_zone ??= null;
    if (!w.knowledge_bases) Object.assign(w, workspaceLibrary(rng));
    if (!hadSocial) for (const p of PLATFORMS) addSocialConnection(data, rng, Date.parse(w.created_at), w, p);
  }
  for (const sch of data.video_schedules) {
    sch.last_run_day ??= null;
    sch.notified_day ??= null;
  }
  for (const n of data.phone_numbers) {
    const old = n as unknown as { name?: string; business_name?: string | null; business_description?: string | null; agent?: OldAgent };
    n.stack ??= 't2';
    n.config ??= newConfig(old.name ?? 'Phone number', old);
    // the agent was a copy of its settings: its id is kept, its settings are the configuration's now
    n.agent_id ??= old.agent?.id ?? rng.uuid();
    if (old.agent) keepAgent(n, old.agent, data.workspaces.find((w) => w.id === n.workspace_id)!);
    delete old.agent;
    // before lines were charged monthly, the month paid at purchase was all: a number still provisioning
    // has that month as its line (refunded if it fails or is released), charged monthly from its purchase
    // as a fresh purchase is; a number already wired has no line
    if (n.line === undefined) {
      n.line = n.status === 'provisioning' ? { anchor_at: n.created_at, months: 1, suspended: false } : null;
      if (n.line) {
        const t = nextCharge(n);
        data.timers.push(timerRow(data.meta.next_seq++, t.atMs, t.type, t.payload));
      }
    }
  }
  return data;
}
