// `vmv mcp`, the MCP server (spec capability 9, Part 4 MCP tools, Limits; issue "vmv mcp"): the SDK's
// client linked to it in memory (on a started simulator) and talking to `bin/vmv mcp` as a child
// process on stdio (the embedded simulator). Every tool is called, each result checked.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tracked } from '../commands/mcp/serve.js';
import { buildServer } from '../commands/mcp/server.js';
import { createClient, type ApiClient } from '../src/client.js';
import { mcpCatalog, mcpTools, type McpTool } from '../simulator/index.js';
import { compactSchema } from '../simulator/mcp/listing.js';
import { Ajv } from 'ajv';
import { BIN, childEnv, cli, startSim, T0, tempDir, type Sim } from './helpers.js';
import { startReceiver } from './receiver.js';
import { withFormats } from './contract.js';

/** The spec's names and the quick actions' (the default toolsets), then the toolsets to add, in listing order. */
const DEFAULT_NAMES = [
  'list_contacted_people',
  'get_contact',
  'get_call_transcripts',
  'get_text_history',
  'get_email_history',
  'list_calls',
  'get_call',
  'get_call_recording',
  'list_messages',
  'list_emails',
  'list_contacts',
  'list_phone_numbers',
  'get_phone_number_config',
  'update_phone_number_config',
  'list_phone_number_voices',
  'ask_assistant',
  'get_assistant_conversation',
  'list_assistant_conversations',
  'create_quick_ai_call',
  'create_quick_ai_text',
  'create_quick_ai_number',
  'get_ai_number',
  'send_quick_email',
  'get_quick_action',
  'cancel_quick_action',
];
const NAMES = [
  ...DEFAULT_NAMES,
  'place_call',
  'hang_up_call',
  'search_phone_numbers',
  'release_phone_number',
  'quote_video',
  'create_video',
  'list_videos',
  'get_video',
  'approve_video',
  'retry_video',
  'delete_video',
  'list_video_music',
  'list_social_connections',
  'post_video',
  'list_video_posts',
  'cancel_video_post',
  'create_video_schedule',
  'list_video_schedules',
  'get_video_schedule',
  'update_video_schedule',
  'delete_video_schedule',
  'skip_video_schedule_day',
  'list_video_schedule_videos',
  'create_call_webhook',
  'list_call_webhooks',
  'test_call_webhook',
  'delete_call_webhook',
  'create_text_webhook',
  'list_text_webhooks',
  'test_text_webhook',
  'delete_text_webhook',
];
/** The lists whose items leave fields out unless the tool's own argument asks (include_details). */
const SHAPED = ['list_calls', 'list_videos', 'list_video_schedule_videos'];
const SPENDING = [
  'ask_assistant',
  'place_call',
  'create_quick_ai_call',
  'create_quick_ai_text',
  'create_quick_ai_number',
  'send_quick_email',
  'create_video',
  'approve_video',
  'create_video_schedule',
  'update_video_schedule',
];
const DESTRUCTIVE = [
  'ask_assistant',
  'hang_up_call',
  'release_phone_number',
  'delete_call_webhook',
  'delete_text_webhook',
  'update_phone_number_config',
  'cancel_quick_action',
  'delete_video',
  'cancel_video_post',
  'update_video_schedule',
  'delete_video_schedule',
];
/** list_* tools whose route does not take limit and cursor (none: every list route uses the list conventions). */
const UNPAGED_LISTS: string[] = [];

const ADA = '+15550002001';
const OUR = '+15550001000';
const SOURCE =
  'Our espresso bar opens Monday on Main Street. We roast our own beans every morning. Come taste the difference.';
const SCRIPT =
  'Our espresso bar opens Monday on Main Street. We roast our own beans every morning, so every cup tastes fresh. Come say hi!';

let sim: Sim;
let tools: McpTool[];
let catalog: Awaited<ReturnType<typeof mcpCatalog>>;
beforeAll(async () => {
  sim = await startSim();
  tools = await mcpTools();
  catalog = await mcpCatalog();
});
afterAll(() => sim.stop());

let api: ApiClient;
let mcp: Client;
const called = new Set<string>();

/** The SDK's client linked in memory to a server on the started simulator (a fresh world each test). */
beforeEach(async () => {
  await sim.reset();
  api = await createClient({ kind: 'remote', baseUrl: sim.url, apiKey: sim.key, profile: 'default', dataFile: '' });
  // every toolset; the calling model may answer ask_assistant's approvals (test/mcp-context.test.ts: a person does)
  const server = buildServer(catalog, api, {
    version: 'test',
    progressMs: 200,
    tools: catalog.select(catalog.tools, { toolsets: ['all'] }),
    allowModelApprovals: true,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  mcp = new Client({ name: 'vmv-test', version: '1.0.0' });
  await Promise.all([server.connect(a), mcp.connect(b)]);
  await mcp.listTools();
});

/** Each tool's exact output schema (not listed: the listing leaves them out), compiled once. */
const ajv = withFormats(new Ajv({ strict: false, allErrors: true }));
const validators = new Map<string, ReturnType<Ajv['compile']>>();
function checkOutput(name: string, structured: unknown) {
  const t = tools.find((x) => x.name === name)!;
  if (!t.outputSchema) return;
  if (!validators.has(name)) validators.set(name, ajv.compile(t.outputSchema));
  const v = validators.get(name)!;
  expect(v(structured), `${name}: ${ajv.errorsText(v.errors)}`).toBe(true);
}
afterEach(async () => {
  await mcp.close();
  await api.close();
});

async function call(
  name: string,
  args: Record<string, unknown> = {},
  o?: Parameters<Client['callTool']>[2],
): Promise<CallToolResult> {
  called.add(name);
  return (await mcp.callTool({ name, arguments: args }, undefined, o)) as CallToolResult;
}
/** A successful call's structured result. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await call(name, args);
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  expect(r.content[0]).toMatchObject({ type: 'text' });
  // the text is the structured result, whole, as compact JSON
  expect((r.content[0] as { text: string }).text).toBe(JSON.stringify(r.structuredContent));
  checkOutput(name, r.structuredContent);
  return r.structuredContent;
}
const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
/** A failed call's error, as its first content block (the API's envelope) says it. */
async function failed(
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: string; message: string; fields?: Record<string, string> }> {
  const r = await call(name, args);
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  return JSON.parse((r.content[0] as { text: string }).text).error;
}

/** Advances the simulator clock to each next due transition until the video is in `state`. */
async function until(id: string, state: string) {
  for (let i = 0; i < 200; i++) {
    const v = (await sim.api('GET', `/v1/videos/${id}`)).json.data;
    if (v.status === state) return v;
    const clock = (await sim.api('GET', '/_sim/clock')).json;
    if (!clock.next_due_at) throw new Error(`${id} is ${v.status}; nothing is due`);
    await sim.advance(Math.max(1, Math.ceil((Date.parse(clock.next_due_at) - Date.parse(clock.now)) / 1000)));
  }
  throw new Error(`${id} never reached ${state}`);
}

/** History fixtures through the control plane: Ada, two calls (the first recorded), texts, emails, a t2 number. */
async function seed() {
  const ada = (
    await sim.api('POST', '/_sim/contacts', {
      body: { name: 'Ada Lovelace', phone_number: ADA, email: 'ada@example.com' },
    })
  ).json.data;
  const c1 = (
    await sim.api('POST', '/_sim/calls', {
      body: {
        direction: 'outbound',
        from_number: OUR,
        to_number: ADA,
        duration_seconds: 65,
        has_recording: true,
        summary: 'Booked a demo.',
        transcript_turns: [
          { speaker: 'agent', text: 'Hi Ada', seconds_from_start: 0 },
          { speaker: 'person', text: 'Hello', seconds_from_start: 1.5 },
        ],
      },
    })
  ).json.data;
  await sim.advance(60);
  const c2 = (
    await sim.api('POST', '/_sim/calls', {
      body: { direction: 'inbound', from_number: ADA, to_number: OUR, status: 'VOICEMAIL' },
    })
  ).json.data;
  await sim.api('POST', '/_sim/texts', {
    body: { direction: 'inbound', from_number: ADA, to_number: OUR, body: 'Hi back' },
  });
  await sim.api('POST', '/_sim/emails', {
    body: { direction: 'inbound', from_address: 'ada@example.com', to: 'sales@acme.example', subject: 'Re: Notes' },
  });
  const number = (await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json;
  await sim.advance(60);
  return { ada, c1, c2, number };
}

describe('tools/list', () => {
  it('lists exactly the tools, in order', async () => {
    const { tools: listed } = await mcp.listTools();
    expect(listed.map((t) => t.name)).toEqual(NAMES);
  });

  it('each has a title, a description, an input schema of named arguments; output schemas are left out of the listing', async () => {
    for (const t of (await mcp.listTools()).tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.description!.length, t.name).toBeGreaterThan(10);
      expect(t.inputSchema, t.name).toMatchObject({ type: 'object', additionalProperties: false });
      expect(t.outputSchema, t.name).toBeUndefined();
    }
    for (const t of tools)
      if (t.name === 'get_call_recording') expect(t.outputSchema).toBeUndefined();
      else expect(t.outputSchema, t.name).toMatchObject({ type: 'object' });
  });

  it('path ids are named arguments, required', async () => {
    const ids = Object.fromEntries(
      (await mcp.listTools()).tools.map((t) => [
        t.name,
        Object.keys(t.inputSchema.properties ?? {}).filter(
          (k) => k.endsWith('_id') && (t.inputSchema.required ?? []).includes(k),
        ),
      ]),
    );
    expect(ids).toMatchObject({
      get_contact: ['contact_id'],
      get_call: ['call_id'],
      get_call_recording: ['call_id'],
      get_phone_number_config: ['phone_number_id'],
      update_phone_number_config: ['phone_number_id'],
      list_phone_number_voices: ['phone_number_id'],
      get_assistant_conversation: ['conversation_id'],
      get_quick_action: ['job_id'],
      cancel_quick_action: ['job_id'],
      get_video: ['video_id'],
      approve_video: ['video_id'],
      retry_video: ['video_id'],
      delete_video: ['video_id'],
      post_video: ['video_id'],
      list_video_posts: ['video_id'],
      cancel_video_post: ['post_id'],
      get_video_schedule: ['schedule_id'],
      update_video_schedule: ['schedule_id'],
      delete_video_schedule: ['schedule_id'],
      skip_video_schedule_day: ['schedule_id'],
      list_video_schedule_videos: ['schedule_id'],
    });
    const phone = (await mcp.listTools()).tools.find((t) => t.name === 'get_phone_number_config')!;
    expect(phone.inputSchema.properties!.phone_number_id).toMatchObject({ type: 'integer' });
  });

  it('every list_* tool takes limit and cursor', async () => {
    for (const t of (await mcp.listTools()).tools.filter(
      (x) => x.name.startsWith('list_') && !UNPAGED_LISTS.includes(x.name),
    )) {
      expect(Object.keys(t.inputSchema.properties!), t.name).toEqual(expect.arrayContaining(['limit', 'cursor']));
    }
  });

  it('annotations tell the truth: reads are read-only, writes never; the destructive ones say so', async () => {
    for (const t of (await mcp.listTools()).tools) {
      const read = /^(get|list|search)_/.test(t.name) || t.name === 'quote_video';
      if (read) expect(t.annotations, t.name).toEqual({ readOnlyHint: true, openWorldHint: false });
      else
        expect(t.annotations, t.name).toMatchObject({
          readOnlyHint: false,
          destructiveHint: DESTRUCTIVE.includes(t.name),
        });
    }
    const byName = Object.fromEntries((await mcp.listTools()).tools.map((t) => [t.name, t]));
    for (const n of ['create_quick_ai_call', 'create_quick_ai_text', 'send_quick_email', 'post_video'])
      expect(byName[n].annotations!.openWorldHint, n).toBe(true);
    for (const n of ['list_calls', 'get_call', 'update_phone_number_config'])
      expect(byName[n].annotations!.openWorldHint, n).toBe(false);
  });

  it('every tool that spends money says so, and how much, first; the others are free', async () => {
    for (const t of (await mcp.listTools()).tools) {
      const first = t.description!.split('\n\n')[0];
      expect(first.startsWith('Spends money:'), t.name).toBe(SPENDING.includes(t.name));
      if (SPENDING.includes(t.name)) expect(first, t.name).toMatch(/\d+\.\d\d USD|price|rate/);
    }
    const byName = Object.fromEntries((await mcp.listTools()).tools.map((t) => [t.name, t.description!]));
    // the route descriptions' own pricing sentences
    expect(byName.create_quick_ai_call).toContain(
      'Spends money: 0.20 USD per call placed (each retry is a new call) plus 0.20 USD per minute of conversation',
    );
    expect(byName.create_quick_ai_text).toContain('Spends money: 0.05 USD per outbound message');
    expect(byName.create_quick_ai_number).toContain('Spends money: 5.00 USD per month for the line');
    expect(byName.send_quick_email).toContain('Spends money: 0.01 USD per recipient sent to');
  });

  it('ask_assistant waits 45 seconds unless told otherwise, at most 240', async () => {
    const t = (await mcp.listTools()).tools.find((x) => x.name === 'ask_assistant')!;
    // bounds leave the listing (the API enforces them); the default and its words stay
    expect(t.inputSchema.properties!.wait_seconds).toMatchObject({ type: 'integer', default: 45 });
    expect((t.inputSchema.properties!.wait_seconds as { description: string }).description).toMatch(/default 45/);
    expect(Object.keys(t.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['message', 'approvals', 'conversation_id']),
    );
  });
});

/** Inlines the document's `#/components/schemas/…` references (written apart from the server's own). */
function resolve(s: unknown, components: Record<string, unknown>): any {
  if (Array.isArray(s)) return s.map((x) => resolve(x, components));
  if (typeof s !== 'object' || s === null) return s;
  const { $ref, ...rest } = s as Record<string, unknown>;
  const base = typeof $ref === 'string' ? resolve(components[$ref.split('/').pop()!], components) : {};
  return { ...base, ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, resolve(v, components)])) };
}

describe('one definition: a tool, its route and GET /v1/openapi.json cannot drift', () => {
  it("each input schema is its operation's path id, query parameters and body fields; each output schema its success reply", async () => {
    const doc = (await sim.api('GET', '/v1/openapi.json')).json;
    const components = doc.components.schemas;
    const listed = Object.fromEntries(tools.map((t) => [t.name, t]));
    const shown = Object.fromEntries((await mcp.listTools()).tools.map((t) => [t.name, t]));
    for (const t of tools) {
      const op = doc.paths[t.path][t.method.toLowerCase()];
      const properties: Record<string, any> = {};
      const required: string[] = [];
      let keyArg: Record<string, unknown> | undefined;
      for (const p of op.parameters ?? []) {
        if (p.$ref) {
          // the Idempotency-Key header: idempotency_key, on every write but a read by nature (quote_video)
          expect(p.$ref).toBe('#/components/parameters/IdempotencyKey');
          if (!t.annotations.readOnlyHint)
            keyArg = { ...doc.components.parameters.IdempotencyKey.schema, description: expect.any(String) };
          continue;
        }
        const name = p.in === 'path' ? t.idArg! : p.name;
        properties[name] = {
          ...resolve(p.schema, components),
          ...(p.description ? { description: p.description } : {}),
        };
        if (p.in === 'path' || p.required) required.push(name);
      }
      const body = resolve(op.requestBody?.content['application/json'].schema, components);
      Object.assign(properties, body?.properties);
      required.push(...(body?.required ?? []));
      if (keyArg) properties.idempotency_key = keyArg;
      expect(t.keyArg, t.name).toBe(keyArg ? 'idempotency_key' : undefined);
      const input = structuredClone(listed[t.name].inputSchema) as any;
      for (const k of Object.keys(t.own)) delete input.properties[k]; // the tool's own (include_details): not the route's
      // the listing is that, compacted (no examples, no bounds); its words are checked in mcp-context.test.ts
      const names = (x: any) => JSON.stringify(x, (k, v) => (k === 'description' ? undefined : v));
      const compact = compactSchema(input);
      for (const [k, v] of Object.entries(shown[t.name].inputSchema.properties ?? {}))
        if (!(k in t.own)) expect(names(v), `${t.name}.${k}`).toBe(names(compact.properties[k]));
      const left = Object.keys(compact.properties).filter((k) => !(k in (shown[t.name].inputSchema.properties ?? {})));
      expect(left, t.name).toEqual(t.name === 'update_phone_number_config' ? ['stack'] : []);
      for (const k of Object.keys(t.defaults)) {
        // ask_assistant's MCP default: its value and words, nothing else
        delete input.properties[k].default;
        delete input.properties[k].description;
        delete properties[k].description;
      }
      if (t.idArg && !op.parameters.find((p: any) => p.in === 'path').description)
        delete input.properties[t.idArg].description;
      expect(input, t.name).toEqual({
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      });

      const [status, reply] = Object.entries(op.responses).find(([s]) => s.startsWith('2')) as [string, any];
      const out = structuredClone(listed[t.name].outputSchema) as any;
      // a write's result says when it is its key's first reply again: replayed, beside the reply's fields
      if (keyArg) {
        expect(out.properties.replayed, t.name).toEqual({ type: 'boolean', description: expect.any(String) });
        expect(out.required ?? [], t.name).not.toContain('replayed');
        delete out.properties.replayed;
      }
      // list_calls' records leave out their transcripts unless asked, the video lists their details, and
      // all of them their nulls: those are not required there
      const shaped = SHAPED.includes(t.name) ? (out.properties.data.items.required as string[]) : [];
      if (t.name === 'get_call_recording') expect(Object.keys(reply.content)).toEqual(['audio/wav']);
      else if (status === '204')
        expect(out, t.name).toEqual({
          type: 'object',
          properties: {},
          additionalProperties: false,
        });
      else {
        const want = resolve(reply.content['application/json'].schema, components);
        if (SHAPED.includes(t.name)) {
          expect(want.properties.data.items.required).toEqual(expect.arrayContaining(shaped));
          expect(shaped).toEqual(expect.arrayContaining(['id', 'status', 'created_at']));
          out.properties.data.items.required = want.properties.data.items.required;
        }
        expect(out, t.name).toEqual(want);
      }
    }
  });

  it("the title is the route's summary; the description its price, when to use it, the route's description", async () => {
    const doc = (await sim.api('GET', '/v1/openapi.json')).json;
    for (const t of tools) {
      const op = doc.paths[t.path][t.method.toLowerCase()];
      expect(t.title, t.name).toBe(op.summary.replace(/\.$/, ''));
      if (SPENDING.includes(t.name) || SHAPED.includes(t.name)) continue;
      const own = op.description.split('\n\n')[0];
      if (own.startsWith('Scope:')) expect(t.description, t.name).toBe(`${op.summary}.`);
      else expect(t.description.endsWith(own) || t.description.includes(`${own}\n\n`), t.name).toBe(true);
    }
  });
});

describe('every tool against the simulator', () => {
  it('history and contacts: free reads, each with its structured result; list_* pages with limit and cursor', async () => {
    const { ada, c1, c2 } = await seed();
    const people = await ok('list_contacted_people', { limit: 10 });
    expect(people.data.find((p: any) => p.contact_id === ada.id)).toMatchObject({ name: 'Ada Lovelace' });
    expect((await ok('get_contact', { contact_id: ada.id })).data).toMatchObject({
      id: ada.id,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    const transcripts = await ok('get_call_transcripts', { phone_number: ADA });
    expect(transcripts.data[1].transcript_turns).toHaveLength(2);
    expect(transcripts.data.map((c: any) => c.id)).toEqual([c2.id, c1.id]);
    expect(transcripts.data[1].transcript).toBe('AI: Hi Ada\nUser: Hello');
    expect((await ok('get_text_history', { contact_id: ada.id })).data).toEqual([
      expect.objectContaining({ body: 'Hi back', direction: 'inbound' }),
    ]);
    expect((await ok('get_email_history', { email: 'ada@example.com' })).data).toEqual([
      expect.objectContaining({ subject: 'Re: Notes' }),
    ]);

    const first = await call('list_calls', { limit: 1 });
    const page1 = first.structuredContent as any;
    expect(page1.data.map((c: any) => c.id)).toEqual([c2.id]);
    expect(page1.meta).toMatchObject({ page_size: 1, total_results: 2, cursor: expect.any(String) });
    expect(JSON.parse(textOf(first))).toEqual(page1);
    // list_calls leaves transcripts out unless asked
    expect(page1.data[0]).not.toHaveProperty('transcript');
    expect(page1.data[0]).not.toHaveProperty('transcript_turns');
    const whole = await ok('list_calls', { limit: 1, include_details: true });
    expect(whole.data[0]).toHaveProperty('transcript_turns');
    expect((await failed('list_calls', { include_details: 'yes' })).fields).toEqual({
      include_details: 'must be true or false',
    });
    const page2 = await ok('list_calls', { limit: 1, cursor: page1.meta.cursor });
    expect(page2.data.map((c: any) => c.id)).toEqual([c1.id]);
    expect(page2.meta.cursor).toBeUndefined();
    expect((await ok('list_calls', { status: 'voicemail' })).data.map((c: any) => c.id)).toEqual([c2.id]);

    const one = await call('get_call', { call_id: c1.id });
    expect((one.structuredContent as any).data).toMatchObject({
      id: c1.id,
      summary: 'Booked a demo.',
      has_recording: true,
    });
    expect(JSON.parse((one.content[0] as { text: string }).text)).toEqual(one.structuredContent);
    // its transcript and recording as MCP resources
    expect(one.content.filter((c) => c.type === 'resource_link').map((c: any) => c.uri)).toEqual([
      `vmv://calls/${c1.id}/transcript`,
      `vmv://calls/${c1.id}/recording`,
    ]);
    expect((await ok('list_messages', { direction: 'inbound' })).data).toEqual([
      expect.objectContaining({ body: 'Hi back' }),
    ]);
    expect((await ok('list_emails', { contact_id: ada.id })).data).toEqual([
      expect.objectContaining({ subject: 'Re: Notes' }),
    ]);
    const contacts = await ok('list_contacts', { limit: 1 });
    expect(contacts.meta.page_size).toBe(1);
  });

  it('get_call_recording: a resource link by default; with include_bytes MCP audio content, byte for byte the download', async () => {
    const { c1 } = await seed();
    const linked = await call('get_call_recording', { call_id: c1.id });
    expect(linked.isError).toBeFalsy();
    expect(linked.content.find((c) => c.type === 'audio')).toBeUndefined();
    const link = linked.content.find((c) => c.type === 'resource_link') as { uri: string; mimeType: string };
    expect(link).toMatchObject({ uri: `vmv://calls/${c1.id}/recording`, mimeType: 'audio/wav' });
    const read = await mcp.readResource({ uri: link.uri });
    const r = await call('get_call_recording', { call_id: c1.id, include_bytes: true });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toBeUndefined();
    const audio = r.content.find((c) => c.type === 'audio') as { data: string; mimeType: string };
    expect(audio.mimeType).toBe('audio/wav');
    const download = await sim.api('GET', `/v1/calls/${c1.id}/recording`);
    expect(download.status).toBe(200);
    expect(Buffer.from(audio.data, 'base64').equals(download.bytes)).toBe(true);
    expect(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').equals(download.bytes)).toBe(true);
    // the call without one: the API's 404
    const { c2 } = { c2: (await sim.api('GET', '/v1/calls?status=voicemail')).json.data[0] };
    expect(await failed('get_call_recording', { call_id: c2.id })).toMatchObject({
      code: 'not_found',
      message: 'This call has no recording.',
    });
  });

  it('number configuration: read, change, voices', async () => {
    const { number } = await seed();
    const config = await ok('get_phone_number_config', { phone_number_id: number.id });
    expect(config.data).toMatchObject({ id: number.id, phone_number: number.phone_number, stack: 't2' });
    const changed = await ok('update_phone_number_config', {
      phone_number_id: number.id,
      voice: { greeting_message: 'Thanks for calling Acme!' },
    });
    expect(changed.data.voice.greeting_message).toBe('Thanks for calling Acme!');
    expect(
      (await ok('get_phone_number_config', { phone_number_id: String(number.id) })).data.voice.greeting_message,
    ).toBe('Thanks for calling Acme!');
    const voices = await ok('list_phone_number_voices', { phone_number_id: number.id });
    expect(voices.data.length).toBeGreaterThan(0);
    expect(voices.data[0]).toMatchObject({ id: expect.any(String), stack: 't2' });
  });

  it('quick actions: a call job read and canceled, a text job, an AI number, an email; each charges the wallet', async () => {
    const wallet = async () => (await sim.api('GET', '/_sim/workspace')).json.wallet_usd as number;
    const before = await wallet();
    const job = (
      await ok('create_quick_ai_call', { to_numbers: ['+14155550102'], goal: 'Confirm Tuesday', retry_attempts: 1 })
    ).data;
    expect(job).toMatchObject({
      kind: 'ai_call',
      status: 'running',
      target_count: 1,
      status_url: `/v1/quick/actions/${job.id}`,
    });
    expect((await ok('get_quick_action', { job_id: job.id })).data).toMatchObject({ id: job.id, status: 'running' });
    const canceled = (await ok('cancel_quick_action', { job_id: job.id })).data;
    expect(canceled.targets[0].status).toBe('canceled');
    expect(await wallet()).toBeCloseTo(before - 0.2, 2);

    const text = (await ok('create_quick_ai_text', { to_numbers: ['+14155550100'], goal: 'Ask whether Tuesday works' }))
      .data;
    expect(text).toMatchObject({ kind: 'ai_text', status: 'running' });
    const aiNumber = (await ok('create_quick_ai_number', { area_code: '415', name: 'Front desk' })).data;
    expect(aiNumber).toMatchObject({ status: 'provisioning', phone_number: null });
    const email = (
      await ok('send_quick_email', { to: ['ada@example.com', 'bob@example.com'], subject: 'Hello', body: 'Hi there' })
    ).data;
    expect(email).toMatchObject({ status: 'sent', sent_to: ['ada@example.com', 'bob@example.com'], cost_usd: 0.02 });
    expect(await wallet()).toBeCloseTo(before - 0.2 - 0.05 - 5 - 0.02, 2);
  });

  it('numbers and calls: the numbers listed, an AI number read while it provisions, a search, a call placed and hung up, a number released', async () => {
    const { number } = await seed();
    const numbers = await ok('list_phone_numbers', {});
    expect(numbers.data.map((n: any) => n.id)).toContain(number.id);
    const ai = (await ok('create_quick_ai_number', { area_code: '415', name: 'Front desk' })).data;
    // get_phone_number_config does not see it yet; get_ai_number does
    expect(await failed('get_phone_number_config', { phone_number_id: ai.id })).toMatchObject({ code: 'not_found' });
    expect((await ok('get_ai_number', { phone_number_id: ai.id })).data).toMatchObject({
      id: ai.id,
      status: 'provisioning',
      phone_number: null,
    });
    // one that cannot be wired (area code 555): get_ai_number sees it fail, refunded
    const bad = (await ok('create_quick_ai_number', { area_code: '555', name: 'Nowhere' })).data;
    await sim.advance(61);
    expect((await ok('get_ai_number', { phone_number_id: bad.id })).data).toMatchObject({ status: 'failed' });
    expect((await ok('get_ai_number', { phone_number_id: ai.id })).data).toMatchObject({
      status: 'ready',
      phone_number: expect.stringMatching(/^\+1415/),
    });
    const found = (await ok('search_phone_numbers', { area_code: '415', limit: 2 })).data;
    expect(found).toHaveLength(2);
    // (a number that can exist: ADA's +1 555 area code has no numbers, so the carrier fails it at once)
    const placed = (await ok('place_call', { caller_id: number.phone_number, destination: '+14155552001' })).data;
    expect(placed).toMatchObject({ status: 'RINGING' });
    expect((await ok('hang_up_call', { call_id: placed.id })).data).toMatchObject({
      id: placed.id,
      status: 'CANCELED',
    });
    expect((await ok('release_phone_number', { phone_number_id: number.id })).data).toMatchObject({ id: number.id });
    expect((await ok('list_phone_numbers', {})).data.map((n: any) => n.id)).not.toContain(number.id);
  });

  it('webhooks: registered, listed, tested, deleted (calls and texts)', async () => {
    const rx = await startReceiver();
    try {
      for (const kind of ['call', 'text']) {
        const hook = (await ok(`create_${kind}_webhook`, { url: `${rx.url}/hooks` })).data;
        expect(hook).toMatchObject({ id: expect.any(String), secret: expect.any(String) });
        expect((await ok(`list_${kind}_webhooks`, {})).data.map((h: any) => h.id)).toEqual([hook.id]);
        await ok(`test_${kind}_webhook`, { webhook_id: hook.id });
        await ok(`delete_${kind}_webhook`, { webhook_id: hook.id });
        expect((await ok(`list_${kind}_webhooks`, {})).data).toEqual([]);
      }
      expect(rx.received.length).toBe(2);
    } finally {
      await rx.close();
    }
  });

  it('videos: quote, make, approve, retry, delete, music, accounts, posts', async () => {
    const quote = (await ok('quote_video', { template: 'talking_avatar', source_text: SOURCE, script: SCRIPT })).data;
    expect(quote).toMatchObject({ estimated: false, template: 'talking_avatar', price_cents: expect.any(Number) });

    const v = (await ok('create_video', { template: 'slideshow', source_text: SOURCE, script_review: 'manual' })).data;
    expect(v).toMatchObject({ status: 'queued', template: 'slideshow' });
    await until(v.id, 'script_review');
    expect((await ok('approve_video', { video_id: v.id })).data.status).toBe('rendering');
    await until(v.id, 'ready');
    expect((await ok('get_video', { video_id: v.id })).data).toMatchObject({
      id: v.id,
      status: 'ready',
      video_url: expect.any(String),
    });

    const broken = (
      await ok('create_video', { template: 'talking_avatar', script: SCRIPT, source_text: `${SOURCE} #fail-render` })
    ).data;
    await until(broken.id, 'failed');
    const retried = (await ok('retry_video', { video_id: broken.id })).data;
    expect(retried.status).toBe('rendering');
    expect(retried).not.toHaveProperty('error'); // no reason any more: the key is left out (issue 23)
    const listed = await ok('list_videos', { limit: 5 });
    expect(listed.data.map((x: any) => x.id)).toEqual([broken.id, v.id]);
    expect(await ok('delete_video', { video_id: broken.id })).toEqual({});
    expect((await ok('list_videos', {})).data.map((x: any) => x.id)).toEqual([v.id]);

    expect((await ok('list_video_music', { limit: 3 })).data).toHaveLength(3);
    const accounts = (await ok('list_social_connections', { platform: 'tiktok' })).data;
    expect(accounts).toEqual([expect.objectContaining({ platform: 'tiktok' })]);
    const later = new Date(Date.parse(T0) + 3 * 86400_000).toISOString();
    const posts = (await ok('post_video', { video_id: v.id, connection_ids: [accounts[0].id], scheduled_for: later }))
      .data;
    expect(posts).toEqual([expect.objectContaining({ status: 'scheduled', connection_id: accounts[0].id })]);
    expect((await ok('list_video_posts', { video_id: v.id })).data.map((p: any) => p.id)).toEqual([posts[0].id]);
    expect((await ok('cancel_video_post', { post_id: posts[0].id })).data).toMatchObject({
      id: posts[0].id,
      status: 'canceled',
    });
  });

  it('video schedules: create, list, read, skip, pause, its videos, delete', async () => {
    const tiktok = (await sim.api('GET', '/v1/social-connections?platform=tiktok')).json.data[0].id;
    const s = (
      await ok('create_video_schedule', {
        name: 'Espresso tips',
        days_of_week: [1, 3, 5],
        post_hour: 9,
        time_zone: 'America/New_York',
        connection_ids: [tiktok],
      })
    ).data;
    expect(s).toMatchObject({ name: 'Espresso tips', status: 'active', next_run_at: expect.any(String) });
    expect((await ok('list_video_schedules', { status: 'active' })).data.map((x: any) => x.id)).toEqual([s.id]);
    expect((await ok('get_video_schedule', { schedule_id: s.id })).data.id).toBe(s.id);
    expect((await ok('skip_video_schedule_day', { schedule_id: s.id })).data.skipped_days).toHaveLength(1);
    expect((await ok('update_video_schedule', { schedule_id: s.id, status: 'paused' })).data).toMatchObject({
      status: 'paused',
      next_run_at: null,
    });
    expect((await ok('list_video_schedule_videos', { schedule_id: s.id, limit: 10 })).data).toEqual([]);
    expect(await ok('delete_video_schedule', { schedule_id: s.id })).toEqual({});
    expect(await failed('get_video_schedule', { schedule_id: s.id })).toMatchObject({ code: 'not_found' });
  });
});

describe('ask_assistant', () => {
  it('on a manual clock it answers at once (working), and pending approvals are answered with its approvals argument', async () => {
    const t = Date.now();
    const asked = await call('ask_assistant', { message: 'text +14155550100 and ask whether Tuesday works' });
    expect(Date.now() - t).toBeLessThan(5000); // 45 s by default, but a manual clock never waits
    const c = (asked.structuredContent as any).data;
    expect(c).toMatchObject({ status: 'working', pending_approvals: [] });
    expect(JSON.parse(textOf(asked))).toEqual(asked.structuredContent);
    await sim.advance(2);
    const waiting = await call('get_assistant_conversation', { conversation_id: c.conversation_id });
    const w = (waiting.structuredContent as any).data;
    expect(w).toMatchObject({
      status: 'awaiting_approval',
      pending_approvals: [expect.objectContaining({ tool: 'create_quick_ai_text' })],
    });
    expect(w.transcript).toEqual([expect.objectContaining({ role: 'user' })]);
    const approvalId = w.pending_approvals[0].approval_id;
    expect(JSON.parse(textOf(waiting))).toEqual(waiting.structuredContent);

    // a message while approvals are pending: the API's 409
    expect(await failed('ask_assistant', { conversation_id: c.conversation_id, message: 'hello?' })).toMatchObject({
      code: 'conflict',
    });
    const approved = (
      await ok('ask_assistant', {
        conversation_id: c.conversation_id,
        approvals: [{ approval_id: approvalId, approved: true }],
      })
    ).data;
    expect(approved).toMatchObject({ status: 'working', pending_approvals: [] });
    await sim.advance(3);
    const done = (await ok('get_assistant_conversation', { conversation_id: c.conversation_id })).data;
    expect(done.status).toBe('idle');
    expect(done.actions).toEqual([expect.objectContaining({ tool: 'create_quick_ai_text', status: 'completed' })]);
    expect(done.reply).toMatch(/I started an AI text to \+14155550100/);
    expect((await ok('list_assistant_conversations', { limit: 5 })).data.map((x: any) => x.conversation_id)).toEqual([
      c.conversation_id,
    ]);
  });

  it('on a real clock it waits for the run (reporting progress to a client that asks), or not at all with wait_seconds 0', async () => {
    await sim.api('POST', '/_sim/clock', { body: { mode: 'real' } });
    const progress: number[] = [];
    const r = await call(
      'ask_assistant',
      { message: 'how many calls did we get today?' },
      { onprogress: (p) => progress.push(p.progress), resetTimeoutOnProgress: true },
    );
    const c = (r.structuredContent as any).data;
    expect(c).toMatchObject({ status: 'idle', reply: expect.stringMatching(/^You got 0 inbound calls today/) });
    expect(progress.length).toBeGreaterThan(3); // every 200 ms here, for ~5 s
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const quick = (await ok('ask_assistant', { message: 'how many calls did we get today?', wait_seconds: 0 })).data;
    expect(quick.status).toBe('working');
  }, 20_000);
});

describe("errors are tool results with isError, in the API's words", () => {
  it("a wrong type and an unknown field: validation_error with the fields the API's 400 names", async () => {
    const args = { to_numbers: 5, goal: 'x', bogus: true };
    const e = await failed('create_quick_ai_call', args);
    const http = await sim.api('POST', '/v1/quick/ai-calls', { body: args });
    expect(http.status).toBe(400);
    expect({ error: e }).toEqual(http.json);
    expect(e).toEqual({
      code: 'validation_error',
      message: 'The request is invalid.',
      fields: { bogus: 'is not a known field', to_numbers: 'must be an array, got number' },
    });
    // a list's query: as the API words a query's problems
    expect(await failed('list_calls', { limit: 'many', colour: 'red' })).toMatchObject({
      code: 'validation_error',
      fields: { limit: 'must be an integer', colour: 'is not a known query parameter' },
    });
  });

  it('what would not reach the API as itself (a list, an object or null in a path or query; an empty, dot or slashed id) is refused in its words', async () => {
    expect((await failed('get_phone_number_config', { phone_number_id: { a: 1 } })).fields).toEqual({
      phone_number_id: 'must be an integer',
    });
    expect((await failed('get_call', { call_id: [1] })).fields).toEqual({ call_id: 'must be a string' });
    expect((await failed('list_calls', { limit: null })).fields).toEqual({ limit: 'must be an integer' });
    for (const id of ['', '.', '..', 'a/b'])
      expect((await failed('list_video_schedule_videos', { schedule_id: id })).fields, id).toEqual({
        schedule_id: 'must be an id (not empty, not . or .., no /)',
      });
  });

  it('a path id is named as the tool names it; a missing one is required', async () => {
    expect(await failed('get_phone_number_config', { phone_number_id: 'abc' })).toEqual({
      code: 'validation_error',
      message: 'The request is invalid.',
      fields: { phone_number_id: 'must be an integer' },
    });
    expect((await failed('get_call', {})).fields).toEqual({ call_id: 'is required' });
    const r = await call('get_call', { call_id: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(
      'not_found (HTTP 404): No call 3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90 in this workspace.',
    );
  });

  it("the API's other refusals: a conflict, an empty wallet", async () => {
    await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 0, auto_recharge: false } });
    expect(await failed('send_quick_email', { to: ['ada@example.com'], subject: 'Hi', body: 'Hello' })).toMatchObject({
      code: 'insufficient_funds',
    });
  });

  it("an unknown tool is the protocol's own error (the spec's -32602)", async () => {
    await expect(mcp.callTool({ name: 'make_coffee', arguments: {} })).rejects.toThrow(/Unknown tool: make_coffee/);
  });
});

describe('documentation', () => {
  const section = readFileSync(new URL('../docs/mcp.md', import.meta.url), 'utf8');
  const spendingIn = (text: string) =>
    [...(/Tools that spend money[^\n]*(?:\n(?!\n)[^\n]*)*/.exec(text)?.[0] ?? '').matchAll(/`?([a-z]+(?:_[a-z]+)+)`?/g)]
      .map((m) => m[1])
      .filter((n) => NAMES.includes(n));

  it('docs/mcp.md: the client configuration, every tool, and exactly the tools that spend money', () => {
    expect(section).toContain('"command": "vmv"');
    expect(section).toContain('"args": ["mcp"]');
    for (const n of NAMES) expect(section, n).toContain(`\`${n}\``);
    expect(spendingIn(section).sort()).toEqual([...SPENDING].sort());
  });

  it('vmv mcp --help names the same tools that spend money', async () => {
    const r = await cli(['mcp', '--help']);
    expect(r.code).toBe(0);
    expect(spendingIn(r.stdout).sort()).toEqual([...SPENDING].sort());
  });

  it("only `vmv mcp` loads the SDK: neither the program nor the mcp noun's own module imports it", () => {
    const meta = JSON.parse(readFileSync(new URL('../dist/meta.json', import.meta.url), 'utf8')) as {
      outputs: Record<
        string,
        { inputs: Record<string, unknown>; imports?: { path: string; kind: string }[]; entryPoint?: string }
      >;
    };
    const staticClosure = (start: string) => {
      const seen = new Set<string>();
      const visit = (f: string) => {
        if (seen.has(f) || !meta.outputs[f]) return;
        seen.add(f);
        for (const i of meta.outputs[f].imports ?? []) if (i.kind === 'import-statement') visit(i.path);
      };
      visit(start);
      return [...seen];
    };
    const loadsSdk = (files: string[]) =>
      files.some((f) =>
        Object.keys(meta.outputs[f].inputs).some(
          (i) => i.includes('@modelcontextprotocol') || i.includes('zod/v4/classic'),
        ),
      );
    const cli = Object.keys(meta.outputs).find((f) => meta.outputs[f].entryPoint === 'src/cli.ts')!;
    expect(loadsSdk(staticClosure(cli))).toBe(false);
    const noun = Object.keys(meta.outputs).find((f) => meta.outputs[f].entryPoint === 'commands/mcp/index.ts')!;
    expect(noun).toBeTruthy();
    expect(loadsSdk(staticClosure(noun))).toBe(false);
    const serve = Object.keys(meta.outputs).find((f) => meta.outputs[f].entryPoint === 'commands/mcp/serve.ts')!;
    expect(loadsSdk(staticClosure(serve))).toBe(true);
  });
});

describe('vmv mcp as a child process on stdio (the embedded simulator)', () => {
  it("lists exactly the tools and calls them on the data file; the recording is the download's bytes; errors in the API's words", async () => {
    const dir = tempDir();
    const data = join(dir, 'sim.json');
    // the same data file served over HTTP too: fixtures through its control plane, the reference download
    const http = await startSim({ data });
    try {
      const call = (
        await http.api('POST', '/_sim/calls', {
          body: { direction: 'outbound', from_number: OUR, to_number: ADA, has_recording: true, summary: 'Booked.' },
        })
      ).json.data;
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        stderr: 'pipe',
        env: childEnv(dir, { VMV_SIM_DATA: data }),
      });
      let stderr = '';
      transport.stderr!.on('data', (d) => (stderr += d));
      const client = new Client({ name: 'vmv-test', version: '1.0.0' });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(DEFAULT_NAMES);
      const read = (await client.callTool({ name: 'get_call', arguments: { call_id: call.id } })) as CallToolResult;
      expect((read.structuredContent as any).data).toMatchObject({ id: call.id, summary: 'Booked.' });
      const rec = (await client.callTool({
        name: 'get_call_recording',
        arguments: { call_id: call.id, include_bytes: true },
      })) as CallToolResult;
      const audio = rec.content.find((c) => c.type === 'audio') as { data: string; mimeType: string };
      expect(
        Buffer.from(audio.data, 'base64').equals((await http.api('GET', `/v1/calls/${call.id}/recording`)).bytes),
      ).toBe(true);
      const bad = (await client.callTool({
        name: 'create_quick_ai_call',
        arguments: { to_numbers: 5, goal: 'x', bogus: true },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      // the embedded simulator in the SDK's process words its 400 exactly as the server does
      expect(JSON.parse((bad.content[0] as { text: string }).text)).toEqual(
        (await http.api('POST', '/v1/quick/ai-calls', { body: { to_numbers: 5, goal: 'x', bogus: true } })).json,
      );
      await client.close();
      expect(stderr).toMatch(
        new RegExp(`^vmv mcp: serving ${DEFAULT_NAMES.length} tools on stdio; target the embedded simulator`, 'm'),
      );
      expect(stderr).toMatch(/^vmv mcp: get_call_recording: ok/m);
    } finally {
      await http.stop();
    }
  });

  it('stdout carries protocol messages only; closing stdin ends it with exit 0', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: childEnv(dir),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const answered = new Promise<void>((resolve) =>
      createInterface({ input: child.stdout }).on('line', (l) => {
        lines.push(l);
        if (JSON.parse(l).id === 3) resolve();
      }),
    );
    const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_contacts', arguments: { limit: 2 } } });
    await answered;
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(lines.map((l) => JSON.parse(l)).map((m) => [m.jsonrpc, m.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
      ['2.0', 3],
    ]);
    const result = JSON.parse(lines[2]).result;
    expect(result.structuredContent.meta.page_size).toBe(2);
    expect(stderr).toMatch(/list_contacts: ok/);
  });

  /** `bin/vmv mcp` fed `input` in one write with stdin closed right after: its stdout's messages, stderr and exit code. */
  async function oneShot(
    input: string,
  ): Promise<{ env: Record<string, string>; messages: any[]; stderr: string; code: number | null }> {
    const dir = tempDir();
    const env = childEnv(dir);
    const child = spawn(process.execPath, [BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.stdin.end(input);
    return {
      env,
      stderr,
      code: await code,
      messages: stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    };
  }
  const INIT = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
  };
  const lines = (...m: unknown[]) => m.map((x) => JSON.stringify(x)).join('\n');

  it('a one-shot pipe (stdin closed right after the requests): every request is answered before it exits 0, the email charged once', async () => {
    const r = await oneShot(
      lines(
        INIT,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: {
            name: 'send_quick_email',
            arguments: { to: ['ada@example.com'], subject: 'Hello', body: 'Hi there' },
          },
        },
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      ) + '\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.messages.map((m) => m.id).sort()).toEqual([1, 2, 3]);
    const byId = Object.fromEntries(r.messages.map((m) => [m.id, m]));
    expect(byId[1].result.serverInfo.name).toBe('vmv');
    expect(byId[2].result.structuredContent.data).toMatchObject({ status: 'sent', sent_to: ['ada@example.com'] });
    expect(byId[3].result.tools).toHaveLength(DEFAULT_NAMES.length);
    const ledger = (await cli(['api', '/_sim/ledger', '--paginate'], { env: r.env })).json as {
      kind: string;
      reference_id: string;
    }[];
    expect(ledger.filter((e) => e.kind === 'email')).toEqual([
      expect.objectContaining({ reference_id: byId[2].result.structuredContent.data.id }),
    ]);
  });

  it('a last request without its newline is answered too; one the client cancelled is not waited for', async () => {
    const r = await oneShot(
      lines(
        INIT,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_contacts', arguments: { limit: 1 } } },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'ask_assistant', arguments: { message: 'how many calls did we get yesterday?' } },
        },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'changed my mind' } },
        { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.messages.map((m) => m.id).sort()).toEqual([1, 2, 4]);
    expect(r.stderr).not.toContain('unanswered');
  });

  it('a call that never finishes bounds the wait for answers: false after the time given, true once the last answer is written', async () => {
    const [input, output] = [new PassThrough(), new PassThrough()];
    const { transport, answered } = tracked(new StdioServerTransport(input, output));
    let finish!: () => void;
    const server = new Server({ name: 'stuck', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(
      ListToolsRequestSchema,
      () => new Promise((resolve) => (finish = () => resolve({ tools: [] }))),
    );
    await server.connect(transport);
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) + '\n');
    const started = Date.now();
    expect(await answered(100)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    const later = answered(10_000);
    finish();
    expect(await later).toBe(true);
    expect(JSON.parse(output.read().toString())).toEqual({ jsonrpc: '2.0', id: 7, result: { tools: [] } });
    await server.close();
  });
});

describe('coverage', () => {
  it('every tool was called against the simulator above (run with the whole file)', () => {
    expect([...called].sort()).toEqual([...NAMES].sort());
  });
});
