// The /_sim control plane: test helpers served only by the simulator, without an API key (a key,
// when sent, picks its workspace; otherwise the seeded one). Not part of /v1.
import { advance, clockNow, iso, setMode } from '../clock.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { Ctx, Resource, Route } from '../http.js';
import { SCOPES, type CallRecord, type EmailRecord, type TextRecord } from '../model.js';
import { cents, usd } from '../money.js';
import { contactByEmail, contactByPhone, newContact, presentCall, presentContact, presentEmail, presentText } from '../people.js';
import { addApiKey, addWorkspace, seedData } from '../seed.js';
import { nextDue } from '../scheduler.js';
import { arr, bool, e164, email, freeObject, int, isoTime, nullable, num, obj, oneOf, parse, parseQuery, str } from '../validate.js';
import { CALL_STATUS_FILTERS } from './history.js';

function clockView(c: Ctx) {
  const due = nextDue(c.s);
  return { now: iso(c.s.now), mode: c.data.meta.clock.mode, next_due_at: due === null ? null : iso(due) };
}

function workspaceView(c: Ctx) {
  const { workspace: w, org, user } = c.auth;
  return {
    id: w.id,
    name: w.name,
    organization_id: org.id,
    wallet_usd: usd(org.wallet_cents),
    auto_recharge: { enabled: org.auto_recharge.enabled, amount_usd: usd(org.auto_recharge.amount_cents), threshold_usd: usd(org.auto_recharge.threshold_cents) },
    plan: { ...w.plan },
    rate_limits: { ...w.rate_limits },
    recordings_disabled: w.recordings_disabled,
    owner: { name: user.name, email: user.email },
    created_at: w.created_at,
  };
}

const workspacePatch = obj({
  name: str({ min: 1, max: 100 }),
  wallet_usd: num({ min: 0, max: 1_000_000 }),
  auto_recharge: {
    check: (v, path, errs) =>
      typeof v === 'boolean'
        ? { enabled: v }
        : obj({ enabled: bool(), amount_usd: num({ min: 0.01, max: 100_000 }), threshold_usd: num({ min: 0, max: 100_000 }) }).check(v, path, errs),
  },
  plan: obj({ content: bool(), assistant: bool(), video_credits_cents: int({ min: 0 }) }),
  rate_limits: obj({ quick_emails_per_minute: int({ min: 0, max: 100_000 }) }),
  recordings_disabled: bool(),
});

const contactBody = obj({
  name: str({ min: 1, max: 200 }),
  first_name: nullable(str({ max: 100 })),
  last_name: nullable(str({ max: 100 })),
  email: nullable(email()),
  phone_number: nullable(e164()),
  company: nullable(str({ max: 200 })),
  job_title: nullable(str({ max: 200 })),
  location: nullable(str({ max: 200 })),
  preferred_language: nullable(str({ max: 50 })),
  notes: nullable(str({ max: 5000 })),
  tags: arr(str({ min: 1, max: 100 }), { max: 100 }),
  custom_fields: freeObject(),
}, { required: ['name'] });

const turn = obj({ speaker: oneOf(['agent', 'person'] as const), text: str({ max: 10_000 }), seconds_from_start: nullable(num({ min: 0 })) }, { required: ['speaker', 'text'] });
const TAGS = ['booking_requested', 'callback_requested', 'complaint', 'purchase_interest', 'interested', 'qualified', 'not_interested', 'transferred'] as const;
const callFixture = obj({
  direction: oneOf(['inbound', 'outbound'] as const),
  status: oneOf(CALL_STATUS_FILTERS.map((x) => x.toUpperCase()) as unknown as readonly string[]),
  from_number: e164(),
  to_number: e164(),
  duration_seconds: nullable(int({ min: 0 })),
  summary: str({ max: 10_000 }),
  transcript_turns: arr(turn, { max: 1000 }),
  tags: arr(oneOf(TAGS)),
  has_recording: bool(),
  created_at: isoTime(),
}, { required: ['direction', 'from_number', 'to_number'] });
const textFixture = obj({
  direction: oneOf(['inbound', 'outbound'] as const),
  sender: oneOf(['contact', 'ai_agent', 'business'] as const),
  from_number: e164(),
  to_number: e164(),
  body: str({ min: 1, max: 2000 }),
  created_at: isoTime(),
}, { required: ['direction', 'from_number', 'to_number', 'body'] });
const emailFixture = obj({
  direction: oneOf(['inbound', 'outbound'] as const),
  from_address: email(),
  to: email(),
  subject: str({ max: 200 }),
  body: str({ max: 20_000 }),
  created_at: isoTime(),
}, { required: ['direction', 'from_address', 'to'] });

/** A fixture's time: given, or now; never in the simulator's future. */
function fixtureTime(c: Ctx, at: string | undefined): string {
  if (at !== undefined && Date.parse(at) > c.s.now) throw validationError({ created_at: 'must not be in the simulator\'s future' });
  return at ?? iso(c.s.now);
}

const transcriptOf = (turns: { speaker: string; text: string }[]) =>
  turns.map((t) => `${t.speaker === 'agent' ? 'AI' : 'User'}: ${t.text}`).join('\n');

const routes: Route[] = [
  { method: 'GET', path: '/_sim/health', handler: (c) => ({ body: { ok: true, now: iso(c.s.now) } }) },

  {
    method: 'POST', path: '/_sim/reset', handler: (c) => {
      // a reset may also start the clock afresh (any time, even earlier: nothing is left to contradict it)
      const b = parse(obj({ clock: oneOf(['real', 'manual'] as const), now: isoTime(), seed: int({ min: 0, max: 2 ** 32 - 1 }) }), c.body);
      const current = c.data.meta.clock;
      const clock = b.clock !== undefined || b.now !== undefined
        ? setMode(current, b.clock ?? current.mode, b.now !== undefined ? Date.parse(b.now) : c.s.now)
        : current;
      const fresh = seedData({ seed: b.seed ?? c.data.meta.seed, clock });
      Object.assign(c.data, fresh);
      c.s.markDirty();
      return { body: { api_key: fresh.meta.default_api_key, workspace_id: fresh.meta.default_workspace_id, now: iso(clockNow(clock)) } };
    },
  },

  { method: 'GET', path: '/_sim/clock', handler: (c) => ({ body: clockView(c) }) },
  {
    method: 'POST', path: '/_sim/clock', handler: (c) => {
      const b = parse(obj({ mode: oneOf(['real', 'manual'] as const), now: isoTime() }), c.body);
      const to = b.now !== undefined ? Date.parse(b.now) : c.s.now;
      if (to < c.s.now) throw validationError({ now: 'cannot move the clock backwards' });
      c.data.meta.clock = setMode(c.data.meta.clock, b.mode ?? c.data.meta.clock.mode, c.s.now);
      if (to > c.s.now) {
        c.advance(to);
        c.data.meta.clock = setMode(c.data.meta.clock, c.data.meta.clock.mode, to);
      }
      c.s.markDirty();
      return { body: clockView(c) };
    },
  },
  {
    method: 'POST', path: '/_sim/clock/advance', handler: (c) => {
      const b = parse(obj({ seconds: num({ min: 0, max: 10 * 366 * 86400 }) }, { required: ['seconds'] }), c.body);
      const clock = advance(c.data.meta.clock, Math.round(b.seconds * 1000));
      c.advance(clockNow(clock));
      c.data.meta.clock = clock;
      c.s.markDirty();
      return { body: clockView(c) };
    },
  },

  {
    method: 'POST', path: '/_sim/api-keys', handler: (c) => {
      const b = parse(obj({ scopes: arr(oneOf(SCOPES)), workspace_id: str({ min: 1 }) }), c.body);
      const ws = b.workspace_id ?? c.auth.workspace.id;
      if (c.auth.key && ws !== c.auth.key.workspace_id)
        throw new ApiError(403, 'forbidden', 'An API key of one workspace cannot mint keys for another; send no key, or that workspace\'s key.');
      const workspace = c.data.workspaces.find((w) => w.id === ws);
      if (!workspace) throw notFound(`No workspace ${ws}.`);
      const user = c.data.users.find((u) => u.organization_id === workspace.organization_id)!;
      const scopes = b.scopes && b.scopes.length > 0 ? [...new Set(b.scopes)] : null;
      const key = addApiKey(c.data, c.s.rng, c.s.now, workspace.id, user.id, scopes);
      return { status: 201, body: { key, workspace_id: workspace.id, scopes } };
    },
  },
  {
    method: 'POST', path: '/_sim/workspaces', handler: (c) => {
      const b = parse(obj({ name: str({ min: 1, max: 100 }) }), c.body);
      const { workspace, key } = addWorkspace(c.data, c.s.rng, c.s.now, b.name ?? `Workspace ${c.data.workspaces.length + 1}`);
      return { status: 201, body: { workspace_id: workspace.id, api_key: key } };
    },
  },
  { method: 'GET', path: '/_sim/workspace', handler: (c) => ({ body: workspaceView(c) }) },
  {
    method: 'PATCH', path: '/_sim/workspace', handler: (c) => {
      const b = parse(workspacePatch, c.body);
      const { workspace: w, org } = c.auth;
      if (b.name !== undefined) w.name = b.name;
      if (b.wallet_usd !== undefined) org.wallet_cents = cents(b.wallet_usd);
      const ar = b.auto_recharge as { enabled?: boolean; amount_usd?: number; threshold_usd?: number } | undefined;
      if (ar?.enabled !== undefined) org.auto_recharge.enabled = ar.enabled;
      if (ar?.amount_usd !== undefined) org.auto_recharge.amount_cents = cents(ar.amount_usd);
      if (ar?.threshold_usd !== undefined) org.auto_recharge.threshold_cents = cents(ar.threshold_usd);
      if (b.plan) w.plan = { ...w.plan, ...b.plan };
      if (b.rate_limits) w.rate_limits = { ...w.rate_limits, ...b.rate_limits };
      if (b.recordings_disabled !== undefined) w.recordings_disabled = b.recordings_disabled;
      return { body: workspaceView(c) };
    },
  },

  {
    method: 'POST', path: '/_sim/contacts', handler: (c) => {
      const b = parse(contactBody, c.body);
      const ws = c.auth.workspace.id;
      if (b.phone_number && contactByPhone(c.data, ws, b.phone_number)) throw new ApiError(409, 'conflict', 'A contact already has this phone number.', { phone_number: 'is already a contact\'s number' });
      if (b.email && contactByEmail(c.data, ws, b.email)) throw new ApiError(409, 'conflict', 'A contact already has this email address.', { email: 'is already a contact\'s address' });
      const contact = newContact(c.s.rng, ws, c.s.now, b);
      for (const k of ['company', 'job_title', 'location', 'preferred_language', 'notes'] as const) if (b[k] !== undefined) contact[k] = b[k];
      if (b.tags) contact.tags = b.tags;
      if (b.custom_fields) contact.custom_fields = b.custom_fields;
      c.data.contacts.push(contact);
      return { status: 201, body: { data: presentContact(contact) } };
    },
  },
  {
    method: 'POST', path: '/_sim/suppressions', handler: (c) => {
      const b = parse(obj({ email: email(), reason: oneOf(['unsubscribe', 'bounce', 'complaint'] as const) }, { required: ['email'] }), c.body);
      const ws = c.auth.workspace.id;
      const existing = c.data.suppressions.find((x) => x.workspace_id === ws && x.email.toLowerCase() === b.email.toLowerCase());
      const entry = existing ?? { workspace_id: ws, email: b.email, reason: b.reason ?? 'unsubscribe', created_at: iso(c.s.now) };
      if (!existing) c.data.suppressions.push(entry);
      return { status: existing ? 200 : 201, body: { data: { email: entry.email, reason: entry.reason, created_at: entry.created_at } } };
    },
  },

  // history fixtures: records as if a call, text or email had happened (quick actions make real ones)
  {
    method: 'POST', path: '/_sim/calls', handler: (c) => {
      const b = parse(callFixture, c.body);
      const ws = c.auth.workspace.id;
      const other = b.direction === 'outbound' ? b.to_number : b.from_number;
      const turns = b.transcript_turns ?? [];
      const created = fixtureTime(c, b.created_at);
      const rec: CallRecord = {
        id: c.s.rng.uuid(), seq: c.s.nextSeq(), workspace_id: ws, direction: b.direction, status: b.status ?? 'COMPLETED',
        from_number: b.from_number, to_number: b.to_number, contact_id: contactByPhone(c.data, ws, other)?.id ?? null,
        phone_number_id: null, duration_seconds: b.duration_seconds ?? null, summary: b.summary ?? '',
        transcript: transcriptOf(turns), transcript_turns: turns.map((t) => ({ seconds_from_start: null, ...t })),
        tags: b.tags ?? [], has_recording: b.has_recording ?? false, end_reason: null,
        started_at: created, ended_at: b.duration_seconds != null ? iso(Date.parse(created) + b.duration_seconds * 1000) : null, created_at: created,
      };
      c.data.calls.push(rec);
      return { status: 201, body: { data: presentCall(rec) } };
    },
  },
  {
    method: 'POST', path: '/_sim/texts', handler: (c) => {
      const b = parse(textFixture, c.body);
      const ws = c.auth.workspace.id;
      const other = b.direction === 'outbound' ? b.to_number : b.from_number;
      const rec: TextRecord = {
        id: c.s.rng.uuid(), seq: c.s.nextSeq(), workspace_id: ws, direction: b.direction, sender: b.sender ?? (b.direction === 'inbound' ? 'contact' : 'business'),
        from_number: b.from_number, to_number: b.to_number, body: b.body, status: b.direction === 'inbound' ? 'received' : 'delivered',
        contact_id: contactByPhone(c.data, ws, other)?.id ?? null, quick_action_id: null, created_at: fixtureTime(c, b.created_at),
        // a text from or to one of the workspace's numbers belongs to that number
        phone_number_id: c.data.phone_numbers.find((n) => n.workspace_id === ws && n.phone_number === (b.direction === 'outbound' ? b.from_number : b.to_number))?.id ?? null,
      };
      c.data.texts.push(rec);
      return { status: 201, body: { data: presentText(rec) } };
    },
  },
  {
    method: 'POST', path: '/_sim/emails', handler: (c) => {
      const b = parse(emailFixture, c.body);
      const ws = c.auth.workspace.id;
      const other = b.direction === 'outbound' ? b.to : b.from_address;
      const rec: EmailRecord = {
        id: c.s.rng.uuid(), seq: c.s.nextSeq(), workspace_id: ws, direction: b.direction, source: 'inbox', status: b.direction === 'inbound' ? 'received' : 'sent',
        from: b.from_address, from_address: b.from_address, to: b.to, reply_to: null, subject: b.subject ?? '', body: b.body ?? '',
        contact_id: contactByEmail(c.data, ws, other)?.id ?? null, quick_email_id: null, created_at: fixtureTime(c, b.created_at),
      };
      c.data.emails.push(rec);
      return { status: 201, body: { data: presentEmail(rec) } };
    },
  },

  {
    method: 'GET', path: '/_sim/audit-log', handler: (c) => {
      parseQuery(c.query, {});
      const { workspace } = c.auth;
      return { body: { data: c.data.audit_log.filter((a) => a.workspace_id === workspace.id).map(({ workspace_id: _w, ...a }) => a) } };
    },
  },
];

export const control: Resource = { routes };
