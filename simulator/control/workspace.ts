// The control plane's view of a workspace (/_sim/workspace, /_sim/ledger, /_sim/audit-log): its
// organization's wallet and auto-recharge, its plan, rates and this month's usage, simulated limits,
// the ledger of money and credits, and the audit log; and the PATCH that sets any of them.
import * as z from 'zod/mini';
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
import { iso } from '../core/clock.js';
import { route, type Ctx } from '../core/http.js';
import { paginate, listParams } from '../core/pagination.js';
import {
  arr,
  bool,
  doc,
  int,
  listOf,
  named,
  nullable,
  num,
  obj,
  oneOf,
  record,
  str,
  timestamp,
  uuid,
  type Infer,
} from '../core/schema.js';
import { typeName } from '../core/check.js';
import { AuditEntrySchema } from '../history/index.js';
import { settleLines } from '../numbers/index.js';
import { clone } from '../store/tracker.js';
import { canonicalZone } from '../../src/formats.js';

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

/** Minutes to the hundredth, from seconds. */
const minutes = (seconds: number) => Math.round((seconds / 60) * 100) / 100;

export function usageView(c: Ctx<any, any, any>): SimWorkspace['usage'] {
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

function workspaceView(c: Ctx<any, any, any>): SimWorkspace {
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

/** The workspace shown and changed, and its ledger. */
export const workspaceRoutes = [
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
];

/** The workspace's audit log. */
export const auditRoutes = [
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
