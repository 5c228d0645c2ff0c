// Control plane for simulated traffic: the shared sender pool, and texts sent as the other party.
import { notFound } from '../core/errors.js';
import { route, type Ctx, type Resource } from '../core/http.js';
import { receiveNumberText } from '../numbers/index.js';
import { receiveReply, threadFor, fill, poolView, SharedPoolNumberSchema } from '../quick/index.js';
import { presentText, TextRecordSchema, type TextOut } from '../history/index.js';
import * as z from 'zod/mini';
import { dataOf, e164, int, obj, oneOf, str, type Infer } from '../core/schema.js';

const Pool = z.strictObject({ data: z.array(SharedPoolNumberSchema) });

const FillBody = obj(
  {
    kind: oneOf(['calls', 'texts'] as const, 'which daily ceiling to fill'),
    leave: int({
      min: 0,
      max: 100_000,
      description: 'slots to leave free across the pool, first numbers first (default 0: the pool is full)',
      example: 0,
    }),
  },
  { required: ['kind'] },
);

const InboundTextBody = obj(
  {
    from: e164({ description: 'the person texting' }),
    to: e164({
      description: 'a shared number with a quick AI text thread with `from`, or a ready workspace number',
      example: '+14155550150',
    }),
    body: str({ min: 1, max: 1600, example: 'Yes, Tuesday works.' }),
  },
  { required: ['from', 'to', 'body'] },
);

function inboundText(c: Ctx<Record<string, string>, Record<string, never>, Infer<typeof InboundTextBody>>): TextOut {
  const b = c.body;
  // a reply on a quick text thread (the shared number knows which workspace it belongs to)
  const thread = threadFor(c.s, b.to, b.from);
  if (thread) return presentText(receiveReply(c.s, thread.job, thread.i, b.body));
  // a text to one of a workspace's own numbers
  const number = c.data.phone_numbers.find((n) => n.phone_number === b.to && n.status === 'ready');
  if (!number)
    throw notFound(
      `No simulated number ${b.to} receives texts: text a shared number that has a thread with ${b.from}, or a workspace number.`,
    );
  return presentText(receiveNumberText(c.s, number, b.from, b.body));
}

export const controlTraffic: Resource = {
  tag: {
    name: 'Simulated traffic',
    description: "The service's shared sender pool, and texts sent as the other party.",
  },
  routes: [
    route({
      method: 'GET',
      path: '/_sim/shared-pool',
      summary: 'Show the shared sender pool',
      description:
        "The service's shared numbers for quick calls and texts (global, not any workspace's): each number's age, " +
        "daily ceilings and today's use. A quick job draws among numbers with room left; a full pool makes it wait for the next UTC day.",
      responses: { 200: { description: 'The pool', schema: Pool } },
      handler: (c) => ({ body: { data: poolView(c.data.shared_numbers, c.s.now) } }),
    }),
    route({
      method: 'POST',
      path: '/_sim/shared-pool/fill',
      summary: "Use up the shared pool's daily room",
      description:
        "Sets today's use of every shared number to its ceiling for calls or texts, leaving `leave` slots free across the pool, " +
        'to test what quick jobs do when the pool is (nearly) exhausted. A new UTC day starts from zero again.',
      body: FillBody,
      responses: { 200: { description: 'The pool after filling', schema: Pool } },
      handler: (c) => {
        fill(c.data.shared_numbers, c.body.kind, c.body.leave ?? 0, c.s.now);
        return { body: { data: poolView(c.data.shared_numbers, c.s.now) } };
      },
    }),
    route({
      method: 'POST',
      path: '/_sim/inbound/texts',
      summary: 'Text as the other party',
      description:
        'A text from a person: to a shared number, it is their reply on the quick AI text thread with them; ' +
        "to a ready workspace number, that number's SMS settings handle it (auto-reply, stop words, referrals). Answers the recorded inbound text.",
      body: InboundTextBody,
      responses: { 201: { description: 'Received', schema: dataOf(TextRecordSchema) } },
      errors: { 404: ['not_found'] },
      handler: (c) => ({ status: 201, body: { data: inboundText(c) } }),
    }),
  ],
};
