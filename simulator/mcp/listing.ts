// What a model is shown of the tools (tools/list), and which tools a server offers. A listing is
// the tool as built (tools.ts) made compact, since every byte of it sits in the model's context on
// every turn: no examples, no length bounds (the API checks them, and its 400 says which), a
// free-form object as just that, no HTTP route in the words (a tool's name instead), and no output
// schema unless asked (the structured result is also its text, as compact JSON). The OpenAPI
// document keeps all of it. A selection is GitHub's MCP server's: toolsets, tools added or
// excluded by name, read-only, and (on the simulator) only what the key's scopes allow.
import { DEFAULT_TOOLSETS, TOOLSETS } from './catalog.js';
import type { McpTool } from './tools.js';

type Json = Record<string, any>;

/** Keywords a listing leaves out: examples, and bounds (the API enforces each, and its 400 says which was crossed). */
const DROPPED = new Set([
  'examples',
  'example',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'maxProperties',
  'propertyNames',
  'minimum',
  'maximum',
]);

/**
 * The arguments every list tool takes alike, said once (in the server's instructions: LIST_WORDS)
 * rather than in each tool: their description leaves a listing when it is these words.
 */
const LIST_ARGS: Record<string, RegExp> = {
  limit: /^page size, default 20, at most \d+$/,
  cursor: /^meta\.cursor of the previous page \(valid 24 hours\)$/,
  order: /^newest first \(desc, the default\) or oldest first \(asc\)$/,
  created_after:
    /^only records created after this time \(exclusive\); poll with the newest created_at seen for incremental sync$/,
  created_before: /^only records created before this time \(exclusive\)$/,
};
/** A route's sentence that LIST_WORDS says for every list. */
const LIST_SENTENCE = / ?Filter with `created_after` set to the newest created_at seen for incremental sync\./;

/** A field the route shows but refuses in a change (a number's stack): no argument. */
const READ_ONLY = /^read-only\b/;

/** What the list arguments mean, for the server's instructions. */
export const LIST_WORDS =
  'List tools take limit (page size, default 20), cursor (meta.cursor of the previous page, valid 24 hours: the next page), ' +
  'order (desc, newest first, the default; or asc) and, where records have a time, created_after and created_before ' +
  '(exclusive; poll with the newest created_at seen for incremental sync).';

/**
 * An input schema as listed: DROPPED keywords out; an object of free-form values (settings a
 * platform defines) an object with its description; a value or null as a type list (one schema,
 * not two); a nested object without `additionalProperties: false` (the top level keeps it, and the
 * API names an unknown field in its 400 at any depth). The same function gives what the tests
 * compare against the API description.
 */
export function compactSchema(schema: unknown, depth = 0): any {
  if (Array.isArray(schema)) return schema.map((x) => compactSchema(x, depth));
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Json;
  if (s.type === 'object' && typeof s.additionalProperties === 'object' && !s.properties)
    return { type: 'object', ...(s.description ? { description: s.description } : {}) };
  const nullable = orNull(s);
  if (nullable) return compactSchema(nullable, depth);
  const out: Json = {};
  // an enum of strings says the type
  const typed = !(s.type === 'string' && Array.isArray(s.enum) && s.enum.every((x: unknown) => typeof x === 'string'));
  for (const [k, v] of Object.entries(s)) {
    if (DROPPED.has(k) || (k === 'additionalProperties' && v === false && depth > 0)) continue;
    if (k === 'type' && !typed) continue;
    if (k === 'properties')
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([p, x]) => [p, compactSchema(x, depth + 1)]));
    else out[k] = compactSchema(v, depth + (k === 'items' ? 1 : 0));
  }
  return out;
}

/** `anyOf: [{type: T, …}, {type: 'null'}]` (and a description beside it) as `{type: [T, 'null'], …}`. */
function orNull(s: Json): Json | null {
  const a = s.anyOf as Json[] | undefined;
  if (!Array.isArray(a) || a.length !== 2 || a[1]?.type !== 'null' || Object.keys(a[1]).length !== 1) return null;
  if (typeof a[0]?.type !== 'string') return null;
  const { anyOf: _, ...rest } = s;
  return { ...a[0], type: [a[0].type, 'null'], ...rest };
}

const ROUTE_WORDS = /(?:\b(GET|POST|PATCH|DELETE) )?(\/(?:v1\/)?[a-z][A-Za-z0-9_{}/.-]*[A-Za-z0-9_}])/g;

/**
 * Words with the HTTP routes they name (`GET /v1/videos/music`, `POST /approve`) said as the tools
 * that call them (`list_video_music`); a route no tool calls is said as what it is.
 */
export function toolWords(text: string, tools: readonly McpTool[]): string {
  return text.replace(ROUTE_WORDS, (whole, method: string | undefined, path: string) => {
    if (!path.startsWith('/v1/') && !method) return whole; // a path-like word that names no route (and/or)
    const bare = path.replace(/\/[0-9a-f-]{36}/g, '/{id}');
    const hit = tools.find(
      (t) =>
        (!method || t.method === method) && (t.path === bare || (!bare.startsWith('/v1/') && t.path.endsWith(bare))),
    );
    if (hit) return `\`${hit.name}\``;
    if (bare.startsWith('/v1/media/')) return 'its download link';
    return whole;
  });
}

/**
 * Every description in an input schema, as listed: said with tool names for routes; a list
 * argument's common words left to LIST_WORDS; one said already in the same schema (a list item's
 * `id`) said at its first place only; a field described read-only (refused in a change) left out.
 */
function describedOnce(schema: Json, all: readonly McpTool[]): Json {
  const said = new Set<string>();
  const walk = (x: unknown, name: string, top: boolean): unknown => {
    if (Array.isArray(x)) return x.map((y) => walk(y, name, false));
    if (typeof x !== 'object' || x === null) return x;
    const out: Json = {};
    for (const [k, v] of Object.entries(x)) {
      if (k === 'description' && typeof v === 'string') {
        if ((top && LIST_ARGS[name]?.test(v)) || said.has(v)) continue;
        said.add(v);
        out[k] = toolWords(v, all);
      } else if (k === 'properties')
        out[k] = Object.fromEntries(
          Object.entries(v as Json)
            .filter(([, y]) => !READ_ONLY.test((y as Json).description ?? ''))
            .map(([p, y]) => [p, walk(y, p, x === schema)]),
        );
      else out[k] = walk(v, name, false);
    }
    return out;
  };
  return walk(schema, '', false) as Json;
}

/**
 * A tool's annotations as listed: the title is the tool's own; a read says it changes nothing and
 * touches only the workspace (destructive and idempotent mean nothing for it, the spec says).
 */
function annotationsOf(t: McpTool): Json {
  const { title: _, ...a } = t.annotations;
  return a.readOnlyHint ? { readOnlyHint: true, openWorldHint: a.openWorldHint } : a;
}

/** How a tool is listed: its name, words, input schema and annotations (the output schema when asked). */
export function listed(t: McpTool, all: readonly McpTool[], o: { outputSchemas?: boolean } = {}): Json {
  return {
    name: t.name,
    title: t.title,
    description: toolWords(t.description.replace(LIST_SENTENCE, ''), all),
    inputSchema: describedOnce(compactSchema(t.inputSchema), all),
    ...(o.outputSchemas && t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    annotations: annotationsOf(t),
  };
}

export interface Selection {
  /** toolset names, `default` or `all`; absent: the default toolsets (unless tools are named) */
  toolsets?: string[];
  /** tools by name: alone, only they; with toolsets, added to them */
  tools?: string[];
  /** tools left out by name */
  exclude?: string[];
  /** only the tools that change nothing */
  readOnly?: boolean;
  /** the key's scopes (null: a full-access key; undefined: unknown, so every tool) */
  scopes?: string[] | null;
}

/** A name a selection does not know: a usage error, with the names it does. */
export class UnknownName extends Error {}

function check(kind: string, names: string[], known: string[]) {
  const bad = names.filter((n) => !known.includes(n));
  if (bad.length) throw new UnknownName(`unknown ${kind} ${bad.join(', ')}: choose from ${known.join(', ')}`);
}

/**
 * Checks a selection's names against the toolsets (every tool is in one: tools.ts makes sure), so
 * `vmv mcp` refuses a wrong name before it builds a single tool: UnknownName otherwise.
 */
export function checkSelection(o: Selection): void {
  check(
    'toolset',
    (o.toolsets ?? []).filter((n) => n !== 'all' && n !== 'default'),
    Object.keys(TOOLSETS),
  );
  check(
    'tool',
    [...(o.tools ?? []), ...(o.exclude ?? [])],
    [...new Set(Object.values(TOOLSETS).flatMap((s) => s.tools))],
  );
}

/** The tools a selection offers, in listing order. */
export function select(all: readonly McpTool[], o: Selection): McpTool[] {
  checkSelection(o);
  const sets = new Set<string>();
  const asked = o.toolsets ?? (o.tools?.length ? [] : ['default']);
  for (const n of asked) {
    if (n === 'all') for (const s of Object.keys(TOOLSETS)) sets.add(s);
    else if (n === 'default') for (const s of DEFAULT_TOOLSETS) sets.add(s);
    else sets.add(n);
  }
  return all.filter((t) => {
    if (!t.toolsets.some((s) => sets.has(s)) && !o.tools?.includes(t.name)) return false;
    if (o.exclude?.includes(t.name)) return false;
    if (o.readOnly && !t.annotations.readOnlyHint) return false;
    return allowed(t, o.scopes);
  });
}

/** Whether a key with these scopes may call the tool's route. */
function allowed(t: McpTool, scopes: string[] | null | undefined): boolean {
  if (scopes === undefined || scopes === null || t.scope === null) return true;
  return t.scope !== 'full' && scopes.includes(t.scope);
}
