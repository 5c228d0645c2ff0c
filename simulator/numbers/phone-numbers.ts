// Phone numbers: list, carrier search, release, and each number's configuration and voices.
import { iso } from '../core/clock.js';
import { validationError } from '../core/errors.js';
import type { Ctx, Resource } from '../core/http.js';
import { COUNTRIES, inventory, NUMBER_TYPES, TOLL_FREE } from '../calls/index.js';
import { configView, NumberConfiguration, patchSchema } from './config.js';
import { applyPatch } from './config-patch.js';
import { VOICES, VoiceSchema } from './voices.js';
import {
  findNumber,
  findReadyNumber,
  NumberParams,
  numberTaken,
  PhoneNumberSchema,
  phoneNumberView,
} from './numbers.js';
import { listParams, paginate } from '../core/pagination.js';
import * as z from 'zod/mini';
import {
  dataOf,
  doc,
  e164,
  int,
  listOf,
  named,
  nullable,
  obj,
  oneOf,
  qInt,
  record,
  str,
  timestamp,
  type Infer,
} from '../core/schema.js';
import { removeWhere } from '../store/tracker.js';
import { closeLine, refundLine } from './lines.js';

type NumberCtx = Ctx<Infer<typeof NumberParams>>;

const ListQuery = obj({ ...listParams() });

function list(c: Ctx<{}, Infer<typeof ListQuery>>) {
  const ws = c.auth.workspace;
  const rows = c.data.phone_numbers.filter((n) => n.workspace_id === ws.id && n.status === 'ready');
  return {
    body: paginate(c.s, rows, c.query, {
      key: (n) => Date.parse(n.created_at),
      tie: (n) => n.seq,
      scope: `${ws.id}|numbers`,
      present: (n) => phoneNumberView(n, ws),
      totalResults: true,
    }),
  };
}

/** The spec gives the constraints of the search parameters, not their names: country, area_code, limit, type. */
const SearchQuery = obj({
  country: str({
    max: 2,
    // the countries the simulated carrier has numbers in, any letter case: (?:[Uu][Ss]|[Cc][Aa])
    pattern: new RegExp(
      `^(?:${COUNTRIES.map((c) => [...c].map((l) => `[${l}${l.toLowerCase()}]`).join('')).join('|')})$`,
    ),
    patternMessage: `the simulated carrier has numbers in ${COUNTRIES.join(' and ')} only (any letter case)`,
    description: `ISO country code, any letter case: ${COUNTRIES.join(' or ')} (default US)`,
    example: 'US',
  }),
  area_code: str({
    max: 3,
    pattern: /^\d{3}$/,
    patternMessage: 'must be exactly 3 digits',
    description: `3 digits; for toll-free numbers one of ${TOLL_FREE.join(', ')}`,
    example: '415',
  }),
  limit: qInt(1, 50, { description: 'how many numbers, default 20', example: 20 }),
  type: oneOf(NUMBER_TYPES, 'default local'),
});

const FEATURES = ['voice', 'sms', 'mms'] as const;
const AvailableNumber = named(
  'AvailableNumber',
  () =>
    record({
      phone_number: e164(),
      locality: doc(z.string(), { description: "the area code's city, or Toll-free", example: 'San Francisco' }),
      region: doc(z.string(), { description: 'state or province (the country for toll-free numbers)', example: 'CA' }),
      features: doc(z.array(oneOf(FEATURES)), { example: ['voice', 'sms', 'mms'] }),
    }),
  'A number the simulated carrier has free.',
);
const SearchReply = listOf(AvailableNumber);

function search(c: Ctx<{}, Infer<typeof SearchQuery>>): Infer<typeof SearchReply> {
  const q = c.query;
  const country = (q.country ?? 'US').toUpperCase();
  const type = q.type ?? 'local';
  if (type === 'tollFree' && q.area_code && !TOLL_FREE.includes(q.area_code))
    throw validationError({ area_code: `toll-free numbers start with one of ${TOLL_FREE.join(', ')}` });
  const limit = q.limit ?? 20;
  const data = inventory(country as (typeof COUNTRIES)[number], type, q.area_code)
    .filter((n) => !numberTaken(c.s, n.phone_number))
    .slice(0, limit);
  // carrier.ts types features as plain strings; they are always among FEATURES
  return { data: data as Infer<typeof AvailableNumber>[], meta: { page_size: limit } };
}

const ReleasedNumber = named(
  'ReleasedNumber',
  () =>
    record({
      id: int({ example: 12 }),
      phone_number: nullable(e164()),
      released: z.literal(true),
      released_at: timestamp(),
      deleted_call_count: int({
        description: 'call records (and their recordings) deleted with the number',
        example: 3,
      }),
    }),
  'A released number.',
);

/** Releases the number from the carrier, ends its line item, deletes its call data and recordings, removes it. */
function release(c: NumberCtx): Infer<typeof ReleasedNumber> {
  const n = findNumber(c);
  // an AI number released before it was wired never had a line: its month is refunded; otherwise its line item ends
  if (n.status === 'provisioning') refundLine(c.s, n, 'it was released before it was wired up');
  closeLine(c.s, n);
  // (journaled as the places removed: releasing a number costs its calls, not the whole history)
  const deleted = removeWhere(c.data.calls, (call) => call.phone_number_id === n.id);
  removeWhere(c.data.phone_numbers, (x) => x === n);
  return {
    id: n.id,
    phone_number: n.phone_number,
    released: true,
    released_at: iso(c.s.now),
    deleted_call_count: deleted,
  };
}

function readConfig(c: NumberCtx) {
  const n = findReadyNumber(c);
  return { body: { data: configView(n.id, n.phone_number, n.stack, n.config, c.auth.workspace.defaults) } };
}

/** Rule 5: a change applies from the next call or text, the same path as the dashboard's save. */
function patchConfig(c: Ctx<Infer<typeof NumberParams>, {}, unknown>) {
  const n = findReadyNumber(c);
  const ws = c.auth.workspace;
  n.config = applyPatch(n.config, c.body, {
    stack: n.stack,
    defaults: ws.defaults,
    rng: c.s.rng,
    knowledgeBaseIds: ws.knowledge_bases.map((k) => k.id),
    faqIds: ws.faqs.map((f) => f.id),
    eventTypeIds: ws.event_types.map((e) => e.id),
  });
  return { body: { data: configView(n.id, n.phone_number, n.stack, n.config, ws.defaults) } };
}

function voices(c: NumberCtx): Infer<typeof VoiceSchema>[] {
  const n = findReadyNumber(c);
  return VOICES[n.stack].map((v) => ({ ...v, stack: n.stack, preview_url: `/_sim/voices/${v.id}.wav` }));
}

const READY = 'The number must be ready (an AI number still provisioning is 404 here).';

export const phoneNumbers: Resource = {
  tag: {
    name: 'Phone numbers',
    description: "The workspace's numbers: list, carrier search, release, and each number's configuration and voices.",
  },
  routes: [
    {
      method: 'GET',
      path: '/v1/phone-numbers',
      scope: 'phone_numbers:read',
      summary: 'List phone numbers',
      description: "The workspace's ready numbers, newest first, in the list envelope (with total_results).",
      query: ListQuery,
      responses: { 200: { description: 'A page of numbers', schema: listOf(PhoneNumberSchema) } },
      handler: list,
    },
    {
      method: 'GET',
      path: '/v1/phone-numbers/search',
      scope: 'full',
      summary: 'Search available numbers',
      description:
        'Numbers the simulated carrier has free (US and CA), deterministic for a query; numbers in use are not offered. Searching buys nothing.',
      query: SearchQuery,
      responses: { 200: { description: 'Up to limit numbers', schema: SearchReply } },
      handler: (c) => ({ body: search(c) }),
    },
    {
      method: 'DELETE',
      path: '/v1/phone-numbers/{id}',
      scope: 'full',
      summary: 'Release a phone number',
      description:
        'Releases the number from the carrier, ends its line item (no more monthly charges; a month already paid is not refunded, a month owed is forgiven), ' +
        'and deletes its call records and recordings. An AI number released while still provisioning gets its month refunded.',
      params: NumberParams,
      responses: { 200: { description: 'Released', schema: dataOf(ReleasedNumber) } },
      handler: (c) => ({ body: { data: release(c) } }),
    },
    {
      method: 'GET',
      path: '/v1/phone-numbers/{id}/config',
      scope: 'phone_numbers:read',
      summary: "Read a number's configuration",
      description: `Every setting of the AI agent that answers the number. voice and sms show the workspace defaults while inherits_workspace_default is true; fields of the other stack read null. ${READY}`,
      params: NumberParams,
      responses: { 200: { description: 'The configuration', schema: dataOf(NumberConfiguration) } },
      handler: readConfig,
    },
    {
      method: 'PATCH',
      path: '/v1/phone-numbers/{id}/config',
      scope: 'phone_numbers:write',
      summary: "Change a number's configuration",
      description:
        'Only the fields sent change. A list is replaced whole: items sent with their id are kept, items without one are added, an unknown id is 400. ' +
        // (which stack takes a field, stack read-only, the first enabling of ivr, knowledge bases, FAQs and
        // event types assigned by id: each field's own words say it, and the MCP tool's listing has 8 KB)
        'The first change of voice or sms gives the number its own copy of the workspace default. ' +
        `A change applies from the next call or text. ${READY}`,
      params: NumberParams,
      body: patchSchema,
      bodyCheckedByHandler: true,
      responses: { 200: { description: 'The configuration after the change', schema: dataOf(NumberConfiguration) } },
      handler: patchConfig,
    },
    {
      method: 'GET',
      path: '/v1/phone-numbers/{id}/voices',
      scope: 'phone_numbers:read',
      summary: "List a number's voices",
      description: `The voices of the number's stack: what voice.voice_id takes, in the list envelope (in the stack's order). ${READY}`,
      params: NumberParams,
      query: obj({ ...listParams() }),
      responses: { 200: { description: 'The voices', schema: listOf(VoiceSchema) } },
      handler: (c) => {
        const all = voices(c);
        return {
          body: paginate(c.s, all, c.query, {
            key: (v) => all.length - all.indexOf(v),
            tie: (v) => v.id,
            scope: `voices:${c.params.id}`,
            present: (v) => v,
          }),
        };
      },
    },
  ],
};
