// What a new workspace and a new number start with: the workspace defaults that voice and sms
// inherit until a number changes them, and a number's configuration before any PATCH.
import type { StoredConfig, WorkspaceDefaults } from './config.js';

/** The voice and sms settings a new workspace gives its numbers until one is changed. */
export function workspaceDefaults(): WorkspaceDefaults {
  return {
    voice: {
      voice_id: 'ava',
      language: 'en-US',
      speed: 1,
      greeting_message: 'Thanks for calling! How can I help you today?',
      farewell_message: 'Thanks for calling. Goodbye!',
      prompt: 'You are a helpful, concise receptionist.',
      llm_model: 'gpt-4o-mini',
      background_sound: 'none',
      outbound_greeting: 'Hi, this is an AI assistant calling.',
      outbound_prompt: 'Be brief and polite.',
      voice_model_tier: 'standard',
    },
    sms: {
      auto_reply_enabled: false,
      reply_delay_seconds: 20,
      prompt: 'Answer texts briefly and helpfully.',
      language: 'en-US',
      llm_model: 'gpt-4o-mini',
      stop_words: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'],
      stop_after_replies: false,
      max_replies_per_contact: 50,
    },
  };
}

/** A new number's configuration: voice and sms inherit (null), every feature off. */
export function newConfig(
  name: string,
  o: { business_name?: string | null; business_description?: string | null } = {},
): StoredConfig {
  return {
    name,
    is_active: true,
    business_name: o.business_name ?? null,
    business_description: o.business_description ?? null,
    timezone: 'America/New_York',
    call_settings: {
      max_call_length_seconds: 1800,
      recording_enabled: true,
      transcription_enabled: true,
      summaries_enabled: true,
      recording_retention_days: 90,
      hd_voice_enabled: false,
    },
    voice: null,
    sms: null,
    knowledge: { knowledge_base_ids: [], faq_ids: [], knowledge_base_enabled: false, web_search_enabled: false },
    qualification: { enabled: false, collect_fields: ['name', 'phone_number'], questions: [] },
    booking: {
      enabled: false,
      event_type_ids: [],
      bookable_days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      bookable_hours_start: '09:00',
      bookable_hours_end: '17:00',
      minimum_notice_minutes: 60,
      confirmation_message: 'You are booked. See you then!',
    },
    transfers: {
      primary_transfer_number: null,
      office_hours_only: false,
      office_hours_start: '09:00',
      office_hours_end: '17:00',
      rules: [],
    },
    sms_referrals: [],
    forwarding: {
      mode: 'ai_answers_all',
      ring_strategy: 'single',
      forward_to_number: null,
      ring_timeout_seconds: 20,
      sequential_targets: [],
    },
    ivr: {
      enabled: false,
      greeting: '',
      menus: [],
      timeout_seconds: 8,
      max_attempts: 3,
      fallback: { type: 'ai_agent', phone_number: null },
    },
    ivr_ever_enabled: false,
  };
}
