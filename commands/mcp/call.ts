// One tool call: its arguments become the route's request (the id argument the path, the rest the
// query or the body), sent to the target through the CLI's one client, so the API validates and
// answers exactly as over HTTP. Its reply becomes the tool result: structured content and the same
// data as compact JSON text (what the MCP spec recommends: hosts pick one of the two), links to
// the files it names as MCP resources (a recording's bytes only when asked), or (any error)
// isError with the API's code, message and fields.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  errorEnvelope,
  newIdempotencyKey,
  type ApiClient,
  type ApiResponse,
  type RequestOptions,
} from '../../src/client.js';
import { CliError, type Envelope } from '../../src/errors.js';
import type { McpTool } from '../../simulator/index.js';
import { fileLinks, recordingLink } from './resources.js';

type Args = Record<string, unknown>;

/** An error result: the error envelope as the API words it (its text is the envelope's JSON). */
export function errorResult(envelope: Envelope, status?: number): CallToolResult {
  const { code, message, fields } = envelope.error;
  const lines = [
    `${code}${status ? ` (HTTP ${status})` : ''}: ${message}`,
    ...Object.entries(fields ?? {}).map(([k, v]) => `- ${k}: ${v}`),
  ];
  return {
    isError: true,
    content: [
      { type: 'text', text: JSON.stringify(envelope) },
      { type: 'text', text: lines.join('\n') },
    ],
  };
}

/** The code of an error result. */
export const errorCodeOf = (r: CallToolResult): string =>
  (JSON.parse((r.content[0] as { text: string }).text) as Envelope).error.code;

/**
 * The API's envelope of an error reply, in the tool's words: its path `id` and its Idempotency-Key
 * named as the tool's arguments are, and a key used before for another request said so, with what
 * to do (the API names only the first request).
 */
function envelopeOf(tool: McpTool, res: ApiResponse, key: string | undefined): Envelope {
  const env = errorEnvelope(res);
  const names: Record<string, string | undefined> = { id: tool.idArg, 'Idempotency-Key': tool.keyArg };
  const fields = env.error.fields;
  const renamed = fields ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [names[k] ?? k, v])) : undefined;
  if (env.error.code === 'idempotency_conflict' && tool.keyArg && key !== undefined) {
    const first = fields?.conflicts_with ?? 'another request';
    return {
      error: {
        ...env.error,
        message: `${tool.keyArg} "${key}" was used within the last 24 hours for a different request (${first}), so nothing was done. Retrying the same action: send its first arguments again. A new action: use a new key.`,
        fields: { ...renamed, [tool.keyArg]: 'already used for a different request' },
      },
    };
  }
  return renamed ? { error: { ...env.error, fields: renamed } } : env;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
};

/** The arguments that reach the API as text: every one of a GET (the path's id and the query), else the path's id alone. */
function textArgs(tool: McpTool, args: Args): string[] {
  if (tool.method === 'GET') return Object.keys(args);
  return tool.idArg ? [tool.idArg] : [];
}

/**
 * What only reaches the API as text (the path's id, a GET's query) and would not read as itself
 * there: a list, an object or null (it would arrive as "[object Object]" or not at all), an id that
 * is empty, "." or ".." or holds a "/" (it would name another route). Those are refused here, in the
 * API's words for a query's problems; anything else is sent, and the API says what it thinks of it.
 */
function textArgProblems(tool: McpTool, args: Args): Record<string, string> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
  const errs: Record<string, string> = {};
  for (const name of textArgs(tool, args)) {
    const v = args[name];
    const s = props[name];
    if (v === undefined || !s) continue;
    const wanted = Array.isArray(s.enum)
      ? `must be one of ${s.enum.join(', ')}`
      : `must be ${EXPECTED[String(s.type)] ?? 'a single value'}`;
    if (v === null || typeof v === 'object') errs[name] = wanted;
    else if (name === tool.idArg && (String(v).trim() === '' || /^\.{1,2}$/.test(String(v)) || String(v).includes('/')))
      errs[name] = 'must be an id (not empty, not . or .., no /)';
  }
  if (tool.idArg && (args[tool.idArg] === undefined || args[tool.idArg] === null)) errs[tool.idArg] = 'is required';
  return errs;
}

/** The tool's own arguments (include_details, include_bytes) and a write's key, apart from the route's. */
function split(tool: McpTool, given: Args | undefined): { args: Args; own: Args; key: unknown } {
  const all: Args = { ...tool.defaults, ...tool.own, ...given };
  const own: Args = {};
  const args: Args = {};
  let key: unknown;
  for (const [k, v] of Object.entries(all))
    if (k === tool.keyArg) key = v;
    else (Object.hasOwn(tool.own, k) ? own : args)[k] = v;
  return { args, own, key };
}

/** What a bad own argument or key is told (the route never sees them as arguments, so the API cannot say it). */
function ownProblems(tool: McpTool, own: Args, key: unknown): Record<string, string> {
  const errs: Record<string, string> = {};
  for (const [k, v] of Object.entries(own)) if (typeof v !== 'boolean') errs[k] = 'must be true or false';
  // its length is the API's to check (its 400 names the header, said here as the argument)
  if (key !== undefined && typeof key !== 'string') errs[tool.keyArg!] = 'must be a string';
  return errs;
}

export interface CallOptions {
  /** shapes a JSON reply as the tool gives it (list_calls without transcripts unless asked; a replay said) */
  shape(tool: McpTool, own: Args, body: Record<string, unknown>, replayed: boolean): Record<string, unknown>;
}

export async function callTool(
  tool: McpTool,
  given: Args | undefined,
  client: ApiClient,
  o: CallOptions = { shape: (_t, _own, body) => body },
): Promise<CallToolResult> {
  const { args, own, key } = split(tool, given);
  const problems = { ...ownProblems(tool, own, key), ...textArgProblems(tool, args) };
  if (Object.keys(problems).length > 0)
    return errorResult(
      { error: { code: 'validation_error', message: 'The request is invalid.', fields: problems } },
      400,
    );
  const req = tool.call(args);
  let res: ApiResponse;
  try {
    res = await client.request(req.method, req.path, {
      // query values are text: strings, numbers and booleans as written (textArgProblems refused the rest)
      query: req.query as RequestOptions['query'],
      body: req.body,
      // a write goes with the caller's key, so that asking again (another session too) is answered with
      // the first reply; without one, with a key of its own, so the client's retry of a lost reply cannot apply it twice
      idempotencyKey: req.method === 'GET' ? undefined : ((key as string) ?? (await newIdempotencyKey(client.target))),
    });
  } catch (e) {
    const message =
      e instanceof CliError ? [e.message, e.hint].filter(Boolean).join(' ') : ((e as Error)?.message ?? String(e));
    // a write that may have been applied: its key and what is known, as the CLI's --json gives them
    return errorResult({
      error: {
        code: e instanceof CliError ? 'network_error' : 'internal_error',
        message,
        ...(e instanceof CliError ? e.details : {}),
      },
    });
  }
  if (res.status >= 400) return errorResult(envelopeOf(tool, res, key as string | undefined), res.status);
  if (tool.binary) return binaryResult(tool, args, own, res);
  // (a replay of a key of the client's own, retrying a lost reply, is this call's first answer)
  const replayed = key !== undefined && res.headers['idempotency-replay'] === 'true';
  const body = o.shape(tool, own, res.body.length === 0 ? {} : res.json<Record<string, unknown>>(), replayed);
  return {
    structuredContent: body,
    content: [{ type: 'text', text: JSON.stringify(body) }, ...fileLinks(tool, body)],
  };
}

/** A file reply (a recording): a link to it as an MCP resource, or its bytes when asked. */
function binaryResult(tool: McpTool, args: Args, own: Args, res: ApiResponse): CallToolResult {
  // a recording is audio whatever the service labels it (an unlabelled or generic type: the declared one)
  const sent = (res.headers['content-type'] ?? '').split(';')[0].trim();
  const kind = tool.binary!.split('/')[0] === 'image' ? 'image' : 'audio';
  const mimeType = sent.startsWith(`${kind}/`) ? sent : tool.binary!;
  const about = { mime_type: mimeType, bytes: res.body.length };
  if (own.include_bytes === true)
    return {
      content: [
        { type: kind, data: res.body.toString('base64'), mimeType },
        { type: 'text', text: JSON.stringify(about) },
      ],
    };
  const link = recordingLink(String(args[tool.idArg!]), mimeType, res.body.length);
  return { content: [{ type: 'text', text: JSON.stringify({ ...about, uri: link.uri }) }, link] };
}
