// vmv mcp: the Model Context Protocol server over stdio, on the same target as every command (the
// embedded simulator, or the configured base URL and key). Its tools are the API's routes (the
// tables in simulator/assistant/tools.ts and simulator/mcp/catalog.ts, schemas from the route
// declarations: simulator/mcp/tools.ts), grouped in toolsets as GitHub's MCP server groups its own.
// The MCP SDK is loaded only when the command runs (completion and help load this file).
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { McpOptions } from './serve.js';

export function register(cmd: Command, shell: Shell): void {
  withExamples(
    cmd
      .option(
        '--toolsets <names>',
        'toolsets to offer, comma-separated (or VMV_MCP_TOOLSETS): history, numbers, assistant, quick (the default ones), calls, videos, schedules, webhooks; default, all',
      )
      .option(
        '--tools <names>',
        'tools to offer by name, comma-separated: alone, only these; with --toolsets, added to them',
      )
      .option('--exclude-tools <names>', 'tools to leave out by name, comma-separated')
      .option('--read-only', 'offer only the tools that change nothing')
      .option(
        '--allow-model-approvals',
        "let the calling model answer ask_assistant's pending approvals (by default a person does: asked through the client, or vmv assistant approve)",
      )
      .option(
        '--output-schemas',
        "list each tool's output schema too (about 4x the listing; for clients that validate results)",
      )
      .addHelpText(
        'after',
        `
Speaks MCP on stdin and stdout (stdout carries protocol messages only; a line per tool call goes to
stderr) until the client closes stdin: every request received by then is answered before it exits.
Tools run against the same target as every command: the
embedded simulator by default, or --base-url / VMV_BASE_URL with its API key. On the simulator,
tools the key's scopes forbid are not offered.

Toolsets: history, numbers, assistant and quick by default (about 7,500 tokens of tool listing);
calls (place and hang up calls, search and release numbers), videos, schedules and webhooks to add.

Add it to an MCP client's configuration, for example:
  {"mcpServers": {"vmv": {"command": "vmv", "args": ["mcp"]}}}
With a service: "args": ["mcp", "--profile", "work"], or "env": {"VMV_BASE_URL": "...", "VMV_API_KEY": "..."}.

Tools that spend money say so, and how much, first in their description:
create_quick_ai_call, create_quick_ai_text, create_quick_ai_number, send_quick_email, place_call,
create_video, approve_video, create_video_schedule, update_video_schedule, and ask_assistant
(through the actions its approvals allow). Everything else is free. Where the client supports MCP
elicitation, the user is asked to approve each before it spends.`,
      )
      .action(action<McpOptions>(shell, async (ctx, o) => (await import('./serve.js')).serve(ctx, o))),
    'vmv mcp',
    'vmv mcp --toolsets default,videos --read-only',
    'vmv mcp --tools list_calls,get_call',
    'vmv mcp --profile work',
    'vmv mcp --base-url http://127.0.0.1:4010 --api-key sk_test_123',
  );
}
