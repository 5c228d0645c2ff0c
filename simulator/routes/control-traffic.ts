// Control plane for simulated traffic: the shared sender pool, and texts sent as the other party.
import { notFound } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import { receiveNumberText, numberTextTimers } from '../machines/number-text.js';
import { receiveReply, threadFor } from '../machines/quick-text.js';
import { presentText } from '../people.js';
import { fill, poolView } from '../shared-pool.js';
import { e164, int, obj, oneOf, parse, str } from '../validate.js';

function inboundText(c: Ctx) {
  const b = parse(obj({ from: e164(), to: e164(), body: str({ min: 1, max: 1600 }) }, { required: ['from', 'to', 'body'] }), c.body);
  // a reply on a quick text thread (the shared number knows which workspace it belongs to)
  const thread = threadFor(c.s, b.to, b.from);
  if (thread) return { status: 201, body: { data: presentText(receiveReply(c.s, thread.job, thread.i, b.body)) } };
  // a text to one of a workspace's own numbers
  const number = c.data.phone_numbers.find((n) => n.phone_number === b.to && n.status === 'ready');
  if (!number) throw notFound(`No simulated number ${b.to} receives texts: text a shared number that has a thread with ${b.from}, or a workspace number.`);
  return { status: 201, body: { data: presentText(receiveNumberText(c.s, number, b.from, b.body)) } };
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
  timers: numberTextTimers,
};
