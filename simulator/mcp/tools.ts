// The MCP tools (`vmv mcp`), built from two things and nothing else: the tool table (names, the
// route each calls, annotations: assistant/tools.ts) and the API description (openapi.ts, generated
// from the route declarations, the very document GET /v1/openapi.json serves). A tool's input
// schema is its operation's path id (under the tool's name for it), query parameters and body
// fields side by side; its output schema is the success reply's; its description is the route's.
// So a tool, its route and the published description cannot drift (test/mcp.test.ts checks it).
import { allResources } from '../capabilities.js';
import type { Route } from '../core/http.js';
import { TOOLS, type Tool, type ToolCall } from '../assistant/index.js';
import { apiDocument } from '../capabilities.js';

type Json = Record<string, any>;

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json & { type: 'object' };
  /** the success reply's JSON schema; absent for a binary reply (get_call_recording) */
  outputSchema?: Json & { type: 'object' };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  /** the operation: method and path as declared, the argument that fills {id} */
  method: Tool['method'];
  path: string;
  idArg?: string;
  /** the success reply's content type when it is not JSON (audio/wav) */
  binary?: string;
  /** what the success reply is, in the route's words ("Call records", "Deleted") */
  reply: string;
  /** arguments this tool defaults otherwise than the route */
  defaults: Record<string, unknown>;
  /** the request its arguments make (the id argument must be present) */
  call(args: Record<string, unknown>): ToolCall;
}

/** A body with no content (204) is an empty structured result. */
const EMPTY_OBJECT = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Inlines every `#/components/schemas/…` reference: a tool's schema stands alone. */
function inline(schema: unknown, components: Record<string, Json>, seen: string[] = []): any {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components, seen));
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $ref, ...rest } = schema as Json;
  const out: Json = {};
  if (typeof $ref === 'string') {
    const name = $ref.replace('#/components/schemas/', '');
    if (seen.includes(name)) throw new Error(`schema ${name} refers to itself: it cannot be inlined`);
    const target = components[name];
    if (!target) throw new Error(`no schema ${name}`);
    Object.assign(out, inline(target, components, [...seen, name]));
  }
  // keywords beside a $ref (a use site's description) say more than the named schema's own
  for (const [k, v] of Object.entries(rest)) out[k] = inline(v, components, seen);
  return out;
}

/** "call_id" → "the call's id". */
const idWords = (arg: string) => `the ${arg.replace(/_id$/, '').replace(/_/g, ' ')}'s id`;

/** A route description's sentences that price it (they name USD), and the rest. */
function pricingOf(description: string): { priced: string; rest: string } {
  const sentences = description.split(/(?<=[.!?])\s+(?=[A-Z0-9`(])/);
  const priced = sentences.filter((s) => /\bUSD\b/.test(s));
  if (priced.length === 0) throw new Error('the route description has no sentence naming its price (USD)');
  return { priced: priced.join(' '), rest: sentences.filter((s) => !priced.includes(s)).join(' ') };
}

function findRoute(routes: Route[], method: string, path: string): Route {
  const r = routes.find((x) => x.method === method && x.path === path);
  if (!r) throw new Error(`no route ${method} ${path}`);
  return r;
}

/** Builds one tool from its table entry, its route and its operation in the document. */
function build(name: string, t: Tool, route: Route, op: Json, components: Record<string, Json>): McpTool {
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const add = (arg: string, schema: Json, isRequired: boolean) => {
    if (Object.hasOwn(properties, arg))
      throw new Error(`${name}: two arguments are named ${arg} (path id, query and body must not share a name)`);
    properties[arg] = schema;
    if (isRequired) required.push(arg);
  };
  for (const p of (op.parameters ?? []) as Json[]) {
    if (p.$ref) continue; // the Idempotency-Key header: not an argument
    const schema = inline(p.schema, components);
    if (p.in === 'path') {
      if (p.name !== 'id' || !t.id)
        throw new Error(`${name}: the path parameter ${p.name} needs an argument name in the tool table`);
      add(t.id, { ...schema, description: p.description ?? idWords(t.id) }, true);
    } else {
      add(p.name, p.description ? { ...schema, description: p.description } : schema, !!p.required);
    }
  }
  if (t.id && !properties[t.id]) throw new Error(`${name}: the table names ${t.id} but ${t.path} has no {id}`);
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) {
    const b = inline(body, components);
    if (b.type !== 'object' || !b.properties) throw new Error(`${name}: the body is not an object of named fields`);
    const req = new Set<string>(b.required ?? []);
    for (const [k, s] of Object.entries(b.properties as Record<string, Json>)) add(k, s, req.has(k));
  }
  const defaults: Record<string, unknown> = {};
  for (const [k, d] of Object.entries(t.mcpDefaults ?? {})) {
    if (!properties[k]) throw new Error(`${name}: no argument ${k} to default`);
    properties[k] = { ...properties[k], default: d.value, description: d.why };
    defaults[k] = d.value;
  }
  const inputSchema = {
    type: 'object' as const,
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };

  const okStatus = Object.keys(route.responses)
    .map(Number)
    .find((s) => s >= 200 && s < 300)!;
  const ok = route.responses[okStatus];
  let outputSchema: McpTool['outputSchema'];
  let binary: string | undefined;
  if (ok.contentType && ok.contentType !== 'application/json') binary = ok.contentType;
  else if (!ok.schema) outputSchema = { ...EMPTY_OBJECT };
  else outputSchema = inline(op.responses[String(okStatus)].content['application/json'].schema, components);

  let routeText = route.description ?? '';
  let spends: string | undefined;
  if (t.spends === 'route') {
    const { priced, rest } = pricingOf(routeText);
    routeText = rest;
    spends = priced.replace(/^Pricing:\s*/, '');
  } else if (t.spends) spends = t.spends;
  // where the route's words speak of what the tool does otherwise, the tool says its own
  if (t.mcpDescription) routeText = t.mcpDescription;
  const summary = route.summary.replace(/\.$/, '');
  const description = [
    `${summary}.`,
    spends ? `Spends money: ${spends.replace(/\.$/, '')}.` : undefined,
    routeText || undefined,
    binary ? `Returns the file as MCP ${binary.split('/')[0]} content (${binary}).` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');

  const readOnly = t.readOnly ?? t.method === 'GET';
  return {
    name,
    title: summary,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      title: summary,
      readOnlyHint: readOnly,
      // MCP reads a missing destructiveHint as true: every write says what it is
      destructiveHint: !readOnly && !!t.destructive,
      idempotentHint: readOnly || !!t.idempotent,
      openWorldHint: !!t.openWorld,
    },
    method: t.method,
    path: t.path,
    ...(t.id ? { idArg: t.id } : {}),
    ...(binary ? { binary } : {}),
    reply: ok.description,
    defaults,
    call: (args) => t.call(args),
  };
}

let tools: Promise<McpTool[]> | undefined;

/** Every MCP tool, in the table's order (built once per process). */
export function mcpTools(): Promise<McpTool[]> {
  return (tools ??= (async () => {
    const [doc, resources] = await Promise.all([apiDocument('api'), allResources()]);
    const routes = resources.flatMap((r) => r.routes);
    const components = (doc.components as Json).schemas as Record<string, Json>;
    const paths = doc.paths as Record<string, Record<string, Json>>;
    return Object.entries(TOOLS).map(([name, t]) => {
      const op = paths[t.path]?.[t.method.toLowerCase()];
      if (!op) throw new Error(`${name}: the API description has no ${t.method} ${t.path}`);
      return build(name, t, findRoute(routes, t.method, t.path), op, components);
    });
  })());
}
