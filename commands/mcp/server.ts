// The MCP server, apart from any transport (tests link a client to it in memory; `vmv mcp` serves
// it on stdio): tools/list answers the tools built from the route declarations, tools/call sends
// each call to the target through the one API client. Never writes to stdout itself.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../../src/client.js';
import type { McpTool } from '../../simulator/index.js';
import { callTool, errorCodeOf, errorResult } from './call.js';

// The SDK loads zod's classic build, which sets English messages for every copy of zod in the
// process; the simulator's check() uses its own error map per parse, so the embedded API still words
// its 400s as it does over HTTP.

export interface ServerOptions {
  version: string;
  /** one line per call and problem (stderr under `vmv mcp`) */
  log?: (line: string) => void;
  /** how often a long call reports progress to a client that asked for it */
  progressMs?: number;
}

const INSTRUCTIONS =
  'Tools of the vmv service: AI calls, texts and numbers, email, conversation history, number configuration, ' +
  "videos and video schedules, and the workspace's assistant agent. Reads are free; a tool that charges the workspace says " +
  '"Spends money:" and how much right after its one-line summary. Lists answer one page: pass meta.cursor back as `cursor` for the next. ' +
  "Errors come back as results with isError, carrying the API's code, message and per-field explanations (fields).";

/** How a tool is listed: its name, words, schemas and annotations (not how it is called). */
const listed = (t: McpTool): Tool => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
  annotations: t.annotations,
});

export function buildServer(tools: readonly McpTool[], client: ApiClient, o: ServerOptions): Server {
  const server = new Server(
    { name: 'vmv', title: 'vmv', version: o.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const log = o.log ?? (() => {});

  // a line the client sent that is not JSON-RPC, a transport failure: said on stderr (stdout is the protocol's)
  server.onerror = (e) => log(`protocol error: ${e.message}`);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listed) }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    // a client that sent a progress token hears every progressMs that the call is still under way
    // (ask_assistant may wait up to 240 s; clients time a request out after 60 s unless told)
    const token = req.params._meta?.progressToken;
    let beats = 0;
    const timer =
      token === undefined
        ? undefined
        : setInterval(() => {
            beats++;
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: beats,
                  message: `${tool.name}: still waiting for the service`,
                },
              })
              .catch(() => {});
          }, o.progressMs ?? 10_000);
    const started = Date.now();
    try {
      const result = await callTool(tool, req.params.arguments, client);
      log(`${tool.name}: ${result.isError ? `error ${errorCodeOf(result)}` : 'ok'} (${Date.now() - started} ms)`);
      return result;
    } catch (e) {
      // whatever happened, the client gets a tool result, never a protocol error
      log(`${tool.name}: ${(e as Error)?.stack ?? String(e)}`);
      return errorResult({
        error: { code: 'internal_error', message: `vmv mcp failed: ${(e as Error)?.message ?? String(e)}` },
      });
    } finally {
      if (timer) clearInterval(timer);
    }
  });
  return server;
}
