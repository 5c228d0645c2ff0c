// Control plane for simulated traffic: the shared sender pool, and texts sent as the other party.
import { ensureContact, recordText } from '../conversations.js';
import { notFound } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import { receiveReply, threadFor } from '../machines/quick-text.js';
import { classifyReply } from '../scenarios.js';
import { optOut } from '../conversations.js';
import { presentText } from '../people.js';
import { schedule } from '../scheduler.js';
import { fill, poolView } from '../shared-pool.js';
import { e164, int, obj, oneOf, parse, str } from '../validate.js';

/** Seconds an AI number's agent takes to answer a text. */
export const NUMBER_REPLY_SECONDS = 20;

function inboundText(c: Ctx) {
  const b = parse(obj({ from: e164(), to: e164(), body: str({ min: 1, max: 1600 }) }, { required: ['from', 'to', 'body'] }), c.body);
  // a reply on a quick text thread (the shared number knows which workspace it belongs to)
  const thread = threadFor(c.s, b.to, b.from);
  if (thread) return { status: 201, body: { data: presentText(receiveReply(c.s, thread.job, thread.i, b.body)) } };
  // a text to one of a workspace's own numbers
  const number = c.data.phone_numbers.find((n) => n.phone_number === b.to && n.status === 'ready');
  if (!number) throw notFound(`No simulated number ${b.to} receives texts: text a shared number that has a thread with ${b.from}, or a workspace number.`);
  const contact = ensureContact(c.s, number.workspace_id, b.from);
  const rec = recordText(c.s, {
    workspace_id: number.workspace_id, direction: 'inbound', sender: 'contact', from_number: b.from, to_number: b.to, body: b.body,
    status: 'received', contact_id: contact.id, phone_number_id: number.id, quick_action_id: null,
  });
  if (classifyReply(b.body) === 'stop') optOut(c.s, number.workspace_id, b.from);
  else if (number.handles_texts) schedule(c.s, c.s.now + NUMBER_REPLY_SECONDS * 1000, 'number.sms_reply', { number: number.id, to: b.from });
  return { status: 201, body: { data: presentText(rec) } };
}

export const controlTraffic: Resource = {
  routes: [
    { method: 'GET', path: '/_sim/shared-pool', handler: (c) => ({ body: { data: poolView(c.data.shared_numbers, c.s.now) } }) },
    {
      method: 'POST', path: '/_sim/shared-pool/fill', handler: (c) => {
        const b = parse(obj({ kind: oneOf(['calls', 'texts'] as const), leave: int({ min: 0, max: 100_000 }) }, { required: ['kind'] }), c.body);
        fill(c.data.shared_numbers, b.kind, b.leave ?? 0, c.s.now);
        return { body: { data: poolView(c.data.shared_numbers, c.s.now) } };
      },
    },
    { method: 'POST', path: '/_sim/inbound/texts', handler: inboundText },
  ],
  timers: {
    'number.sms_reply': (s, p) => {
      const number = s.data.phone_numbers.find((n) => n.id === p.number);
      if (!number?.phone_number || !number.handles_texts) return;
      const to = String(p.to);
      const earlier = s.data.texts.some((t) => t.phone_number_id === number.id && t.direction === 'outbound' && t.to_number === to);
      const business = number.business_name ?? number.name;
      const body = earlier
        ? `Thanks! I've noted that, and someone from ${business} will follow up if needed.`
        : `Hi! This is ${number.agent.name} at ${business}. Thanks for your message. How can I help?`;
      recordText(s, {
        workspace_id: number.workspace_id, direction: 'outbound', sender: 'ai_agent', from_number: number.phone_number, to_number: to, body,
        status: 'delivered', contact_id: ensureContact(s, number.workspace_id, to).id, phone_number_id: number.id, quick_action_id: null,
      });
    },
  },
};
