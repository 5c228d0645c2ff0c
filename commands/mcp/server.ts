// The MCP server, apart from any transport (tests link a client to it in memory; `vmv mcp` serves
// it on stdio): tools/list answers the selected tools as listed (simulator/mcp/listing.ts),
// tools/call sends each call to the target through the one API client (a person asked first where
// it spends and the client can ask: approval.ts), resources/read the files tools link to
// (resources.ts). Never writes to stdout itself.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ApiClient } from '../../src/client.js';
import type { McpTool, mcpCatalog } from '../../simulator/index.js';
import { answerApprovals, APPROVE_FORM, approveSpending, type Ask, UNASKED } from './approval.js';
import { callTool, errorCodeOf, errorResult } from './call.js';
import { readResource, TEMPLATES } from './resources.js';

// The SDK loads zod's classic build, which sets English messages for every copy of zod in the
// process; the simulator's check() uses its own error map per parse, so the embedded API still words
// its 400s as it does over HTTP.

export type Catalog = Awaited<ReturnType<typeof mcpCatalog>>;

export interface ServerOptions {
  version: string;
  /** the tools this server offers (a selection of the catalog's), or their promise: see buildServer */
  tools: readonly McpTool[] | Promise<readonly McpTool[]>;
  /** the catalog's LIST_WORDS, when the catalog is still being built */
  listWords?: string;
  /** one line per call and problem (stderr under `vmv mcp`) */
  log?: (line: string) => void;
  /** how often a long call reports progress to a client that asked for it */
  progressMs?: number;
  /** ask_assistant takes `approvals` from the calling model (`--allow-model-approvals`) */
  allowModelApprovals?: boolean;
  /** list each tool's output schema (`--output-schemas`) */
  outputSchemas?: boolean;
}

const INSTRUCTIONS =
  'Tools of the vmv service: AI calls, texts and numbers, email, conversation history, number configuration and more. ' +
  'Reads are free; a tool that charges the workspace says "Spends money:" and how much first in its description. ' +
  'Results are JSON (the same in structuredContent and text). Lists answer one page: pass meta.cursor back as `cursor` for the next. ' +
  "Ids come from other tools' results: list_phone_numbers for phone_number_id, list_calls for call_id, list_contacts for contact_id. " +
  "Errors come back as results with isError, carrying the API's code, message and per-field explanations (fields). " +
  'A tool that acts takes idempotency_key: pass a new one (a UUID) for each action and the same one whenever you ask for that action again ' +
  '(after an error, a timeout or a new session): for 24 hours the same key returns the first result, marked replayed: true, and nothing is done or charged again; ' +
  'the same key with other arguments is refused (idempotency_conflict). Without a key, asking again acts again.';

/** How long a person is given to answer an approval question. */
const ASK_TIMEOUT_MS = 10 * 60_000;

/** A tool as this session lists it: compact, with what approval means here. */
function sessionListing(t: McpTool, c: Catalog, o: ServerOptions, canAsk: boolean): Tool {
  const l = c.listed(t, c.tools, { outputSchemas: o.outputSchemas }) as Tool;
  if (t.name === 'ask_assistant' && !o.allowModelApprovals) {
    const { approvals: _, ...rest } = l.inputSchema.properties ?? {};
    l.inputSchema = { ...l.inputSchema, properties: rest };
    l.description = `${l.description}\n\n${
      canAsk
        ? 'Here its pending approvals are put to the user, and their answers sent, before the result comes back; call it with only conversation_id to put those of a conversation that waits.'
        : 'Here pending approvals are answered by a person (vmv assistant approve CONVERSATION_ID), not by this tool; with only conversation_id it returns the conversation.'
    }`;
  } else if (t.spends && !canAsk) l.description = `${l.description}\n\n${UNASKED}`;
  else if (t.spends) l.description = `${l.description}\n\nThe user is asked to approve the cost before it is spent.`;
  return l;
}

/**
 * The server. The catalog and the tools may still be on their way (promises): building every tool
 * from the routes takes tens of milliseconds, and `initialize` need not wait for it, only the
 * requests that list or call tools do.
 */
export function buildServer(catalogOrPromise: Catalog | Promise<Catalog>, client: ApiClient, o: ServerOptions): Server {
  const listWords = o.listWords ?? (catalogOrPromise as Catalog).LIST_WORDS;
  const server = new Server(
    { name: 'vmv', title: 'vmv', version: o.version },
    { capabilities: { tools: {}, resources: {} }, instructions: `${INSTRUCTIONS} ${listWords}` },
  );
  const ready = Promise.all([catalogOrPromise, o.tools]).then(([catalog, tools]) => ({
    catalog,
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
  }));
  // (a failure to build is the requests' to report; unawaited here, it must not end the process)
  ready.catch(() => {});
  const log = o.log ?? (() => {});
  const canAsk = () => !!server.getClientCapabilities()?.elicitation?.form;
  // a person may take a while to decide: longer than the SDK's 60 s for a request
  const ask: Ask = (message) =>
    server.elicitInput({ mode: 'form', message, requestedSchema: APPROVE_FORM }, { timeout: ASK_TIMEOUT_MS });

  // a line the client sent that is not JSON-RPC, a transport failure: said on stderr (stdout is the protocol's)
  server.onerror = (e) => log(`protocol error: ${e.message}`);

  answerLists(server, ready, client, o, canAsk);
  answerCalls(server, { client, o, ready, log, asker: () => (canAsk() ? ask : undefined) });
  return server;
}

type Ready = Promise<{ catalog: Catalog; tools: readonly McpTool[]; byName: Map<string, McpTool> }>;

/** What a session's tool calls use: the one API client, the options, the tools on their way, and whom to ask. */
interface CallEnv {
  client: ApiClient;
  o: ServerOptions;
  ready: Ready;
  log: (line: string) => void;
  /** the person to ask, when the client can put a question to one (form elicitation) */
  asker: () => Ask | undefined;
}

/** tools/call: each call a tool result whatever happens (never a protocol error), a line logged for each. */
function answerCalls(server: Server, env: CallEnv): void {
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = (await env.ready).byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    const timer = progressBeats(req.params._meta?.progressToken, tool.name, extra, env.o.progressMs ?? 10_000);
    const started = Date.now();
    try {
      const result = await called(tool, req.params.arguments ?? {}, env);
      env.log(`${tool.name}: ${result.isError ? `error ${errorCodeOf(result)}` : 'ok'} (${Date.now() - started} ms)`);
      return result;
    } catch (e) {
      // whatever happened, the client gets a tool result, never a protocol error
      env.log(`${tool.name}: ${(e as Error)?.stack ?? String(e)}`);
      return errorResult({
        error: { code: 'internal_error', message: `vmv mcp failed: ${(e as Error)?.message ?? String(e)}` },
      });
    } finally {
      if (timer) clearInterval(timer);
    }
  });
}

/**
 * A client that sent a progress token hears every `everyMs` that the call is still under way
 * (ask_assistant may wait up to 240 s; clients time a request out after 60 s unless told); the
 * timer to clear when the call ends, none without a token.
 */
function progressBeats(
  token: string | number | undefined,
  toolName: string,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  everyMs: number,
): ReturnType<typeof setInterval> | undefined {
  if (token === undefined) return undefined;
  let beats = 0;
  return setInterval(() => {
    beats++;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: beats, message: `${toolName}: still waiting for the service` },
      })
      .catch(() => {});
  }, everyMs);
}

/** A tool called through the one API client, its reply shaped as the catalog says. */
async function run(tool: McpTool, args: Record<string, unknown>, env: CallEnv): Promise<CallToolResult> {
  return callTool(tool, args, env.client, { shape: (await env.ready).catalog.shapeReply });
}

/** One call: the person asked first where it spends, ask_assistant's approvals answered by them. */
async function called(tool: McpTool, args: Record<string, unknown>, env: CallEnv): Promise<CallToolResult> {
  const { o, client } = env;
  if (tool.name === 'ask_assistant' && !o.allowModelApprovals && args.approvals !== undefined)
    return errorResult(
      {
        error: {
          code: 'validation_error',
          message: 'The request is invalid.',
          fields: { approvals: 'is answered by a person, not by this tool (vmv assistant approve)' },
        },
      },
      400,
    );
  const asker = env.asker();
  // the person is asked about what the call does (its key is how, not what)
  const { [tool.keyArg ?? '']: _key, ...what } = args;
  const refused = await approveSpending(tool, what, client, asker);
  if (refused) return refused;
  // ask_assistant with only a conversation: its pending approvals put to the user (or shown)
  const result =
    tool.name === 'ask_assistant' && args.message === undefined && args.approvals === undefined && args.conversation_id
      ? await run(
          (await env.ready).catalog.tools.find((t) => t.name === 'get_assistant_conversation')!,
          { conversation_id: args.conversation_id },
          env,
        )
      : await run(tool, args, env);
  // (a replayed conversation's approvals were put to the person by the call that ran it)
  if (tool.name !== 'ask_assistant' || !asker || o.allowModelApprovals || result.structuredContent?.replayed)
    return result;
  return answerApprovals(result, asker, (approvals, conversation_id) =>
    run(
      tool,
      { approvals, conversation_id, ...(args.wait_seconds === undefined ? {} : { wait_seconds: args.wait_seconds }) },
      env,
    ),
  );
}

/** tools/list, the resource lists and resources/read. */
function answerLists(server: Server, ready: Ready, client: ApiClient, o: ServerOptions, canAsk: () => boolean) {
  // every list is one page: a cursor is one this server never gave (the spec: -32602)
  const onePage = (cursor: string | undefined) => {
    if (cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown cursor: ${cursor}`);
  };
  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    onePage(req.params?.cursor);
    const { catalog, tools } = await ready;
    return { tools: tools.map((t) => sessionListing(t, catalog, o, canAsk())) };
  });
  server.setRequestHandler(ListResourcesRequestSchema, (req) => {
    onePage(req.params?.cursor);
    return { resources: [] };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (req) => {
    onePage(req.params?.cursor);
    return { resourceTemplates: TEMPLATES };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (req) => readResource(req.params.uri, client));
}
