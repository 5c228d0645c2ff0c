// Number configuration (issue 4, part 1): every section, update rules 1-6, stack differences,
// workspace defaults, over HTTP against a started simulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';
import { configApi } from './number-config-helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const { addNumber, get, patch } = configApi(() => sim);
const library = async () => (await sim.api('GET', '/_sim/library')).json.data;

const SECTIONS = [
  'name',
  'is_active',
  'business_name',
  'business_description',
  'timezone',
  'call_settings',
  'voice',
  'sms',
  'knowledge',
  'qualification',
  'booking',
  'transfers',
  'sms_referrals',
  'forwarding',
  'ivr',
  'stack',
];
const MENU = {
  enabled: true,
  greeting: 'Welcome to Acme.',
  timeout_seconds: 5,
  max_attempts: 2,
  fallback: { type: 'hangup' },
  menus: [
    {
      name: 'Main',
      options: [{ key: '1', label: 'sales', action: { type: 'transfer', phone_number: '+12025550100' } }],
    },
  ],
};

describe('the full configuration', () => {
  it('has every section and the read-only stack; voice and sms start inheriting the workspace defaults', async () => {
    const id = await addNumber('t2');
    const r = await sim.api('GET', `/v1/phone-numbers/${id}/config`);
    expect(r.status).toBe(200);
    const c = r.json.data;
    for (const s of SECTIONS) expect(c, s).toHaveProperty(s);
    expect(c.stack).toBe('t2');
    expect(c.voice.inherits_workspace_default).toBe(true);
    expect(c.sms.inherits_workspace_default).toBe(true);
    expect(c.sms.max_replies_per_contact).toBe(50);
    const defaults = (await sim.api('GET', '/_sim/workspace/defaults')).json.data;
    expect(c.voice.voice_id).toBe(defaults.voice.voice_id);
    expect(Object.keys(c.call_settings).sort()).toEqual([
      'hd_voice_enabled',
      'max_call_length_seconds',
      'recording_enabled',
      'recording_retention_days',
      'summaries_enabled',
      'transcription_enabled',
    ]);
    expect(Object.keys(c.transfers).sort()).toEqual([
      'office_hours_end',
      'office_hours_only',
      'office_hours_start',
      'primary_transfer_number',
      'rules',
    ]);
    expect(Object.keys(c.ivr).sort()).toEqual([
      'enabled',
      'fallback',
      'greeting',
      'max_attempts',
      'menus',
      'timeout_seconds',
    ]);
  });
  it('404 for a number of another workspace or none; 400 for a non-integer id', async () => {
    const id = await addNumber('t1');
    const other = (await sim.api('POST', '/_sim/workspaces', { body: {} })).json.api_key;
    expect((await sim.api('GET', `/v1/phone-numbers/${id}/config`, { key: other })).status).toBe(404);
    expect((await sim.api('GET', '/v1/phone-numbers/999999/config')).status).toBe(404);
    expect((await sim.api('GET', '/v1/phone-numbers/abc/config')).status).toBe(400);
  });
  it('reads need phone_numbers:read, changes phone_numbers:write', async () => {
    const id = await addNumber('t1');
    const read = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['phone_numbers:read'] } })).json.key;
    const write = (await sim.api('POST', '/_sim/api-keys', { body: { scopes: ['phone_numbers:write'] } })).json.key;
    expect((await sim.api('GET', `/v1/phone-numbers/${id}/config`, { key: read })).status).toBe(200);
    expect((await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, { key: read, body: { name: 'x' } })).status).toBe(
      403,
    );
    expect((await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, { key: write, body: { name: 'x' } })).status).toBe(
      200,
    );
    expect((await sim.api('GET', `/v1/phone-numbers/${id}/voices`, { key: read })).status).toBe(200);
  });
});

describe('rule 1: only the fields sent change', () => {
  it('a field inside a section changes; the rest of the section and every other section keep their values', async () => {
    const id = await addNumber('t2');
    const before = await get(id);
    const r = await patch(id, { call_settings: { recording_enabled: false }, name: 'Front desk' });
    expect(r.status).toBe(200);
    const after = r.json.data;
    expect(after).toEqual({
      ...before,
      name: 'Front desk',
      call_settings: { ...before.call_settings, recording_enabled: false },
    });
    expect(await get(id)).toEqual(after);
  });
  it('every section can be changed', async () => {
    const id = await addNumber('t2');
    const lib = await library();
    const body = {
      is_active: false,
      business_name: 'Acme Dental',
      business_description: 'Dentists.',
      timezone: 'Europe/London',
      call_settings: {
        max_call_length_seconds: 300,
        transcription_enabled: false,
        summaries_enabled: false,
        recording_retention_days: 30,
        hd_voice_enabled: true,
      },
      voice: {
        voice_id: 'aria-hd',
        language: 'en-GB',
        greeting_message: 'Hello!',
        farewell_message: 'Bye!',
        prompt: 'Be kind.',
        llm_model: 'gpt-4o',
        background_sound: 'office',
        outbound_greeting: 'Hi',
        outbound_prompt: 'Short.',
        voice_model_tier: 'premium',
      },
      sms: {
        auto_reply_enabled: true,
        reply_delay_seconds: 5,
        prompt: 'p',
        language: 'en-GB',
        llm_model: 'claude-sonnet',
        stop_words: ['HALT'],
        stop_after_replies: true,
        max_replies_per_contact: 3,
      },
      knowledge: {
        knowledge_base_ids: [lib.knowledge_bases[0].id],
        faq_ids: [lib.faqs[1].id],
        knowledge_base_enabled: true,
        web_search_enabled: true,
      },
      qualification: {
        enabled: true,
        collect_fields: ['name', 'email'],
        questions: [{ question: 'Budget?', required: true }],
      },
      booking: {
        enabled: true,
        event_type_ids: [lib.event_types[0].id],
        bookable_days: ['mon', 'wed'],
        bookable_hours_start: '10:00',
        bookable_hours_end: '16:00',
        minimum_notice_minutes: 120,
        confirmation_message: 'Booked!',
      },
      transfers: {
        primary_transfer_number: '+12025550100',
        office_hours_only: true,
        office_hours_start: '08:00',
        office_hours_end: '18:00',
        rules: [{ condition: 'human_requested', action: 'transfer', priority: 1 }],
      },
      sms_referrals: [{ refer_to_number: '+12025550111', when: 'keyword', keyword: 'price', message: 'Text sales.' }],
      forwarding: {
        mode: 'call_me_first',
        ring_strategy: 'sequential',
        ring_timeout_seconds: 15,
        sequential_targets: [{ phone_number: '+12025550102' }],
      },
      ivr: MENU,
    };
    const r = await patch(id, body);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const c = r.json.data;
    expect(c).toMatchObject({ is_active: false, business_name: 'Acme Dental', timezone: 'Europe/London' });
    expect(c.call_settings).toMatchObject(body.call_settings);
    expect(c.voice).toMatchObject({ ...body.voice, inherits_workspace_default: false, speed: null });
    expect(c.sms).toMatchObject({ ...body.sms, inherits_workspace_default: false });
    expect(c.knowledge).toEqual(body.knowledge);
    expect(c.qualification.questions[0]).toMatchObject({ question: 'Budget?', required: true, id: expect.any(String) });
    expect(c.booking).toEqual(body.booking);
    expect(c.transfers.rules[0]).toMatchObject({
      condition: 'human_requested',
      action: 'transfer',
      priority: 1,
      id: expect.any(String),
    });
    expect(c.transfers.rules[0]).not.toHaveProperty('target_number');
    expect(c.sms_referrals[0]).toMatchObject({
      refer_to_number: '+12025550111',
      when: 'keyword',
      keyword: 'price',
      id: expect.any(String),
    });
    expect(c.forwarding.sequential_targets[0]).toMatchObject({
      phone_number: '+12025550102',
      ring_timeout_seconds: 20,
      id: expect.any(String),
    });
    expect(c.ivr.menus[0].options[0].action).toEqual({
      type: 'transfer',
      phone_number: '+12025550100',
      fallback_phone_number: null,
    });
  });
});

describe('rule 2: lists are replaced whole; items keep their id; an item without id is added', () => {
  it('transfers.rules', async () => {
    const id = await addNumber('t1');
    const a = (
      await patch(id, {
        transfers: {
          primary_transfer_number: '+12025550100',
          rules: [
            { condition: 'human_requested', action: 'transfer' },
            { condition: 'after_hours', action: 'voicemail' },
          ],
        },
      })
    ).json.data.transfers.rules;
    expect(a).toHaveLength(2);
    expect(a[0].id).not.toBe(a[1].id);
    const b = (
      await patch(id, {
        transfers: {
          rules: [
            { ...a[1], priority: 5 },
            { condition: 'custom', custom_condition: 'billing', action: 'transfer', target_number: '+12025550111' },
          ],
        },
      })
    ).json.data.transfers.rules;
    expect(b.map((r: any) => r.id)).toEqual([a[1].id, expect.any(String)]);
    expect(b[1].id).not.toBe(a[0].id);
    expect(b[0].priority).toBe(5);
    const bad = await patch(id, {
      transfers: { rules: [{ id: 'made-up', condition: 'after_hours', action: 'voicemail' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields['transfers.rules[0].id']).toMatch(/not the id of an existing item/);
  });
  it('a qualifying question left out is removed', async () => {
    const id = await addNumber('t1');
    const q = (await patch(id, { qualification: { questions: [{ question: 'A?' }, { question: 'B?' }] } })).json.data
      .qualification.questions;
    const after = (await patch(id, { qualification: { questions: [q[1]] } })).json.data.qualification.questions;
    expect(after).toEqual([q[1]]);
  });
  it('sms_referrals, forwarding.sequential_targets and ivr.menus keep ids the same way', async () => {
    const id = await addNumber('t1');
    const c = (
      await patch(id, {
        sms_referrals: [{ refer_to_number: '+12025550111', when: 'always' }],
        forwarding: { sequential_targets: [{ phone_number: '+12025550101' }, { phone_number: '+12025550102' }] },
        ivr: MENU,
      })
    ).json.data;
    const d = (
      await patch(id, {
        sms_referrals: [c.sms_referrals[0]],
        forwarding: { sequential_targets: [c.forwarding.sequential_targets[1]] },
        ivr: { menus: [{ ...c.ivr.menus[0], name: 'Renamed' }] },
      })
    ).json.data;
    expect(d.sms_referrals[0].id).toBe(c.sms_referrals[0].id);
    expect(d.forwarding.sequential_targets.map((t: any) => t.id)).toEqual([c.forwarding.sequential_targets[1].id]);
    expect(d.ivr.menus[0]).toMatchObject({ id: c.ivr.menus[0].id, name: 'Renamed' });
  });
});

describe('rule 3: unknown fields and wrong types are 400 with a per-field explanation', () => {
  it('unknown fields at any depth', async () => {
    const id = await addNumber('t1');
    const r = await patch(id, {
      colour: 'red',
      voice: { pitch: 2 },
      transfers: { rules: [{ condition: 'after_hours', action: 'voicemail', when: 'x' }] },
      ivr: { fallback: { type: 'hangup', extra: 1 } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toMatchObject({
      colour: 'is not a known field',
      'voice.pitch': 'is not a known field',
      'transfers.rules[0].when': 'is not a known field',
      'ivr.fallback.extra': 'is not a known field',
    });
  });
  it('badly typed list items and nested objects are 400, never a crash', async () => {
    const id = await addNumber('t1');
    for (const body of [
      { transfers: { rules: [5] } },
      { qualification: { questions: [null] } },
      { sms_referrals: ['a'] },
      { forwarding: { sequential_targets: [1] } },
      { ivr: { menus: [{ name: 'm' }] } },
      { ivr: { menus: [{ name: 'm', options: [{ key: '1', label: 'a' }] }] } },
    ]) {
      const r = await patch(id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
    }
  });

  it('an empty section changes nothing (voice keeps inheriting)', async () => {
    const id = await addNumber('t1');
    expect((await patch(id, { voice: {}, sms: {} })).json.data).toMatchObject({
      voice: { inherits_workspace_default: true },
      sms: { inherits_workspace_default: true },
    });
  });

  it('__proto__, constructor and prototype are unknown fields, never merged', async () => {
    const id = await addNumber('t1');
    for (const raw of [
      '{"__proto__":{"is_active":false}}',
      '{"voice":{"__proto__":{"x":1}}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '{"call_settings":{"prototype":true}}',
    ]) {
      const r = await sim.api('PATCH', `/v1/phone-numbers/${id}/config`, { raw });
      expect(r.status, raw).toBe(400);
    }
    const c = await get(id);
    expect(c.is_active).toBe(true);
    expect(Object.keys(c.voice)).not.toContain('x');
  });
  it('wrong types, bad values and bad references', async () => {
    const id = await addNumber('t1');
    const r = await patch(id, {
      is_active: 'no',
      timezone: 'Mars/Olympus',
      call_settings: { max_call_length_seconds: '60' },
      voice: { speed: 3 },
      transfers: {
        office_hours_start: '9am',
        rules: [{ condition: 'custom', action: 'transfer', target_number: '555' }],
      },
      knowledge: { knowledge_base_ids: ['kb_nope'] },
      booking: { bookable_days: ['someday'] },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toMatchObject({
      is_active: 'must be true or false, got string',
      timezone: expect.stringMatching(/IANA/),
      'call_settings.max_call_length_seconds': 'must be an integer, got string',
      'voice.speed': 'must be at most 2',
      'transfers.office_hours_start': expect.stringMatching(/HH:MM/),
      'transfers.rules[0].target_number': expect.stringMatching(/E\.164/),
      'knowledge.knowledge_base_ids[0]': 'is not a knowledge base of this workspace',
      'booking.bookable_days[0]': expect.stringMatching(/one of/),
    });
    const custom = await patch(id, { transfers: { rules: [{ condition: 'custom', action: 'voicemail' }] } });
    expect(custom.json.error.fields['transfers.rules[0].custom_condition']).toMatch(/required with condition custom/);
    expect((await patch(id, { stack: 't2' })).json.error.fields.stack).toMatch(/read-only/);
    expect(await get(id)).toMatchObject({ is_active: true, timezone: 'America/New_York' }); // nothing applied
  });
  it('the exact explanations: a missing choice is required, integers and objects by name; checks across fields see only what parsed', async () => {
    const id = await addNumber('t1');
    const r = await patch(id, {
      sms_referrals: [{ refer_to_number: '+12025550111' }],
      sms: { reply_delay_seconds: 'soon' },
      voice: 'x',
      ivr: { fallback: null },
    });
    expect(r.json.error.fields).toEqual({
      'sms_referrals[0].when': 'is required',
      'sms.reply_delay_seconds': 'must be an integer, got string',
      voice: 'must be a JSON object, got string',
      'ivr.fallback': 'must be a JSON object, got null',
    });
    // speed is refused as a value, so inherits_workspace_default counts as sent alone; the bad reference is reported with it
    const mixed = await patch(id, {
      voice: { inherits_workspace_default: true, speed: 'fast' },
      knowledge: { faq_ids: ['nope'] },
    });
    expect(mixed.json.error.fields).toEqual({
      'voice.speed': 'must be a number, got string',
      'knowledge.faq_ids[0]': 'is not an FAQ of this workspace',
    });
    expect((await sim.api('GET', '/v1/phone-numbers/abc/config')).json.error.fields).toEqual({
      id: 'must be an integer',
    });
    expect((await sim.api('GET', '/v1/phone-numbers/-1/voices')).json.error.fields).toEqual({
      id: 'must be an integer',
    });
    expect((await sim.api('GET', '/v1/phone-numbers/search?limit=many')).json.error.fields).toEqual({
      limit: 'must be an integer',
    });
  });
});

describe('every problem of a request in one 400: structural and across fields together', () => {
  it('a problem of shape or value and a problem across fields, in different sections, come in the same 400; nothing is applied', async () => {
    const id = await addNumber('t1');
    const r = await patch(id, {
      name: 5,
      voice: { speed: 'fast', voice_id: 'aria-hd' },
      knowledge: { knowledge_base_ids: ['kb_nope', 7] },
      transfers: { rules: [{ condition: 'custom', action: 'voicemail' }] },
      sms_referrals: [{ refer_to_number: 'x', when: 'keyword' }],
      forwarding: { mode: 'call_me_first', ring_timeout_seconds: 1 },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual({
      name: 'must be a string, got number',
      'voice.speed': 'must be a number, got string',
      'voice.voice_id': 'is not a voice of this number (t1): one of ava, noah, isla, mateo',
      'knowledge.knowledge_base_ids[1]': 'must be a string, got number',
      'knowledge.knowledge_base_ids[0]': 'is not a knowledge base of this workspace',
      'transfers.rules[0].custom_condition': 'is required with condition custom',
      'sms_referrals[0].refer_to_number': 'must be an E.164 phone number such as +15551234567',
      'sms_referrals[0].keyword': 'is required when "when" is keyword',
      'forwarding.ring_timeout_seconds': 'must be at least 5',
      'forwarding.forward_to_number': 'is required for call-me-first with a single number',
    });
    expect(await get(id)).toMatchObject({ name: expect.any(String), forwarding: { mode: 'ai_answers_all' } });
  });
  it('list items: a bad item is reported for itself, and the checks of the other items still run', async () => {
    const id = await addNumber('t1');
    const q = (await patch(id, { qualification: { questions: [{ question: 'Budget?' }] } })).json.data.qualification
      .questions[0];
    const r = await patch(id, {
      transfers: {
        rules: [
          5,
          { condition: 'bogus', action: 'voicemail', custom_condition: 'billing' },
          { condition: 'custom', action: 'voicemail' },
          { condition: 'after_hours', action: 'transfer' },
        ],
      },
      qualification: {
        questions: [
          { id: 'nope', question: '' },
          { id: q.id, question: 'Budget?' },
          { id: q.id, question: 'Again?' },
        ],
      },
    });
    expect(r.json.error.fields).toEqual({
      'transfers.rules[0]': 'must be a JSON object, got number',
      'transfers.rules[1].condition': 'must be one of: human_requested, after_hours, custom',
      'transfers.rules[2].custom_condition': 'is required with condition custom',
      'transfers.rules[3].target_number': 'is required for a transfer when there is no primary_transfer_number',
      'qualification.questions[0].question': 'must not be empty',
      'qualification.questions[0].id': 'is not the id of an existing item (leave id out to add an item)',
      'qualification.questions[2].id': 'appears twice',
    });
  });
  it('the phone menu: its first enabling, its options and its fallback are checked alongside bad values', async () => {
    const id = await addNumber('t1');
    const r = await patch(id, {
      ivr: {
        enabled: true,
        greeting: 5,
        fallback: { type: 'transfer' },
        menus: [
          {
            name: 'Main',
            options: [
              { key: '1', label: 'a', action: { type: 'transfer' } },
              { key: '1', label: 'b', action: { type: 'hangup' } },
              { key: 'x', label: 'c', action: { type: 'hangup' } },
              { key: 'x', label: 'd', action: { type: 'call' } },
            ],
          },
        ],
      },
    });
    expect(r.json.error.fields).toEqual({
      'ivr.greeting': 'must be a string, got number', // sent: not also "required the first time"
      'ivr.menus[0].options[2].key': 'must be one key: 0-9, * or #',
      'ivr.menus[0].options[3].key': 'must be one key: 0-9, * or #', // not "used twice"
      'ivr.menus[0].options[3].action.type': 'must be one of: transfer, ai_agent, voicemail, hangup',
      'ivr.timeout_seconds': 'is required the first time the phone menu is enabled (send the whole menu)',
      'ivr.max_attempts': 'is required the first time the phone menu is enabled (send the whole menu)',
      'ivr.menus[0].options[0].action.phone_number': 'is required for a transfer',
      'ivr.menus[0].options[1].key': 'is used twice in this menu',
      'ivr.fallback.phone_number': 'is required for a transfer fallback',
    });
  });
  it('no problem across fields is reported because of a field sent with a problem of its own', async () => {
    const id = await addNumber('t1');
    // a bad ring strategy is not taken as the current one ("single"), which would need forward_to_number
    expect(
      (await patch(id, { forwarding: { mode: 'call_me_first', ring_strategy: 'sideways' } })).json.error.fields,
    ).toEqual({ 'forwarding.ring_strategy': 'must be one of: single, sequential' });
    // a bad primary number is not taken as the current one (none), which would make the rule's target required
    expect(
      (
        await patch(id, {
          transfers: { primary_transfer_number: '555', rules: [{ condition: 'after_hours', action: 'transfer' }] },
        })
      ).json.error.fields,
    ).toEqual({ 'transfers.primary_transfer_number': 'must be an E.164 phone number such as +15551234567' });
    // an enabled menu with a bad `enabled` is not taken as still enabled, which would need a menu
    expect((await patch(id, { ivr: MENU })).status).toBe(200);
    expect((await patch(id, { ivr: { enabled: 'no', menus: [] } })).json.error.fields).toEqual({
      'ivr.enabled': 'must be true or false, got string',
    });
    expect((await patch(id, { ivr: { enabled: false, menus: [] } })).status).toBe(200);
  });
  it('the workspace defaults: a bad value and a voice of one stack only, in one 400', async () => {
    const r = await sim.api('PATCH', '/_sim/workspace/defaults', {
      body: { voice: { voice_id: 'aria-hd', speed: 'fast' }, sms: { inherits_workspace_default: true, nope: 1 } },
    });
    expect(r.json.error.fields).toEqual({
      'voice.speed': 'must be a number, got string',
      'sms.nope': 'is not a known field',
      'voice.voice_id': 'must be a voice of both stacks: one of ava, noah',
      'sms.inherits_workspace_default': 'is a number setting, not a default',
    });
  });
});

describe('rule 4: the first enabling of the phone menu needs the whole menu', () => {
  it('enabled alone the first time is 400, naming what is missing; the whole menu works; then single fields change', async () => {
    const id = await addNumber('t1');
    const r = await patch(id, { ivr: { enabled: true } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.error.fields).sort()).toEqual([
      'ivr.fallback',
      'ivr.greeting',
      'ivr.max_attempts',
      'ivr.menus',
      'ivr.timeout_seconds',
    ]);
    expect((await patch(id, MENU)).status).toBe(400); // the menu goes inside ivr
    expect((await patch(id, { ivr: MENU })).status).toBe(200);
    const g = await patch(id, { ivr: { greeting: 'Hi again.' } });
    expect(g.json.data.ivr).toMatchObject({ enabled: true, greeting: 'Hi again.', timeout_seconds: 5 });
    await patch(id, { ivr: { enabled: false } });
    expect((await patch(id, { ivr: { enabled: true } })).status).toBe(200); // not the first time any more
  });
  it('a menu option must be coherent', async () => {
    const id = await addNumber('t1');
    const r = await patch(id, {
      ivr: {
        ...MENU,
        menus: [
          {
            name: 'Main',
            options: [
              { key: '1', label: 'a', action: { type: 'transfer' } },
              { key: '1', label: 'b', action: { type: 'hangup' } },
            ],
          },
        ],
      },
    });
    expect(r.json.error.fields).toMatchObject({
      'ivr.menus[0].options[0].action.phone_number': expect.any(String),
      'ivr.menus[0].options[1].key': expect.any(String),
    });
  });
});

describe('inherits_workspace_default: copy-on-write for voice and sms', () => {
  it('the first change gives the number its own copy from the workspace defaults; unmentioned fields are unchanged', async () => {
    const id = await addNumber('t1');
    const before = await get(id);
    const after = (await patch(id, { voice: { greeting_message: 'Own greeting' } })).json.data;
    expect(after.voice).toEqual({
      ...before.voice,
      inherits_workspace_default: false,
      greeting_message: 'Own greeting',
    });
    // later default changes no longer reach this number, but do reach an inheriting one
    const other = await addNumber('t1');
    await sim.api('PATCH', '/_sim/workspace/defaults', {
      body: { voice: { farewell_message: 'New default farewell' }, sms: { reply_delay_seconds: 99 } },
    });
    expect((await get(id)).voice.farewell_message).toBe(before.voice.farewell_message);
    expect((await get(other)).voice.farewell_message).toBe('New default farewell');
    expect((await get(id)).sms).toMatchObject({ inherits_workspace_default: true, reply_delay_seconds: 99 });
  });
  it('inherits_workspace_default true goes back to the defaults; it must be sent alone', async () => {
    const id = await addNumber('t1');
    await patch(id, { sms: { max_replies_per_contact: 7 } });
    expect((await get(id)).sms).toMatchObject({ inherits_workspace_default: false, max_replies_per_contact: 7 });
    expect((await patch(id, { sms: { inherits_workspace_default: true, max_replies_per_contact: 8 } })).status).toBe(
      400,
    );
    const back = (await patch(id, { sms: { inherits_workspace_default: true } })).json.data.sms;
    expect(back).toMatchObject({ inherits_workspace_default: true, max_replies_per_contact: 50 });
  });
  it('the workspace defaults are validated; a default voice must be one every stack has', async () => {
    const r = await sim.api('PATCH', '/_sim/workspace/defaults', { body: { voice: { speed: 9 }, sms: { nope: 1 } } });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toMatchObject({
      'voice.speed': expect.any(String),
      'sms.nope': 'is not a known field',
    });
    expect(
      (await sim.api('PATCH', '/_sim/workspace/defaults', { body: { voice: { voice_id: 'aria-hd' } } })).json.error
        .fields['voice.voice_id'],
    ).toMatch(/both stacks/);
    expect((await sim.api('PATCH', '/_sim/workspace/defaults', { body: { voice: { voice_id: 'noah' } } })).status).toBe(
      200,
    );
  });
});

describe('stack differences', () => {
  it('t1: hd_voice_enabled and voice_model_tier are 400 and read null; speed applies', async () => {
    const id = await addNumber('t1');
    const hd = await patch(id, { call_settings: { hd_voice_enabled: true } });
    expect(hd.status).toBe(400);
    expect(hd.json.error.fields['call_settings.hd_voice_enabled']).toMatch(/t2 numbers only/);
    expect(
      (await patch(id, { voice: { voice_model_tier: 'premium' } })).json.error.fields['voice.voice_model_tier'],
    ).toMatch(/t2 numbers only/);
    expect((await patch(id, { voice: { speed: 1.25 } })).json.data.voice.speed).toBe(1.25);
    const c = await get(id);
    expect(c.call_settings.hd_voice_enabled).toBeNull();
    expect(c.voice.voice_model_tier).toBeNull();
  });
  it('t2: speed is 400 and reads null; hd_voice_enabled and voice_model_tier apply', async () => {
    const id = await addNumber('t2');
    expect((await patch(id, { voice: { speed: 1.1 } })).json.error.fields['voice.speed']).toMatch(/t1 numbers only/);
    const c = (await patch(id, { call_settings: { hd_voice_enabled: true }, voice: { voice_model_tier: 'premium' } }))
      .json.data;
    expect(c.call_settings.hd_voice_enabled).toBe(true);
    expect(c.voice).toMatchObject({ voice_model_tier: 'premium', speed: null });
  });
  it("voices differ by stack, and voice_id must be one of the number's voices", async () => {
    const t1 = await addNumber('t1');
    const t2 = await addNumber('t2');
    const v1 = (await sim.api('GET', `/v1/phone-numbers/${t1}/voices`)).json.data;
    const v2 = (await sim.api('GET', `/v1/phone-numbers/${t2}/voices`)).json.data;
    expect(v1.map((v: any) => v.id)).not.toContain('aria-hd');
    expect(v2.map((v: any) => v.id)).toContain('aria-hd');
    expect(v1[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      language: expect.any(String),
      stack: 't1',
    });
    expect((await sim.api('GET', v2[0].preview_url)).headers.get('content-type')).toBe('audio/wav');
    expect((await patch(t1, { voice: { voice_id: 'aria-hd' } })).json.error.fields['voice.voice_id']).toMatch(
      /not a voice of this number/,
    );
    expect((await patch(t2, { voice: { voice_id: 'aria-hd' } })).status).toBe(200);
  });
});

describe('ids of the library are UUIDs (issue 23, point 4)', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  it('knowledge bases, FAQs and event types have UUIDs, which a configuration assigns; an id of another shape is none of them', async () => {
    const lib = await library();
    const ids = [...lib.knowledge_bases, ...lib.faqs, ...lib.event_types].map((x: { id: string }) => x.id);
    expect(ids).toHaveLength(6);
    for (const id of ids) expect(id).toMatch(UUID);
    const id = await addNumber('t2');
    const r = await patch(id, {
      knowledge: { knowledge_base_ids: [lib.knowledge_bases[1].id], faq_ids: [lib.faqs[0].id] },
      booking: { event_type_ids: [lib.event_types[1].id] },
    });
    expect(r.status).toBe(200);
    expect(r.json.data.knowledge).toMatchObject({
      knowledge_base_ids: [lib.knowledge_bases[1].id],
      faq_ids: [lib.faqs[0].id],
    });
    const old = await patch(id, { knowledge: { knowledge_base_ids: ['kb_0a1b2c3d4e5f'] } });
    expect(old.json.error.fields).toEqual({
      'knowledge.knowledge_base_ids[0]': 'is not a knowledge base of this workspace',
    });
  });
  it('a data file from before keeps its library: each kb_/faq_/evt_type_ id becomes the same UUID every time, and the configurations that assigned it follow', async () => {
    const { Store } = await import('../simulator/world.js');
    const { readFileSync, writeFileSync, rmSync, existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('./helpers.js');
    const dir = tempDir();
    const file = join(dir, 'old.json');
    const first = await startSim({ data: file });
    const id = (await first.api('POST', '/_sim/phone-numbers', { body: { stack: 't2' } })).json.id;
    await first.stop();
    await new Store(file).compact();
    // as a vmv before UUIDs wrote it: one JSON document, short ids, a configuration assigning them
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    delete doc.store;
    doc.version = 1;
    const ws = doc.workspaces[0];
    ws.knowledge_bases[0].id = 'kb_0a1b2c3d4e5f';
    ws.faqs[0].id = 'faq_0a1b2c3d4e5f';
    ws.event_types[0].id = 'evt_type_0a1b2c3d4e5f';
    const n = doc.phone_numbers.find((x: { id: number }) => x.id === id);
    n.config.knowledge.knowledge_base_ids = ['kb_0a1b2c3d4e5f'];
    n.config.knowledge.faq_ids = ['faq_0a1b2c3d4e5f'];
    n.config.booking.event_type_ids = ['evt_type_0a1b2c3d4e5f'];
    writeFileSync(file, JSON.stringify(doc));
    for (const f of [`${file}.journal`]) if (existsSync(f)) rmSync(f);
    const again = await startSim({ data: file });
    try {
      const lib = (await again.api('GET', '/_sim/library')).json.data;
      for (const x of [...lib.knowledge_bases, ...lib.faqs, ...lib.event_types]) expect(x.id).toMatch(UUID);
      // the same 12 hex digits make the same UUID, whatever the prefix
      expect(lib.knowledge_bases[0].id).toBe(lib.faqs[0].id);
      const c = (await again.api('GET', `/v1/phone-numbers/${id}/config`)).json.data;
      expect(c.knowledge).toMatchObject({
        knowledge_base_ids: [lib.knowledge_bases[0].id],
        faq_ids: [lib.faqs[0].id],
      });
      expect(c.booking.event_type_ids).toEqual([lib.event_types[0].id]);
    } finally {
      await again.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
