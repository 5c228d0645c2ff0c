// The tools: each is one API route (the same operation a key of the workspace would call: it
// validates, bills, appears in history and fires webhooks), under the name the MCP server gives it
// (`vmv mcp`, built from this table and the route declarations: simulator/mcp/tools.ts) and the
// assistant acts with. A tool's arguments are the route's: the path's {id} under the name given
// here, the rest the query (GET) or the body. What a tool costs, or whether it can be undone,
// decides whether the assistant waits for approval; the MCP server says it in the description.
import { CALL_MINUTE_CENTS, CALL_START_CENTS, TEXT_MESSAGE_CENTS, PER_RECIPIENT_CENTS } from '../quick/index.js';
import { price } from '../billing/index.js';
import { LINE_CENTS_PER_MONTH } from '../numbers/index.js';

export interface ToolCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, any>;
  body?: unknown;
}

export interface ToolRoute {
  method: ToolCall['method'];
  /** the route's path as declared, e.g. /v1/calls/{id} */
  path: string;
  /** the argument that fills the path's {id} (call_id, phone_number_id …) */
  id?: string;
  /** the MCP annotations beyond what the method says (GET reads; anything else writes) */
  readOnly?: boolean;
  /** it deletes, cancels or overwrites what cannot be had back as it was */
  destructive?: boolean;
  /** calling it again with the same arguments has no further effect */
  idempotent?: boolean;
  /** it reaches people or services outside the workspace (calls, texts, email, carriers, social platforms) */
  openWorld?: boolean;
  /**
   * It spends money: 'route' takes the route description's sentence that prices it (the one that
   * names USD); a string says it where the route has no such sentence.
   */
  spends?: 'route' | string;
  /** arguments the MCP tool defaults otherwise than the route (said in its input schema) */
  mcpDefaults?: Record<string, { value: unknown; why: string }>;
  /** what the MCP tool says instead of the route's description, where that speaks of what the tool does otherwise */
  mcpDescription?: string;
}

export interface Tool extends ToolRoute {
  /** the API call the tool makes with its input */
  call: (input: Record<string, any>) => ToolCall;
  /** why the assistant waits for approval (what it does and costs), or null when it is free and can be undone */
  approval: (input: Record<string, any>, extra: { price_usd?: string }) => string | null;
}

const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));

/** The request a tool's input makes: {id} from its id argument, the rest the query (GET) or the body. */
function callOf(r: ToolRoute, input: Record<string, any>): ToolCall {
  const { [r.id ?? '']: id, ...rest } = input;
  const path = r.id ? r.path.replace('{id}', encodeURIComponent(String(id))) : r.path;
  return r.method === 'GET'
    ? { method: r.method, path, query: r.id ? rest : input }
    : { method: r.method, path, body: r.id ? rest : input };
}

const free = () => null;
/** A tool from its route: the request its input makes, and whether the assistant asks before taking it. */
export function tool(r: ToolRoute, approval: Tool['approval'] = free): Tool {
  return { ...r, call: (input) => callOf(r, input), approval };
}

/** What a video costs, and where the money comes from (spec Part 4 Videos, pricing rules). */
const VIDEO_CHARGE = "the provider's cost plus a small markup, from plan video credits first, then the prepaid balance";
const VIDEO_PRICE =
  `the video's price (quote_video gives it, free), charged once when the video is released to render: at creation with an own script, ` +
  `otherwise when its script is approved; ${VIDEO_CHARGE}; cap it with max_price_cents`;
const SCHEDULE_VIDEOS = `every video it makes is charged when its script is approved, like any video: its price (estimated_price_cents_per_video estimates it), ${VIDEO_CHARGE}`;

export const TOOLS: Record<string, Tool> = {
  // ---- conversation history and contacts: free reads ----
  list_contacted_people: tool({ method: 'GET', path: '/v1/history/people' }),
  get_contact: tool({ method: 'GET', path: '/v1/contacts/{id}', id: 'contact_id' }),
  get_call_transcripts: tool({ method: 'GET', path: '/v1/history/calls' }),
  get_text_history: tool({ method: 'GET', path: '/v1/history/texts' }),
  get_email_history: tool({ method: 'GET', path: '/v1/history/emails' }),
  list_calls: tool({ method: 'GET', path: '/v1/calls' }),
  get_call: tool({ method: 'GET', path: '/v1/calls/{id}', id: 'call_id' }),
  get_call_recording: tool({ method: 'GET', path: '/v1/calls/{id}/recording', id: 'call_id' }),
  list_messages: tool({ method: 'GET', path: '/v1/messages' }),
  list_emails: tool({ method: 'GET', path: '/v1/emails' }),
  list_contacts: tool({ method: 'GET', path: '/v1/contacts' }),

  // ---- number configuration ----
  get_phone_number_config: tool({ method: 'GET', path: '/v1/phone-numbers/{id}/config', id: 'phone_number_id' }),
  // free, and undone by changing it back (the assistant does not ask); the old values are gone, though
  update_phone_number_config: tool({
    method: 'PATCH',
    path: '/v1/phone-numbers/{id}/config',
    id: 'phone_number_id',
    destructive: true,
    idempotent: true,
  }),
  list_phone_number_voices: tool({ method: 'GET', path: '/v1/phone-numbers/{id}/voices', id: 'phone_number_id' }),

  // ---- the assistant ----
  ask_assistant: tool({
    // an approved action may be irreversible, and free ones (a number's greeting) run without asking
    method: 'POST',
    path: '/v1/assistant/messages',
    openWorld: true,
    destructive: true,
    mcpDescription:
      'A `message` starts a run (a new conversation without `conversation_id`): the assistant thinks, then takes its actions through the API, ' +
      "running free, reversible ones (history reads, a number's greeting) at once and listing those that cost money or cannot be undone in `pending_approvals`, " +
      'each with what it costs. `approvals` answers every pending approval in one call. The call waits up to `wait_seconds` (default 45 here, at most 240; ' +
      '0 answers at once; a simulator whose clock is manual answers at once) and returns the conversation: `working` means it goes on; read it with get_assistant_conversation. ' +
      'A message while the run is working or approvals are pending is 409 `conflict`.',
    spends:
      'messaging is free, but an action approved in `approvals` is billed as that action is, and each pending approval says what it costs: ' +
      `an AI call ${price(CALL_START_CENTS)} per call placed plus ${price(CALL_MINUTE_CENTS)} a minute, an AI text ${price(TEXT_MESSAGE_CENTS)} per message, ` +
      `an email ${price(PER_RECIPIENT_CENTS)} per recipient, a video its price`,
    mcpDefaults: {
      wait_seconds: {
        value: 45,
        why: 'default 45 here (the MCP default), at most 240; 0 answers at once; a simulator on a manual clock always answers at once',
      },
    },
  }),
  get_assistant_conversation: tool({ method: 'GET', path: '/v1/assistant/conversations/{id}', id: 'conversation_id' }),
  list_assistant_conversations: tool({ method: 'GET', path: '/v1/assistant/conversations' }),

  // ---- quick actions ----
  create_quick_ai_call: tool(
    { method: 'POST', path: '/v1/quick/ai-calls', openWorld: true, spends: 'route' },
    (i) =>
      `Places an AI call to ${list(i.to_numbers)} toward "${i.goal}": ${price(CALL_START_CENTS)} per call placed (up to 3 attempts) plus ${price(CALL_MINUTE_CENTS)} a minute, from the wallet. A call cannot be taken back.`,
  ),
  create_quick_ai_text: tool(
    { method: 'POST', path: '/v1/quick/ai-texts', openWorld: true, spends: 'route' },
    (i) =>
      `Starts an AI text conversation with ${list(i.to_numbers)} toward "${i.goal}": ${price(TEXT_MESSAGE_CENTS)} per message the agent sends (up to 5 per person), from the wallet. Texts cannot be unsent.`,
  ),
  create_quick_ai_number: tool(
    {
      method: 'POST',
      path: '/v1/quick/ai-numbers',
      openWorld: true,
      spends: 'route',
      mcpDescription:
        'Buys a phone number in `area_code` whose AI agent answers calls (and, with handle_texts, texts) for the business. ' +
        "The reply's `id` is the number's `phone_number_id` (get_phone_number_config, update_phone_number_config); `phone_number` is null while the line is " +
        "wired (about a minute) and set once it is ready. The first month's line charge is taken at once, from the wallet, then one each month " +
        '(a month the wallet cannot pay suspends the number until it is topped up).',
    },
    (i) =>
      `Buys a phone number in area code ${i.area_code} with an AI agent that answers its calls: ${price(LINE_CENTS_PER_MONTH)} a month for the line, the first month taken at once from the wallet, then each month until it is released.`,
  ),
  send_quick_email: tool(
    { method: 'POST', path: '/v1/quick/emails', openWorld: true, spends: 'route' },
    (i) =>
      `Sends the email "${i.subject}" to ${list(i.to)}: ${price(PER_RECIPIENT_CENTS)} per recipient, from the wallet. Email cannot be unsent.`,
  ),
  get_quick_action: tool({ method: 'GET', path: '/v1/quick/actions/{id}', id: 'job_id' }),
  cancel_quick_action: tool({
    method: 'POST',
    path: '/v1/quick/actions/{id}/cancel',
    id: 'job_id',
    destructive: true,
    idempotent: true,
  }),

  // ---- videos ----
  quote_video: tool({ method: 'POST', path: '/v1/videos/quote', readOnly: true }),
  create_video: tool(
    { method: 'POST', path: '/v1/videos', spends: VIDEO_PRICE },
    (i, x) =>
      `Makes a ${i.target_duration_seconds}-second ${i.template} video about "${i.source_text}": about ${x.price_usd} USD, charged once its script is written (plan video credits first, then the wallet).`,
  ),
  list_videos: tool({ method: 'GET', path: '/v1/videos' }),
  get_video: tool({ method: 'GET', path: '/v1/videos/{id}', id: 'video_id' }),
  approve_video: tool({ method: 'POST', path: '/v1/videos/{id}/approve', id: 'video_id', spends: VIDEO_PRICE }),
  retry_video: tool({ method: 'POST', path: '/v1/videos/{id}/retry', id: 'video_id' }),
  delete_video: tool({
    method: 'DELETE',
    path: '/v1/videos/{id}',
    id: 'video_id',
    destructive: true,
    idempotent: true,
  }),
  list_video_music: tool({ method: 'GET', path: '/v1/videos/music' }),
  list_social_connections: tool({ method: 'GET', path: '/v1/social-connections' }),
  post_video: tool({ method: 'POST', path: '/v1/videos/{id}/posts', id: 'video_id', openWorld: true }),
  list_video_posts: tool({ method: 'GET', path: '/v1/videos/{id}/posts', id: 'video_id' }),
  cancel_video_post: tool({
    method: 'DELETE',
    path: '/v1/posts/{id}',
    id: 'post_id',
    destructive: true,
    idempotent: true,
  }),

  // ---- video schedules ----
  create_video_schedule: tool({
    method: 'POST',
    path: '/v1/video-schedules',
    openWorld: true,
    spends: `the schedule itself is free, but ${SCHEDULE_VIDEOS}`,
  }),
  list_video_schedules: tool({ method: 'GET', path: '/v1/video-schedules' }),
  get_video_schedule: tool({ method: 'GET', path: '/v1/video-schedules/{id}', id: 'schedule_id' }),
  update_video_schedule: tool({
    method: 'PATCH',
    path: '/v1/video-schedules/{id}',
    id: 'schedule_id',
    destructive: true,
    idempotent: true,
    openWorld: true,
    spends: `changing a schedule is free, but while it is active ${SCHEDULE_VIDEOS}`,
  }),
  delete_video_schedule: tool({
    method: 'DELETE',
    path: '/v1/video-schedules/{id}',
    id: 'schedule_id',
    destructive: true,
    idempotent: true,
  }),
  skip_video_schedule_day: tool({ method: 'POST', path: '/v1/video-schedules/{id}/skip', id: 'schedule_id' }),
  list_video_schedule_videos: tool({ method: 'GET', path: '/v1/video-schedules/{id}/videos', id: 'schedule_id' }),
};
