// Phone numbers: list, carrier search, release, and each number's configuration and voices.
import { iso } from '../clock.js';
import { validationError } from '../errors.js';
import type { Ctx, Resource } from '../http.js';
import { COUNTRIES, inventory, NUMBER_TYPES, TOLL_FREE } from '../carrier.js';
import { LINE_CENTS_PER_MONTH } from './ai-numbers.js';
import { applyPatch, configView, VOICES } from '../number-config.js';
import { findNumber, findReadyNumber, numberTaken, phoneNumberView } from '../numbers.js';
import { listParams, paginate } from '../pagination.js';
import { parseQuery, qEnum, qInt, qMatch } from '../validate.js';

function list(c: Ctx) {
  const q = parseQuery(c.query, listParams());
  const ws = c.auth.workspace;
  const rows = c.data.phone_numbers.filter((n) => n.workspace_id === ws.id && n.status === 'ready');
  return {
    body: paginate(c.s, rows, q, {
      key: (n) => Date.parse(n.created_at), tie: (n) => n.seq, scope: `${ws.id}|numbers`, present: (n) => phoneNumberView(n, ws), totalResults: true,
    }),
  };
}

/** Query parameters (the spec gives their constraints, not their names): country, area_code, limit, type. */
function search(c: Ctx) {
  const q = parseQuery(c.query, {
    country: qMatch(/^[A-Za-z]{2}$/, 'must be a 2-letter country code such as US'),
    area_code: qMatch(/^\d{3}$/, 'must be exactly 3 digits'),
    limit: qInt(1, 50),
    type: qEnum(NUMBER_TYPES),
  });
  const country = (q.country ?? 'US').toUpperCase();
  if (!(COUNTRIES as readonly string[]).includes(country)) throw validationError({ country: `the simulated carrier has numbers in ${COUNTRIES.join(' and ')} only` });
  const type = q.type ?? 'local';
  if (type === 'tollFree' && q.area_code && !TOLL_FREE.includes(q.area_code))
    throw validationError({ area_code: `toll-free numbers start with one of ${TOLL_FREE.join(', ')}` });
  const limit = q.limit ?? 20;
  const data = inventory(country as (typeof COUNTRIES)[number], type, q.area_code).filter((n) => !numberTaken(c.s, n.phone_number)).slice(0, limit);
  return { body: { data, meta: { page_size: limit } } };
}

/** Releases the number from the carrier, ends its line item, deletes its call data and recordings, removes it. */
function release(c: Ctx) {
  const n = findNumber(c);
  // an AI number released before it was wired never had a line: its month is refunded
  if (n.status === 'provisioning') c.auth.org.wallet_cents += LINE_CENTS_PER_MONTH;
  const before = c.data.calls.length;
  c.data.calls = c.data.calls.filter((call) => call.phone_number_id !== n.id);
  const deleted = before - c.data.calls.length;
  c.data.phone_numbers = c.data.phone_numbers.filter((x) => x !== n);
  return { body: { data: { id: n.id, phone_number: n.phone_number, released: true, released_at: iso(c.s.now), deleted_call_count: deleted } } };
}

function readConfig(c: Ctx) {
  parseQuery(c.query, {});
  const n = findReadyNumber(c);
  return { body: { data: configView(n.id, n.phone_number, n.stack, n.config, c.auth.workspace.defaults) } };
}

/** Rule 5: a change applies from the next call or text, the same path as the dashboard's save. */
function patchConfig(c: Ctx) {
  const n = findReadyNumber(c);
  const ws = c.auth.workspace;
  n.config = applyPatch(n.config, c.body, {
    stack: n.stack, defaults: ws.defaults, rng: c.s.rng,
    knowledgeBaseIds: ws.knowledge_bases.map((k) => k.id), faqIds: ws.faqs.map((f) => f.id), eventTypeIds: ws.event_types.map((e) => e.id),
  });
  return { body: { data: configView(n.id, n.phone_number, n.stack, n.config, ws.defaults) } };
}

function voices(c: Ctx) {
  parseQuery(c.query, {});
  const n = findReadyNumber(c);
  return { body: { data: VOICES[n.stack].map((v) => ({ ...v, stack: n.stack, preview_url: `/_sim/voices/${v.id}.wav` })) } };
}

export const phoneNumbers: Resource = {
  routes: [
    { method: 'GET', path: '/v1/phone-numbers', scope: 'phone_numbers:read', handler: list },
    { method: 'GET', path: '/v1/phone-numbers/search', scope: 'full', handler: search },
    { method: 'DELETE', path: '/v1/phone-numbers/{id}', scope: 'full', handler: release },
    { method: 'GET', path: '/v1/phone-numbers/{id}/config', scope: 'phone_numbers:read', handler: readConfig },
    { method: 'PATCH', path: '/v1/phone-numbers/{id}/config', scope: 'phone_numbers:write', handler: patchConfig },
    { method: 'GET', path: '/v1/phone-numbers/{id}/voices', scope: 'phone_numbers:read', handler: voices },
  ],
};
