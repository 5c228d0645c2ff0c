// `vmv mcp` fits an agent's context (issue "vmv mcp that fits an agent's context"): the listing's
// budgets measured (bytes, and o200k tokens with gpt-tokenizer), toolsets and a key's scopes, every
// id argument obtainable from some tool's result, results whole and compact, a person asked before
// spending (MCP elicitation, in memory and through a stdio child), resources, and the protocol's
// rules (a cursor never given, the revision negotiated). The SDK's client throughout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { selected } from '../commands/mcp/serve.js';
import { buildServer, type ServerOptions } from '../commands/mcp/server.js';
import { createClient, type ApiClient } from '../src/client.js';
import { mcpCatalog, type McpTool } from '../simulator/index.js';
import { BIN, childEnv, cli, startSim, tempDir, type Sim } from './helpers.js';
import { withFormats } from './contract.js';

type Catalog = Awaited<ReturnType<typeof mcpCatalog>>;

const KB = 1024;
const BUDGET = {
  defaultBytes: 40 * KB,
  defaultTokens: 10_000,
  readOnlyBytes: 15 * KB,
  toolBytes: 8 * KB,
  medianBytes: 1.2 * KB,
};

let sim: Sim;
let catalog: Catalog;
const open: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  sim = await startSim();
  catalog = await mcpCatalog();
});
afterAll(async () => {
  for (const c of open) await c.close();
  await sim.stop();
});
beforeEach(() => sim.reset());

const apiClient = async (apiKey = sim.key): Promise<ApiClient> => {
  const c = await createClient({ kind: 'remote', baseUrl: sim.url, apiKey, profile: 'default', dataFile: '' });
  open.push(c);
  return c;
};

/** The SDK's client linked in memory to a server of `tools`; one that answers elicitation when `elicit` is given. */
async function connect(
  o: Partial<ServerOptions> & { elicit?: (message: string) => ElicitResult; key?: string } = {},
): Promise<{ mcp: Client; asked: string[] }> {
  const api = await apiClient(o.key);
  const server = buildServer(catalog, api, {
    version: 'test',
    tools: o.tools ?? catalog.select(catalog.tools, {}),
    allowModelApprovals: o.allowModelApprovals,
    outputSchemas: o.outputSchemas,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const mcp = new Client(
    { name: 'vmv-test', version: '1.0.0' },
    { capabilities: o.elicit ? { elicitation: { form: {} } } : {} },
  );
  const asked: string[] = [];
  if (o.elicit) {
    const answer = o.elicit;
    mcp.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params.message);
      return answer(req.params.message);
    });
  }
  await Promise.all([server.connect(a), mcp.connect(b)]);
  open.push(mcp);
  return { mcp, asked };
}

const listingOf = async (tools: McpTool[]) => {
  const { mcp } = await connect({ tools });
  return (await mcp.listTools()).tools;
};
const sizeOf = (x: unknown) => Buffer.byteLength(JSON.stringify(x));
const call = async (mcp: Client, name: string, args: Record<string, unknown> = {}) =>
  (await mcp.callTool({ name, arguments: args })) as CallToolResult;
const wallet = async () => (await sim.api('GET', '/_sim/workspace')).json.wallet_usd as number;
const EMAIL = { to: ['ada@example.com'], subject: 'Hello', body: 'Hi there' };

describe('budgets: the listing a model carries', () => {
  it('default at most 40 KB and 10,000 tokens; --read-only at most 15 KB; no tool over 8 KB; the median at most 1.2 KB', async () => {
    const defaults = await listingOf(catalog.select(catalog.tools, {}));
    const json = JSON.stringify({ tools: defaults });
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(BUDGET.defaultBytes);
    expect(encode(json).length).toBeLessThanOrEqual(BUDGET.defaultTokens);
    const readOnly = await listingOf(catalog.select(catalog.tools, { readOnly: true }));
    expect(sizeOf({ tools: readOnly })).toBeLessThanOrEqual(BUDGET.readOnlyBytes);
    const all = await listingOf(catalog.select(catalog.tools, { toolsets: ['all'] }));
    expect(all).toHaveLength(catalog.tools.length);
    for (const t of all) expect(sizeOf(t), t.name).toBeLessThanOrEqual(BUDGET.toolBytes);
    const sizes = all.map(sizeOf).sort((a, b) => a - b);
    expect(sizes[Math.floor(sizes.length / 2)]).toBeLessThanOrEqual(BUDGET.medianBytes);
  });

  it('no HTTP route in any word; overlapping tools say when to use which; every spending tool its price', async () => {
    const all = await listingOf(catalog.select(catalog.tools, { toolsets: ['all'] }));
    const words = JSON.stringify(all.map((t) => [t.description, t.inputSchema]));
    expect(words).not.toMatch(/\/v1\//);
    expect(words).not.toMatch(/\b(GET|POST|PATCH|DELETE) \//);
    const d = Object.fromEntries(all.map((t) => [t.name, t.description!]));
    for (const [a, b] of [
      ['list_contacts', 'list_contacted_people'],
      ['list_emails', 'get_email_history'],
      ['list_messages', 'get_text_history'],
      ['list_calls', 'get_call_transcripts'],
      ['get_quick_action', 'get_ai_number'],
    ]) {
      expect(d[a], a).toContain(b);
      expect(d[b], b).toContain(a);
      expect(d[a]).not.toBe(d[b]);
    }
    for (const t of catalog.tools.filter((x) => x.spends))
      expect(d[t.name].split('\n\n')[0], t.name).toMatch(/^Spends money: .*(\d+\.\d\d USD|price|rate)/);
  });

  it('schemas are portable: no \\p{…} pattern; each compiles under ajv; --output-schemas lists the exact ones', async () => {
    const ajv = withFormats(new Ajv({ strict: false }));
    const listed = await connect({ tools: catalog.select(catalog.tools, { toolsets: ['all'] }), outputSchemas: true });
    for (const t of (await listed.mcp.listTools()).tools) {
      expect(JSON.stringify(t.inputSchema), t.name).not.toMatch(/\\\\p\{/);
      expect(() => ajv.compile(t.inputSchema), t.name).not.toThrow();
      if (t.outputSchema) expect(() => ajv.compile(t.outputSchema!), t.name).not.toThrow();
      expect(t.outputSchema, t.name).toEqual(catalog.tools.find((x) => x.name === t.name)!.outputSchema);
    }
    // the hashtag rule, one word of any script, in a pattern every engine reads alike
    const bad = await sim.api('POST', '/v1/videos/quote', {
      body: { template: 'talking_avatar', source_text: 'Espresso at dawn on Main Street', hashtags: ['#two words'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields['hashtags[0]'] ?? bad.json.error.fields['hashtags.0']).toBe(
      'must be one word of letters, digits or _ (with or without #)',
    );
    expect(
      (
        await sim.api('POST', '/v1/videos/quote', {
          body: { template: 'talking_avatar', source_text: 'Espresso at dawn on Main Street', hashtags: ['#café_2'] },
        })
      ).status,
    ).toBe(200);
  });
});

describe('toolsets, named tools, read-only, scopes', () => {
  const names = (o: Parameters<Catalog['select']>[1]) => catalog.select(catalog.tools, o).map((t) => t.name);
  it('a selection as GitHub has them', () => {
    const defaults = names({});
    expect(defaults).toEqual(catalog.DEFAULT_TOOLSETS.flatMap((s) => catalog.TOOLSETS[s].tools));
    expect(names({ toolsets: ['default'] })).toEqual(defaults);
    expect(names({ toolsets: ['videos'] })).toEqual(catalog.TOOLSETS.videos.tools);
    expect(names({ tools: ['get_call', 'list_calls'] })).toEqual(['list_calls', 'get_call']);
    expect(names({ toolsets: ['webhooks'], tools: ['get_call'] })).toEqual([
      'get_call',
      ...catalog.TOOLSETS.webhooks.tools,
    ]);
    expect(names({ exclude: ['ask_assistant'] })).toEqual(defaults.filter((n) => n !== 'ask_assistant'));
    expect(names({ toolsets: ['all'] })).toHaveLength(catalog.tools.length);
    const reads = names({ toolsets: ['all'], readOnly: true });
    expect(reads).toContain('quote_video');
    for (const n of reads) expect(n).toMatch(/^(get|list|search|quote)_/);
    expect(() => names({ toolsets: ['bogus'] })).toThrow(/unknown toolset bogus: choose from history, numbers/);
    expect(() => names({ tools: ['make_coffee'] })).toThrow(/unknown tool make_coffee/);
  });

  it("the flags and VMV_MCP_TOOLSETS; an unknown name is a usage error; a key's scopes decide what is listed", async () => {
    const r = await cli(['mcp', '--toolsets', 'bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown toolset bogus/);
    const api = await apiClient();
    const pick = (o: Record<string, unknown>, env: Record<string, string> = {}, client = api) =>
      selected(catalog, o, env, client).then((t) => t.map((x) => x.name));
    expect(await pick({}, { VMV_MCP_TOOLSETS: 'calls' })).toEqual(catalog.TOOLSETS.calls.tools);
    expect(await pick({ toolsets: 'schedules', readOnly: true, excludeTools: 'get_video_schedule' })).toEqual([
      'list_videos',
      'list_video_music',
      'list_social_connections',
      'list_video_schedules',
      'list_video_schedule_videos',
    ]);
    const key = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['calls:read'] } })).json.key;
    const limited = await apiClient(key);
    expect(await pick({}, {}, limited)).toEqual([
      'get_call_transcripts',
      'list_calls',
      'get_call',
      'get_call_recording',
    ]);
    const { mcp } = await connect({ key, tools: await selected(catalog, {}, {}, limited) });
    expect((await mcp.listTools()).tools).toHaveLength(4);
  });
});

/**
 * Where each id argument comes from: tools and the path in their result. A test checks each path in
 * the tool's exact output schema, and that every selection (each toolset, the default ones) holds a
 * source of each id its tools take; the walk below reads each and uses it.
 */
const SOURCES: Record<string, [tool: string, path: string][]> = {
  contact_id: [['list_contacts', 'data[].contact_id']],
  caller_id: [['list_phone_numbers', 'data[].phone_number']],
  call_id: [
    ['list_calls', 'data[].id'],
    ['place_call', 'data.id'],
  ],
  phone_number_id: [
    ['list_phone_numbers', 'data[].id'],
    ['create_quick_ai_number', 'data.id'],
  ],
  conversation_id: [['list_assistant_conversations', 'data[].conversation_id']],
  job_id: [['create_quick_ai_call', 'data.id']],
  video_id: [['list_videos', 'data[].id']],
  source_video_id: [['list_videos', 'data[].id']],
  post_id: [['list_video_posts', 'data[].id']],
  schedule_id: [['list_video_schedules', 'data[].id']],
  webhook_id: [
    ['list_call_webhooks', 'data[].id'],
    ['list_text_webhooks', 'data[].id'],
  ],
  connection_ids: [['list_social_connections', 'data[].id']],
  voice_id: [['list_phone_number_voices', 'data[].id']],
  track_id: [['list_video_music', 'data[].track_id']],
  knowledge_base_ids: [['get_phone_number_config', 'data.knowledge.knowledge_base_ids[]']],
  faq_ids: [['get_phone_number_config', 'data.knowledge.faq_ids[]']],
  event_type_ids: [['get_phone_number_config', 'data.booking.event_type_ids[]']],
  approval_id: [['get_assistant_conversation', 'data.pending_approvals[].approval_id']],
  id: [['get_phone_number_config', 'data.transfers.rules[].id']],
};
/** A text webhook's id comes from the text webhooks' list. */
const SOURCE_OF_TOOL: Record<string, string> = {
  delete_text_webhook: 'list_text_webhooks',
  test_text_webhook: 'list_text_webhooks',
};
/** Ids no route lists: a video provider's presenters, voices and clips, the default when left out. */
const FREE_FORM = ['replica_id', 'avatar_id', 'clip_id'];
const freeForm = (tool: McpTool, arg: string) =>
  FREE_FORM.includes(arg) || (arg === 'voice_id' && tool.toolsets.some((s) => s === 'videos' || s === 'schedules'));

/** Every argument that names an id, at any depth of an input schema. */
function idArgs(schema: any, out = new Set<string>()): Set<string> {
  for (const [k, v] of Object.entries((schema?.properties ?? {}) as Record<string, any>)) {
    if (/(^|_)ids?$/.test(k)) out.add(k);
    idArgs(v, out);
    idArgs(v.items, out);
  }
  return out;
}

/** The schema at a path of a result (`data[].id`), or undefined. */
function schemaAt(schema: any, path: string): any {
  let s = schema;
  for (const part of path.split('.')) {
    const [name, arr] = [part.replace('[]', ''), part.endsWith('[]')];
    s = s?.properties?.[name];
    if (arr) s = s?.items;
  }
  return s;
}

describe('ids a model can find', () => {
  it('every id argument of every tool comes from some tool’s result, within each toolset and the default ones', () => {
    const byName = new Map(catalog.tools.map((t) => [t.name, t]));
    for (const [arg, sources] of Object.entries(SOURCES))
      for (const [name, path] of sources)
        expect(schemaAt(byName.get(name)!.outputSchema, path), `${arg}: ${name} → ${path}`).toBeDefined();
    const selections = [['default'], ...Object.keys(catalog.TOOLSETS).map((s) => [s])];
    for (const toolsets of selections) {
      const offered = new Set(catalog.select(catalog.tools, { toolsets }).map((t) => t.name));
      for (const name of offered)
        for (const arg of idArgs(byName.get(name)!.inputSchema)) {
          if (freeForm(byName.get(name)!, arg)) continue;
          expect(SOURCES[arg], `no source for ${arg}`).toBeDefined();
          const from = SOURCES[arg]
            .map(([tool]) => tool)
            .filter((tool) => tool !== name && offered.has(tool))
            .filter((tool) => !SOURCE_OF_TOOL[name] || SOURCE_OF_TOOL[name] === tool);
          // the path id of a read of the same record may be its own (get_phone_number_config's rule ids)
          const own = SOURCES[arg].some(([tool]) => tool === name) && arg !== byName.get(name)!.idArg;
          expect(from.length > 0 || own, `${toolsets}: ${name}(${arg}) has no source among ${[...offered]}`).toBe(true);
        }
    }
  });

  it('the walk: each path id read from its source and used by every read tool that takes it', async () => {
    const { mcp } = await connect({
      tools: catalog.select(catalog.tools, { toolsets: ['all'] }),
      allowModelApprovals: true,
    });
    await sim.api('POST', '/_sim/contacts', { body: { name: 'Ada', phone_number: '+15550002001' } });
    await sim.api('POST', '/_sim/calls', {
      body: { direction: 'outbound', from_number: '+15550001000', to_number: '+15550002001', has_recording: true },
    });
    await sim.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } });
    const tiktok = (await sim.api('GET', '/v1/social-connections?platform=tiktok')).json.data[0].id;
    const v = (
      await sim.api('POST', '/v1/videos', {
        body: { template: 'slideshow', source_text: 'Espresso at dawn', script_review: 'manual' },
      })
    ).json.data;
    await sim.api('POST', `/v1/videos/${v.id}/posts`, {
      body: {
        connection_ids: [tiktok],
        scheduled_for: new Date(Date.parse((await sim.api('GET', '/_sim/clock')).json.now) + 86400_000).toISOString(),
      },
    });
    await sim.api('POST', '/v1/video-schedules', {
      body: { name: 'Tips', days_of_week: [1], post_hour: 9, time_zone: 'UTC', connection_ids: [tiktok] },
    });
    await sim.api('POST', '/v1/voice/calls/webhooks', { body: { url: 'https://example.com/hooks' } });
    await sim.api('POST', '/v1/assistant/messages', { body: { message: 'how many calls today?', wait_seconds: 0 } });
    const pick = (body: any, path: string) => {
      let x = body;
      for (const part of path.split('.')) {
        x = x?.[part.replace('[]', '')];
        if (part.endsWith('[]')) x = x?.[0];
      }
      return x;
    };
    const used: string[] = [];
    for (const t of catalog.tools.filter((x) => x.idArg && x.annotations.readOnlyHint)) {
      const [source, path] = SOURCES[t.idArg!][0];
      const srcArgs: Record<string, unknown> =
        {
          list_video_posts: { video_id: v.id },
          create_quick_ai_call: { to_numbers: ['+14155550102'], goal: 'Confirm Tuesday' },
        }[source] ?? {};
      const got = await call(mcp, source, srcArgs);
      const id = pick(got.structuredContent, path);
      expect(id, `${source} → ${path}`).toBeDefined();
      const r = await call(mcp, t.name, { [t.idArg!]: id });
      expect(r.isError, `${t.name}(${t.idArg}=${id}): ${JSON.stringify(r.content[0])}`).toBeFalsy();
      used.push(t.name);
    }
    expect(used).toEqual(expect.arrayContaining(['get_call', 'get_contact', 'get_phone_number_config', 'get_video']));
  });
});

describe('results: whole, compact', () => {
  it('a page of 20 real calls is at most 8 KB by default: what finds and tells them apart; each whole where asked', async () => {
    // quick AI calls placed through the API and played out on the clock (10.7 KB whole but transcripts, before)
    expect((await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 500 } })).status).toBe(200);
    for (let i = 0; i < 7; i++) {
      const r = await sim.api('POST', '/v1/quick/ai-calls', {
        body: {
          to_numbers: [0, 1, 2].map((k) => `+1202555${1000 + i * 3 + k}`),
          goal: 'Confirm the Tuesday 3pm appointment and ask whether they need directions to the clinic',
          instructions: 'Be brief and friendly. The clinic is at 12 Main St.',
        },
      });
      expect(r.status, r.text).toBe(201);
    }
    await sim.advance(3600);
    const { mcp } = await connect();
    const page = await call(mcp, 'list_calls', {});
    const items = (page.structuredContent as any).data as Record<string, unknown>[];
    expect(items).toHaveLength(20);
    const text = (page.content[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(8 * KB);
    expect(JSON.parse(text)).toEqual(page.structuredContent);
    const answered = items.find((c) => c.status === 'COMPLETED')!;
    expect(Object.keys(answered).sort()).toEqual([
      'created_at',
      'direction',
      'duration_seconds',
      'from_number',
      'has_recording',
      'id',
      'status',
      'summary',
      'tags',
      'to_number',
    ]);
    const whole = await call(mcp, 'list_calls', { include_details: true });
    const first = (whole.structuredContent as any).data.find((c: any) => c.id === answered.id);
    expect(first.transcript_turns.length).toBeGreaterThan(1);
    expect(first).toMatchObject({ contact_id: expect.any(String), started_at: expect.any(String) });
    const one = await call(mcp, 'get_call', { call_id: first.id });
    expect((one.structuredContent as any).data).toEqual(first);
  });
  it('a page of 20 videos is at most 8 KB by default: what finds and tells them apart; each whole where asked', async () => {
    expect((await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 500 } })).status).toBe(200);
    for (let i = 0; i < 22; i++) {
      const r = await sim.api('POST', '/v1/videos', {
        body: {
          template: 'talking_avatar',
          source_text: `Espresso at dawn on Main Street, take ${i}`,
          script: 'Our espresso bar opens Monday on Main Street. Come taste the difference, with a free cup for you.',
          caption: 'Opening Monday',
          hashtags: ['coffee', 'mainstreet'],
        },
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
    }
    await sim.api('POST', '/_sim/clock/advance', { body: { seconds: 7200 } }); // ready: signed links, every time
    const { mcp } = await connect({ tools: catalog.select(catalog.tools, { toolsets: ['default', 'videos'] }) });
    const page = await call(mcp, 'list_videos', {});
    const items = (page.structuredContent as any).data as Record<string, unknown>[];
    expect(items).toHaveLength(20);
    const text = (page.content[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(8 * KB);
    expect(JSON.parse(text)).toEqual(page.structuredContent);
    expect(Object.keys(items[0]).sort()).toEqual([
      'caption',
      'created_at',
      'estimated',
      'format',
      'id',
      'price_usd',
      'ready_at',
      'seconds',
      'status',
      'template',
    ]);
    expect(items[0]).toMatchObject({ status: 'ready', template: 'talking_avatar', caption: 'Opening Monday' });
    const whole = await call(mcp, 'list_videos', { include_details: true });
    const first = (whole.structuredContent as any).data[0];
    expect(first.script).toContain('Come taste the difference');
    expect(first.line_items.length).toBeGreaterThan(0);
    expect(first.video_url).toMatch(/\/v1\/media\/videos\//);
    const one = await call(mcp, 'get_video', { video_id: first.id });
    expect((one.structuredContent as any).data).toMatchObject({ id: first.id, script: first.script });
  });
});

describe('a person approves spending (MCP elicitation)', () => {
  it('accepted: asked with the price and what will happen, then sent and charged', async () => {
    const { mcp, asked } = await connect({ elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const desc = (await mcp.listTools()).tools.find((t) => t.name === 'send_quick_email')!.description!;
    expect(desc).toContain('The user is asked to approve the cost before it is spent.');
    const before = await wallet();
    const r = await call(mcp, 'send_quick_email', EMAIL);
    expect(r.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Sends the email "Hello" to ada@example.com');
    expect(asked[0]).toContain('0.01 USD per recipient');
    expect(await wallet()).toBeCloseTo(before - 0.01, 2);
  });

  it('declined or answered no: nothing called, nothing spent', async () => {
    for (const answer of [{ action: 'decline' }, { action: 'accept', content: { approve: false } }] as ElicitResult[]) {
      const { mcp, asked } = await connect({ elicit: () => answer });
      const before = await wallet();
      const r = await call(mcp, 'create_quick_ai_call', { to_numbers: ['+14155550102'], goal: 'Confirm Tuesday' });
      expect(r.isError).toBe(true);
      expect(JSON.parse((r.content[0] as { text: string }).text).error).toMatchObject({ code: 'not_approved' });
      expect(asked[0]).toMatch(/0\.20 USD per call placed/);
      expect(await wallet()).toBe(before);
      expect((await sim.api('GET', '/v1/calls')).json.data).toEqual([]);
    }
  });

  it("a video's price is quoted into the question (its idempotency_key left out); free tools ask nothing", async () => {
    const { mcp, asked } = await connect({
      tools: catalog.select(catalog.tools, { toolsets: ['default', 'videos'] }),
      elicit: () => ({ action: 'decline' }),
    });
    const quote = (
      await call(mcp, 'quote_video', {
        template: 'talking_avatar',
        source_text: 'Espresso at dawn on Main Street',
        script: 'Our espresso bar opens Monday on Main Street. Come taste the difference.',
      })
    ).structuredContent as any;
    await call(mcp, 'create_video', {
      template: 'talking_avatar',
      source_text: 'Espresso at dawn on Main Street',
      script: 'Our espresso bar opens Monday on Main Street. Come taste the difference.',
      idempotency_key: 'video-key-1',
    });
    expect(asked).toHaveLength(1);
    // the key is how the call is sent, not what it does: neither in the question nor in the quote
    expect(asked[0]).toContain(`Price: ${quote.data.price_usd} USD.`);
    expect(asked[0]).not.toContain('video-key-1');
    await call(mcp, 'list_calls', {});
    expect(asked).toHaveLength(1);
  });

  it('ask_assistant: each pending approval put to the person, their answer sent', async () => {
    const { mcp, asked } = await connect({
      elicit: (m) => ({ action: 'accept', content: { approve: m.includes('create_quick_ai_text') } }),
    });
    const listed = (await mcp.listTools()).tools.find((t) => t.name === 'ask_assistant')!;
    expect(Object.keys(listed.inputSchema.properties!)).not.toContain('approvals');
    const first = { message: 'text +14155550100 and ask whether Tuesday works', idempotency_key: 'ask-1' };
    const c = (await call(mcp, 'ask_assistant', first)).structuredContent as any;
    await sim.advance(2); // the run plans on the simulator clock, and waits for approval
    const r = await call(mcp, 'ask_assistant', { conversation_id: c.data.conversation_id });
    expect(asked).toEqual([expect.stringContaining('The assistant wants to use create_quick_ai_text')]);
    expect((r.structuredContent as any).data).toMatchObject({ pending_approvals: [] });
    await sim.advance(3);
    const done = (await sim.api('GET', `/v1/assistant/conversations/${c.data.conversation_id}`)).json.data;
    expect(done.actions).toEqual([expect.objectContaining({ tool: 'create_quick_ai_text', status: 'completed' })]);
    // the first message asked again with its key: its first reply, no second run, nobody asked again
    const again = (await call(mcp, 'ask_assistant', first)).structuredContent as any;
    expect(again).toEqual({ ...c, replayed: true });
    expect(asked).toHaveLength(1);
    const list = (await sim.api('GET', '/v1/assistant/conversations')).json.data;
    expect(list).toHaveLength(1);
  });

  it('without elicitation: spending tools say so; ask_assistant returns pending approvals and refuses the model’s', async () => {
    const { mcp } = await connect();
    const tools = (await mcp.listTools()).tools;
    expect(tools.find((t) => t.name === 'send_quick_email')!.description).toContain(
      'This client cannot ask its user to confirm',
    );
    expect(tools.find((t) => t.name === 'list_calls')!.description).not.toContain('cannot ask');
    const first = { message: 'text +14155550100 and ask whether Tuesday works', idempotency_key: 'ask-1' };
    const c = (await call(mcp, 'ask_assistant', first)).structuredContent as any;
    await sim.advance(2);
    const w = await call(mcp, 'ask_assistant', { conversation_id: c.data.conversation_id });
    const pending = (w.structuredContent as any).data.pending_approvals;
    expect(pending).toEqual([expect.objectContaining({ tool: 'create_quick_ai_text' })]);
    const refused = await call(mcp, 'ask_assistant', {
      conversation_id: c.data.conversation_id,
      approvals: [{ approval_id: pending[0].approval_id, approved: true }],
    });
    expect(JSON.parse((refused.content[0] as { text: string }).text).error.fields).toEqual({
      approvals: 'is answered by a person, not by this tool (vmv assistant approve)',
    });
    const still = (await sim.api('GET', `/v1/assistant/conversations/${c.data.conversation_id}`)).json.data;
    expect(still.status).toBe('awaiting_approval');
  });

  it('through a stdio child: asked, then accepted or declined', async () => {
    const dir = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      stderr: 'pipe',
      env: childEnv(dir),
    });
    const client = new Client({ name: 'vmv-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const answers: ElicitResult[] = [{ action: 'accept', content: { approve: true } }, { action: 'decline' }];
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params.message);
      return answers.shift()!;
    });
    await client.connect(transport);
    try {
      // the child's listing within the budget; its results whole JSON text
      const listing = await client.listTools();
      expect(sizeOf(listing)).toBeLessThanOrEqual(BUDGET.defaultBytes);
      expect(encode(JSON.stringify(listing)).length).toBeLessThanOrEqual(BUDGET.defaultTokens);
      const yes = (await client.callTool({ name: 'send_quick_email', arguments: EMAIL })) as CallToolResult;
      expect((yes.structuredContent as any).data).toMatchObject({ status: 'sent' });
      expect(JSON.parse((yes.content[0] as { text: string }).text)).toEqual(yes.structuredContent);
      const no = (await client.callTool({ name: 'send_quick_email', arguments: EMAIL })) as CallToolResult;
      expect(no.isError).toBe(true);
      expect((no.content[0] as { text: string }).text).toContain('not_approved');
      expect(asked).toHaveLength(2);
      const emails = (await client.callTool({
        name: 'list_emails',
        arguments: { email: 'ada@example.com' },
      })) as CallToolResult;
      expect((emails.structuredContent as any).data).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describe('resources and protocol', () => {
  it("a call's transcript and recording are resources; an unknown one is refused", async () => {
    const c = (
      await sim.api('POST', '/_sim/calls', {
        body: {
          direction: 'outbound',
          from_number: '+15550001000',
          to_number: '+15550002001',
          has_recording: true,
          transcript_turns: [{ speaker: 'agent', text: 'Hi Ada', seconds_from_start: 0 }],
        },
      })
    ).json.data;
    const { mcp } = await connect();
    const templates = (await mcp.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual([
      'vmv://calls/{call_id}/recording',
      'vmv://calls/{call_id}/transcript',
      'vmv://videos/{video_id}/video.mp4',
    ]);
    const t = await mcp.readResource({ uri: `vmv://calls/${c.id}/transcript` });
    expect(t.contents[0]).toMatchObject({ mimeType: 'text/plain', text: 'AI: Hi Ada' });
    const rec = await mcp.readResource({ uri: `vmv://calls/${c.id}/recording` });
    expect(
      Buffer.from((rec.contents[0] as { blob: string }).blob, 'base64').equals(
        (await sim.api('GET', `/v1/calls/${c.id}/recording`)).bytes,
      ),
    ).toBe(true);
    await expect(
      mcp.readResource({ uri: 'vmv://calls/3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90/recording' }),
    ).rejects.toThrow(/No call/);
    await expect(mcp.readResource({ uri: 'https://example.com/x' })).rejects.toThrow(/Unknown resource/);
  });

  it("a video's file is a resource, linked from get_video once it is ready", async () => {
    const v = (
      await sim.api('POST', '/v1/videos', {
        body: {
          template: 'talking_avatar',
          source_text: 'Espresso at dawn on Main Street',
          script: 'Our espresso bar opens Monday on Main Street. Come taste the difference.',
        },
      })
    ).json.data;
    for (let i = 0; i < 100; i++) {
      if ((await sim.api('GET', `/v1/videos/${v.id}`)).json.data.status === 'ready') break;
      await sim.advance(60);
    }
    const { mcp } = await connect({ tools: catalog.select(catalog.tools, { toolsets: ['videos'] }) });
    const r = await call(mcp, 'get_video', { video_id: v.id });
    const link = r.content.find((c) => c.type === 'resource_link') as { uri: string };
    expect(link.uri).toBe(`vmv://videos/${v.id}/video.mp4`);
    const file = await mcp.readResource({ uri: link.uri });
    const mp4 = Buffer.from((file.contents[0] as { blob: string }).blob, 'base64');
    const url = new URL((r.structuredContent as any).data.video_url);
    expect(mp4.equals((await sim.api('GET', `${url.pathname}${url.search}`)).bytes)).toBe(true);
  });

  it('a cursor this server never gave is -32602 (tools, resources, templates)', async () => {
    const { mcp } = await connect();
    // what every list tool's arguments mean, said once in the instructions (their listings leave it out)
    expect(mcp.getInstructions()).toContain('List tools take limit (page size, default 20), cursor');
    await expect(mcp.listTools({ cursor: 'bogus' })).rejects.toMatchObject({ code: -32602 });
    await expect(mcp.listResources({ cursor: 'x' })).rejects.toMatchObject({ code: -32602 });
    await expect(mcp.listResourceTemplates({ cursor: 'x' })).rejects.toMatchObject({ code: -32602 });
  });

  it('the newest revision is negotiated; an older one a client asks for is spoken', async () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    for (const [asked, spoken] of [
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-06-18'],
      ['1999-01-01', LATEST_PROTOCOL_VERSION],
    ]) {
      const server = buildServer(catalog, await apiClient(), { version: 'test', tools: [] });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(a);
      const got = new Promise<JSONRPCMessage>((resolve) => (b.onmessage = resolve));
      await b.start();
      await b.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      expect(((await got) as any).result.protocolVersion, asked).toBe(spoken);
      await server.close();
    }
  });
});
