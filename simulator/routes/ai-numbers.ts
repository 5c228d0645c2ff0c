// POST /v1/quick/ai-numbers and its read: buy a number and configure the AI agent that answers it.
// Provisioning takes a simulated minute; area code 555 cannot be wired and fails (refunded).
import { ApiError } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import { charge, usd } from '../money.js';
import { newConfig } from '../number-config.js';
import { aiNumberView, createNumber, defaultAgent, findNumber, freshNumber } from '../numbers.js';
import { orgOfWorkspace } from '../people.js';
import { schedule } from '../scheduler.js';
import { bool, obj, parse, parseQuery, str } from '../validate.js';

export const LINE_CENTS_PER_MONTH = 500;
export const WIRING_SECONDS = 60;
export const UNWIREABLE_AREA_CODE = '555';

const body = obj({
  area_code: str({ pattern: /^[2-9]\d{2}$/, patternMessage: 'must be a 3-digit North American area code such as 415 (first digit 2-9)' }),
  name: str({ min: 1, max: 100 }),
  business_name: str({ min: 1, max: 200 }),
  business_description: str({ min: 1, max: 5000 }),
  greeting: str({ min: 1, max: 1000 }),
  handle_calls: bool(),
  handle_texts: bool(),
}, { required: ['area_code'] });

function create(c: Ctx) {
  const b = parse(body, c.body);
  const ws = c.auth.workspace;
  if (!charge(c.auth.org, LINE_CENTS_PER_MONTH))
    throw new ApiError(403, 'insufficient_funds', `The line costs ${usd(LINE_CENTS_PER_MONTH).toFixed(2)} USD a month; the wallet holds ${usd(c.auth.org.wallet_cents).toFixed(2)} USD.`);
  const business = b.business_name ?? ws.name;
  const agent = defaultAgent(c.s, business, { name: b.name, greeting: b.greeting, description: b.business_description });
  const config = newConfig(b.name ?? `${business} AI line`, { business_name: b.business_name ?? null, business_description: b.business_description ?? null });
  // the agent's greeting is the number's greeting; texts are answered when asked (an own sms copy)
  config.voice = { ...structuredClone(ws.defaults.voice), greeting_message: agent.greeting };
  if ((b.handle_texts ?? false) !== ws.defaults.sms.auto_reply_enabled) config.sms = { ...structuredClone(ws.defaults.sms), auto_reply_enabled: b.handle_texts ?? false };
  const n = createNumber(c.s, ws, { stack: 't2', phone_number: null, area_code: b.area_code, status: 'provisioning', agent, config, handles_calls: b.handle_calls ?? true });
  schedule(c.s, c.s.now + WIRING_SECONDS * 1000, 'ainumber.wire', { id: n.id });
  return { status: 201, body: { data: aiNumberView(n, ws) } };
}

export const aiNumbers: Resource = {
  routes: [
    { method: 'POST', path: '/v1/quick/ai-numbers', scope: 'full', handler: create },
    { method: 'GET', path: '/v1/quick/ai-numbers/{id}', scope: 'full', handler: (c) => (parseQuery(c.query, {}), { body: { data: aiNumberView(findNumber(c), c.auth.workspace) } }) },
  ],
  timers: {
    'ainumber.wire': (s, p) => {
      const n = s.data.phone_numbers.find((x) => x.id === p.id);
      if (!n || n.status !== 'provisioning') return;
      if (n.area_code === UNWIREABLE_AREA_CODE) {
        n.status = 'failed';
        orgOfWorkspace(s.data, n.workspace_id).wallet_cents += LINE_CENTS_PER_MONTH; // refunded: the line never worked
        return;
      }
      n.phone_number = freshNumber(s, n.area_code!);
      n.status = 'ready';
    },
  },
};
