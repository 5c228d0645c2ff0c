// The number configuration as read (spec Part 2, Number configuration): "The full configuration is
// one object", so what GET returns can be sent back to PATCH as it is, or with a change made in it;
// and the transfer rule's fields the spec types as strings are never null. Over HTTP on a manual clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';
import { configApi } from './number-config-helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const { addNumber, get, patch } = configApi(() => sim);

describe("a transfer rule's custom_condition and target_number are strings: left out when the rule has none (spec Part 2, Transfer rule)", () => {
  it('a voicemail rule without a target and a rule of another condition read without those keys, never null', async () => {
    const id = await addNumber('t2');
    const rules = [
      { condition: 'human_requested', action: 'voicemail', priority: 1 },
      {
        condition: 'custom',
        custom_condition: 'asks about billing',
        action: 'transfer',
        target_number: '+12025550100',
      },
    ];
    const r = await patch(id, { transfers: { rules } });
    expect(r.status, r.text).toBe(200);
    for (const read of [r.json.data, await get(id)]) {
      const [first, second] = read.transfers.rules;
      expect(first).toEqual({ id: expect.any(String), condition: 'human_requested', action: 'voicemail', priority: 1 });
      expect(second).toEqual({ id: expect.any(String), ...rules[1], priority: 100 });
    }
  });
});

describe('the configuration as read can be sent back to PATCH (spec Part 2: "The full configuration is one object")', () => {
  for (const stack of ['t1', 't2'] as const) {
    it(`${stack}: unchanged, it changes nothing; voice and sms still inherit the workspace defaults`, async () => {
      const id = await addNumber(stack);
      await patch(id, {
        transfers: { rules: [{ condition: 'after_hours', action: 'voicemail' }] },
        sms_referrals: [{ refer_to_number: '+12025550111', when: 'always' }],
      });
      const before = await get(id);
      const r = await patch(id, before);
      expect(r.status, r.text).toBe(200);
      expect(r.json.data).toEqual(before);
      expect(await get(id)).toEqual(before);
    });
  }
  it('with a change made in it: the change applies (voice takes its own copy), nothing else moves', async () => {
    const id = await addNumber('t2');
    const before = await get(id);
    const sent = structuredClone(before);
    sent.voice.greeting_message = 'Acme, how can I help?';
    sent.name = 'Front desk';
    const after = (await patch(id, sent)).json.data;
    expect(after).toEqual({
      ...before,
      name: 'Front desk',
      voice: { ...before.voice, greeting_message: 'Acme, how can I help?', inherits_workspace_default: false },
    });
  });
  it('what only the read shows must hold what it shows: another id, phone_number or stack is 400, and a field of the other stack only null', async () => {
    const t1 = await addNumber('t1');
    const read = await get(t1);
    const r = await patch(t1, { ...read, id: read.id + 1, phone_number: '+12025550199', stack: 't2' });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({
      id: expect.stringMatching(/read-only/),
      phone_number: expect.stringMatching(/read-only/),
      stack: expect.stringMatching(/read-only/),
    });
    const hd = await patch(t1, { call_settings: { hd_voice_enabled: false } });
    expect(hd.json.error.fields['call_settings.hd_voice_enabled']).toMatch(/t2 numbers only/);
    expect((await patch(t1, { call_settings: { hd_voice_enabled: null } })).status).toBe(200);
    // null is not a value of the number's own stack's field
    expect((await patch(t1, { voice: { speed: null } })).json.error.fields['voice.speed']).toMatch(/number/);
    const t2 = await addNumber('t2');
    expect((await patch(t2, { voice: { speed: 1.2 } })).json.error.fields['voice.speed']).toMatch(/t1 numbers only/);
    expect((await patch(t2, { voice: { speed: null, voice_model_tier: 'premium' } })).json.data.voice).toMatchObject({
      speed: null,
      voice_model_tier: 'premium',
    });
  });
  it('inherits_workspace_default as the read shows it is no change; a different value still goes alone', async () => {
    const id = await addNumber('t1');
    await patch(id, { sms: { max_replies_per_contact: 7 } });
    const own = await patch(id, { sms: { inherits_workspace_default: false, max_replies_per_contact: 8 } });
    expect(own.json.data.sms).toMatchObject({ inherits_workspace_default: false, max_replies_per_contact: 8 });
    const back = await patch(id, { sms: { inherits_workspace_default: true, max_replies_per_contact: 9 } });
    expect(back.status).toBe(400);
    expect(back.json.error.fields['sms.inherits_workspace_default']).toMatch(/alone/);
  });
});
