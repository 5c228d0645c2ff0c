// The MCP tools (`vmv mcp`), built from two things and nothing else: the tool tables (names, the
// route each calls, annotations: assistant/tools.ts, and the MCP server's own in catalog.ts) and the
// API description (openapi.ts, generated from the route declarations, the very document GET
// /v1/openapi.json serves). A tool's input schema is its operation's path id (under the tool's name
// for it), query parameters and body fields side by side, and a write's Idempotency-Key header as
// `idempotency_key`; its output schema is the success reply's (a write's with `replayed`); its
// description is the route's. So a tool, its route and the published description cannot drift
// (test/mcp.test.ts checks it). What a model is shown of a tool (listing.ts) is that, made compact.
import { allResources } from '../capabilities.js';
import type { Route } from '../core/http.js';
import { TOOLS, type Tool, type ToolCall } from '../assistant/index.js';
import { apiDocument } from '../capabilities.js';
import { MCP_ONLY, TOOLSETS, WHEN } from './catalog.js';

type Json = Record<string, any>;

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json & { type: 'object' };
  /** the success reply's JSON schema, as the tool returns it; absent for a binary reply (get_call_recording) */
  outputSchema?: Json & { type: 'object' };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  /** the toolsets that hold it (catalog.ts): most tools one, a read that finds others' ids more */
  toolsets: string[];
  /** the API key scope its route needs: one of the key scopes, 'full' (a full-access key), or null (public) */
  scope: string | null;
  /** what it costs, in the route's words, when it spends money */
  spends?: string;
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
  /** arguments of the tool alone (not the route's): what they shape of the reply */
  own: Record<string, unknown>;
  /**
   * the argument sent as the Idempotency-Key header (KEY_ARG) on every write (whose operation takes
   * that header) but a read by nature (quote_video); shapeReply adds `replayed: true` to a result that is the key's first reply again
   */
  keyArg?: string;
  /** the request its arguments make (the id argument must be present) */
  call(args: Record<string, unknown>): ToolCall;
  /** why the assistant would ask before it (what it does and costs), or null */
  approval: Tool['approval'];
}

/** The argument a write takes for its Idempotency-Key, and what its result says when the key's first reply came back. */
const KEY_ARG = 'idempotency_key';
const REPLAYED = 'replayed';
/**
 * The key's words in every write's listing: one sentence, since they sit in the context on every
 * turn (the server's instructions say the rest: the conflict, a session that ends).
 */
const KEY_WORDS =
  'Pass one (a UUID) per action and reuse it to retry: a repeat within 24 hours returns the first result.';
const KEY_PARAMETER = '#/components/parameters/IdempotencyKey';

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

/**
 * A video's details a list rarely needs (its recipe, script, sources, prices in parts, links):
 * what is left (id, status, template, format, seconds, price_usd, estimated, caption, error,
 * failed_stage, schedule_id, created_at, ready_at) finds and tells videos apart in ~300 bytes,
 * where a whole video is ~1.5 KB (a page of 20: 31 KB).
 */
const VIDEO_DETAILS = [
  'preset',
  'target_duration_seconds',
  'script',
  'scenes',
  'slides',
  'interview',
  'source_url',
  'source_text',
  'source_image_urls',
  'source_video_urls',
  'script_review',
  'max_price_cents',
  'price_cents',
  'line_items',
  'billed_cents',
  'paid_from',
  'video_url',
  'thumbnail_url',
  'hashtags',
  'music',
  'settings',
  'posts',
  'status_changed_at',
  'released_at',
  'updated_at',
];
const VIDEOS_WHOLE = {
  arg: 'include_details',
  fields: VIDEO_DETAILS,
  why: 'true: each video whole (script, scenes or slides, sources, price line items, settings, music, posts, signed links, every time); default false: id, status, template, format, seconds, price, caption, error, schedule, created and ready times (get_video always has it all)',
};

/**
 * Tools whose reply carries what a model rarely needs and that costs it most (a call's transcript,
 * twice: as text and as turns, and the details get_call gives; a video's recipe and links): left
 * out of the result unless the tool's own argument asks, so a page of 20 stays under 8 KB.
 */
const OMITTED: Record<string, { arg: string; fields: string[]; why: string }> = {
  list_calls: {
    arg: 'include_details',
    // what is left (id, direction, status, numbers, duration, summary, tags, has_recording, created_at)
    // finds and tells calls apart in ~350 bytes: a page of 20 real calls was 10.7 KB with the rest
    // (recording_url is the call's id in a path: has_recording says whether there is one)
    fields: [
      'transcript',
      'transcript_turns',
      'recording_url',
      'contact_id',
      'phone_number_id',
      'end_reason',
      'metadata',
      'started_at',
      'ended_at',
    ],
    why: 'true: each call whole (transcript and transcript_turns, recording_url, contact_id, phone_number_id, end_reason, metadata, started and ended times); default false: id, direction, status, numbers, duration, summary, tags, has_recording, created_at (get_call always has it all)',
  },
  list_videos: VIDEOS_WHOLE,
  list_video_schedule_videos: VIDEOS_WHOLE,
};

/** A list item's field left out of a shaped page when it is null or an empty list (a page of 20 calls stays under 8 KB). */
const NULLS_LEFT_OUT = 'A field left out of an item is null (a list: empty).';

/**
 * The input schema: the path id, the query parameters, the body's fields, side by side, then the
 * Idempotency-Key header as `idempotency_key` where the operation takes it (its schema the header's)
 * and the tool `acts` (a write that is not a read by nature, as quote_video is).
 */
function inputOf(name: string, t: Tool, op: Json, doc: Json, acts: boolean): Json & { type: 'object' } {
  const components = doc.components.schemas as Record<string, Json>;
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const add = (arg: string, schema: Json, isRequired: boolean) => {
    if (Object.hasOwn(properties, arg))
      throw new Error(`${name}: two arguments are named ${arg} (path id, query and body must not share a name)`);
    properties[arg] = schema;
    if (isRequired) required.push(arg);
  };
  let keyed = false;
  for (const p of (op.parameters ?? []) as Json[]) {
    if (p.$ref) {
      if (p.$ref !== KEY_PARAMETER) throw new Error(`${name}: an unknown parameter ${p.$ref}`);
      keyed = true; // said after the body's fields
      continue;
    }
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
  if (keyed && acts)
    add(KEY_ARG, { ...doc.components.parameters.IdempotencyKey.schema, description: KEY_WORDS }, false);
  for (const [k, d] of Object.entries(t.mcpDefaults ?? {})) {
    if (!properties[k]) throw new Error(`${name}: no argument ${k} to default`);
    properties[k] = { ...properties[k], default: d.value, description: d.why };
  }
  const omitted = OMITTED[name];
  if (omitted) add(omitted.arg, { type: 'boolean', default: false, description: omitted.why }, false);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** A write's reply schema with what its result adds when its key's first reply came back. */
function withReplayed(schema: Json & { type: 'object' }): Json & { type: 'object' } {
  if (typeof schema.properties !== 'object') throw new Error('a reply that is not an object of named fields');
  const replayed = {
    type: 'boolean',
    description: `true when ${KEY_ARG}'s first result came back (nothing was done again)`,
  };
  return { ...schema, properties: { ...schema.properties, [REPLAYED]: replayed } };
}

/** The success reply's schema, less what the tool leaves out by default (then optional). */
function outputOf(name: string, route: Route, op: Json, components: Record<string, Json>) {
  const okStatus = Object.keys(route.responses)
    .map(Number)
    .find((s) => s >= 200 && s < 300)!;
  const ok = route.responses[okStatus];
  if (ok.contentType && ok.contentType !== 'application/json') return { reply: ok.description, binary: ok.contentType };
  if (!ok.schema) return { reply: ok.description, outputSchema: { ...EMPTY_OBJECT } as Json & { type: 'object' } };
  const outputSchema = inline(op.responses[String(okStatus)].content['application/json'].schema, components);
  const omitted = OMITTED[name];
  if (omitted) {
    // what the shaped page may leave out: the omitted fields, and any field that can be null
    const item = outputSchema.properties.data.items;
    const nullable = (f: string) =>
      item.properties[f].type === 'array' || JSON.stringify(item.properties[f]).includes('"null"');
    item.required = (item.required as string[]).filter((f) => !omitted.fields.includes(f) && !nullable(f));
  }
  return { reply: ok.description, outputSchema };
}

/** The tool's description: its summary, its price, when to use it, the route's words. */
function describe(name: string, t: Tool, route: Route, binary: string | undefined) {
  let routeText = route.description ?? '';
  let spends: string | undefined;
  if (t.spends === 'route') {
    const { priced, rest } = pricingOf(routeText);
    routeText = rest;
    spends = priced.replace(/^Pricing:\s*/, '').replace(/\.$/, '');
  } else if (t.spends) spends = t.spends.replace(/\.$/, '');
  // where the route's words speak of what the tool does otherwise, the tool says its own
  if (t.mcpDescription) routeText = t.mcpDescription;
  if (OMITTED[name])
    routeText = `${routeText.replace(/,? each with its transcript( \([^)]*\))?/, '')} ${NULLS_LEFT_OUT}`;
  const summary = route.summary.replace(/\.$/, '');
  // the summary is the tool's title: said again only when nothing else describes it
  const said = [
    spends ? `Spends money: ${spends}.` : undefined,
    WHEN[name],
    routeText || undefined,
    binary
      ? `Returns a link to the file as an MCP resource (${binary}); include_bytes: true returns its bytes.`
      : undefined,
  ].filter(Boolean);
  const description = said.length ? said.join('\n\n') : `${summary}.`;
  return { summary, description, spends };
}

/** Builds one tool from its table entry, its route and its operation in the document. */
function build(name: string, t: Tool, route: Route, op: Json, doc: Json): McpTool {
  const readOnly = t.readOnly ?? t.method === 'GET';
  const inputSchema = inputOf(name, t, op, doc, !readOnly);
  const keyed = Object.hasOwn(inputSchema.properties, KEY_ARG);
  const out = outputOf(name, route, op, doc.components.schemas);
  if (keyed && out.outputSchema) out.outputSchema = withReplayed(out.outputSchema);
  if (out.binary)
    inputSchema.properties.include_bytes = {
      type: 'boolean',
      default: false,
      description: 'true: the file itself in the result (base64); default false: a link to it as an MCP resource',
    };
  const { summary, description, spends } = describe(name, t, route, out.binary);
  const defaults = Object.fromEntries(Object.entries(t.mcpDefaults ?? {}).map(([k, d]) => [k, d.value]));
  const own: Record<string, unknown> = {};
  if (OMITTED[name]) own[OMITTED[name].arg] = false;
  if (out.binary) own.include_bytes = false;
  const toolsets = Object.entries(TOOLSETS)
    .filter(([, s]) => s.tools.includes(name))
    .map(([n]) => n);
  return {
    name,
    title: summary,
    description,
    inputSchema,
    ...(out.outputSchema ? { outputSchema: out.outputSchema } : {}),
    annotations: {
      title: summary,
      readOnlyHint: readOnly,
      // MCP reads a missing destructiveHint as true: every write says what it is
      destructiveHint: !readOnly && !!t.destructive,
      idempotentHint: readOnly || !!t.idempotent,
      openWorldHint: !!t.openWorld,
    },
    toolsets,
    scope: route.public ? null : (route.scope ?? 'full'),
    ...(spends ? { spends } : {}),
    method: t.method,
    path: t.path,
    ...(t.id ? { idArg: t.id } : {}),
    ...(out.binary ? { binary: out.binary } : {}),
    reply: out.reply,
    ...(keyed ? { keyArg: KEY_ARG } : {}),
    defaults,
    own,
    call: (args) => t.call(args),
    approval: t.approval,
  };
}

/**
 * The reply as the tool gives it: what its own arguments did not ask for left out (list_calls'
 * transcripts), and `replayed: true` on a write's result that is its key's first reply again.
 */
export function shapeReply(
  tool: McpTool,
  args: Record<string, unknown>,
  body: Record<string, unknown>,
  replayed = false,
): Record<string, unknown> {
  if (replayed && tool.keyArg) return { ...body, [REPLAYED]: true };
  const omitted = OMITTED[tool.name];
  if (!omitted || args[omitted.arg] === true || !Array.isArray(body.data)) return body;
  const data = (body.data as Record<string, unknown>[]).map((item) =>
    Object.fromEntries(Object.entries(item).filter(([k, v]) => !omitted.fields.includes(k) && !empty(v))),
  );
  return { ...body, data };
}

const empty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);

let tools: Promise<McpTool[]> | undefined;

/** Every MCP tool, in toolset order (built once per process). */
export function mcpTools(): Promise<McpTool[]> {
  return (tools ??= (async () => {
    const [doc, resources] = await Promise.all([apiDocument('api'), allResources()]);
    const routes = resources.flatMap((r) => r.routes);
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const table: Record<string, Tool> = { ...TOOLS, ...MCP_ONLY };
    // a tool some toolsets share (a read that finds their ids) is listed once, where it is first named
    const names = [...new Set(Object.values(TOOLSETS).flatMap((s) => s.tools))];
    for (const n of Object.keys(table)) if (!names.includes(n)) throw new Error(`${n} is in no toolset`);
    return names.map((name) => {
      const t = table[name];
      if (!t) throw new Error(`the toolset names ${name}, which no tool table has`);
      const op = paths[t.path]?.[t.method.toLowerCase()];
      if (!op) throw new Error(`${name}: the API description has no ${t.method} ${t.path}`);
      return build(name, t, findRoute(routes, t.method, t.path), op, doc);
    });
  })());
}
