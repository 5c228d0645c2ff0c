// The /_sim control plane: test helpers served only by the simulator, without an API key (a key,
// when sent, picks its workspace; otherwise the seeded one). Not part of /v1.
import {
  allowanceLeft,
  mayUse,
  usageAt,
  LEDGER_KINDS,
  type LedgerEntry,
  cents,
  LEDGER_KEPT,
  setWallet,
  usd,
} from '../billing/index.js';
import { clockNow, iso, setMode } from '../core/clock.js';
import { ApiError, notFound, validationError } from '../core/errors.js';
import { route, type Ctx, type Reply, type Resource } from '../core/http.js';
import { SCOPES } from '../core/world.js';
import {
  type CallRecord,
  type EmailRecord,
  type Suppression,
  type TextRecord,
  contactByEmail,
  contactByPhone,
  newContact,
  newRecordTime,
  presentCall,
  presentContact,
  presentEmail,
  presentText,
  AuditEntrySchema,
  CALL_STATUS_FILTERS,
  CALL_TAGS,
  CallRecordSchema,
  ContactSchema,
  EmailRecordSchema,
  SUPPRESSION_REASONS,
  SuppressionSchema,
  TextRecordSchema,
  type CallStatus,
} from '../history/index.js';
import { addApiKey } from '../core/accounts.js';
import { canonicalZone } from '../../src/formats.js';
import { paginate, listParams } from '../core/pagination.js';
import { nextDue } from '../core/scheduler.js';
import { MOVE_WORK_LIMIT, refuseLargeMove, SLICE_MS } from '../core/move.js';
import type { Session } from '../core/session.js';
import * as z from 'zod/mini';
import {
  arr,
  BULK_MAX_BODY_BYTES,
  BULK_MAX_ITEMS,
  bool,
  dataOf,
  doc,
  e164,
  email,
  freeInput,
  int,
  isoTime,
  listOf,
  named,
  newFields,
  nullable,
  num,
  obj,
  oneOf,
  oneOrMany,
  record,
  str,
  timestamp,
  typeName,
  uuid,
  type Infer,
} from '../core/schema.js';
import { clone } from '../store/tracker.js';
import { settleLines } from '../numbers/index.js';

/** Any control-plane context: these helpers read only what every route has. */
type AnyCtx = Ctx<any, any, any>;

const CLOCK_MODES = ['real', 'manual'] as const;

// ---- what the control plane answers ----

const Health = record({ ok: z.literal(true), now: doc(timestamp(), "the simulator's clock") });

export const SimClockSchema = named(
  'SimClock',
  () =>
    record({
      now: timestamp("the simulator's current time"),
      mode: oneOf(
        CLOCK_MODES,
        'real: the clock runs with the wall clock (from an offset); manual: it moves only when told to',
      ),
      next_due_at: doc(
        nullable(timestamp()),
        'when the next scheduled transition (a call step, a retry, a delivery…) falls due; null when nothing is scheduled',
      ),
      next_job_due_at: doc(
        nullable(timestamp()),
        "the same, leaving out what recurs on the calendar for as long as something exists (an AI number's monthly line charge, a video schedule's planning and posting): " +
          'when the next step of some job falls due; what `vmv … --wait --advance` moves the clock to',
      ),
    }),
  'The simulator clock.',
);

const ResetResult = record({
  api_key: doc(z.string(), {
    description: "the fresh seeded workspace's full-access API key",
    example: 'sk_sim_0123456789abcdef0123456789abcdef01234567',
  }),
  workspace_id: uuid('the seeded workspace'),
  now: timestamp('the clock after the reset'),
});

const NewApiKey = record({
  key: doc(z.string(), {
    description: 'the API key, shown only now',
    example: 'sk_sim_0123456789abcdef0123456789abcdef01234567',
  }),
  workspace_id: uuid(),
  scopes: doc(nullable(z.array(oneOf(SCOPES))), 'null: full access'),
});

const CurrentApiKey = record({
  workspace_id: uuid(),
  scopes: doc(nullable(z.array(oneOf(SCOPES))), 'null: full access (also when no key is sent)'),
});

const NewWorkspace = record({
  workspace_id: uuid(),
  api_key: doc(z.string(), {
    description: 'a full-access API key of the new workspace',
    example: 'sk_sim_0123456789abcdef0123456789abcdef01234567',
  }),
});

const LedgerEntrySchema = named(
  'LedgerEntry',
  () =>
    record({
      at: timestamp(),
      kind: oneOf(
        LEDGER_KINDS,
        "video; line: an AI number's month (or its refund); call, text: use beyond the plan's allowance; quick_call, quick_text: a quick action's fees, minutes and texts; " +
          'email: a quick email; recharge: an auto-recharge top-up (negative: into the wallet); wallet_set: the control plane set the wallet (negative: it added money)',
      ),
      reference_id: doc(
        z.string(),
        "what was paid for: a video id, an AI number's id, a call id, a text id, a quick action's id or a quick email's id; the organization's id for recharge and wallet_set",
      ),
      description: z.string(),
      credits_cents: doc(z.int(), "taken from the plan's video credits"),
      wallet_cents: doc(z.int(), 'taken from the organization wallet (negative: added to it)'),
      credits_after_cents: z.int(),
      wallet_after_cents: z.int(),
    }),
  `A movement of video credits or wallet money: every movement of the wallet is one (the latest ${LEDGER_KEPT} of a workspace are kept).`,
);

export const SimUsageSchema = named('SimUsage', () =>
  record(
    {
      period_start: timestamp(
        "the plan month's start: the workspace's creation day of the month (the last day of a shorter month), at its time of day",
      ),
      period_end: timestamp("the next plan month's start: the allowances start afresh"),
      call_seconds_used: doc(z.int(), {
        description: "seconds of calls on the workspace's numbers this month (quick calls do not count)",
        example: 125,
      }),
      minutes_used: num({ description: 'the same in minutes, to the hundredth', example: 2.08 }),
      minutes_left: num({ description: 'included minutes left, to the hundredth', example: 97.92 }),
      texts_used: doc(z.int(), {
        description: "texts sent from the workspace's numbers this month (quick texts do not count)",
        example: 3,
      }),
      texts_left: doc(z.int(), { description: 'included texts left', example: 97 }),
      calls_paused: doc(
        z.boolean(),
        "no included minutes left and the wallet cannot pay one: calls on the workspace's numbers are not connected",
      ),
      texts_paused: doc(
        z.boolean(),
        "no included texts left and the wallet cannot pay one: the numbers' agents send no texts",
      ),
    },
    "what calls and texts on the workspace's numbers used of the plan this month",
  ),
);

export const SimWorkspaceSchema = named(
  'SimWorkspace',
  () =>
    record({
      id: uuid(),
      name: doc(z.string(), { example: 'Acme' }),
      organization_id: uuid(),
      wallet_usd: num({
        description: 'the organization wallet, which pays for every workspace of the organization',
        example: 50,
      }),
      auto_recharge: record({
        enabled: z.boolean(),
        amount_usd: num({ description: 'added when the wallet falls below the threshold', example: 25 }),
        threshold_usd: num({ example: 5 }),
        card_declined: doc(z.boolean(), 'simulated: every top-up is declined, as if auto-recharge were off'),
      }),
      plan: record({
        content: doc(z.boolean(), 'the plan includes Content (short social videos)'),
        assistant: doc(z.boolean(), 'the plan includes the assistant'),
        video_credits_cents: doc(z.int(), { description: 'video credits left, in cents', example: 2000 }),
        included_minutes: doc(z.int(), {
          description: "minutes of calls on the workspace's numbers included each plan month",
          example: 100,
        }),
        included_texts: doc(z.int(), {
          description: "texts sent from the workspace's numbers included each plan month",
          example: 100,
        }),
        per_minute_usd: num({
          description:
            'each minute beyond the included ones, billed by the second (rounded to the cent per call), from the wallet',
          example: 0.1,
        }),
        per_text_usd: num({ description: 'each text beyond the included ones, from the wallet', example: 0.02 }),
      }),
      usage: SimUsageSchema,
      rate_limits: record({
        quick_emails_per_minute: doc(z.int(), { description: 'simulated limit; 0 turns it off', example: 60 }),
      }),
      recordings_disabled: doc(z.boolean(), 'compliance setting: recording downloads answer 404'),
      time_zone: doc(
        nullable(z.string()),
        'the workspace\'s time zone (IANA): the assistant\'s "today" and "yesterday"; null means UTC',
      ),
      marketing_profile: record({
        business_name: z.string(),
        description: z.string(),
        audience: z.string(),
        tone: z.string(),
        products: z.array(z.string()),
        topics: z.array(z.string()),
        call_to_action: z.string(),
      }),
      ledger: doc(
        z.array(LedgerEntrySchema),
        'the latest 50 movements of video credits and wallet money, newest first (all of them: GET /_sim/ledger)',
      ),
      owner: record({
        name: doc(z.string(), { example: 'Workspace Owner' }),
        email: doc(z.string(), { example: 'owner@acme.example.com' }),
      }),
      created_at: timestamp(),
    }),
  "A workspace as the control plane shows it: its organization's wallet and auto-recharge, its plan, simulated limits and owner.",
);
type SimWorkspace = Infer<typeof SimWorkspaceSchema>;

export const clockView = (c: AnyCtx) => clockOf(c.s, c.world.calendarTimers);

/** The clock as a session sees it; `calendar`, the transitions no job waits on. */
function clockOf(s: Session, calendar: ReadonlySet<string>): Infer<typeof SimClockSchema> {
  const due = nextDue(s);
  const job = nextDue(s, (type) => !calendar.has(type));
  return {
    now: iso(s.now),
    mode: s.data.meta.clock.mode,
    next_due_at: due === null ? null : iso(due),
    next_job_due_at: job === null ? null : iso(job),
  };
}

/**
 * Moves the clock forward to `to` after this request's unit of work, in slices (core/move.ts:
 * other requests are answered between them), and answers the clock where the move left it. A move
 * that would run more than MOVE_WORK_LIMIT transitions is refused first, on `field`. One stopped
 * before `to` (its client gone, the server closing) is no success: 503 with where the clock stands.
 */
function moveTo(c: AnyCtx, to: number, field: string): Reply {
  if (to <= c.s.now) return { body: clockView(c) };
  refuseLargeMove(c.s, to, c.world, field);
  const from = c.s.now;
  const calendar = c.world.calendarTimers;
  return {
    after: async (t) => {
      const moved = await t.move(from, to, c.signal);
      if (moved.stopped === 'aborted')
        throw new ApiError(
          503,
          'store_busy',
          `The move of the clock to ${iso(to)} stopped (its client went away or the simulator is stopping); the clock stands at ${iso(moved.now)}, every transition due by then run.`,
          undefined,
          { now: iso(moved.now) },
        );
      return { body: await t.transaction((s) => clockOf(s, calendar)) };
    },
  };
}

/** What a move's description adds: slices, what others see meanwhile, the limit. */
const MOVE_TERMS =
  ` The move runs in slices of about ${SLICE_MS} ms of work, each saved as it ends: requests meanwhile are answered, and see the world as of the last slice, its clock at that time. ` +
  'A client that goes away (or a server that stops) ends the move after the slice under way, the clock left where that slice ended. ' +
  `A move that would run more than ${MOVE_WORK_LIMIT.toLocaleString('en-US')} transitions (an estimate: what is scheduled by then, video schedules' days, AI numbers' months) is refused (400) with a step that fits (\`vmv sim serve --move-limit\` sets another limit); ` +
  'a reset during the move stops it (409).';

/** Minutes to the hundredth, from seconds. */
const minutes = (seconds: number) => Math.round((seconds / 60) * 100) / 100;

export function usageView(c: AnyCtx): SimWorkspace['usage'] {
  const w = c.auth.workspace;
  const u = usageAt(w, c.s.now);
  return {
    period_start: iso(u.start),
    period_end: iso(u.end),
    call_seconds_used: u.call_seconds,
    minutes_used: minutes(u.call_seconds),
    minutes_left: minutes(allowanceLeft(w, c.s.now, 'call')),
    texts_used: u.texts,
    texts_left: allowanceLeft(w, c.s.now, 'text'),
    calls_paused: !mayUse(c.s, w, 'call'),
    texts_paused: !mayUse(c.s, w, 'text'),
  };
}

const presentEntry = ({ seq: _s, workspace_id: _w, ...e }: LedgerEntry): Infer<typeof LedgerEntrySchema> => e;

function workspaceView(c: AnyCtx): SimWorkspace {
  const { workspace: w, org, user } = c.auth;
  const { minute_cents, text_cents, ...plan } = w.plan;
  return {
    id: w.id,
    name: w.name,
    organization_id: org.id,
    wallet_usd: usd(org.wallet_cents),
    auto_recharge: {
      enabled: org.auto_recharge.enabled,
      amount_usd: usd(org.auto_recharge.amount_cents),
      threshold_usd: usd(org.auto_recharge.threshold_cents),
      card_declined: org.auto_recharge.card_declined,
    },
    plan: { ...plan, per_minute_usd: usd(minute_cents), per_text_usd: usd(text_cents) },
    usage: usageView(c),
    rate_limits: { ...w.rate_limits },
    recordings_disabled: w.recordings_disabled,
    time_zone: w.time_zone,
    marketing_profile: clone(w.marketing_profile),
    ledger: c.data.ledger
      .filter((e) => e.workspace_id === w.id)
      .slice(-50)
      .reverse()
      .map(presentEntry),
    owner: { name: user.name, email: user.email },
    created_at: w.created_at,
  };
}

const presentSuppression = (s: Suppression): Infer<typeof SuppressionSchema> => ({
  email: s.email,
  reason: s.reason,
  created_at: s.created_at,
});

// ---- what the control plane accepts ----

const ResetBody = obj({
  clock: oneOf(CLOCK_MODES, 'how the fresh clock runs (default: as before)'),
  now: doc(isoTime(), "the fresh clock's time, even earlier than now (default: the current time)"),
  seed: int({
    min: 0,
    max: 2 ** 32 - 1,
    description: 'the random seed of the fresh state (default: the current seed)',
    example: 1,
  }),
});

const ClockBody = obj({
  mode: oneOf(CLOCK_MODES, 'how the clock runs from now on'),
  now: doc(
    isoTime(),
    "move the clock forward to this time, running every transition due by then; a time before the clock's is refused (400), unless `at_least`",
  ),
  at_least: bool(
    "`now` is the least time wanted: a clock already there or past it stays where it is, and the request succeeds (false, the default: a `now` before the clock's time is a mistake, refused). " +
      'For clients that each drive one manual clock to the next step they wait for (`vmv … --wait --advance` run in parallel), where another may have moved it further meanwhile. Only with `now`',
  ),
});

const AdvanceBody = obj(
  {
    seconds: num({ min: 0, max: 10 * 366 * 86400, description: 'how far to move the clock', example: 90 }),
  },
  { required: ['seconds'] },
);

const ApiKeyBody = obj({
  scopes: arr(oneOf(SCOPES), {
    max: SCOPES.length,
    description: 'the scopes of a restricted key; none or empty: full access',
    example: ['calls:read'],
  }),
  workspace_id: str({
    min: 1,
    max: 36,
    description: "the workspace (default: the key's, or the seeded one)",
    example: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
  }),
});

const WorkspaceBody = obj({
  name: str({ min: 1, max: 100, description: 'default "Workspace <n>"', example: 'Other' }),
});

/** An amount in USD from `min` to `max` that is a whole number of cents (money is integer cents inside): never rounded silently. */
const wholeCents = (min: number, max: number, d: { description?: string; example: number }) =>
  doc(
    z.number().check(
      z.gte(min),
      z.lte(max),
      z.refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, {
        error: 'must be a whole number of cents, such as 0.05',
      }),
    ),
    d,
  );

const AutoRechargeBody = obj({
  enabled: bool(),
  amount_usd: wholeCents(0.01, 100_000, { example: 25 }),
  threshold_usd: wholeCents(0, 100_000, { example: 5 }),
  card_declined: bool(
    'simulate a declined card: every top-up fails, as if auto-recharge were off (false: the card works again)',
  ),
});

const WorkspacePatch = obj({
  name: str({ min: 1, max: 100, example: 'Acme' }),
  wallet_usd: wholeCents(0, 1_000_000, { description: 'set the organization wallet', example: 50 }),
  auto_recharge: doc(
    z.union([bool(), AutoRechargeBody], {
      error: (iss) => `must be true or false, or a JSON object, got ${typeName(iss.input)}`,
    }),
    'true or false turns it on or off; an object also sets the amount and threshold',
  ),
  plan: obj({
    content: bool(),
    assistant: bool(),
    video_credits_cents: int({ min: 0, example: 2000 }),
    included_minutes: int({
      min: 0,
      max: 1_000_000,
      description: 'minutes of calls included each plan month',
      example: 100,
    }),
    included_texts: int({ min: 0, max: 1_000_000, description: 'texts included each plan month', example: 100 }),
    per_minute_usd: wholeCents(0, 100, {
      description: 'price of a minute beyond the included ones (0 to 100)',
      example: 0.1,
    }),
    per_text_usd: wholeCents(0, 100, {
      description: 'price of a text beyond the included ones (0 to 100)',
      example: 0.02,
    }),
  }),
  rate_limits: obj({
    quick_emails_per_minute: int({ min: 0, max: 100_000, description: '0 turns the limit off', example: 60 }),
  }),
  recordings_disabled: bool('refuse recording downloads (compliance)'),
  time_zone: nullable(
    str({ min: 1, max: 64, description: 'an IANA time zone name (null: UTC)', example: 'America/New_York' }).check(
      z.refine((v) => canonicalZone(v) !== null, {
        error: 'is not an IANA time zone name such as America/New_York or UTC',
      }),
    ),
  ),
  marketing_profile: obj(
    {
      business_name: str({ min: 1, max: 200, example: 'Acme Coffee' }),
      description: str({
        min: 1,
        max: 1000,
        description: 'what the business is, as a phrase after "<business_name> is"',
        example: 'a neighbourhood espresso bar',
      }),
      audience: str({ min: 1, max: 500, example: 'busy commuters' }),
      tone: str({ min: 1, max: 100, example: 'friendly' }),
      products: arr(str({ min: 1, max: 200 }), { max: 50, example: ['cold brew'] }),
      topics: arr(str({ min: 1, max: 200 }), { max: 50, example: ['brewing better coffee at home'] }),
      call_to_action: str({ min: 1, max: 300, example: 'Visit us on Main Street' }),
    },
    { description: 'what the AI director of video schedules reads; the fields sent replace those fields' },
  ),
});

/** A contact's fields as the API takes them, with their limits: the fixture's body, and what an imported world's contacts are checked against (import-check.ts). */
export const contactFields = () => ({
  name: str({ min: 1, max: 200, example: 'Maria Gonzalez' }),
  first_name: nullable(str({ max: 100, example: 'Maria' })),
  last_name: nullable(str({ max: 100, example: 'Gonzalez' })),
  email: nullable(email()),
  phone_number: nullable(e164()),
  company: nullable(str({ max: 200 })),
  job_title: nullable(str({ max: 200 })),
  location: nullable(str({ max: 200 })),
  preferred_language: nullable(str({ max: 50 })),
  notes: nullable(str({ max: 5000 })),
  tags: arr(str({ min: 1, max: 100 }), { max: 100, example: ['vip'] }),
  custom_fields: freeInput({ description: 'JSON values by name', example: { plan: 'gold' } }),
});

const ContactBody = named('ContactFixture', () => obj(contactFields(), { required: ['name'] }), 'A contact to add.');

const DIRECTIONS = ['inbound', 'outbound'] as const;
/** Upper-case, as in records: the call list's filter values in their order, then NO_ANSWER (no filter value). */
const FIXTURE_CALL_STATUSES = [...CALL_STATUS_FILTERS.map((x) => x.toUpperCase()), 'NO_ANSWER'] as unknown as readonly [
  CallStatus,
  ...CallStatus[],
];

const Turn = obj(
  {
    speaker: oneOf(['agent', 'person'] as const),
    text: str({ max: 10_000, example: 'Hi, this is the assistant from Acme.' }),
    seconds_from_start: nullable(num({ min: 0 })),
  },
  { required: ['speaker', 'text'] },
);

const CallFixture = named(
  'CallFixture',
  () =>
    obj(
      {
        direction: oneOf(DIRECTIONS),
        status: oneOf(FIXTURE_CALL_STATUSES, 'default COMPLETED'),
        from_number: e164(),
        to_number: e164(),
        duration_seconds: nullable(int({ min: 0, example: 95 })),
        summary: str({ max: 10_000 }),
        transcript_turns: arr(Turn, { max: 1000 }),
        tags: arr(oneOf(CALL_TAGS), { max: CALL_TAGS.length, unique: true }),
        has_recording: bool(),
        created_at: doc(isoTime(), "when it happened; not in the simulator's future (default: now)"),
      },
      { required: ['direction', 'from_number', 'to_number'] },
    ),
  'A call record to add.',
);

const TextFixture = named(
  'TextFixture',
  () =>
    obj(
      {
        direction: oneOf(DIRECTIONS),
        sender: oneOf(
          ['contact', 'ai_agent', 'business'] as const,
          'default contact for inbound, business for outbound',
        ),
        from_number: e164(),
        to_number: e164(),
        body: str({ min: 1, max: 2000, example: 'Does Tuesday at 10 work for you?' }),
        created_at: doc(isoTime(), "when it happened; not in the simulator's future (default: now)"),
      },
      { required: ['direction', 'from_number', 'to_number', 'body'] },
    ),
  'A text record to add.',
);

const EmailFixture = named(
  'EmailFixture',
  () =>
    obj(
      {
        direction: oneOf(DIRECTIONS),
        from_address: email(),
        to: email(),
        subject: str({ max: 200, example: 'Your invoice' }),
        body: str({ max: 20_000 }),
        created_at: doc(isoTime(), "when it happened; not in the simulator's future (default: now)"),
      },
      { required: ['direction', 'from_address', 'to'] },
    ),
  'An email record to add.',
);

/** A fixture's time: given, or now; never in the simulator's future. */
/** A fixture's created_at: the one sent (history as it was), else now as a record made now gets it (newRecordTime). */
function fixtureTime(c: AnyCtx, at: string | undefined, unit: 'calls' | 'texts' | 'emails'): string {
  if (at !== undefined && Date.parse(at) > c.s.now)
    throw validationError({ created_at: "must not be in the simulator's future" });
  return at ?? newRecordTime(c.data, unit, c.auth.workspace.id, c.s.now);
}

const transcriptOf = (turns: { speaker: string; text: string }[]) =>
  turns.map((t) => `${t.speaker === 'agent' ? 'AI' : 'User'}: ${t.text}`).join('\n');

const FIXTURE_NOTE =
  'A history fixture: a record as if it had happened (quick actions and the inbound helpers make real ones). ' +
  "The contact is the workspace contact with the other party's number or address, if any.";

const BULK_NOTE =
  `The body may also be a JSON array of up to ${BULK_MAX_ITEMS.toLocaleString('en-US')} of them (bulk seeding; bodies up to ${BULK_MAX_BODY_BYTES / 1024 / 1024} MiB), ` +
  'added in order as one transaction: each item is checked as it would be alone, and when any is refused one error names every refused item by its index (`[3].to`) and nothing is added.';

const BulkAdded = record({
  count: doc(z.int(), { description: 'how many were added', example: 2 }),
  ids: doc(z.array(z.string()), {
    description: 'their ids, in the order sent',
    example: ['3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90', '9b1d4e77-2c3a-4f5e-8d6c-1a2b3c4d5e6f'],
  }),
});

/** The 201 of a route that adds one fixture (its record) or an array of them (how many, and their ids). */
const added = (item: z.ZodMiniType) => ({
  201: {
    description: 'Added: one item answers its record; an array answers how many were added and their ids',
    schema: z.xor([dataOf(item), BulkAdded]),
  },
});

/**
 * Adds one fixture, or each of an array of them in order (a later item sees the earlier ones).
 * An item is refused as it would be alone; then every refused item's fields are answered in one
 * error, keyed by its index (`[3].created_at`), and the request's transaction adds nothing.
 */
function addFixtures<B, R extends { id: string }>(
  body: B | B[],
  add: (item: B) => R,
  present: (rec: R) => unknown,
): Reply {
  if (!Array.isArray(body)) return { status: 201, body: { data: present(add(body)) } };
  const ids: string[] = [];
  const fields = newFields();
  let first: ApiError | null = null;
  let refused = 0;
  for (const [i, item] of body.entries()) {
    try {
      ids.push(add(item).id);
    } catch (e) {
      if (!(e instanceof ApiError) || !e.fields) throw e;
      first ??= e;
      refused++;
      for (const [k, why] of Object.entries(e.fields)) fields[`[${i}].${k}`] = why;
    }
  }
  if (first)
    throw new ApiError(
      first.status,
      first.code,
      `${refused} of the ${body.length} items cannot be added (the fields name them by index); nothing was added.`,
      fields,
    );
  return { status: 201, body: { count: ids.length, ids } satisfies Infer<typeof BulkAdded> };
}

const routes = [
  route({
    method: 'GET',
    path: '/_sim/health',
    summary: 'Check the simulator is up',
    responses: { 200: { description: 'Up', schema: Health } },
    handler: (c) => ({ body: { ok: true, now: iso(c.s.now) } }),
  }),

  route({
    method: 'POST',
    path: '/_sim/reset',
    summary: 'Reset to the seeded state',
    description:
      'Replaces everything with a freshly seeded state (one organization with a 50.00 USD wallet, one workspace, one full-access key) ' +
      'and answers its key. The clock may start afresh at any time, even an earlier one: nothing is left to contradict it.',
    body: ResetBody,
    responses: { 200: { description: 'Reset', schema: ResetResult } },
    handler: (c) => {
      const b = c.body;
      const current = c.data.meta.clock;
      const clock =
        b.clock !== undefined || b.now !== undefined
          ? setMode(current, b.clock ?? current.mode, b.now !== undefined ? Date.parse(b.now) : c.s.now)
          : current;
      const fresh = c.world.seed({ seed: b.seed ?? c.data.meta.seed, clock });
      Object.assign(c.data, fresh);
      c.s.markDirty();
      return {
        body: {
          api_key: fresh.meta.default_api_key,
          workspace_id: fresh.meta.default_workspace_id,
          now: iso(clockNow(clock)),
        },
      };
    },
  }),

  route({
    method: 'GET',
    path: '/_sim/clock',
    summary: 'Show the clock',
    responses: { 200: { description: 'The clock', schema: SimClockSchema } },
    handler: (c) => ({ body: clockView(c) }),
  }),
  route({
    method: 'POST',
    path: '/_sim/clock',
    summary: "Set the clock's mode, or move it forward to a time",
    description:
      'Moving forward runs every transition due by the new time, in time order, before the reply. The clock never moves backwards (reset can): ' +
      "a `now` before the clock's time is refused, or with `at_least` leaves the clock where it is." +
      MOVE_TERMS,
    body: ClockBody,
    responses: { 200: { description: 'The clock', schema: SimClockSchema } },
    errors: { 409: ['conflict'] },
    handler: (c) => {
      const b = c.body;
      if (b.at_least && b.now === undefined)
        throw validationError({ at_least: 'goes with now: the least time wanted' });
      const asked = b.now !== undefined ? Date.parse(b.now) : c.s.now;
      if (asked < c.s.now && !b.at_least) throw validationError({ now: 'cannot move the clock backwards' });
      c.data.meta.clock = setMode(c.data.meta.clock, b.mode ?? c.data.meta.clock.mode, c.s.now);
      c.s.markDirty();
      return moveTo(c, Math.max(asked, c.s.now), 'now');
    },
  }),
  route({
    method: 'POST',
    path: '/_sim/clock/advance',
    summary: 'Advance the clock',
    description:
      'Runs every transition due in the next `seconds`, in time order, and every webhook delivery that falls due, before the reply.' +
      MOVE_TERMS,
    body: AdvanceBody,
    responses: { 200: { description: 'The clock', schema: SimClockSchema } },
    errors: { 409: ['conflict'] },
    handler: (c) => moveTo(c, c.s.now + Math.round(c.body.seconds * 1000), 'seconds'),
  }),

  route({
    method: 'POST',
    path: '/_sim/api-keys',
    summary: 'Mint an API key',
    description:
      'A full-access key, or one limited to `scopes`, of the workspace `workspace_id`. A key sent with the request may only mint keys of its own workspace.',
    body: ApiKeyBody,
    responses: { 201: { description: 'Minted', schema: NewApiKey } },
    errors: { 403: ['forbidden'], 404: ['not_found'] },
    handler: (c) => {
      const b = c.body;
      const ws = b.workspace_id ?? c.auth.workspace.id;
      if (c.auth.key && ws !== c.auth.key.workspace_id)
        throw new ApiError(
          403,
          'forbidden',
          "An API key of one workspace cannot mint keys for another; send no key, or that workspace's key.",
        );
      const workspace = c.data.workspaces.find((w) => w.id === ws);
      if (!workspace) throw notFound(`No workspace ${ws}.`);
      const user = c.data.users.find((u) => u.organization_id === workspace.organization_id)!;
      const scopes = b.scopes && b.scopes.length > 0 ? [...new Set(b.scopes)] : null;
      const key = addApiKey(c.data, c.s.rng, c.s.now, workspace.id, user.id, scopes);
      return { status: 201, body: { key, workspace_id: workspace.id, scopes } satisfies Infer<typeof NewApiKey> };
    },
  }),
  route({
    method: 'GET',
    path: '/_sim/api-keys/current',
    summary: 'Show the key sent',
    description:
      "The workspace and scopes of the API key sent (none sent: the seeded workspace, full access); `vmv mcp` lists only the tools a key's scopes allow.",
    responses: { 200: { description: 'The key', schema: CurrentApiKey } },
    handler: (c) => ({
      body: {
        workspace_id: c.auth.workspace.id,
        scopes: c.auth.key?.scopes ?? null,
      } satisfies Infer<typeof CurrentApiKey>,
    }),
  }),
  route({
    method: 'POST',
    path: '/_sim/workspaces',
    summary: 'Add a workspace',
    description: 'A workspace of a new organization (its own 50.00 USD wallet) with its owner and a full-access key.',
    body: WorkspaceBody,
    responses: { 201: { description: 'Added', schema: NewWorkspace } },
    handler: (c) => {
      const { workspace, key } = c.world.addWorkspace(c.s, c.body.name ?? `Workspace ${c.data.workspaces.length + 1}`);
      return { status: 201, body: { workspace_id: workspace.id, api_key: key } satisfies Infer<typeof NewWorkspace> };
    },
  }),
  route({
    method: 'GET',
    path: '/_sim/workspace',
    summary: 'Show the workspace',
    description:
      "The workspace of the key sent (or the seeded one): its organization's wallet and auto-recharge, plan and its rates, this month's usage, the ledger, simulated limits and owner.",
    responses: { 200: { description: 'The workspace', schema: SimWorkspaceSchema } },
    handler: (c) => ({ body: workspaceView(c) }),
  }),
  route({
    method: 'GET',
    path: '/_sim/ledger',
    summary: "List the workspace's ledger",
    description:
      `Every movement of the workspace's video credits and wallet money kept (the latest ${LEDGER_KEPT}; older ones are dropped), newest first: ` +
      'charges, refunds, auto-recharge top-ups and the wallet set through PATCH /_sim/workspace.',
    query: obj({ ...listParams(100, 50) }),
    responses: { 200: { description: 'Ledger entries', schema: listOf(LedgerEntrySchema) } },
    handler: (c) => {
      const ws = c.auth.workspace.id;
      const items = c.data.ledger.filter((e) => e.workspace_id === ws);
      return {
        body: paginate(c.s, items, c.query, {
          key: (e) => e.seq,
          tie: (e) => e.seq,
          scope: `ledger:${ws}`,
          present: presentEntry,
          defaultLimit: 50,
          totalResults: true,
        }),
      };
    },
  }),
  route({
    method: 'PATCH',
    path: '/_sim/workspace',
    summary: 'Change the workspace, its wallet or plan',
    description:
      'Sets what is sent: the name, the organization wallet and auto-recharge (card_declined simulates a failing top-up), plan features, credits and rates, ' +
      'simulated rate limits, compliance settings. Setting the wallet or auto-recharge retries the month owed by every suspended AI number of the organization, oldest first: ' +
      'each one paid resumes. Every problem of the body is reported in one 400.',
    body: WorkspacePatch,
    responses: { 200: { description: 'The workspace', schema: SimWorkspaceSchema } },
    handler: (c) => {
      const b = c.body;
      const { workspace: w, org } = c.auth;
      if (b.name !== undefined) w.name = b.name;
      if (b.wallet_usd !== undefined) setWallet(c.s, w.id, cents(b.wallet_usd));
      const ar = typeof b.auto_recharge === 'boolean' ? { enabled: b.auto_recharge } : b.auto_recharge;
      if (ar?.enabled !== undefined) org.auto_recharge.enabled = ar.enabled;
      if (ar?.amount_usd !== undefined) org.auto_recharge.amount_cents = cents(ar.amount_usd);
      if (ar?.threshold_usd !== undefined) org.auto_recharge.threshold_cents = cents(ar.threshold_usd);
      if (ar?.card_declined !== undefined) org.auto_recharge.card_declined = ar.card_declined;
      if (b.plan) {
        const { per_minute_usd, per_text_usd, ...plan } = b.plan;
        w.plan = { ...w.plan, ...plan };
        if (per_minute_usd !== undefined) w.plan.minute_cents = cents(per_minute_usd);
        if (per_text_usd !== undefined) w.plan.text_cents = cents(per_text_usd);
      }
      if (b.rate_limits) w.rate_limits = { ...w.rate_limits, ...b.rate_limits };
      if (b.recordings_disabled !== undefined) w.recordings_disabled = b.recordings_disabled;
      if (b.time_zone !== undefined) w.time_zone = b.time_zone === null ? null : canonicalZone(b.time_zone);
      if (b.marketing_profile) w.marketing_profile = { ...w.marketing_profile, ...b.marketing_profile };
      // money may have come: suspended AI number lines pay the month they owe and resume
      if (b.wallet_usd !== undefined || ar) settleLines(c.s, org.id);
      return { body: workspaceView(c) };
    },
  }),

  route({
    method: 'POST',
    path: '/_sim/contacts',
    summary: 'Add a contact, or many',
    description:
      'A workspace contact (the API cannot create contacts). First and last name are taken from `name` unless given. ' +
      `Phone numbers and email addresses (any letter case) are unique within a workspace. ${BULK_NOTE}`,
    body: oneOrMany(ContactBody),
    responses: added(ContactSchema),
    errors: { 409: ['conflict'] },
    handler: (c) => {
      const ws = c.auth.workspace.id;
      return addFixtures(
        c.body,
        (b) => {
          if (b.phone_number && contactByPhone(c.data, ws, b.phone_number))
            throw new ApiError(409, 'conflict', 'A contact already has this phone number.', {
              phone_number: "is already a contact's number",
            });
          if (b.email && contactByEmail(c.data, ws, b.email))
            throw new ApiError(409, 'conflict', 'A contact already has this email address.', {
              email: "is already a contact's address",
            });
          const contact = newContact(c.s.rng, ws, c.s.now, b);
          for (const k of ['company', 'job_title', 'location', 'preferred_language', 'notes'] as const)
            if (b[k] !== undefined) contact[k] = b[k];
          if (b.tags) contact.tags = b.tags;
          if (b.custom_fields) contact.custom_fields = b.custom_fields;
          c.data.contacts.push(contact);
          return contact;
        },
        presentContact,
      );
    },
  }),
  route({
    method: 'POST',
    path: '/_sim/suppressions',
    summary: 'Suppress an email address',
    description:
      'Quick email skips the address (any letter case) and does not charge for it. An address already suppressed answers 200 with its entry unchanged.',
    body: obj({ email: email(), reason: oneOf(SUPPRESSION_REASONS, 'default unsubscribe') }, { required: ['email'] }),
    responses: {
      200: { description: 'Already suppressed', schema: dataOf(SuppressionSchema) },
      201: { description: 'Suppressed', schema: dataOf(SuppressionSchema) },
    },
    handler: (c) => {
      const b = c.body;
      const ws = c.auth.workspace.id;
      const existing = c.data.suppressions.find(
        (x) => x.workspace_id === ws && x.email.toLowerCase() === b.email.toLowerCase(),
      );
      const entry = existing ?? {
        workspace_id: ws,
        email: b.email,
        reason: b.reason ?? 'unsubscribe',
        created_at: iso(c.s.now),
      };
      if (!existing) c.data.suppressions.push(entry);
      return { status: existing ? 200 : 201, body: { data: presentSuppression(entry) } };
    },
  }),

  // history fixtures: records as if a call, text or email had happened (quick actions make real ones)
  route({
    method: 'POST',
    path: '/_sim/calls',
    summary: 'Add a call record, or many',
    description: `${FIXTURE_NOTE} The transcript is built from \`transcript_turns\`; a duration sets ended_at. ${BULK_NOTE}`,
    body: oneOrMany(CallFixture),
    responses: added(CallRecordSchema),
    handler: (c) =>
      addFixtures(
        c.body,
        (b) => {
          const ws = c.auth.workspace.id;
          const other = b.direction === 'outbound' ? b.to_number : b.from_number;
          const turns = b.transcript_turns ?? [];
          const created = fixtureTime(c, b.created_at, 'calls');
          const rec: CallRecord = {
            id: c.s.rng.uuid(),
            seq: c.s.nextSeq(),
            workspace_id: ws,
            direction: b.direction,
            status: b.status ?? 'COMPLETED',
            from_number: b.from_number,
            to_number: b.to_number,
            contact_id: contactByPhone(c.data, ws, other)?.id ?? null,
            phone_number_id: null,
            duration_seconds: b.duration_seconds ?? null,
            summary: b.summary ?? '',
            transcript: transcriptOf(turns),
            transcript_turns: turns.map((t) => ({
              seconds_from_start: t.seconds_from_start ?? null,
              speaker: t.speaker,
              text: t.text,
            })),
            tags: b.tags ?? [],
            has_recording: b.has_recording ?? false,
            end_reason: null,
            started_at: created,
            ended_at: b.duration_seconds != null ? iso(Date.parse(created) + b.duration_seconds * 1000) : null,
            created_at: created,
          };
          c.data.calls.push(rec);
          return rec;
        },
        presentCall,
      ),
  }),
  route({
    method: 'POST',
    path: '/_sim/texts',
    summary: 'Add a text record, or many',
    description: `${FIXTURE_NOTE} A text from or to one of the workspace's numbers belongs to that number. ${BULK_NOTE}`,
    body: oneOrMany(TextFixture),
    responses: added(TextRecordSchema),
    handler: (c) =>
      addFixtures(
        c.body,
        (b) => {
          const ws = c.auth.workspace.id;
          const other = b.direction === 'outbound' ? b.to_number : b.from_number;
          const rec: TextRecord = {
            id: c.s.rng.uuid(),
            seq: c.s.nextSeq(),
            workspace_id: ws,
            direction: b.direction,
            sender: b.sender ?? (b.direction === 'inbound' ? 'contact' : 'business'),
            from_number: b.from_number,
            to_number: b.to_number,
            body: b.body,
            status: b.direction === 'inbound' ? 'received' : 'delivered',
            contact_id: contactByPhone(c.data, ws, other)?.id ?? null,
            quick_action_id: null,
            created_at: fixtureTime(c, b.created_at, 'texts'),
            // a text from or to one of the workspace's numbers belongs to that number
            phone_number_id:
              c.data.phone_numbers.find(
                (n) =>
                  n.workspace_id === ws &&
                  n.phone_number === (b.direction === 'outbound' ? b.from_number : b.to_number),
              )?.id ?? null,
          };
          c.data.texts.push(rec);
          return rec;
        },
        presentText,
      ),
  }),
  route({
    method: 'POST',
    path: '/_sim/emails',
    summary: 'Add an email record, or many',
    description: `${FIXTURE_NOTE} ${BULK_NOTE}`,
    body: oneOrMany(EmailFixture),
    responses: added(EmailRecordSchema),
    handler: (c) =>
      addFixtures(
        c.body,
        (b) => {
          const ws = c.auth.workspace.id;
          const other = b.direction === 'outbound' ? b.to : b.from_address;
          const rec: EmailRecord = {
            id: c.s.rng.uuid(),
            seq: c.s.nextSeq(),
            workspace_id: ws,
            direction: b.direction,
            source: 'inbox',
            status: b.direction === 'inbound' ? 'received' : 'sent',
            from: b.from_address,
            from_address: b.from_address,
            to: b.to,
            reply_to: null,
            subject: b.subject ?? '',
            body: b.body ?? '',
            contact_id: contactByEmail(c.data, ws, other)?.id ?? null,
            quick_email_id: null,
            created_at: fixtureTime(c, b.created_at, 'emails'),
          };
          c.data.emails.push(rec);
          return rec;
        },
        presentEmail,
      ),
  }),

  route({
    method: 'GET',
    path: '/_sim/audit-log',
    summary: "Show the workspace's audit log",
    description: "What was done with the workspace's sensitive data (recording downloads), oldest first.",
    responses: { 200: { description: 'The audit log', schema: z.strictObject({ data: z.array(AuditEntrySchema) }) } },
    handler: (c) => {
      const { workspace } = c.auth;
      const data: Infer<typeof AuditEntrySchema>[] = c.data.audit_log
        .filter((a) => a.workspace_id === workspace.id)
        .map(({ workspace_id: _w, ...a }) => a);
      return { body: { data } };
    },
  }),
];

export const control: Resource = {
  tag: {
    name: 'Simulator',
    description:
      'Health, reset and the clock; API keys and workspaces; the wallet and plan; contacts, suppressions and history fixtures.',
  },
  routes,
};
