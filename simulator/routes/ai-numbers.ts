// POST /v1/quick/ai-numbers and its read: buy a number and configure the AI agent that answers it.
// Provisioning takes a simulated minute; area code 555 cannot be wired and fails (refunded).
import { iso } from '../clock.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import type { PhoneNumber } from '../model.js';
import { charge, usd } from '../money.js';
import { listParams, paginate } from '../pagination.js';
import { schedule } from '../scheduler.js';
import type { Session } from '../store.js';
import { bool, obj, parse, parseQuery, str } from '../validate.js';
import { orgOfWorkspace } from '../people.js';

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

export function aiNumberView(n: PhoneNumber) {
  return {
    id: n.id, phone_number: n.phone_number, status: n.status, handles_calls: n.handles_calls, handles_texts: n.handles_texts,
    sms_registered: n.sms_registered, agent: n.agent,
  };
}

export function phoneNumberView(n: PhoneNumber) {
  return {
    id: n.id, phone_number: n.phone_number, name: n.name, status: n.status, handles_calls: n.handles_calls,
    handles_texts: n.handles_texts, sms_registered: n.sms_registered, created_at: n.created_at,
  };
}

function create(c: Ctx) {
  const b = parse(body, c.body);
  if (!charge(c.auth.org, LINE_CENTS_PER_MONTH))
    throw new ApiError(403, 'insufficient_funds', `The line costs ${usd(LINE_CENTS_PER_MONTH).toFixed(2)} USD a month; the wallet holds ${usd(c.auth.org.wallet_cents).toFixed(2)} USD.`);
  const business = b.business_name ?? c.auth.workspace.name;
  const n: PhoneNumber = {
    id: c.data.meta.next_phone_number_id++,
    seq: c.s.nextSeq(),
    workspace_id: c.auth.workspace.id,
    phone_number: null,
    area_code: b.area_code,
    status: 'provisioning',
    name: b.name ?? `${business} AI line`,
    business_name: b.business_name ?? null,
    business_description: b.business_description ?? null,
    handles_calls: b.handle_calls ?? true,
    handles_texts: b.handle_texts ?? false,
    sms_registered: false,
    agent: {
      id: c.s.rng.uuid(),
      name: b.name ?? `${business} assistant`,
      voice: 'ava',
      language: 'en-US',
      greeting: b.greeting ?? `Thanks for calling ${business}! How can I help you today?`,
      prompt: `You answer calls and texts for ${business}.${b.business_description ? ` ${b.business_description}` : ''} Be brief, friendly and accurate.`,
    },
    created_at: iso(c.s.now),
  };
  c.data.phone_numbers.push(n);
  schedule(c.s, c.s.now + WIRING_SECONDS * 1000, 'ainumber.wire', { id: n.id });
  return { status: 201, body: { data: aiNumberView(n) } };
}

/** A number in the area code that nobody in the simulator holds yet. */
function freshNumber(s: Session, area: string): string {
  for (;;) {
    const candidate = `+1${area}${2 + s.rng.int(8)}${String(s.rng.int(1_000_000)).padStart(6, '0')}`;
    if (!s.data.phone_numbers.some((p) => p.phone_number === candidate) && !s.data.shared_numbers.some((p) => p.phone_number === candidate)) return candidate;
  }
}

function numberId(c: Ctx): number {
  if (!/^\d{1,15}$/.test(c.params.id)) throw validationError({ id: 'must be an integer' });
  return Number(c.params.id);
}

export function findNumber(c: Ctx): PhoneNumber {
  const id = numberId(c);
  const n = c.data.phone_numbers.find((x) => x.id === id && x.workspace_id === c.auth.workspace.id);
  if (!n) throw notFound(`No phone number ${id} in this workspace.`);
  return n;
}

export const aiNumbers: Resource = {
  routes: [
    { method: 'POST', path: '/v1/quick/ai-numbers', scope: 'full', handler: create },
    { method: 'GET', path: '/v1/quick/ai-numbers/{id}', scope: 'full', handler: (c) => (parseQuery(c.query, {}), { body: { data: aiNumberView(findNumber(c)) } }) },
    {
      method: 'GET', path: '/v1/phone-numbers', scope: 'phone_numbers:read', handler: (c) => {
        const q = parseQuery(c.query, listParams());
        const rows = c.data.phone_numbers.filter((n) => n.workspace_id === c.auth.workspace.id && n.status === 'ready');
        return { body: paginate(c.s, rows, q, { key: (n) => Date.parse(n.created_at), tie: (n) => n.seq, scope: `${c.auth.workspace.id}|numbers`, present: phoneNumberView, totalResults: true }) };
      },
    },
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
