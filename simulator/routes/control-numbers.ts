// Control plane for numbers: add a number of a stack, verify caller IDs, the workspace defaults
// numbers inherit, what exists to assign (knowledge bases, FAQs, event types), and inbound calls.
import { recordingWav } from '../audio.js';
import { openCall } from '../conversations.js';
import { ApiError, notFound } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import { planInbound } from '../machines/inbound-call.js';
import { runCall } from '../machines/scripted-call.js';
import { applyDefaultsPatch, newConfig, VOICES } from '../number-config.js';
import { createNumber, defaultAgent, freshNumber, numberTaken } from '../numbers.js';
import { contactByPhone, presentCall } from '../people.js';
import { iso } from '../clock.js';
import { e164, obj, oneOf, parse, str } from '../validate.js';

function addNumber(c: Ctx) {
  const b = parse(obj({ stack: oneOf(['t1', 't2'] as const), phone_number: e164(), name: str({ min: 1, max: 100 }) }, { required: ['stack'] }), c.body);
  if (b.phone_number && numberTaken(c.s, b.phone_number)) throw new ApiError(409, 'conflict', `${b.phone_number} is already in use in the simulator.`, { phone_number: 'is already in use' });
  const ws = c.auth.workspace;
  const phone = b.phone_number ?? freshNumber(c.s, '415');
  const n = createNumber(c.s, ws, {
    stack: b.stack, phone_number: phone, area_code: phone.startsWith('+1') ? phone.slice(2, 5) : null, status: 'ready',
    agent: defaultAgent(c.s, ws.name), config: newConfig(b.name ?? `${b.stack.toUpperCase()} line`),
  });
  return { status: 201, body: { id: n.id, phone_number: n.phone_number, stack: n.stack } };
}

function inboundCall(c: Ctx) {
  const b = parse(obj({ from: e164(), to: e164(), digits: str({ pattern: /^[0-9*#]{0,20}$/, patternMessage: 'must be keys 0-9, * and # (up to 20)' }), says: str({ min: 1, max: 2000 }) }, { required: ['from', 'to'] }), c.body);
  const n = c.data.phone_numbers.find((x) => x.phone_number === b.to && x.status === 'ready');
  if (!n) throw notFound(`No simulated number ${b.to} takes calls: call a ready workspace number.`);
  const ws = c.data.workspaces.find((w) => w.id === n.workspace_id)!;
  const contact = contactByPhone(c.data, ws.id, b.from);
  if (contact && !contact.first_inbound_call_at) contact.first_inbound_call_at = iso(c.s.now);
  const call = openCall(c.s, { workspace_id: ws.id, direction: 'inbound', from_number: b.from, to_number: b.to, contact_id: contact?.id ?? null, phone_number_id: n.id });
  const plan = planInbound({ config: n.config, defaults: ws.defaults, handles_calls: n.handles_calls, agent_name: n.agent.name, now: c.s.now, digits: b.digits ?? '', says: b.says ?? null });
  runCall(c.s, call, plan);
  return { status: 201, body: { data: presentCall(call), routing: { handled_by: plan.handled_by, transferred_to: plan.transferred_to, status: plan.status, end_reason: plan.end_reason } } };
}

export const controlNumbers: Resource = {
  routes: [
    { method: 'POST', path: '/_sim/phone-numbers', handler: addNumber },
    {
      method: 'POST', path: '/_sim/caller-ids', handler: (c) => {
        const b = parse(obj({ phone_number: e164() }, { required: ['phone_number'] }), c.body);
        const ws = c.auth.workspace;
        if (!ws.caller_ids.includes(b.phone_number)) ws.caller_ids.push(b.phone_number);
        return { status: 201, body: { data: { phone_number: b.phone_number, verified: true } } };
      },
    },
    { method: 'GET', path: '/_sim/workspace/defaults', handler: (c) => ({ body: { data: c.auth.workspace.defaults } }) },
    {
      method: 'PATCH', path: '/_sim/workspace/defaults', handler: (c) => {
        c.auth.workspace.defaults = applyDefaultsPatch(c.auth.workspace.defaults, c.body);
        return { body: { data: c.auth.workspace.defaults } };
      },
    },
    {
      method: 'GET', path: '/_sim/library', handler: (c) => {
        const { knowledge_bases, faqs, event_types } = c.auth.workspace;
        return { body: { data: { knowledge_bases, faqs, event_types } } };
      },
    },
    { method: 'POST', path: '/_sim/inbound/calls', handler: inboundCall },
    {
      method: 'GET', path: '/_sim/voices/{voice}.wav', handler: (c) => {
        if (!VOICES.t1.concat(VOICES.t2).some((v) => v.id === c.params.voice)) throw notFound(`No voice ${c.params.voice}.`);
        return { raw: { bytes: recordingWav(`voice:${c.params.voice}`, 2), contentType: 'audio/wav' } };
      },
    },
  ],
};
