// vmv mcp: the Model Context Protocol server over stdio, on the same target as every command (the
// embedded simulator, or the configured base URL and key). Its tools are the API's routes (the
// table in simulator/assistant/tools.ts, schemas from the route declarations: simulator/mcp/tools.ts).
// The MCP SDK is loaded only when the command runs (completion and help load this file).
import type { Command } from 'commander';
import { action, examples, type Shell } from '../../src/command.js';

export function register(cmd: Command, shell: Shell): void {
  cmd
    .addHelpText(
      'after',
      `
Speaks MCP on stdin and stdout (stdout carries protocol messages only; a line per tool call goes to
stderr) until the client closes stdin: every request received by then is answered before it exits.
Tools run against the same target as every command: the
embedded simulator by default, or --base-url / VMV_BASE_URL with its API key.

Add it to an MCP client's configuration, for example:
  {"mcpServers": {"vmv": {"command": "vmv", "args": ["mcp"]}}}
With a service: "args": ["mcp", "--profile", "work"], or "env": {"VMV_BASE_URL": "...", "VMV_API_KEY": "..."}.

Tools that spend money say so, and how much, right after the first line of their description:
create_quick_ai_call, create_quick_ai_text, create_quick_ai_number, send_quick_email,
create_video, approve_video, create_video_schedule, update_video_schedule, and ask_assistant
(through the actions its approvals allow). Everything else is free.`,
    )
    .addHelpText(
      'after',
      examples('vmv mcp', 'vmv mcp --profile work', 'vmv mcp --base-url http://127.0.0.1:4010 --api-key sk_test_123'),
    )
    .action(action(shell, async (ctx) => (await import('./serve.js')).serve(ctx)));
}
