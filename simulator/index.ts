// The simulator's one door: everything outside simulator/ (the CLI, the library) imports it from
// here. The build makes this one file of its own (dist/simulator.js) whose modules are evaluated
// when first used, so a command loads one file for the whole simulator and runs only what the
// request needs.
export { createApp, startServer, Store, type App, type RunningServer } from './world.js';
export { MAX_IMPORT_BYTES } from './store/source.js';
export { openEmbedded } from './embedded.js';
export { clockNow, iso, realClock, setMode } from './core/clock.js';
export { apiDocument } from './capabilities.js';
export type { SimRequest, SimResponse } from './core/http.js';
export type { McpTool } from './mcp/tools.js';
export type { Selection } from './mcp/listing.js';
/** The MCP tools of `vmv mcp` (their module, and every route's, loaded on first use). */
export const mcpTools = async () => (await import('./mcp/tools.js')).mcpTools();
/** The MCP server's catalog: every tool, the toolsets, how a tool is listed and a selection made, a reply shaped. */
/**
 * What `vmv mcp` needs before it answers `initialize`: the selection check and the words of its
 * instructions, without building a tool (mcpCatalog builds them all, from every route, meanwhile).
 */
export const mcpWords = async () => {
  const listing = await import('./mcp/listing.js');
  return { checkSelection: listing.checkSelection, UnknownName: listing.UnknownName, LIST_WORDS: listing.LIST_WORDS };
};
export const mcpCatalog = async () => {
  const [tools, listing, catalog] = await Promise.all([
    import('./mcp/tools.js'),
    import('./mcp/listing.js'),
    import('./mcp/catalog.js'),
  ]);
  return {
    tools: await tools.mcpTools(),
    shapeReply: tools.shapeReply,
    listed: listing.listed,
    LIST_WORDS: listing.LIST_WORDS,
    select: listing.select,
    UnknownName: listing.UnknownName,
    TOOLSETS: catalog.TOOLSETS,
    DEFAULT_TOOLSETS: catalog.DEFAULT_TOOLSETS,
  };
};
