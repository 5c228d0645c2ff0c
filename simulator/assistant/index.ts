// The assistant's surface: its tools (the names and descriptions MCP tools carry too).
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { TOOLS, tool } from './tools.js';
export type { Tool, ToolCall, ToolRoute } from './tools.js';
