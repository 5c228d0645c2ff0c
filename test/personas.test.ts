// Personas (issue 32, point 1) over HTTP on a manual clock: what each attempt meets across a quick
// call's retries, the person's lines in transcript_turns at their times, the outcome fields that
// follow (summary, tags, goal_achieved, end_reason), text replies and their delays, an opt-out
// word, silence; a persona refused with every field path and nothing changed; the built-ins listed,
// each a document PUT accepts; a reset removes what was set.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const N = '+12025550123';
const put = (persona: unknown, number = N) =>
  sim.api('PUT', `/_sim/personas/${encodeURIComponent(number)}`, { body: persona });
const job = async (id: string) => (await sim.api('GET', `/v1/quick/actions/${id}`)).json.data;
const calls = async () => (await sim.api('GET', '/v1/calls?order=asc&limit=50')).json.data;
const texts = async () =>
  (await sim.api('GET', `/v1/messages?order=asc&limit=100&phone_number=${encodeURIComponent(N)}`)).json.data;
const quickCall = async (body: Record<string, unknown> = {}) =>
  (
    await sim.api('POST', '/v1/quick/ai-calls', {
      body: { to_numbers: [N], goal: 'Confirm the Tuesday 3pm appointment', ...body },
    })
  ).json.data.id as string;
const quickText = async (body: Record<string, unknown> = {}) =>
  (
    await sim.api('POST', '/v1/quick/ai-texts', {
      body: { to_numbers: [N], goal: 'Confirm the Tuesday 3pm appointment', ...body },
    })
  ).json.data.id as string;

describe('calls: each attempt meets what the persona says, with its ring seconds', () => {
  it('no answer, busy, then answered on the third attempt; the person hangs up after their last line', async () => {
    expect(
      (
        await put({
          name: 'Third time lucky',
          call: {
            attempts: [
              { result: 'no_answer', ring_seconds: 25 },
              { result: 'busy', ring_seconds: 3 },
              { result: 'answer', ring_seconds: 4 },
            ],
            lines: [{ says: 'Hello?' }, { says: 'Not a good time.', pause_seconds: 2 }],
            outcome: 'hangs_up',
          },
        })
      ).status,
    ).toBe(200);
    const id = await quickCall({ retry_attempts: 2, retry_delay_minutes: 10, opening_message: 'Hi, this is Acme.' });
    await sim.advance(24);
    expect((await job(id)).targets[0]).toMatchObject({ attempts: 1, live_call_status: 'ringing' });
    await sim.advance(1); // 25 s of ringing: no answer
    expect((await job(id)).targets[0]).toMatchObject({ attempts: 1, status: 'pending' });
    await sim.advance(600 + 3); // the retry rings 3 s: busy
    expect((await calls()).map((c: any) => c.status)).toEqual(['NO_ANSWER', 'BUSY']);
    await sim.advance(600 + 4); // the third attempt is answered after 4 s
    expect((await job(id)).targets[0]).toMatchObject({ attempts: 3, live_call_status: 'in_progress' });
    await sim.advance(3600);
    const [, , answered] = await calls();
    // Hello? (1.5 s), 1 s, the opening (4 words at 0.4 s), a 2 s pause, the last line (4 words): over at 7.7 s, 8 s billed
    expect(answered.transcript_turns).toEqual([
      { speaker: 'person', text: 'Hello?', seconds_from_start: 0 },
      { speaker: 'agent', text: 'Hi, this is Acme.', seconds_from_start: 2.5 },
      { speaker: 'person', text: 'Not a good time.', seconds_from_start: 6.1 },
    ]);
    expect(answered).toMatchObject({
      status: 'COMPLETED',
      end_reason: 'hangup',
      duration_seconds: 8,
      summary: 'The recipient hung up after 8 s.',
      tags: [],
    });
    expect((await job(id)).targets[0]).toMatchObject({
      status: 'completed',
      goal_achieved: false,
      end_reason: 'answered',
      summary: 'The recipient hung up after 8 s.',
    });
  });

  it('asks to move it to Thursday: lines at their times, the agent answering from the goal and instructions, the outcome fields', async () => {
    await put({
      call: {
        attempts: [{ result: 'answer' }],
        lines: [
          { says: 'Hello?' },
          { says: 'Tuesday does not work. Could we move it to Thursday at 10?', pause_seconds: 2 },
          { says: 'Thursday at 10 then. Thanks!' },
        ],
        outcome: 'goal_achieved',
        summary: 'The recipient moved the appointment to Thursday at 10:00.',
        tags: ['booking_requested', 'interested'],
      },
    });
    const id = await quickCall({ instructions: 'Thursday at 10:00 is free. Be brief.', opening_message: 'Hi!' });
    await sim.advance(6 + 60 + 5);
    const [c] = await calls();
    expect(c.transcript_turns).toEqual([
      { speaker: 'person', text: 'Hello?', seconds_from_start: 0 },
      { speaker: 'agent', text: 'Hi!', seconds_from_start: 2.5 },
      {
        speaker: 'person',
        text: 'Tuesday does not work. Could we move it to Thursday at 10?',
        seconds_from_start: 6,
      },
      { speaker: 'agent', text: 'Let me check. Thursday at 10:00 is free.', seconds_from_start: 11.8 },
      { speaker: 'person', text: 'Thursday at 10 then. Thanks!', seconds_from_start: 16 },
      { speaker: 'agent', text: 'Wonderful, you are all set. Thank you and goodbye!', seconds_from_start: 19 },
    ]);
    expect(c).toMatchObject({
      duration_seconds: 24, // the closing's 9 words end at 22.6 s, then 1 s
      end_reason: 'hangup',
      summary: 'The recipient moved the appointment to Thursday at 10:00.',
      tags: ['booking_requested', 'interested'],
    });
    expect((await job(id)).targets[0]).toMatchObject({ goal_achieved: true, end_reason: 'goal_achieved' });
  });

  it.each([
    ['declined', 'The recipient said they were not interested.', ['not_interested']],
    ['callback', 'The recipient asked to be called back later.', ['callback_requested']],
  ])('ends %s: its summary and tags, the goal not achieved', async (outcome, summary, tags) => {
    await put({ call: { attempts: [{ result: 'answer' }], lines: [{ says: 'Hello?' }, { says: 'Hmm.' }], outcome } });
    const id = await quickCall();
    await sim.advance(600);
    expect((await calls())[0]).toMatchObject({ summary, tags });
    expect((await job(id)).targets[0]).toMatchObject({ goal_achieved: false, end_reason: 'answered' });
  });

  it('hangs up after N seconds, whatever was planned: what was said by then, the goal not achieved', async () => {
    await put({
      call: {
        attempts: [{ result: 'answer' }],
        lines: [{ says: 'Hello?' }, { says: 'Sure.' }, { says: 'Yes.' }],
        hang_up_after_seconds: 4,
      },
    });
    const id = await quickCall({ opening_message: 'Hi!' });
    await sim.advance(600);
    const [c] = await calls();
    expect(c.duration_seconds).toBe(4);
    expect(c.transcript_turns.map((t: any) => t.seconds_from_start)).toEqual([0, 2.5]);
    expect(c.summary).toBe('The recipient hung up after 4 s.');
    expect((await job(id)).targets[0]).toMatchObject({ goal_achieved: false, end_reason: 'answered' });
  });

  it('voicemail and a provider failure with its own error text', async () => {
    await put({ call: { attempts: [{ result: 'voicemail', ring_seconds: 9 }] } });
    const id = await quickCall({ retry_attempts: 0, voicemail_enabled: true });
    await sim.advance(9);
    expect((await job(id)).targets[0].live_call_status).toBe('voicemail');
    await put({ call: { attempts: [{ result: 'fails', error: 'SIP 486 Busy Here (simulated)' }] } });
    const failed = await quickCall();
    await sim.advance(3);
    expect((await job(failed)).targets[0]).toMatchObject({
      status: 'failed',
      end_reason: 'SIP 486 Busy Here (simulated)',
    });
  });

  it('a voice call meets the last attempt and says the persona lines', async () => {
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    await put({
      call: {
        attempts: [{ result: 'no_answer' }, { result: 'answer', ring_seconds: 2 }],
        lines: [{ says: 'Yes?' }, { says: 'Call me later?' }],
        outcome: 'callback',
      },
    });
    const r = await sim.api('POST', '/v1/voice/calls', { body: { caller_id: '+12025551111', destination: N } });
    await sim.advance(600);
    const c = (await sim.api('GET', `/v1/calls/${r.json.data.id}`)).json.data;
    expect(c.transcript_turns.map((t: any) => [t.speaker, t.text])).toEqual([
      ['person', 'Yes?'],
      ['agent', 'Hi, thanks for picking up.'],
      ['person', 'Call me later?'],
      ['agent', 'Of course, we will call you back later. Goodbye!'],
    ]);
    expect(c).toMatchObject({ status: 'COMPLETED', tags: ['callback_requested'] });
  });

  // issue 32, point 1: "show of a built-in prints a file set accepts", and that file plays the same
  const ENDINGS = ['0100', '0101', '0102', '0103', '0104', '0105', '0106', '0107', '9999'];
  it.each(ENDINGS)('a copy of the built-in …%s plays as it: voice and quick calls alike', async (digits) => {
    const builtin = `+1202555${digits}`;
    const shown = await sim.api('GET', `/_sim/personas/${encodeURIComponent(builtin)}`);
    expect(shown.json.data.builtin).toBe(true);
    expect((await put(shown.json.data.persona)).status).toBe(200);
    await sim.api('POST', '/_sim/caller-ids', { body: { phone_number: '+12025551111' } });
    for (const destination of [builtin, N])
      expect(
        (await sim.api('POST', '/v1/voice/calls', { body: { caller_id: '+12025551111', destination } })).status,
      ).toBe(201);
    const quick = await sim.api('POST', '/v1/quick/ai-calls', {
      body: { to_numbers: [builtin, N], goal: 'Confirm the Tuesday 3pm appointment', retry_attempts: 1 },
    });
    expect(quick.status, quick.text).toBe(201);
    await sim.advance(3 * 3600);
    const played = (number: string) =>
      calls().then((all) =>
        all
          .filter((c: any) => c.to_number === number)
          .map((c: any) => ({
            ...Object.fromEntries(
              ['status', 'end_reason', 'duration_seconds', 'transcript_turns', 'summary', 'tags', 'has_recording'].map(
                (k) => [k, c[k]],
              ),
            ),
            // seconds of ringing (calls placed at one instant are created a few ms apart)
            rang: Math.round((Date.parse(c.started_at ?? c.created_at) - Date.parse(c.created_at)) / 1000),
          })),
      );
    const asBuiltin = await played(builtin);
    expect(asBuiltin.length).toBeGreaterThanOrEqual(2);
    expect(await played(N)).toEqual(asBuiltin);
    const targets = (await job(quick.json.data.id)).targets.map(
      ({ status, end_reason, goal_achieved, attempts, summary }: any) => ({
        status,
        end_reason,
        goal_achieved,
        attempts,
        summary,
      }),
    );
    expect(targets[1]).toEqual(targets[0]);
  });
});

describe('texts: replies with their delays, an opt-out word, silence', () => {
  it('replies with a question, then agrees to the follow-up: each reply its delay after the agent message it answers', async () => {
    await put({
      text: {
        replies: [
          { says: 'Which Tuesday do you mean?', after_seconds: 60 },
          { says: 'Ok, that works.', after_seconds: 90 },
        ],
      },
    });
    const id = await quickText();
    await sim.advance(59);
    expect(await texts()).toHaveLength(1);
    await sim.advance(1);
    expect((await texts()).map((t: any) => t.body)).toContain('Which Tuesday do you mean?');
    await sim.advance(30); // the agent follows up 30 s later
    await sim.advance(89);
    expect(await texts()).toHaveLength(3);
    await sim.advance(1); // 90 s after the follow-up: the second reply
    await sim.advance(30);
    const thread = await texts();
    expect(thread.map((t: any) => [t.direction, t.created_at.slice(11, 19)])).toEqual([
      ['outbound', '09:00:00'],
      ['inbound', '09:01:00'],
      ['outbound', '09:01:30'],
      ['inbound', '09:03:00'],
      ['outbound', '09:03:30'],
    ]);
    expect(thread[2].body).toBe(
      'Thanks for your reply! Just to check: would you like to confirm the Tuesday 3pm appointment?',
    );
    expect((await job(id)).targets[0]).toMatchObject({
      status: 'completed',
      goal_achieved: true,
      end_reason: 'goal_achieved',
      messages_received: 2,
    });
  });

  it('an opt-out word opts the number out', async () => {
    await put({ text: { replies: [{ says: 'unsubscribe', after_seconds: 45 }] } });
    const id = await quickText();
    await sim.advance(45);
    expect((await job(id)).targets[0]).toMatchObject({ status: 'opted_out', end_reason: 'opted_out' });
  });

  it('silence: the conversation times out unanswered', async () => {
    await put({ text: { replies: [] } });
    const id = await quickText({ conversation_timeout_hours: 1 });
    await sim.advance(3600);
    expect((await job(id)).targets[0]).toMatchObject({ status: 'no_answer', end_reason: 'max_attempts' });
    expect(await texts()).toHaveLength(1);
  });

  it('delivery fails', async () => {
    await put({ text: { delivery: 'fails', replies: [] } });
    const id = await quickText();
    expect((await job(id)).targets[0]).toMatchObject({ status: 'failed' });
  });

  it('a part left out behaves as the built-in: a call-only persona on 0107 still replies STOP', async () => {
    await put({ call: { attempts: [{ result: 'busy' }] } }, '+12025550107');
    const id = (await sim.api('POST', '/v1/quick/ai-texts', { body: { to_numbers: ['+12025550107'], goal: 'Say hi' } }))
      .json.data.id;
    await sim.advance(60);
    expect((await job(id)).targets[0].status).toBe('opted_out');
  });
});

describe('the routes', () => {
  it('a bad document: every problem at once by field path, and nothing changes', async () => {
    const good = { name: 'Kept', text: { replies: [] } };
    await put(good);
    const r = await put({
      name: '',
      call: {
        attempts: [{ result: 'maybe', ring_seconds: -1 }, {}],
        lines: [{ says: 'Hi', pause_seconds: 'long' }],
        outcome: 'shrugs',
        tags: ['interested', 'interested'],
      },
      text: { replies: [{ says: 'Yes' }], silence: true },
      mood: 'grumpy',
    });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(Object.keys(r.json.error.fields).sort()).toEqual([
      'call.attempts[0].result',
      'call.attempts[0].ring_seconds',
      'call.attempts[1].result',
      'call.lines[0].pause_seconds',
      'call.outcome',
      'call.tags[1]',
      'mood',
      'name',
      'text.replies[0].after_seconds',
      'text.silence',
    ]);
    const after = await sim.api('GET', `/_sim/personas/${encodeURIComponent(N)}`);
    expect(after.json.data).toMatchObject({ number: N, builtin: false, persona: good });
  });

  it('lists the numbers set, then the nine built-ins; a built-in shows a document PUT accepts; DELETE restores it', async () => {
    await put({ name: 'Mine', text: { replies: [] } });
    const list = (await sim.api('GET', '/_sim/personas')).json.data;
    expect(list.map((e: any) => [e.number, e.last_digits, e.builtin])).toEqual([
      [N, null, false],
      ...['0100', '0101', '0102', '0103', '0104', '0105', '0106', '0107', null].map((d) => [null, d, true]),
    ]);
    for (const e of list.filter((x: any) => x.builtin)) expect((await put(e.persona, '+12025550199')).status).toBe(200);
    const shown = (await sim.api('GET', '/_sim/personas/%2B14155550105')).json.data;
    expect(shown).toMatchObject({ number: null, last_digits: '0105', builtin: true });
    expect(shown.persona.call.attempts).toEqual([
      { result: 'no_answer', ring_seconds: 30 },
      { result: 'answer', ring_seconds: 6 },
    ]);
    expect((await sim.api('DELETE', `/_sim/personas/${encodeURIComponent(N)}`)).status).toBe(204);
    expect((await sim.api('DELETE', `/_sim/personas/${encodeURIComponent(N)}`)).status).toBe(404);
    expect((await sim.api('GET', `/_sim/personas/${encodeURIComponent(N)}`)).json.data.builtin).toBe(true);
  });

  it('a persona set for a four-digit number overrides its built-in; a reset removes every persona', async () => {
    await put({ call: { attempts: [{ result: 'busy' }] } }, '+12025550100');
    const id = (
      await sim.api('POST', '/v1/quick/ai-calls', {
        body: { to_numbers: ['+12025550100'], goal: 'Hi', retry_attempts: 0 },
      })
    ).json.data.id;
    await sim.advance(2);
    expect((await job(id)).targets[0]).toMatchObject({ status: 'no_answer' });
    await sim.reset();
    expect((await sim.api('GET', '/_sim/personas')).json.data.filter((e: any) => !e.builtin)).toEqual([]);
  });
});
