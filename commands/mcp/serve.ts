// `vmv mcp` on stdio: the server of server.ts on the command's target, its protocol messages on
// stdout (and nothing else there), a line per call on stderr, until the client closes stdin (or
// sends SIGINT or SIGTERM): then it exits 0 once the simulator's background work is done.
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Context } from '../../src/context.js';
import { onStop } from '../../src/io.js';
import { VERSION } from '../../src/main.js';
import { mcpTools } from '../../simulator/index.js';
import { buildServer } from './server.js';

export async function serve(ctx: Context): Promise<void> {
  const target = ctx.target();
  const [client, tools] = await Promise.all([ctx.client(), mcpTools()]);
  const log = (line: string) => ctx.io.err(`vmv mcp: ${line}\n`);
  const server = buildServer(tools, client, { version: VERSION, log });
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      ctx.io.out(chunk);
      done();
    },
  });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  // the session is over: calls still in flight (a service that does not answer, an assistant run
  // waiting up to 240 s) are not waited for; the process ends once what it started is closed
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void server.close();
    setTimeout(() => process.exit(0), 1000).unref();
  };
  // the client ends the session by closing our stdin (the transport itself does not watch for it)
  ctx.io.stdin.once('end', close);
  const offStop = onStop(close);
  const offInterrupt = ctx.io.onInterrupt(close);
  // a client that stops its server with a signal (after closing stdin) gets a clean exit too
  process.on('SIGTERM', close);
  try {
    await server.connect(new StdioServerTransport(ctx.io.stdin, stdout));
    log(`serving ${tools.length} tools on stdio; target ${target.kind === 'remote' ? target.baseUrl : `the embedded simulator (${target.dataFile})`}`);
    await closed;
  } finally {
    offStop();
    offInterrupt();
    process.off('SIGTERM', close);
    ctx.io.stdin.off('end', close);
  }
}
