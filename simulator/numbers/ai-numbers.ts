// POST /v1/quick/ai-numbers and its read: buy a number and configure the AI agent that answers it.
// Provisioning takes a simulated minute; area code 555 cannot be wired and fails (refunded). The
// line is charged monthly (billing.ts); the agent is a view of the number's configuration.
import { ApiError } from '../core/errors.js';
import { route, type Ctx, type Resource } from '../core/http.js';
import { canCover, price } from '../billing/index.js';
import { newConfig } from './config-defaults.js';
import { UNWIREABLE_AREA_CODE, WIRING_SECONDS } from './ai-number-machine.js';
import { agentVoice, AINumberSchema, aiNumberView, createNumber, findNumber, NumberParams } from './numbers.js';
import { schedule } from '../core/scheduler.js';
import { bool, dataOf, obj, str, type Infer } from '../core/schema.js';
import { clone } from '../store/tracker.js';
import { LINE_CENTS_PER_MONTH, openLine } from './lines.js';

const Body = obj(
  {
    area_code: str({
      max: 3,
      pattern: /^[2-9]\d{2}$/,
      patternMessage: 'must be a 3-digit North American area code such as 415 (first digit 2-9)',
      description: 'where the number is bought: a 3-digit North American area code (first digit 2-9)',
      example: '415',
    }),
    name: str({
      min: 1,
      max: 100,
      description: 'names the agent and the number: the configuration\'s name (default "<business> assistant")',
      example: 'Acme front desk',
    }),
    business_name: str({
      min: 1,
      max: 200,
      description: 'the business the agent speaks for (default the workspace name)',
      example: 'Acme Dental',
    }),
    business_description: str({
      min: 1,
      max: 5000,
      description: 'what the agent may tell callers about the business',
      example: 'A family dental clinic open weekdays 8-18.',
    }),
    greeting: str({
      min: 1,
      max: 1000,
      description:
        'what the agent says when it answers (default "Thanks for calling <business>! How can I help you today?")',
      example: 'Thanks for calling Acme Dental!',
    }),
    handle_calls: bool('the agent answers inbound calls (default true)'),
    handle_texts: bool('the same agent answers inbound texts (default false)'),
  },
  { required: ['area_code'] },
);

function create(c: Ctx<{}, {}, Infer<typeof Body>>) {
  const b = c.body;
  const ws = c.auth.workspace;
  if (!canCover(c.auth.org, LINE_CENTS_PER_MONTH))
    throw new ApiError(
      403,
      'insufficient_funds',
      `The line costs ${price(LINE_CENTS_PER_MONTH)} a month; the wallet holds ${price(c.auth.org.wallet_cents)}.`,
    );
  const business = b.business_name ?? ws.name;
  // one agent per number: its name and voice settings are the number's configuration (the default name is cut to what a name may be)
  const config = newConfig(b.name ?? [...`${business} assistant`].slice(0, 100).join(''), {
    business_name: b.business_name ?? null,
    business_description: b.business_description ?? null,
  });
  config.voice = agentVoice(ws, business, { greeting: b.greeting, description: b.business_description });
  // texts are answered when asked (an own sms copy)
  if ((b.handle_texts ?? false) !== ws.defaults.sms.auto_reply_enabled)
    config.sms = { ...clone(ws.defaults.sms), auto_reply_enabled: b.handle_texts ?? false };
  const n = createNumber(c.s, ws, {
    stack: 't2',
    phone_number: null,
    area_code: b.area_code,
    status: 'provisioning',
    config,
    handles_calls: b.handle_calls ?? true,
  });
  openLine(c.s, n);
  schedule(c.s, c.s.now + WIRING_SECONDS * 1000, 'ainumber.wire', { id: n.id });
  return { status: 201, body: { data: aiNumberView(n, ws) } };
}

export const aiNumbers: Resource = {
  tag: {
    name: 'AI numbers',
    description:
      'Buy a phone number in an area code with an AI agent that answers its calls (and, if asked, its texts).',
  },
  routes: [
    route({
      method: 'POST',
      path: '/v1/quick/ai-numbers',
      scope: 'full',
      summary: 'Buy an AI number',
      description:
        'Buys a number in `area_code` and sets up the AI agent that answers it. The number starts `provisioning` with `phone_number` null; ' +
        'poll GET /v1/quick/ai-numbers/{id} until it is `ready` (or `failed`, when the number could not be wired up). ' +
        `Defaults: handle_calls true, handle_texts false. Pricing: ${price(LINE_CENTS_PER_MONTH)} per month for the line, the first month charged from the organization wallet at creation ` +
        "(403 when the wallet cannot cover it) and refunded if provisioning fails; then every month on the purchase's day of the month (the last day of a shorter month). " +
        'When the wallet cannot pay a month the number is suspended (it answers no calls or texts) until the wallet is topped up. ' +
        "Calls and texts on the number draw the plan's included minutes and texts, then bill at the plan's rates. " +
        "The agent is a view of the number's configuration (GET /v1/phone-numbers/{id}/config): name, voice.voice_id, voice.language, voice.greeting_message, voice.prompt. " +
        `In the simulator provisioning takes ${WIRING_SECONDS} simulated seconds and area code ${UNWIREABLE_AREA_CODE} always fails.`,
      body: Body,
      responses: { 201: { description: 'Bought; provisioning', schema: dataOf(AINumberSchema) } },
      errors: { 403: ['insufficient_funds'] },
      handler: create,
    }),
    route({
      method: 'GET',
      path: '/v1/quick/ai-numbers/{id}',
      scope: 'full',
      summary: 'Read an AI number',
      description:
        'The number, its status, its agent (as its configuration says now) and its line: `next_charge_at`, `suspended`. `phone_number` is null until the number is `ready`.',
      params: NumberParams,
      responses: { 200: { description: 'The AI number', schema: dataOf(AINumberSchema) } },
      handler: (c) => ({ body: { data: aiNumberView(findNumber(c), c.auth.workspace) } }),
    }),
  ],
};
