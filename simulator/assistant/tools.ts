// The tools the assistant acts with: each is an API route (the same operations as a key of the
// workspace would call: they validate, bill, appear in history and fire webhooks), named as the MCP
// server names them. What a tool costs, or whether it can be undone, decides whether it waits for
// approval.
import { CALL_MINUTE_CENTS, CALL_START_CENTS, TEXT_MESSAGE_CENTS } from '../machines/jobs.js';

export interface ToolCall { method: 'GET' | 'POST' | 'PATCH'; path: string; query?: Record<string, string | number | undefined>; body?: unknown }

export interface Tool {
  /** the API call the tool makes with its input */
  call: (input: Record<string, any>) => ToolCall;
  /** why it waits for approval (what it does and costs), or null when it is free and can be undone */
  approval: (input: Record<string, any>, extra: { price_usd?: string }) => string | null;
}

const usd = (cents: number) => (cents / 100).toFixed(2);
const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));
const enc = encodeURIComponent;

export const TOOLS: Record<string, Tool> = {
  create_quick_ai_text: {
    call: (i) => ({ method: 'POST', path: '/v1/quick/ai-texts', body: i }),
    approval: (i) => `Starts an AI text conversation with ${list(i.to_numbers)} toward "${i.goal}": ${usd(TEXT_MESSAGE_CENTS)} USD per message the agent sends (up to 5 per person), from the wallet. Texts cannot be unsent.`,
  },
  create_quick_ai_call: {
    call: (i) => ({ method: 'POST', path: '/v1/quick/ai-calls', body: i }),
    approval: (i) => `Places an AI call to ${list(i.to_numbers)} toward "${i.goal}": ${usd(CALL_START_CENTS)} USD per call placed (up to 3 attempts) plus ${usd(CALL_MINUTE_CENTS)} USD a minute, from the wallet. A call cannot be taken back.`,
  },
  send_quick_email: {
    call: (i) => ({ method: 'POST', path: '/v1/quick/emails', body: i }),
    approval: (i) => `Sends the email "${i.subject}" to ${list(i.to)}: 0.01 USD per recipient, from the wallet. Email cannot be unsent.`,
  },
  create_video: {
    call: (i) => ({ method: 'POST', path: '/v1/videos', body: i }),
    approval: (i, x) => `Makes a ${i.target_duration_seconds}-second ${i.template} video about "${i.source_text}": about ${x.price_usd} USD, charged once its script is written (plan video credits first, then the wallet).`,
  },
  quote_video: { call: (i) => ({ method: 'POST', path: '/v1/videos/quote', body: i }), approval: () => null },
  list_calls: { call: (i) => ({ method: 'GET', path: '/v1/calls', query: i }), approval: () => null },
  get_call: { call: (i) => ({ method: 'GET', path: `/v1/calls/${enc(i.call_id)}` }), approval: () => null },
  list_messages: { call: (i) => ({ method: 'GET', path: '/v1/messages', query: i }), approval: () => null },
  list_contacts: { call: (i) => ({ method: 'GET', path: '/v1/contacts', query: i }), approval: () => null },
  list_video_schedules: { call: (i) => ({ method: 'GET', path: '/v1/video-schedules', query: i }), approval: () => null },
  update_phone_number_config: {
    call: ({ phone_number_id, ...patch }) => ({ method: 'PATCH', path: `/v1/phone-numbers/${enc(String(phone_number_id))}/config`, body: patch }),
    approval: () => null, // free, and undone by changing it back
  },
};
