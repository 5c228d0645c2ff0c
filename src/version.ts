// vmv's version, on its own: `vmv --version` (src/main.ts) and the MCP server's handshake
// (commands/mcp/serve.ts) both say it, and a module of its own lets the MCP server name it
// without importing the program (which imports every noun, the MCP server's among them).
export const VERSION = '0.1.0';
