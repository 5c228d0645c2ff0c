// The assistant agent over HTTP, sentence by sentence (spec Part 2 Assistant conversation, Part 3 its
// state table, Part 4 Assistant agent, Limits; issue "The assistant agent"). A manual clock unless said.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, T0, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const send = (body: Record<string, unknown>, key?: string) => sim.api('POST', '/v1/assistant/messages', { body, key });
const read = async (id: string) => (await sim.api('GET', `/v1/assistant/conversations/${id}`)).json.data;
const ask = async (message: string, extra: Record<string, unknown> = {}) => {
  const r = await send({ message, ...extra });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
};
/** Sends a message and advances the clock until the run stops working. */
const settle = async (id: string) => {
  for (let i = 0; i < 20; i++) {
    const c = await read(id);
    if (c.status !== 'working') return c;
    await sim.advance(1);
  }
  throw new Error('still working');
};
const askAndSettle = async (message: string) => settle((await ask(message)).conversation_id);
const answerAll = async (
  c: { conversation_id: string; pending_approvals: { approval_id: string }[] },
  approved: boolean | boolean[],
) =>
  send({
    conversation_id: c.conversation_id,
    approvals: c.pending_approvals.map((p, i) => ({
      approval_id: p.approval_id,
      approved: Array.isArray(approved) ? approved[i] : approved,
    })),
  });
const wallet = async () => (await sim.api('GET', '/_sim/workspace')).json.wallet_usd as number;

describe('the conversation record and the state table', () => {
  it('a message is accepted: working, with every field of Part 2; the read adds the transcript', async () => {
    const c = await ask('how many calls did we get today?');
    expect(Object.keys(c).sort()).toEqual([
      'actions',
      'conversation_id',
      'created_at',
      'error',
      'not_understood',
      'pending_approvals',
      'reply',
      'run_id',
      'status',
      'title',
      'updated_at',
    ]);
    expect(c).toMatchObject({
      status: 'working',
      reply: '',
      actions: [],
      pending_approvals: [],
      error: null,
      title: 'how many calls did we get today?',
    });
    // "Record identifiers are strings (UUID) unless a field is stated to be an integer" (issue 32, point 3)
    expect(c.run_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const r = await read(c.conversation_id);
    expect(r.transcript).toEqual([{ role: 'user', content: 'how many calls did we get today?', at: T0 }]);
  });
  it('working → idle when the task finishes: the reply is final, in the transcript; "working" lasts the documented time', async () => {
    const c = await ask('how many calls did we get today?');
    await sim.advance(1);
    expect((await read(c.conversation_id)).status).toBe('working'); // thinking (2 s)
    await sim.advance(1);
    const mid = await read(c.conversation_id);
    expect(mid.status).toBe('working'); // acting (3 s)
    await sim.advance(3);
    const done = await read(c.conversation_id);
    expect(done.status).toBe('idle');
    expect(done.reply).toBe('You got 0 inbound calls today (2026-01-05, UTC).');
    expect(done.actions).toEqual([expect.objectContaining({ tool: 'list_calls', status: 'completed', error: null })]);
    expect(done.transcript.map((t: { role: string }) => t.role)).toEqual(['user', 'assistant']);
    expect(done.transcript[1]).toEqual({ role: 'assistant', content: done.reply, at: '2026-01-05T09:00:05.000Z' });
  });
  it('working → awaiting_approval for a costly action; all accepted carries on and does it', async () => {
    const c = await askAndSettle('text +14155550100 and ask whether Tuesday works');
    expect(c.status).toBe('awaiting_approval');
    expect(c.pending_approvals).toHaveLength(1);
    const p = c.pending_approvals[0];
    expect(Object.keys(p).sort()).toEqual(['approval_id', 'input', 'reason', 'tool', 'tool_call_id']);
    expect(p.approval_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(p.tool_call_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(p).toMatchObject({
      tool: 'create_quick_ai_text',
      input: { to_numbers: ['+14155550100'], goal: 'ask whether Tuesday works' },
    });
    expect(p.reason).toMatch(/0\.05 USD per message/);
    expect(await wallet()).toBe(50); // nothing done yet
    const r = await answerAll(c, true);
    expect(r.json.data).toMatchObject({ status: 'working', pending_approvals: [] });
    const done = await settle(c.conversation_id);
    expect(done.status).toBe('idle');
    expect(done.actions).toEqual([
      expect.objectContaining({ tool_call_id: p.tool_call_id, tool: 'create_quick_ai_text', status: 'completed' }),
    ]);
    const job = done.actions[0].output.data;
    expect((await sim.api('GET', `/v1/quick/actions/${job.id}`)).json.data.kind).toBe('ai_text');
    expect(await wallet()).toBe(49.95); // the opener, billed as through the API
    expect(done.reply).toContain(`quick action ${job.id}`);
  });
  it('approvals answered partly: 400 naming the missing ones; nothing changes', async () => {
    const c = await askAndSettle(
      'text +14155550100 and ask whether Tuesday works, then call +14155550101 to confirm the appointment',
    );
    expect(c.pending_approvals.map((p: { tool: string }) => p.tool)).toEqual([
      'create_quick_ai_text',
      'create_quick_ai_call',
    ]);
    const r = await send({
      conversation_id: c.conversation_id,
      approvals: [{ approval_id: c.pending_approvals[0].approval_id, approved: true }],
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.approvals).toBe(
      `must answer every pending approval in one request; not answered: ${c.pending_approvals[1].approval_id}`,
    );
    const unknown = await send({
      conversation_id: c.conversation_id,
      approvals: [{ approval_id: 'apr_nope', approved: true }],
    });
    expect(Object.keys(unknown.json.error.fields).sort()).toEqual(['approvals', 'approvals[0].approval_id']);
    expect((await read(c.conversation_id)).status).toBe('awaiting_approval');
  });
  it('one declined: it is not done and the agent says so; the approved one is done', async () => {
    const c = await askAndSettle(
      'text +14155550100 and ask whether Tuesday works, then call +14155550101 to confirm the appointment',
    );
    const r = await send({
      conversation_id: c.conversation_id,
      approvals: [
        { approval_id: c.pending_approvals[0].approval_id, approved: true },
        { approval_id: c.pending_approvals[1].approval_id, approved: false, reason: 'not this week' },
      ],
    });
    expect(r.status).toBe(200);
    const done = await settle(c.conversation_id);
    expect(done.actions.map((a: { tool: string; status: string }) => `${a.tool}:${a.status}`).sort()).toEqual([
      'create_quick_ai_call:declined',
      'create_quick_ai_text:completed',
    ]);
    expect(done.reply).toContain('I did not call +14155550101: you declined ("not this week").');
    expect((await sim.api('GET', '/v1/calls')).json.data).toEqual([]); // no call was placed
  });
  it('409 conflict for a message while working, and while approvals are pending', async () => {
    const c = await ask('who texted us today?');
    const busy = await send({ conversation_id: c.conversation_id, message: 'and yesterday?' });
    expect([busy.status, busy.json.error.code]).toEqual([409, 'conflict']);
    await settle(c.conversation_id);
    const p = await askAndSettle('call +14155550100 to confirm the appointment');
    const pending = await send({ conversation_id: p.conversation_id, message: 'hello?' });
    expect([pending.status, pending.json.error.code]).toEqual([409, 'conflict']);
    expect(pending.json.error.message).toContain(p.pending_approvals[0].approval_id);
    // approvals with nothing pending
    const none = await send({
      conversation_id: c.conversation_id,
      approvals: [{ approval_id: 'apr_x', approved: true }],
    });
    expect([none.status, none.json.error.code]).toEqual([409, 'conflict']);
  });
  it('working → failed: error set; the next message is accepted and runs', async () => {
    const c = await askAndSettle('what is on the video schedule? #fail-run');
    expect(c.status).toBe('failed');
    expect(c.error).toMatch(/#fail-run/);
    const next = await send({ conversation_id: c.conversation_id, message: 'what is on the video schedule?' });
    expect(next.json.data).toMatchObject({ status: 'working', error: null });
    expect((await settle(c.conversation_id)).reply).toBe('There are no video schedules.');
    expect((await read(c.conversation_id)).transcript.map((t: { role: string }) => t.role)).toEqual([
      'user',
      'user',
      'assistant',
    ]);
  });
  it('a message it does not understand gets a helpful idle reply, not a failure; not_understood says so', async () => {
    const c = await askAndSettle('sing me a song');
    expect(c.status).toBe('idle');
    expect(c.reply).toMatch(
      /^I didn't understand "sing me a song"\. I can answer or do:\n- "who called us yesterday\?"/,
    );
    expect(c.not_understood).toEqual(['sing me a song']);
  });
});

describe('the send body, wait_seconds, scopes and the plan', () => {
  it('message or approvals, not both and not neither; approvals need conversation_id; unknown conversation 404', async () => {
    const either = { message: 'send either message or approvals', approvals: 'send either message or approvals' };
    expect((await send({})).json.error.fields).toEqual(either);
    const both = await send({ message: 'hi', approvals: [{ approval_id: 'a', approved: true }] });
    expect([both.status, both.json.error.fields]).toEqual([400, either]);
    expect((await send({ approvals: [{ approval_id: 'a', approved: true }] })).json.error.fields.conversation_id).toBe(
      'is required with approvals',
    );
    expect((await send({ message: 'hi', conversation_id: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90' })).status).toBe(404);
    expect((await send({ message: 'hi', colour: 'red' })).json.error.fields.colour).toBeDefined();
  });
  it('wait_seconds at most 240; 0 answers at once; a manual clock never waits', async () => {
    expect((await send({ message: 'hi', wait_seconds: 241 })).json.error.fields.wait_seconds).toBeDefined();
    expect((await send({ message: 'who texted us today?', wait_seconds: 0 })).json.data.status).toBe('working');
    expect((await send({ message: 'who texted us today?', wait_seconds: 240 })).json.data.status).toBe('working');
  });
  it('on a real clock the request returns as soon as the run stops working', async () => {
    const real = await startSim({ clock: 'real' });
    try {
      const t = Date.now();
      const r = await real.api('POST', '/v1/assistant/messages', { body: { message: 'hello there' } });
      expect(r.json.data.status).toBe('idle'); // thought for 2 s of real time, then answered
      expect(Date.now() - t).toBeGreaterThanOrEqual(1900);
      expect(Date.now() - t).toBeLessThan(10_000);
      const quick = await real.api('POST', '/v1/assistant/messages', {
        body: { message: 'hello again', wait_seconds: 1 },
      });
      expect(quick.json.data.status).toBe('working'); // wait_seconds passed first
    } finally {
      await real.stop();
    }
  });
  it('scopes: assistant:write sends, assistant:read reads; the plan gate answers 403 plan_not_included', async () => {
    const w = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['assistant:write'] } })).json.key;
    const r = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['assistant:read'] } })).json.key;
    const c = (await send({ message: 'hi' }, w)).json.data;
    expect((await send({ message: 'hi' }, r)).status).toBe(403);
    expect((await sim.api('GET', `/v1/assistant/conversations/${c.conversation_id}`, { key: r })).status).toBe(200);
    expect((await sim.api('GET', '/v1/assistant/conversations', { key: w })).status).toBe(403);
    await sim.api('PATCH', '/_sim/workspace', { body: { plan: { assistant: false } } });
    for (const [m, p] of [
      ['POST', '/v1/assistant/messages'],
      ['GET', '/v1/assistant/conversations'],
      ['GET', `/v1/assistant/conversations/${c.conversation_id}`],
    ]) {
      const x = await sim.api(m, p, { body: m === 'POST' ? { message: 'hi' } : undefined });
      expect([x.status, x.json.error.code], `${m} ${p}`).toEqual([403, 'plan_not_included']);
    }
  });
  it('lists conversations newest first by creation: a later message does not move one up (issue 23, point 7)', async () => {
    const a = await ask('hi');
    await sim.advance(10);
    const b = await ask('hello');
    await sim.advance(10);
    await send({ conversation_id: a.conversation_id, message: 'again' });
    await sim.advance(10);
    const list = (await sim.api('GET', '/v1/assistant/conversations')).json;
    expect(list.data.map((c: { conversation_id: string }) => c.conversation_id)).toEqual([
      b.conversation_id,
      a.conversation_id,
    ]);
    // a was updated last, and still comes after b
    expect(list.data[1].updated_at > list.data[0].updated_at).toBe(true);
    const asc = (await sim.api('GET', '/v1/assistant/conversations?order=asc')).json.data;
    expect(asc.map((c: { conversation_id: string }) => c.conversation_id)).toEqual([
      a.conversation_id,
      b.conversation_id,
    ]);
    expect(list.meta.page_size).toBe(20);
  });
});

describe("what the agent understands, through the API's own operations", () => {
  const fixture = (path: string, body: Record<string, unknown>) => sim.api('POST', path, { body });
  it('"call +1… to confirm the appointment" places a quick AI call once approved, billed as through the API', async () => {
    const c = await askAndSettle('call +14155550100 to confirm the appointment');
    expect(c.pending_approvals[0]).toMatchObject({
      tool: 'create_quick_ai_call',
      input: { to_numbers: ['+14155550100'], goal: 'confirm the appointment' },
    });
    expect(c.pending_approvals[0].reason).toMatch(/0\.20 USD per call placed/);
    await answerAll(c, true);
    const done = await settle(c.conversation_id);
    expect(done.actions[0].output.data.kind).toBe('ai_call');
    await sim.advance(600);
    expect((await sim.api('GET', '/v1/calls')).json.data[0].to_number).toBe('+14155550100');
  });
  it('"email <name> about …": the contact resolved like quick email; ambiguous and unknown names asked back', async () => {
    await fixture('/_sim/contacts', { name: 'Maria Gonzalez', email: 'maria@example.com' });
    const c = await askAndSettle('email Maria Gonzalez about the invoice');
    expect(c.pending_approvals[0].input).toMatchObject({ to: ['maria@example.com'], subject: 'The invoice' });
    await answerAll(c, true);
    const done = await settle(c.conversation_id);
    expect(done.reply).toBe('I emailed maria@example.com about the invoice (0.01 USD).');
    expect((await sim.api('GET', '/v1/emails?email=maria@example.com')).json.data).toHaveLength(1);
    await fixture('/_sim/contacts', { name: 'Maria Garcia', email: 'mg@example.com' });
    const which = await askAndSettle('email Maria about the invoice');
    expect(which.status).toBe('idle');
    expect(which.reply).toMatch(
      /^"Maria" could be 2 contacts: Maria Gonzalez \(maria@example\.com\), Maria Garcia \(mg@example\.com\)\. Which one\?/,
    );
    expect((await askAndSettle('email Zed Zebra about lunch')).reply).toMatch(
      /couldn't find a contact named "Zed Zebra"/,
    );
  });
  it('"how many calls did we get yesterday?": inbound calls of the previous calendar day, in the workspace\'s time zone', async () => {
    await fixture('/_sim/calls', {
      direction: 'inbound',
      from_number: '+14155550100',
      to_number: '+14155550199',
      created_at: '2026-01-04T03:00:00Z',
    });
    await fixture('/_sim/calls', {
      direction: 'inbound',
      from_number: '+14155550101',
      to_number: '+14155550199',
      created_at: '2026-01-04T23:30:00Z',
    });
    await fixture('/_sim/calls', {
      direction: 'outbound',
      from_number: '+14155550199',
      to_number: '+14155550100',
      created_at: '2026-01-04T12:00:00Z',
    });
    await fixture('/_sim/calls', {
      direction: 'inbound',
      from_number: '+14155550102',
      to_number: '+14155550199',
      created_at: '2026-01-05T01:00:00Z',
    });
    expect((await askAndSettle('How many calls did we get yesterday?')).reply).toBe(
      'You got 2 inbound calls yesterday (2026-01-04, UTC).',
    );
    // in New York yesterday (Jan 4 local) runs 05:00Z Jan 4 to 05:00Z Jan 5
    await sim.api('PATCH', '/_sim/workspace', { body: { time_zone: 'America/New_York' } });
    expect((await askAndSettle('how many calls did we get yesterday?')).reply).toBe(
      'You got 2 inbound calls yesterday (2026-01-04, America/New_York).',
    );
    expect(
      (await sim.api('PATCH', '/_sim/workspace', { body: { time_zone: 'Mars/Base' } })).json.error.fields.time_zone,
    ).toBeDefined();
  });
  it('"who texted us today?" names the people who texted in', async () => {
    await fixture('/_sim/contacts', { name: 'Ada Lovelace', phone_number: '+14155550111' });
    await fixture('/_sim/texts', {
      direction: 'inbound',
      from_number: '+14155550111',
      to_number: '+14155550199',
      body: 'Hi',
      created_at: '2026-01-05T08:00:00Z',
    });
    await fixture('/_sim/texts', {
      direction: 'inbound',
      from_number: '+14155550112',
      to_number: '+14155550199',
      body: 'Yo',
      created_at: '2026-01-05T08:30:00Z',
    });
    await fixture('/_sim/texts', {
      direction: 'inbound',
      from_number: '+14155550113',
      to_number: '+14155550199',
      body: 'Old',
      created_at: '2026-01-04T08:30:00Z',
    });
    expect((await askAndSettle('who texted us today?')).reply).toBe(
      '2 people texted you today: +14155550112, Ada Lovelace (+14155550111).',
    );
  });
  it('"what did +1… say on the last call?" reads the call\'s transcript (two free reads)', async () => {
    await fixture('/_sim/calls', {
      direction: 'inbound',
      from_number: '+14155550100',
      to_number: '+14155550199',
      created_at: '2026-01-04T10:00:00Z',
      transcript_turns: [
        { speaker: 'agent', text: 'Acme, how can I help?' },
        { speaker: 'person', text: 'Is the shop open on Sunday?' },
      ],
    });
    const c = await askAndSettle('What did +14155550100 say on the last call?');
    expect(c.actions.map((a: { tool: string }) => a.tool)).toEqual(['list_calls', 'get_call']);
    expect(c.reply).toBe(
      'On the last call with +14155550100 (2026-01-04 10:00:00 UTC) they said: "Is the shop open on Sunday?"',
    );
  });
  it('"make a 30-second video about …" waits for approval with the quoted price; "what is on the video schedule?" reads schedules', async () => {
    const quote = (
      await sim.api('POST', '/v1/videos/quote', {
        body: { template: 'talking_avatar', source_text: 'our cold brew', target_duration_seconds: 30 },
      })
    ).json.data;
    const c = await askAndSettle('make a 30-second video about our cold brew');
    expect(c.pending_approvals[0]).toMatchObject({
      tool: 'create_video',
      input: { template: 'talking_avatar', source_text: 'our cold brew', target_duration_seconds: 30 },
    });
    expect(c.pending_approvals[0].reason).toContain(`about ${quote.price_usd} USD`);
    await answerAll(c, true);
    const done = await settle(c.conversation_id);
    expect((await sim.api('GET', '/v1/videos')).json.data[0].id).toBe(done.actions[0].output.data.id);
    const conn = (await sim.api('GET', '/v1/social-connections')).json.data[0].id;
    await sim.api('POST', '/v1/video-schedules', {
      body: {
        name: 'Tips',
        days_of_week: [1, 3],
        post_hour: 9,
        time_zone: 'UTC',
        connection_ids: [conn],
        starts_on: '2026-01-06',
      },
    });
    expect((await askAndSettle('what is on the video schedule?')).reply).toBe(
      '1 video schedule:\n- Tips: next posts 1 video at 2026-01-07 09:00:00 UTC',
    );
  });
  it('"change the greeting on number N to …" runs at once (free, reversible) through the number configuration', async () => {
    const n = (await fixture('/_sim/phone-numbers', { stack: 't2' })).json;
    const c = await askAndSettle(`change the greeting on number ${n.id} to Thanks for calling Acme!`);
    expect(c.pending_approvals).toEqual([]);
    expect(c.reply).toBe(`I changed the greeting on number ${n.id} to "Thanks for calling Acme!".`);
    const cfg = (await sim.api('GET', `/v1/phone-numbers/${n.id}/config`)).json.data;
    expect(cfg.voice.greeting_message).toBe('Thanks for calling Acme!');
    const missing = await askAndSettle('change the greeting on number 999999 to Hi');
    expect(missing.actions[0]).toMatchObject({ status: 'failed' });
    // output is an object in the spec: a failed action has none, so the key is left out (issue 23, point 1)
    expect(missing.actions[0]).not.toHaveProperty('output');
    expect(missing.reply).toMatch(/^I could not change the greeting on number 999999: /);
  });
});

describe('review fixes', () => {
  const fixture = (path: string, body: Record<string, unknown>) => sim.api('POST', path, { body });
  it('an idempotent retry while the first request waits (real clock) replays it: one run, one conversation', async () => {
    const real = await startSim({ clock: 'real' });
    try {
      const body = { message: 'hello there' };
      const headers = { 'Idempotency-Key': 'k-1' };
      const first = real.api('POST', '/v1/assistant/messages', { body, headers });
      await new Promise((r) => setTimeout(r, 300));
      const retry = await real.api('POST', '/v1/assistant/messages', { body, headers });
      expect(retry.headers.get('idempotency-replay')).toBe('true');
      const a = await first;
      expect(retry.json.data.conversation_id).toBe(a.json.data.conversation_id);
      expect((await real.api('GET', '/v1/assistant/conversations')).json.data).toHaveLength(1);
      const later = await real.api('POST', '/v1/assistant/messages', { body, headers });
      expect(later.json.data.status).toBe('idle'); // the final reply, once stored
    } finally {
      await real.stop();
    }
  });
  it('a greeting, a goal or a quoted text is never cut at its own punctuation or a "then" inside it', async () => {
    const n = (await fixture('/_sim/phone-numbers', { stack: 't2' })).json;
    const g = await askAndSettle(
      `change the greeting on number ${n.id} to Hi, thanks for calling. Press 1 for sales, then 2 for support.`,
    );
    expect(g.reply).toBe(
      `I changed the greeting on number ${n.id} to "Hi, thanks for calling. Press 1 for sales, then 2 for support.".`,
    );
    const q = await askAndSettle(
      `change the greeting on number ${n.id} to "Thanks for calling Acme; how can we help?"`,
    );
    expect((await sim.api('GET', `/v1/phone-numbers/${n.id}/config`)).json.data.voice.greeting_message).toBe(
      'Thanks for calling Acme; how can we help?',
    );
    expect(q.actions).toHaveLength(1);
    const call = await askAndSettle('call +14155550100 to confirm the appointment with Dr. Smith at 3 p.m. Tuesday');
    expect(call.pending_approvals[0].input.goal).toBe('confirm the appointment with Dr. Smith at 3 p.m. Tuesday');
  });
  it('requests split at "Then" or a new sentence that begins one; polite openings are fine', async () => {
    const c = await askAndSettle(
      'How many calls did we get today? Then can you text +14155550100 and ask whether Tuesday works?',
    );
    expect(c.reply).toMatch(/^You got 0 inbound calls today/);
    expect(c.pending_approvals[0].input).toEqual({ to_numbers: ['+14155550100'], goal: 'ask whether Tuesday works' });
  });
  it('free actions run at once, before the costly ones are asked about; the reply says both', async () => {
    const n = (await fixture('/_sim/phone-numbers', { stack: 't2' })).json;
    const c = await askAndSettle(
      `change the greeting on number ${n.id} to Welcome!; call +14155550100 to confirm the appointment`,
    );
    expect(c.status).toBe('awaiting_approval');
    expect(c.actions.map((a: { tool: string }) => a.tool)).toEqual(['update_phone_number_config']);
    expect((await sim.api('GET', `/v1/phone-numbers/${n.id}/config`)).json.data.voice.greeting_message).toBe(
      'Welcome!',
    );
    expect(c.reply).toMatch(
      /^I changed the greeting on number \d+ to "Welcome!"\.\nBefore I go on I need your approval to call \+14155550100\.$/,
    );
  });
  it("the sending key's scopes apply to the actions: what it may not do is said, not asked about or done", async () => {
    const key = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['assistant:write', 'assistant:read'] } }))
      .json.key;
    const r = (await send({ message: 'who texted us today?; call +14155550100 to confirm the appointment' }, key)).json
      .data;
    await sim.advance(10);
    const c = (await sim.api('GET', `/v1/assistant/conversations/${r.conversation_id}`, { key })).json.data;
    expect(c.status).toBe('idle');
    expect(c.actions).toEqual([]);
    expect(c.reply).toBe(
      "I can't list who texted today: This API key lacks the sms:read scope.\nI can't call +14155550100: This needs a full-access API key.",
    );
  });
  it('a blank message is 400; one with nothing to read gets the help reply; bad numbers and several addresses are asked back', async () => {
    expect((await send({ message: '   ' })).json.error.fields.message).toBe('must not be blank');
    expect((await askAndSettle(';')).reply).toMatch(/^I didn't understand ";"\. I can answer or do:/);
    expect((await askAndSettle('text +00000000 and ask whether Tuesday works')).reply).toBe(
      '+00000000 is not a phone number I can text: give it in E.164 form, such as +14155550100.',
    );
    expect((await askAndSettle('email ada@example.com and bob@example.com about the invoice')).reply).toMatch(
      /is not one email address I can write to/,
    );
  });
  it('"who texted us today?" reads every page of the day\'s texts', async () => {
    for (let i = 0; i < 105; i++)
      await fixture('/_sim/texts', {
        direction: 'inbound',
        from_number: `+1415555${String(1000 + i)}`,
        to_number: '+14155550199',
        body: 'Hi',
        created_at: '2026-01-05T08:00:00Z',
      });
    const c = await askAndSettle('who texted us today?');
    expect(c.reply).toMatch(/^105 people texted you today: /);
    expect(c.actions.map((a: { tool: string }) => a.tool)).toEqual(['list_messages', 'list_messages']);
  });
});

describe('spending questions past what the ledger keeps (review point 2)', () => {
  it('after more than 1,000 charges, a span before the oldest entry kept says from when the ledger remembers', async () => {
    const email = () =>
      sim.api('POST', '/v1/quick/emails', { body: { to: ['ada@example.com'], subject: 'Hi', body: 'Hello' } });
    expect((await email()).status).toBe(200); // January: 0.01 USD
    const january = await askAndSettle('what did emails cost in January?');
    expect(january.reply).toMatch(/^Emails cost 0\.01 USD in January \(.*\) \(1 charge\)\.$/);
    await sim.api('PATCH', '/_sim/workspace', {
      body: { rate_limits: { quick_emails_per_minute: 0 }, wallet_usd: 1000 },
    });
    await sim.advance(30 * 86_400); // 2026-02-04 09:00 UTC
    // 200 recipients a rolling day (quick email's own limit): five days of 200
    for (let day = 0; day < 5; day++) {
      for (let i = 0; i < 200; i++) expect((await email()).status).toBe(200);
      await sim.advance(86_400);
    }
    // the January charge (and the wallet set) left the ledger, which keeps the workspace's latest 1,000 entries
    const after = await askAndSettle('what did emails cost in January?');
    expect(after.reply).toMatch(
      /^Emails cost nothing in January \(.*\)\. The ledger keeps the latest 1000 entries, from 2026-02-04 09:00:\d\d UTC on: earlier spending is not counted\.$/,
    );
    const february = await askAndSettle('what did emails cost in February?');
    expect(february.reply).toMatch(/^Emails cost 10\.00 USD in February .* \(1000 charges\)\. The ledger keeps/);
    // a span that starts after the oldest entry kept needs no such word
    expect((await email()).status).toBe(200);
    expect((await askAndSettle('what did emails cost today?')).reply).toMatch(
      /^Emails cost 0\.01 USD today .*\(1 charge\)\.$/,
    );
  }, 120_000);
});

describe('follow-up questions (issue 23, point 13: the table in docs/spec-silent.md, "The assistant agent", row by row)', () => {
  const fixture = (path: string, body: Record<string, unknown>) => sim.api('POST', path, { body });
  const approveAndFinish = async (c: any) => {
    expect(c.status).toBe('awaiting_approval');
    await answerAll(c, true);
    return settle(c.conversation_id);
  };
  const follow = async (id: string, message: string) => {
    const r = await send({ conversation_id: id, message });
    expect(r.status, r.text).toBe(200);
    return settle(id);
  };

  it('"who called us yesterday?" names the inbound callers of the previous calendar day', async () => {
    await fixture('/_sim/contacts', { name: 'Ada Lovelace', phone_number: '+14155550111' });
    for (const [from, at, direction] of [
      ['+14155550111', '2026-01-04T10:00:00Z', 'inbound'],
      ['+14155550112', '2026-01-04T11:00:00Z', 'inbound'],
      ['+14155550111', '2026-01-04T12:00:00Z', 'inbound'],
      ['+14155550113', '2026-01-04T13:00:00Z', 'outbound'],
      ['+14155550114', '2026-01-05T08:00:00Z', 'inbound'],
    ])
      await fixture('/_sim/calls', {
        direction,
        from_number: direction === 'inbound' ? from : '+14155550199',
        to_number: direction === 'inbound' ? '+14155550199' : from,
        created_at: at,
      });
    const c = await askAndSettle('who called us yesterday?');
    expect(c.reply).toBe('2 people called you yesterday: Ada Lovelace (+14155550111), +14155550112.');
    expect(c.actions.map((a: any) => [a.tool, a.input.direction])).toEqual([['list_calls', 'inbound']]);
    expect((await askAndSettle('who called us today?')).reply).toBe('1 person called you today: +14155550114.');
  });

  it('"did they agree?", "what did they say on that call?", "how much did that cost?" after a call it placed', async () => {
    const first = await askAndSettle('call +14155550100 to confirm the appointment on Tuesday');
    const placed = await approveAndFinish(first);
    const id = placed.conversation_id;
    expect(placed.status).toBe('idle');
    // on a manual clock nothing has moved yet: the call is ringing
    expect((await follow(id, 'did they agree?')).reply).toBe('Not yet: the call to +14155550100 is ringing.');
    await sim.advance(120); // 0100 answers after 6 s and agrees in 52 s
    const agreed = await follow(id, 'Did they agree?');
    expect(agreed.reply).toBe('Yes: +14155550100 agreed ("confirm the appointment on Tuesday").');
    expect(agreed.actions.map((a: any) => a.tool)).toEqual(['get_quick_action']);
    const said = await follow(id, 'what did they say on that call?');
    expect(said.reply).toMatch(/^On the call to \+14155550100 \(2026-01-05 09:00:0\d UTC\) they said: "Hello\?" /);
    expect(said.reply).toContain('"Yes, that works for me."');
    expect(said.actions.map((a: any) => a.tool)).toEqual(['get_quick_action', 'get_call']);
    const job = (await sim.api('GET', `/v1/quick/actions/${placed.actions[0].output.data.id}`)).json.data;
    const cost = await follow(id, 'how much did that cost?');
    expect(cost.reply).toBe(`The call to +14155550100 cost ${job.cost_usd.toFixed(2)} USD.`);
    expect(job.cost_usd).toBe(0.37); // 0.20 placed + 52 s at 0.20 a minute
    // several at once, in one message
    const both = await follow(id, 'did they agree? then how much did that cost?');
    expect(both.reply).toBe(`${agreed.reply}\n${cost.reply}`);
  });

  it('a call not answered, a text thread and its replies, an email and a video: each follow-up says what happened', async () => {
    const call = await approveAndFinish(await askAndSettle('call +14155550102 to book a table'));
    await sim.advance(3 * 3600); // 0102 rings out on every attempt
    expect((await follow(call.conversation_id, 'did they agree?')).reply).toBe(
      "I can't tell: +14155550102 never answered (max_attempts).",
    );
    const text = await approveAndFinish(await askAndSettle('text +14155550100 and ask whether Tuesday works'));
    const tid = text.conversation_id;
    expect((await follow(tid, 'what did they say?')).reply).toBe('They have not replied yet.');
    await sim.advance(600); // 0100 replies within minutes
    const said = await follow(tid, 'what did they reply?');
    expect(said.reply).toMatch(/^They replied: "/);
    expect(said.actions.map((a: any) => [a.tool, a.input.direction])).toEqual([
      ['get_quick_action', undefined],
      ['list_messages', 'inbound'],
    ]);
    await fixture('/_sim/contacts', { name: 'Maria Gonzalez', email: 'maria@example.com' });
    const email = await approveAndFinish(await askAndSettle('email Maria Gonzalez about the invoice'));
    expect((await follow(email.conversation_id, 'how much did that cost?')).reply).toBe(
      'The email to maria@example.com cost 0.01 USD (0.01 USD per recipient sent to).',
    );
    const video = await approveAndFinish(await askAndSettle('make a 30-second video about our new menu'));
    const v = (await sim.api('GET', `/v1/videos/${video.actions[0].output.data.id}`)).json.data;
    const cost = await follow(video.conversation_id, 'how much did that cost?');
    expect(cost.reply).toBe(
      `The video about "our new menu" costs ${v.price_usd} USD (an estimate); nothing is charged until its script is approved (it is ${v.status}).`,
    );
  });

  it('asked before anything was started, a follow-up says so and does nothing', async () => {
    const c = await askAndSettle('did they agree?');
    expect(c.reply).toMatch(/^I haven't called or texted anyone in this conversation yet/);
    expect(c.actions).toEqual([]);
    expect((await follow(c.conversation_id, 'how much did that cost?')).reply).toMatch(
      /^I haven't started anything that costs money/,
    );
  });
});
