// The shape of the store. Money is integer cents inside; dollars appear only at the API edge.
import type { ClockState } from './core/clock.js';
import type { Stack, StoredConfig, WorkspaceDefaults } from './numbers/config.js';
import type { RngState } from './core/rng.js';
import type { AuditEntrySchema, CallOut, DeliveryAttemptSchema, ContactOut, EmailOut, SuppressionSchema, TextOut, TranscriptTurn } from './history/records.js';
import type { Infer } from './core/schema.js';
import type { QuickJobOut, QuickTargetOut } from './quick/jobs.js';
import type { PostOut, SocialConnectionOut, VideoOut } from './videos/records.js';
import type { Interview, Scene, Slide } from './videos/writer.js';
import type { MarketingProfile, PlannedVideo } from './schedules/director.js';
import type { Template } from './videos/catalog.js';
import type { ConversationOut, TranscriptEntry } from './assistant/records.js';
import type { Intent } from './assistant/agent.js';
import { raw, removeAt } from './store/tracker.js';

export const SCOPES = [
  'videos:read', 'videos:write', 'phone_numbers:read', 'phone_numbers:write', 'contacts:read',
  'calls:read', 'sms:read', 'email:read', 'assistant:read', 'assistant:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export interface Organization {
  id: string;
  name: string;
  wallet_cents: number;
  /** card_declined: a top-up is attempted and fails (PATCH /_sim/workspace simulates a declined card) */
  auto_recharge: { enabled: boolean; amount_cents: number; threshold_cents: number; card_declined: boolean };
}

/** The plan's rates for calls and texts on the workspace's numbers (billing.ts): included each month, then per unit from the wallet. */
export interface PlanRates { included_minutes: number; included_texts: number; minute_cents: number; text_cents: number }

export interface Workspace {
  id: string;
  organization_id: string;
  name: string;
  plan: { content: boolean; assistant: boolean; video_credits_cents: number } & PlanRates;
  /** what calls and texts on the workspace's numbers used in the plan month starting period_start (billing.ts) */
  usage: { period_start: string; call_seconds: number; texts: number };
  /** simulated rate limits (the real thresholds are not published) */
  rate_limits: { quick_emails_per_minute: number };
  /** recording downloads refused by compliance settings */
  recordings_disabled: boolean;
  /** times of recent quick-email requests, for the rate limit window */
  recent_quick_emails: number[];
  /** voice and sms settings numbers inherit until their first change */
  defaults: WorkspaceDefaults;
  /** caller IDs verified for outbound voice calls */
  caller_ids: string[];
  /** knowledge bases, FAQs and event types that exist (the API assigns them; it cannot create them) */
  /** the workspace's time zone (IANA), for "today" and "yesterday" in the assistant's answers; null: UTC */
  time_zone: string | null;
  /** what the AI director of video schedules reads */
  marketing_profile: MarketingProfile;
  knowledge_bases: { id: string; name: string }[];
  faqs: { id: string; question: string }[];
  event_types: { id: string; name: string; minutes: number }[];
  created_at: string;
}

export interface User { id: string; organization_id: string; name: string; email: string }

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

/** A contact as stored: the API's record plus the workspace it belongs to. */
export type Contact = ContactOut & { workspace_id: string };

export type { TranscriptTurn };

/** Stored records carry their workspace and creation order (`seq` breaks ties between records made at the same instant). */
interface Stored { seq: number; workspace_id: string }

/** A call as stored: the API's record without what is derived when presented (recording_url). */
export type CallRecord = Omit<CallOut, 'recording_url' | 'metadata'> & Stored & {
  /** what the caller of POST /v1/voice/calls attached */
  metadata?: Record<string, unknown>;
};

export type TextRecord = TextOut & Stored;
export type EmailRecord = EmailOut & Stored;

/** An address quick email skips, as stored (the API's record plus its workspace). */
export type Suppression = Infer<typeof SuppressionSchema> & { workspace_id: string };

export interface IdempotencyRecord {
  api_key_id: string;
  key: string;
  fingerprint: string;
  request_id: string;
  status: number;
  body: string;
  created_at_ms: number;
}

export type AuditEntry = Infer<typeof AuditEntrySchema> & { workspace_id: string };

/** A number of the service's shared sender pool (global: not any workspace's). */
export interface SharedNumber {
  phone_number: string;
  bought_at: string;
  /** UTC day (YYYY-MM-DD) the counts below belong to */
  usage_day: string;
  calls_today: number;
  texts_today: number;
}

export type { TargetStatus } from './quick/jobs.js';

/** A quick job's destination: what the job read shows of it, and what the machines keep beside. */
export type QuickTarget = QuickTargetOut & {
  contact_id: string | null;
  /** cancel asked while a call was connected: finish it, then stop */
  stop_after_call: boolean;
  /** the person has replied at least once (texts) */
  replied: boolean;
};

export interface QuickCallParams {
  instructions: string | null;
  opening_message: string | null;
  voice: string | null;
  voice_model_tier: string | null;
  language: string | null;
  retry_attempts: number;
  retry_delay_minutes: number;
  max_call_duration_seconds: number;
  voicemail_enabled: boolean;
  voicemail_message: string | null;
  contact_name: string | null;
}

export interface QuickTextParams {
  first_message: string | null;
  max_messages: number;
  conversation_timeout_hours: number;
}

/** A quick job: the fields the job read shows as stored, and what the machines keep beside. */
export type QuickJob = Pick<QuickJobOut, 'id' | 'kind' | 'status' | 'goal' | 'from_number' | 'target_count' | 'created_at' | 'completed_at'> & {
  seq: number;
  workspace_id: string;
  call: QuickCallParams | null;
  text: QuickTextParams | null;
  cost_cents: number;
  canceled: boolean;
  targets: QuickTarget[];
};

/** A number owned by a workspace (an AI number, or one added through the control plane). Ids are integers. */
export interface PhoneNumber {
  id: number;
  seq: number;
  workspace_id: string;
  phone_number: string | null;
  area_code: string | null;
  status: 'provisioning' | 'ready' | 'failed';
  stack: Stack;
  handles_calls: boolean;
  sms_registered: boolean;
  /** the id of the agent that answers it; the agent's settings are the number's configuration (numbers.ts agentView) */
  agent_id: string;
  config: StoredConfig;
  /** an AI number's monthly line (billing.ts); null for a number without one */
  line: Line | null;
  created_at: string;
}

/** An AI number's line: paid for the `months` from `anchor_at` (the next charge falls due then), or suspended owing one. */
export interface Line { anchor_at: string; months: number; suspended: boolean }

export interface OptOut { workspace_id: string; phone_number: string; at: string }

export type EventType = 'call.started' | 'call.ended' | 'sms.received';

/** A registered webhook: `call` (call.started, call.ended) or `sms` (sms.received). */
export interface Webhook {
  id: string;
  seq: number;
  workspace_id: string;
  kind: 'call' | 'sms';
  url: string;
  events: EventType[];
  phone_number_id: number | null;
  description: string | null;
  /** kept to sign deliveries; shown only in the creation reply */
  secret: string;
  created_at: string;
}

/** A line of the simulator's hosts table (/_sim/hosts): what a host name resolves to for webhook deliveries. */
export interface HostEntry {
  /** lower case, IDN as punycode, no final dot */
  name: string;
  addresses: string[];
}

/** One attempt at delivering one event to one webhook, waiting to be made (webhooks/delivery.ts). */
export interface OutboxEntry {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event_id: string;
  type: EventType;
  /** the exact bytes every attempt sends */
  body: string;
  /** 1 to 4 */
  attempt: number;
  /** simulator time of the first attempt: retries fall due at fixed offsets from it */
  first_at_ms: number;
  /** simulator time this attempt is made at */
  due_at_ms: number;
  /** wall-clock lease of the process making the attempt (null: not taken) */
  claimed_until: number | null;
  /** the taker's token: only the holder of the current lease records the result */
  claim?: string | null;
}

/** A line of the delivery log, as stored: one attempt made. */
export type DeliveryAttempt = Infer<typeof DeliveryAttemptSchema> & { seq: number; workspace_id: string };

/** A transition that falls due on the simulator clock (scheduler.ts). */
export interface Timer { id: string; at_ms: number; seq: number; type: string; payload: Record<string, unknown> }

/** A video as stored: the API's record without what is derived when presented (links, posts, dollars). */
export type VideoRecord = Omit<VideoOut, 'video_url' | 'thumbnail_url' | 'posts' | 'price_usd' | 'scenes' | 'slides' | 'interview'> & Stored & {
  scenes: Scene[] | null;
  slides: Slide[] | null;
  interview: Interview | null;
  /** scenario markers (#fail-render …) that have failed their stage once already */
  failures_spent: string[];
};

export type PostRecord = PostOut & Stored;
export type SocialConnection = SocialConnectionOut & Stored;

/** A video schedule as stored: the API's record less what is derived (the estimate), plus the director's bookkeeping. */
export interface VideoScheduleRecord {
  id: string;
  seq: number;
  workspace_id: string;
  name: string;
  videos_per_day: number;
  days_of_week: number[];
  post_hour: number;
  time_zone: string;
  starts_on: string;
  connection_ids: string[];
  direction: string | null;
  allowed_templates: Template[];
  video_settings: Record<string, unknown>;
  source_video_id: string | null;
  notify_hours_before: number;
  notify_by_email: boolean;
  status: 'active' | 'paused';
  last_error: string | null;
  skipped_days: string[];
  next_run_at: string | null;
  next_planning_at: string | null;
  last_run_at: string | null;
  /** the posting day last run (a day runs once) */
  last_run_day: string | null;
  /** the posting day whose plan was last emailed (a pause and resume does not send it twice) */
  notified_day: string | null;
  /** posting days run so far: the director rotates its choices with it */
  days_run: number;
  /** the next posting day's videos, once planned */
  plan: { day: string; planned_at: string; videos: PlannedVideo[] } | null;
  created_at: string;
  updated_at: string;
}

/** One tool call of an assistant run, as planned: approved, declined, or free; done once taken. */
export interface RunStep {
  tool_call_id: string;
  /** which request of the message it serves */
  clause: number;
  tool: string;
  input: Record<string, unknown>;
  /** why it waits for approval; null when free and reversible */
  approval: string | null;
  decision: 'approved' | 'declined' | null;
  reason: string | null;
  done: boolean;
}

/** An assistant conversation as stored: the API's record, its transcript, and the current run's plan. */
export type ConversationRecord = ConversationOut & {
  seq: number;
  workspace_id: string;
  /** the key whose message started the run: the actions run as it would */
  api_key_id: string | null;
  transcript: TranscriptEntry[];
  run: { message: string; intents: Intent[]; steps: RunStep[]; sentences: string[]; scratch: Record<number, unknown> } | null;
};

/** A notice the simulated service sent (GET /_sim/notifications). */
export interface Notification {
  seq: number;
  workspace_id: string;
  kind: 'schedule_planned';
  to: string;
  subject: string;
  body: string;
  schedule_id: string;
  at: string;
}

/** What moved money: a charge (video, line, call, text, quick_call, quick_text, email), an auto-recharge top-up, or the control plane setting the wallet. */
export const LEDGER_KINDS = ['video', 'line', 'call', 'text', 'quick_call', 'quick_text', 'email', 'recharge', 'wallet_set'] as const;

/** A movement of plan video credits or wallet money (money.ts writes them; GET /_sim/workspace shows the latest, GET /_sim/ledger all kept). */
export interface LedgerEntry {
  seq: number;
  workspace_id: string;
  at: string;
  kind: (typeof LEDGER_KINDS)[number];
  reference_id: string;
  description: string;
  credits_cents: number;
  wallet_cents: number;
  credits_after_cents: number;
  wallet_after_cents: number;
}

export interface Data {
  /**
   * The format, so that a vmv that cannot read a file refuses it rather than write over what it
   * does not understand: 3 since the journal holds removals (`del`, `trunc`: a vmv of version 2
   * would take the first as a torn tail and cut the journal there); 2 since the journal (a vmv
   * from before it reads only the snapshot); 1 a whole file without a journal. Older versions load
   * and are written as 3.
   */
  version: 3;
  meta: {
    seed: number;
    rng: RngState;
    /** signs cursors so they stay opaque and tamper-evident */
    secret: string;
    clock: ClockState;
    /** the seeded workspace's full-access key, for the embedded CLI and `sim serve --json` */
    default_api_key: string;
    default_workspace_id: string;
    next_seq: number;
    next_phone_number_id: number;
  };
  organizations: Organization[];
  workspaces: Workspace[];
  users: User[];
  api_keys: ApiKey[];
  contacts: Contact[];
  calls: CallRecord[];
  texts: TextRecord[];
  emails: EmailRecord[];
  suppressions: Suppression[];
  idempotency: IdempotencyRecord[];
  audit_log: AuditEntry[];
  timers: Timer[];
  shared_numbers: SharedNumber[];
  quick_jobs: QuickJob[];
  phone_numbers: PhoneNumber[];
  opt_outs: OptOut[];
  webhooks: Webhook[];
  webhook_outbox: OutboxEntry[];
  webhook_deliveries: DeliveryAttempt[];
  hosts: HostEntry[];
  videos: VideoRecord[];
  posts: PostRecord[];
  social_connections: SocialConnection[];
  ledger: LedgerEntry[];
  video_schedules: VideoScheduleRecord[];
  notifications: Notification[];
  assistant_conversations: ConversationRecord[];
}

/**
 * Keeps the latest `n` of workspace `workspaceId`'s entries in a log it has just appended one to: its
 * oldest goes (journaled as its place: a trim costs one entry, not the log).
 */
export function keepLatest<T extends { workspace_id: string }>(log: T[], workspaceId: string, n: number): void {
  if (log.length <= n) return;
  const stored = raw(log);
  let first = -1;
  let mine = 0;
  for (let i = 0; i < stored.length; i++) {
    if (stored[i].workspace_id !== workspaceId) continue;
    if (first < 0) first = i;
    mine++;
  }
  if (mine > n) removeAt(log, [first]);
}
