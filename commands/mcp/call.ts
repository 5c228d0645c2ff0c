// One tool call: its arguments become the route's request (the id argument the path, the rest the
// query or the body), sent to the target through the CLI's one client, so the API validates and
// answers exactly as over HTTP. Its reply becomes the tool result: structured content and a short
// text, the audio of a recording, or (any error) isError with the API's code, message and fields.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient, ApiResponse } from '../../src/client.js';
import { CliError, type Envelope } from '../../src/errors.js';
import type { McpTool } from '../../simulator/index.js';
import { renderReply } from './render.js';

type Args = Record<string, unknown>;
type QueryValue = string | number | boolean | undefined | null;

/** An error result: the error envelope as the API words it (its text is the envelope's JSON). */
export function errorResult(envelope: Envelope, status?: number): CallToolResult {
  const { code, message, fields } = envelope.error;
  const lines = [`${code}${status ? ` (HTTP ${status})` : ''}: ${message}`, ...Object.entries(fields ?? {}).map(([k, v]) => `- ${k}: ${v}`)];
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }, { type: 'text', text: lines.join('\n') }] };
}

/** The code of an error result. */
export const errorCodeOf = (r: CallToolResult): string => (JSON.parse((r.content[0] as { text: string }).text) as Envelope).error.code;

/** Query values are text: numbers and booleans as written, lists and objects as their JSON (the API then says what it wanted). */
function queryOf(q: Args): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(q)) out[k] = v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v) ? (v as QueryValue) : JSON.stringify(v);
  return out;
}

/** The API's envelope of an error reply, its path `id` named as the tool names it. */
function envelopeOf(tool: McpTool, res: ApiResponse): Envelope {
  let env: Envelope;
  try {
    env = res.json<Envelope>();
    if (typeof env?.error?.code !== 'string') throw new Error();
  } catch {
    return { error: { code: `http_${res.status}`, message: `The service answered ${res.status} without an error body.` } };
  }
  const fields = env.error.fields;
  if (tool.idArg && fields && Object.hasOwn(fields, 'id')) {
    const renamed: Record<string, string> = {};
    for (const [k, v] of Object.entries(fields)) renamed[k === 'id' ? tool.idArg : k] = v;
    env = { error: { ...env.error, fields: renamed } };
  }
  return env;
}

export async function callTool(tool: McpTool, given: Args | undefined, client: ApiClient): Promise<CallToolResult> {
  const args: Args = { ...tool.defaults, ...given };
  // the path needs its id before anything can be sent; the API's words for a missing field
  if (tool.idArg && (args[tool.idArg] === undefined || args[tool.idArg] === null))
    return errorResult({ error: { code: 'validation_error', message: 'The request is invalid.', fields: { [tool.idArg]: 'is required' } } }, 400);
  const req = tool.call(args);
  let res: ApiResponse;
  try {
    res = await client.request(req.method, req.path, { query: req.query && queryOf(req.query), body: req.body });
  } catch (e) {
    const message = e instanceof CliError ? [e.message, e.hint].filter(Boolean).join(' ') : (e as Error)?.message ?? String(e);
    return errorResult({ error: { code: e instanceof CliError ? 'network_error' : 'internal_error', message } });
  }
  if (res.status >= 400) return errorResult(envelopeOf(tool, res), res.status);
  if (tool.binary) {
    const mimeType = (res.headers['content-type'] ?? tool.binary).split(';')[0].trim();
    const kind = mimeType.startsWith('audio/') ? 'audio' : 'image';
    return {
      content: [
        { type: kind, data: res.body.toString('base64'), mimeType },
        { type: 'text', text: `${tool.reply}: ${mimeType}, ${res.body.length} bytes.` },
      ],
    };
  }
  const body = res.body.length === 0 ? {} : res.json<Record<string, unknown>>();
  return { structuredContent: body, content: [{ type: 'text', text: renderReply(tool, body) }] };
}
