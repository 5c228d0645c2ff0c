// What `vmv mcp` offers beyond the assistant's tools (assistant/tools.ts): the routes an agent needs
// to find ids (the workspace's numbers, an AI number while it provisions) and the rest a user would
// want from an agent (placing and hanging up a call, searching and releasing numbers, webhooks);
// the toolsets they are grouped in (as GitHub's MCP server groups its tools: a default set, more to
// add by name); and, for tools that overlap, the sentence that says when to use which.
import { tool, type Tool } from '../assistant/index.js';

/** A call's price where the route names none in USD: the plan's words. */
const CALL_PRICE =
  "a call from one of the workspace's numbers draws the plan's included minutes, then bills at the plan's rate per minute (by the second) when it ends";

/** The tools only the MCP server has (the assistant acts with its own table). */
export const MCP_ONLY: Record<string, Tool> = {
  list_phone_numbers: tool({ method: 'GET', path: '/v1/phone-numbers' }),
  get_ai_number: tool({ method: 'GET', path: '/v1/quick/ai-numbers/{id}', id: 'phone_number_id' }),
  search_phone_numbers: tool({ method: 'GET', path: '/v1/phone-numbers/search', readOnly: true }),
  release_phone_number: tool({
    method: 'DELETE',
    path: '/v1/phone-numbers/{id}',
    id: 'phone_number_id',
    destructive: true,
    idempotent: true,
    openWorld: true,
  }),
  place_call: tool({ method: 'POST', path: '/v1/voice/calls', openWorld: true, spends: CALL_PRICE }),
  hang_up_call: tool({
    method: 'POST',
    path: '/v1/voice/calls/{id}/hangup',
    id: 'call_id',
    destructive: true,
    idempotent: true,
    openWorld: true,
  }),
  create_call_webhook: tool({ method: 'POST', path: '/v1/voice/calls/webhooks', openWorld: true }),
  list_call_webhooks: tool({ method: 'GET', path: '/v1/voice/calls/webhooks' }),
  delete_call_webhook: tool({
    method: 'DELETE',
    path: '/v1/voice/calls/webhooks/{id}',
    id: 'webhook_id',
    destructive: true,
    idempotent: true,
  }),
  test_call_webhook: tool({
    method: 'POST',
    path: '/v1/voice/calls/webhooks/{id}/test',
    id: 'webhook_id',
    openWorld: true,
  }),
  create_text_webhook: tool({ method: 'POST', path: '/v1/sms/webhooks', openWorld: true }),
  list_text_webhooks: tool({ method: 'GET', path: '/v1/sms/webhooks' }),
  delete_text_webhook: tool({
    method: 'DELETE',
    path: '/v1/sms/webhooks/{id}',
    id: 'webhook_id',
    destructive: true,
    idempotent: true,
  }),
  test_text_webhook: tool({ method: 'POST', path: '/v1/sms/webhooks/{id}/test', id: 'webhook_id', openWorld: true }),
};

export interface Toolset {
  description: string;
  tools: string[];
}

/**
 * The toolsets, in listing order. The default ones hold every tool the spec names (history,
 * numbers' configuration, the assistant, every quick action) and the reads a model needs to find
 * their ids; the others are added by name (`--toolsets videos,calls`, or `all`). Each holds the
 * reads that find its tools' ids (a test walks them), so a toolset may share a read with another.
 */
export const TOOLSETS: Record<string, Toolset> = {
  history: {
    description: 'calls, texts, emails and contacts: the conversation history (reads)',
    tools: [
      'list_contacted_people',
      'get_contact',
      'get_call_transcripts',
      'get_text_history',
      'get_email_history',
      'list_calls',
      'get_call',
      'get_call_recording',
      'list_messages',
      'list_emails',
      'list_contacts',
    ],
  },
  numbers: {
    description: "the workspace's phone numbers and their AI agents' configuration",
    tools: ['list_phone_numbers', 'get_phone_number_config', 'update_phone_number_config', 'list_phone_number_voices'],
  },
  assistant: {
    description: "the workspace's assistant agent",
    tools: ['ask_assistant', 'get_assistant_conversation', 'list_assistant_conversations'],
  },
  quick: {
    description: 'quick actions: AI calls, AI texts, AI numbers and email',
    tools: [
      'create_quick_ai_call',
      'create_quick_ai_text',
      'create_quick_ai_number',
      'get_ai_number',
      'send_quick_email',
      'get_quick_action',
      'cancel_quick_action',
    ],
  },
  calls: {
    description: 'voice calls placed and hung up directly; numbers searched and released',
    tools: ['list_phone_numbers', 'place_call', 'hang_up_call', 'search_phone_numbers', 'release_phone_number'],
  },
  videos: {
    description: 'short social videos: price, make, approve, post',
    tools: [
      'quote_video',
      'create_video',
      'list_videos',
      'get_video',
      'approve_video',
      'retry_video',
      'delete_video',
      'list_video_music',
      'list_social_connections',
      'post_video',
      'list_video_posts',
      'cancel_video_post',
    ],
  },
  schedules: {
    description: 'video schedules: videos made and posted on a calendar (with the reads that find their ids)',
    tools: [
      'list_social_connections',
      'list_videos',
      'list_video_music',
      'create_video_schedule',
      'list_video_schedules',
      'get_video_schedule',
      'update_video_schedule',
      'delete_video_schedule',
      'skip_video_schedule_day',
      'list_video_schedule_videos',
    ],
  },
  webhooks: {
    description: 'call and text webhooks: register, list, test, delete',
    tools: [
      'list_phone_numbers',
      'create_call_webhook',
      'list_call_webhooks',
      'test_call_webhook',
      'delete_call_webhook',
      'create_text_webhook',
      'list_text_webhooks',
      'test_text_webhook',
      'delete_text_webhook',
    ],
  },
};

export const DEFAULT_TOOLSETS = ['history', 'numbers', 'assistant', 'quick'];

/**
 * For tools that overlap, when to use which: the sentence that opens the tool's description after
 * its summary (a model picks by description; the route's words alone do not tell them apart).
 */
export const WHEN: Record<string, string> = {
  list_contacted_people: 'list_contacts answers the same list (the spec names both): use either.',
  list_contacts: 'The same list as list_contacted_people (the spec names both): use either.',
  get_call_transcripts:
    "Use it for one person's calls with their transcripts (by phone_number or contact_id); list_calls lists the workspace's calls without transcripts.",
  list_calls:
    "Use it to list or filter the workspace's calls (one person's too), without transcripts and details unless include_details; get_call_transcripts gives one person's calls with transcripts.",
  get_text_history:
    "Use it for one person's texts (by phone_number or contact_id); list_messages lists every text of the workspace, filterable.",
  list_messages: "Use it to list or filter every text of the workspace; get_text_history gives one person's texts.",
  get_email_history: 'list_emails answers the same (the spec names both): use either.',
  list_emails: 'The same as get_email_history (the spec names both): use either.',
  get_quick_action:
    'Use it for a quick AI call or text job (its job_id); an AI number is read with get_ai_number, even while it provisions.',
  get_ai_number:
    "Use it right after create_quick_ai_number (its id is the number's phone_number_id; get_quick_action reads call and text jobs only): the only read that sees the number while it provisions, and its failure.",
  get_phone_number_config:
    'Use it for a ready number (list_phone_numbers gives their ids); an AI number still provisioning is read with get_ai_number.',
  list_videos:
    'Use it to find videos and their state, without their details unless include_details; get_video gives one whole.',
  list_video_schedule_videos:
    'Use it for the videos one schedule made, without their details unless include_details; get_video gives one whole.',
  place_call:
    "Use it for a plain call from a verified caller ID or one of the workspace's numbers; create_quick_ai_call has an AI agent call people toward a goal.",
};
