// `vmv mcp` on stdio: the server of server.ts on the command's target, its protocol messages on
// stdout (and nothing else there), a line per call on stderr, until the client closes stdin: then
// every request it sent is answered first, and it exits 0 once the simulator's background work is
// done. SIGINT or SIGTERM (or a client gone from stdout) stop it at once.
import { Transform, Writable, type Readable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../../src/context.js';
import { onStop } from '../../src/io.js';
import { DEFAULT_POLICY } from '../../src/retry.js';
import { resolveNet } from '../../src/settings.js';
import { VERSION } from '../../src/version.js';
import { mcpCatalog, mcpWords, type McpTool } from '../../simulator/index.js';
import { usage } from '../../src/errors.js';
import type { ApiClient } from '../../src/client.js';
import { buildServer, type Catalog } from './server.js';

/** `vmv mcp`'s flags (index.ts declares them). */
export interface McpOptions {
  toolsets?: string;
  tools?: string;
  excludeTools?: string;
  readOnly?: boolean;
  allowModelApprovals?: boolean;
  outputSchemas?: boolean;
}

const names = (v: string | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);

/** The key's scopes where the target says them (the simulator: GET /_sim/api-keys/current); undefined elsewhere. */
async function keyScopes(client: ApiClient): Promise<string[] | null | undefined> {
  try {
    const res = await client.request('GET', '/_sim/api-keys/current');
    return res.status === 200 ? res.json<{ scopes: string[] | null }>().scopes : undefined;
  } catch {
    return undefined;
  }
}

/** The flags' (or VMV_MCP_TOOLSETS') selection. */
const selection = (o: McpOptions, env: Context['env']) => ({
  toolsets: names(o.toolsets ?? env.VMV_MCP_TOOLSETS),
  tools: names(o.tools),
  exclude: names(o.excludeTools),
  readOnly: !!o.readOnly,
});

/** The tools this server offers: the flags' (or VMV_MCP_TOOLSETS') selection, within the key's scopes. */
export async function selected(
  catalog: Catalog,
  o: McpOptions,
  env: Context['env'],
  client: ApiClient,
): Promise<McpTool[]> {
  try {
    return catalog.select(catalog.tools, { ...selection(o, env), scopes: await keyScopes(client) });
  } catch (e) {
    if (e instanceof catalog.UnknownName) throw usage(e.message, 'vmv mcp --help lists the toolsets and their tools.');
    throw e;
  }
}

/**
 * How long, once the client has closed stdin, the requests still in flight are given to be
 * answered: longer than any call takes, retries included — each of its attempts may wait its
 * request timeout on top of a reply held on purpose (ask_assistant: up to 240 s), and the backoff
 * between attempts at most 5 s (src/retry.ts) — so only a call that never finishes is cut off, and
 * the session still ends.
 */
function drainMs(ctx: Context): number {
  const { retries, requestTimeoutMs } = resolveNet(ctx.globals, ctx.env);
  return (retries + 1) * (requestTimeoutMs + 240_000) + retries * DEFAULT_POLICY.capMs + 30_000;
}

/** Calls a client may have under way at once against a service: each its own connection (mcp: one a call). */
const CONNECTIONS = 8;

export async function serve(ctx: Context, o: McpOptions = {}): Promise<void> {
  const target = ctx.target();
  // tool calls run side by side: one the service holds open (ask_assistant) never queues the others
  ctx.connections = CONNECTIONS;
  const [client, words] = await Promise.all([ctx.client(), mcpWords()]);
  try {
    words.checkSelection(selection(o, ctx.env));
  } catch (e) {
    if (e instanceof words.UnknownName) throw usage(e.message, 'vmv mcp --help lists the toolsets and their tools.');
    throw e;
  }
  // the tools are built (and the key's scopes asked) while the client initializes
  const catalog = mcpCatalog();
  const tools = catalog.then((c) => selected(c, o, ctx.env, client));
  const log = (line: string) => ctx.io.err(`vmv mcp: ${line}\n`);
  const server = buildServer(catalog, client, {
    version: VERSION,
    log,
    tools,
    listWords: words.LIST_WORDS,
    allowModelApprovals: !!o.allowModelApprovals,
    outputSchemas: !!o.outputSchemas,
  });
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      ctx.io.out(chunk);
      done();
    },
  });
  const input = wholeLines(ctx.io.stdin);
  const { transport, answered } = tracked(new StdioServerTransport(input, stdout));
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  // stopped (a signal, stdout gone): calls still in flight are not waited for; the process ends once
  // what it started is closed
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void server.close();
    setTimeout(() => process.exit(0), 1000).unref();
  };
  // the client ends the session by closing our stdin (the transport itself does not watch for it):
  // what it sent up to then, in the last chunk too (read before the end is), is answered first
  const finish = async () => {
    const bound = drainMs(ctx);
    if (!(await answered(bound))) log(`input ended; requests still unanswered after ${bound / 1000} s are dropped`);
    close();
  };
  const onEnd = () => void finish();
  input.once('end', onEnd);
  const offStop = onStop(close);
  const offInterrupt = ctx.io.onInterrupt(close);
  // a client that stops its server with a signal (after closing stdin) gets a clean exit too
  process.on('SIGTERM', close);
  try {
    await server.connect(transport);
    const where = target.kind === 'remote' ? target.baseUrl : `the embedded simulator (${target.dataFile})`;
    void tools.then(
      (t) => log(`serving ${t.length} tools on stdio; target ${where}`),
      (e) => log(`the tools could not be built: ${(e as Error)?.message ?? String(e)}`),
    );
    await closed;
  } finally {
    offStop();
    offInterrupt();
    process.off('SIGTERM', close);
    input.off('end', onEnd);
  }
}

/**
 * stdin as the transport reads it, which takes whole lines only: a last message the client ended
 * without its newline is still a message.
 */
function wholeLines(stdin: Readable): Readable {
  let last = 0x0a;
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (chunk.length > 0) last = chunk[chunk.length - 1];
      done(null, chunk);
    },
    flush(done) {
      done(null, last === 0x0a ? undefined : Buffer.from('\n'));
    },
  });
  stdin.on('error', (e) => lines.destroy(e));
  return stdin.pipe(lines);
}

/**
 * The transport, keeping the requests it brought in that are not answered yet. A request counts
 * from when it is read (in the turn that reads its chunk, so every message of a chunk that ends the
 * input counts before the end is seen) until its response is written, or the client cancels it
 * (then none is sent). `answered(ms)`: true once none is left, false if some still are after `ms`.
 */
export function tracked(inner: StdioServerTransport): { transport: Transport; answered(ms: number): Promise<boolean> } {
  const open = new Set<RequestId>();
  let none: (() => void) | undefined;
  const done = (id: RequestId | undefined) => {
    if (id !== undefined) open.delete(id);
    if (open.size === 0) none?.();
  };
  const transport: Transport = {
    start() {
      inner.onmessage = (m: JSONRPCMessage) => {
        if ('method' in m && 'id' in m) open.add(m.id);
        else if ('method' in m && m.method === 'notifications/cancelled')
          done(m.params?.requestId as RequestId | undefined);
        transport.onmessage?.(m);
      };
      inner.onerror = (e) => transport.onerror?.(e);
      inner.onclose = () => transport.onclose?.();
      return inner.start();
    },
    async send(m) {
      await inner.send(m);
      if (!('method' in m) && 'id' in m) done(m.id);
    },
    close: () => inner.close(),
  };
  const answered = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (open.size === 0) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      none = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  return { transport, answered };
}
