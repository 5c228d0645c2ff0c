// What numbers keep: the workspace's phone numbers (AI numbers and numbers added through the control
// plane) with their configuration and monthly line, and the workspace's voice and sms defaults.
import type { Stack, StoredConfig, WorkspaceDefaults } from './config.js';

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
export interface Line {
  anchor_at: string;
  months: number;
  suspended: boolean;
}

declare module '../core/world.js' {
  interface World {
    phone_numbers: PhoneNumber[];
  }
  interface Meta {
    next_phone_number_id: number;
  }
  interface Workspace {
    /** voice and sms settings numbers inherit until their first change */
    defaults: WorkspaceDefaults;
    /** caller IDs verified for outbound voice calls */
    caller_ids: string[];
    /** knowledge bases, FAQs and event types that exist (the API assigns them; it cannot create them) */
    knowledge_bases: { id: string; name: string }[];
    faqs: { id: string; question: string }[];
    event_types: { id: string; name: string; minutes: number }[];
  }
}
