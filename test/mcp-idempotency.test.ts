// An MCP agent that asks again never pays again (issue 31, point 1): `bin/vmv mcp` as a child
// process spoken to in raw JSON-RPC lines on stdio, on both targets (the embedded simulator on a
// data file a `vmv sim serve` also serves, and that server as a base URL), the charges counted on
// the simulator's ledger. With one idempotency_key: three identical calls, two in flight at once,
// and a call repeated in a new session after the first was killed (once answered, once before any
// answer) each charge once, and a result that is the key's first one again says `replayed: true`;
// the key with other arguments is a clear tool error; without a key, asking again acts again.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, childEnv, startSim, tempDir, type Sim } from './helpers.js';

type Result = {
  isError?: boolean;
  structuredContent?: { data?: { id: string }; replayed?: boolean };
  content: { type: string; text: string }[];
};

/** One `vmv mcp` session on stdio: JSON-RPC requests written as lines, answers matched by id. */
class Session {
  readonly child: ChildProcessWithoutNullStreams;
  private next = 1;
  private waiting = new Map<number, (r: any) => void>();
  stderr = '';

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d) => (this.stderr += d));
    createInterface({ input: this.child.stdout }).on('line', (l) => {
      const m = JSON.parse(l);
      this.waiting.get(m.id)?.(m);
    });
  }

  /** The lines of requests, written in one go; the answers' promises, in order. */
  write(...requests: { method: string; params?: unknown }[]): Promise<any>[] {
    const answers: Promise<any>[] = [];
    const lines = requests.map((r) => {
      const id = this.next++;
      answers.push(new Promise((resolve) => this.waiting.set(id, resolve)));
      return JSON.stringify({ jsonrpc: '2.0', id, ...r });
    });
    this.child.stdin.write(`${lines.join('\n')}\n`);
    return answers;
  }

  async start(): Promise<this> {
    const [init] = this.write({
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
    });
    expect((await init).result.serverInfo.name).toBe('vmv');
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return this;
  }

  /** tools/call requests written together (in flight at once), their results. */
  async calls(...calls: [string, Record<string, unknown>][]): Promise<Result[]> {
    const answers = this.write(
      ...calls.map(([name, args]) => ({ method: 'tools/call', params: { name, arguments: args } })),
    );
    return (await Promise.all(answers)).map((m) => m.result as Result);
  }

  async call(name: string, args: Record<string, unknown>): Promise<Result> {
    return (await this.calls([name, args]))[0];
  }

  /** Ends the process as a host that dies would: SIGKILL, nothing flushed, nothing said. */
  async kill(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<number | null> {
    const exited = new Promise<number | null>((r) => this.child.once('exit', r));
    this.child.stdin.end();
    return exited;
  }
}

const EMAIL = { to: ['ada@example.com'], subject: 'Your order shipped', body: 'It arrives Tuesday.' };
const emailOf = (r: Result) => r.structuredContent?.data?.id;
const errorOf = (r: Result) => JSON.parse(r.content[0].text).error;

describe.each(['embedded', 'remote'] as const)('one idempotency_key, one charge (%s target)', (target) => {
  let sim: Sim;
  let env: Record<string, string>;
  const sessions: Session[] = [];
  beforeAll(async () => {
    const dir = tempDir();
    const data = join(dir, 'sim.json');
    sim = await startSim({ data });
    env =
      target === 'embedded'
        ? childEnv(dir, { VMV_SIM_DATA: data })
        : childEnv(dir, { VMV_BASE_URL: sim.url, VMV_API_KEY: sim.key });
  });
  afterAll(async () => {
    for (const s of sessions) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
    await sim.stop();
  });
  const session = async () => {
    const s = new Session(env);
    sessions.push(s);
    return s.start();
  };
  /** The email charges on the ledger, by the email's id. */
  const charges = async (): Promise<string[]> => {
    const r = await sim.api('GET', '/_sim/ledger?limit=100');
    expect(r.status).toBe(200);
    return (r.json.data as { kind: string; reference_id: string }[])
      .filter((e) => e.kind === 'email')
      .map((e) => e.reference_id);
  };
  const chargedFor = async (id: string | undefined) => (await charges()).filter((x) => x === id).length;

  it('three identical calls with one key: one email, one charge; the second and third say replayed', async () => {
    const before = (await charges()).length;
    const s = await session();
    const key = `three-${target}`;
    const r = [];
    for (let i = 0; i < 3; i++) r.push(await s.call('send_quick_email', { ...EMAIL, idempotency_key: key }));
    for (const x of r) expect(x.isError, JSON.stringify(x)).toBeFalsy();
    expect(new Set(r.map(emailOf)).size).toBe(1);
    expect(r.map((x) => x.structuredContent?.replayed)).toEqual([undefined, true, true]);
    // the text is the same JSON as the structured content
    expect(JSON.parse(r[1].content[0].text)).toEqual(r[1].structuredContent);
    expect(await chargedFor(emailOf(r[0]))).toBe(1);
    expect((await charges()).length - before).toBe(1);
    expect(await s.close()).toBe(0);
  });

  it('two identical calls in flight at once with one key: one charge, one of them replayed', async () => {
    const before = (await charges()).length;
    const s = await session();
    const args = { ...EMAIL, idempotency_key: `flight-${target}` };
    const r = await s.calls(['send_quick_email', args], ['send_quick_email', args]);
    expect(r.map((x) => x.isError ?? false)).toEqual([false, false]);
    expect(emailOf(r[0])).toBe(emailOf(r[1]));
    expect(r.map((x) => x.structuredContent?.replayed ?? false).sort()).toEqual([false, true]);
    expect((await charges()).length - before).toBe(1);
    expect(await s.close()).toBe(0);
  });

  it('a session killed after its answer, the same call in a new session: the first result, replayed, no second charge', async () => {
    const before = (await charges()).length;
    const args = { ...EMAIL, idempotency_key: `killed-${target}` };
    const first = await session();
    const a = await first.call('send_quick_email', args);
    expect(a.isError).toBeFalsy();
    await first.kill();
    const again = await (await session()).call('send_quick_email', args);
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toEqual({ ...a.structuredContent, replayed: true });
    expect((await charges()).length - before).toBe(1);
  });

  it('a session killed before any answer, the same call in a new session: sent once whatever the first did', async () => {
    const before = (await charges()).length;
    const args = { ...EMAIL, idempotency_key: `unanswered-${target}` };
    const first = await session();
    void first.write({ method: 'tools/call', params: { name: 'send_quick_email', arguments: args } });
    await first.kill();
    const again = await (await session()).call('send_quick_email', args);
    expect(again.isError, JSON.stringify(again)).toBeFalsy();
    expect(await chargedFor(emailOf(again))).toBe(1);
    expect((await charges()).length - before).toBe(1);
  });

  it('the key with other arguments: a tool error that says what to do, nothing sent or charged', async () => {
    const s = await session();
    const key = `conflict-${target}`;
    expect((await s.call('send_quick_email', { ...EMAIL, idempotency_key: key })).isError).toBeFalsy();
    const before = (await charges()).length;
    const r = await s.call('send_quick_email', { ...EMAIL, subject: 'Another one', idempotency_key: key });
    expect(r.isError).toBe(true);
    const e = errorOf(r);
    expect(e.code).toBe('idempotency_conflict');
    expect(e.message).toContain(`idempotency_key "${key}" was used within the last 24 hours for a different request`);
    expect(e.message).toMatch(/use a new key/);
    expect(e.fields).toMatchObject({
      idempotency_key: 'already used for a different request',
      conflicts_with: expect.any(String),
    });
    expect(r.content[1].text).toMatch(/^idempotency_conflict \(HTTP 409\): idempotency_key/);
    expect((await charges()).length).toBe(before);
    expect(await s.close()).toBe(0);
  });

  it("a key that is not a string, or too long: the API's 400, named as the argument", async () => {
    const s = await session();
    const wrong = await s.call('send_quick_email', { ...EMAIL, idempotency_key: 7 });
    expect(errorOf(wrong)).toMatchObject({ code: 'validation_error', fields: { idempotency_key: 'must be a string' } });
    const long = await s.call('send_quick_email', { ...EMAIL, idempotency_key: 'k'.repeat(256) });
    expect(errorOf(long)).toMatchObject({
      code: 'validation_error',
      fields: { idempotency_key: 'must be 1 to 255 characters (got 256)' },
    });
    // a read takes none: the API names it as an unknown field
    const read = await s.call('list_emails', { idempotency_key: 'x' });
    expect(errorOf(read).fields).toHaveProperty('idempotency_key');
    expect(await s.close()).toBe(0);
  });

  it('without a key, asking again acts again: which is why every acting tool asks for one', async () => {
    const before = (await charges()).length;
    const s = await session();
    const r = [await s.call('send_quick_email', EMAIL), await s.call('send_quick_email', EMAIL)];
    expect(emailOf(r[0])).not.toBe(emailOf(r[1]));
    expect(r.map((x) => x.structuredContent?.replayed)).toEqual([undefined, undefined]);
    expect((await charges()).length - before).toBe(2);
    const [list] = s.write({ method: 'tools/list' });
    const tools = (await list).result.tools as { name: string; inputSchema: any; annotations: any }[];
    for (const t of tools.filter((x) => !x.annotations.readOnlyHint))
      expect(t.inputSchema.properties.idempotency_key?.description, t.name).toMatch(/reuse it to retry/);
    expect(await s.close()).toBe(0);
  });
});
