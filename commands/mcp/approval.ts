// A human says yes before money is spent. Where the client supports MCP elicitation, a tool that
// spends asks the person at the client (what will happen, what it costs) before it calls the API,
// and ask_assistant asks them about each action the assistant wants to take that costs money or
// cannot be undone, then sends their answers. Where the client does not, a spending tool's
// description says that no one will be asked (so the model asks first), and ask_assistant returns
// its pending approvals for a person to answer (`vmv assistant approve`), never taking the calling
// model's word for them, unless `vmv mcp --allow-model-approvals` was given.
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../../src/client.js';
import type { McpTool } from '../../simulator/index.js';
import { errorResult } from './call.js';

type Args = Record<string, unknown>;
type Obj = Record<string, unknown>;

/** Asks the person at the client; absent where the client cannot be asked. */
export type Ask = (message: string) => Promise<ElicitResult>;

/** The form a person answers: one yes or no. */
export const APPROVE_FORM = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Approve', description: 'Go ahead and spend it (true) or not (false)' },
  },
  required: ['approve'],
};

/** Said in a spending tool's description where the client cannot ask its person. */
export const UNASKED =
  'This client cannot ask its user to confirm (no MCP elicitation), so vmv will not: confirm the cost with the user before calling.';

/** A video's price before it is made (quote_video, free) or approved (its record), in USD; null if unknown. */
async function videoPrice(tool: McpTool, args: Args, client: ApiClient): Promise<string | null> {
  const res =
    tool.name === 'create_video'
      ? await client.request('POST', '/v1/videos/quote', { body: args })
      : await client.request('GET', `/v1/videos/${encodeURIComponent(String(args.video_id))}`);
  if (res.status >= 400) return null;
  const d = res.json<{ data: Obj }>().data;
  return typeof d.price_usd === 'string' || typeof d.price_usd === 'number' ? String(d.price_usd) : null;
}

/** What the person is asked: what the call will do, what it costs, with which arguments. */
async function question(tool: McpTool, args: Args, client: ApiClient): Promise<string> {
  const price =
    tool.name === 'create_video' || tool.name === 'approve_video' ? await videoPrice(tool, args, client) : null;
  const said = tool.approval(args, price ? { price_usd: price } : {});
  return [
    `${tool.title} (${tool.name}) spends money.`,
    said ?? undefined,
    price ? `Price: ${price} USD.` : undefined,
    `Cost: ${tool.spends}.`,
    `Arguments: ${JSON.stringify(args)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The result when the person said no (or closed the question): nothing was called, nothing spent. */
function notApproved(tool: McpTool, r: ElicitResult): CallToolResult {
  const how = { accept: 'answered no', decline: 'declined', cancel: 'dismissed the question' }[r.action];
  return errorResult({
    error: {
      code: 'not_approved',
      message: `The user ${how}: ${tool.name} was not called and nothing was spent. Do not retry unless they ask.`,
    },
  });
}

/** Before a spending tool runs: null to go ahead, or the result to give instead (not approved). */
export async function approveSpending(
  tool: McpTool,
  args: Args,
  client: ApiClient,
  ask: Ask | undefined,
): Promise<CallToolResult | null> {
  if (!tool.spends || !ask || tool.name === 'ask_assistant') return null;
  const r = await ask(await question(tool, { ...tool.defaults, ...args }, client));
  return r.action === 'accept' && r.content?.approve === true ? null : notApproved(tool, r);
}

/** An assistant conversation's pending approvals. */
const pendingOf = (c: Obj | undefined): Obj[] =>
  Array.isArray(c?.pending_approvals) ? (c.pending_approvals as Obj[]) : [];

/**
 * After ask_assistant's run: each pending approval put to the person, their answers sent in one
 * request (the assistant goes on), again while the run asks for more; the last reply is returned.
 */
export async function answerApprovals(
  result: CallToolResult,
  ask: Ask,
  send: (approvals: Obj[], conversationId: string) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  let r = result;
  for (let round = 0; round < 10 && !r.isError; round++) {
    const c = (r.structuredContent as { data?: Obj } | undefined)?.data;
    const pending = pendingOf(c);
    if (pending.length === 0) return r;
    const approvals: Obj[] = [];
    for (const p of pending) {
      const a = await ask(
        `The assistant wants to use ${String(p.tool)}: ${String(p.reason)}\nWith: ${JSON.stringify(p.input)}`,
      );
      const approved = a.action === 'accept' && a.content?.approve === true;
      approvals.push({
        approval_id: p.approval_id,
        approved,
        ...(approved ? {} : { reason: 'The user did not approve it.' }),
      });
    }
    r = await send(approvals, String(c!.conversation_id));
  }
  return r;
}
