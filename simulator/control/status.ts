// Where things stand (/_sim/status): the workspace, its wallet and plan usage, the clock with the
// next thing due named in words, and counts of what is in flight. One request answers `vmv status`
// and the inspector's header, instead of five.
import * as z from 'zod/mini';
import { usd } from '../billing/index.js';
import { liveCallCount } from '../history/index.js';
import { iso } from '../core/clock.js';
import { route, type Ctx, type Resource } from '../core/http.js';
import { doc, nullable, record, timestamp, uuid, type Infer } from '../core/schema.js';
import { clockView, SimClockSchema } from './clock.js';
import { SimUsageSchema, usageView } from './workspace.js';

/** A transition type in a person's words: what happens when it falls due. */
const DUE_WORDS: Record<string, string> = {
  'assistant.think': 'the assistant thinks',
  'assistant.act': 'the assistant acts',
  'call.answer': 'a call is answered',
  'call.finish': 'a call ends',
  'call.review': "a call's AI review",
  'call.recording_expired': "a call's recording reaches the end of its retention",
  'number.sms_reply': "a number's agent replies to a text",
  'ainumber.wire': 'an AI number is wired',
  'ainumber.line': "an AI number's monthly line charge",
  'qcall.retry': 'a quick call retries',
  'qcall.answer': 'a quick call is answered',
  'qcall.hangup': 'a quick call hangs up',
  'qcall.unanswered': 'a quick call rings out',
  'qcall.voicemail': 'a quick call reaches voicemail',
  'qcall.voicemail_left': 'a quick call leaves its voicemail',
  'qcall.failed': 'a quick call fails',
  'qcall.review': "a quick call's AI review",
  'qtext.scripted': 'a quick text thread gets a reply',
  'qtext.agent': "a quick text's AI agent replies",
  'qtext.timeout': 'a quick text thread times out',
  'schedule.plan': 'a video schedule plans its videos',
  'schedule.post': 'a video schedule posts',
  'video.stage': 'a video moves to its next stage',
  'post.publish': 'a post is published',
};

const VIDEO_DONE = new Set(['ready', 'failed']);

const count = (d: string) => doc(z.int(), d);

export const SimStatusSchema = record({
  workspace: record({ id: uuid(), name: doc(z.string(), { example: 'Acme' }) }),
  wallet_usd: doc(z.number(), { description: 'the organization wallet', example: 50 }),
  auto_recharge: doc(z.boolean(), 'auto-recharge is on (and its card not declined)'),
  plan: record({
    content: z.boolean(),
    assistant: z.boolean(),
    video_credits_cents: doc(z.int(), { description: 'video credits left, in cents', example: 2000 }),
  }),
  usage: SimUsageSchema,
  clock: SimClockSchema,
  next_due: doc(
    nullable(
      record({
        at: timestamp(),
        type: doc(z.string(), { description: 'the transition', example: 'qcall.answer' }),
        what: doc(z.string(), { description: 'what happens then, in words', example: 'a quick call is answered' }),
      }),
    ),
    'the next transition of the world, whatever its workspace; null when nothing is scheduled',
  ),
  in_flight: record(
    {
      quick_jobs: count('quick AI call and text jobs still running'),
      calls: count('calls queued, ringing or in progress'),
      videos: count('videos in their pipeline (not ready or failed)'),
      posts_scheduled: count('posts waiting to be published'),
      conversations: count('assistant conversations working or awaiting approval'),
      numbers_provisioning: count('numbers being wired'),
      webhook_retries: count('webhook deliveries waiting for their next attempt'),
    },
    "what is under way in the workspace: each moves on as the simulator's clock does",
  ),
});

function nextDue(c: Ctx<any, any, any>): Infer<typeof SimStatusSchema>['next_due'] {
  let next: { at_ms: number; seq: number; type: string } | null = null;
  for (const t of c.data.timers)
    if (!next || t.at_ms < next.at_ms || (t.at_ms === next.at_ms && t.seq < next.seq)) next = t;
  if (!next) return null;
  return { at: iso(next.at_ms), type: next.type, what: DUE_WORDS[next.type] ?? next.type };
}

function inFlight(c: Ctx<any, any, any>): Infer<typeof SimStatusSchema>['in_flight'] {
  const ws = c.auth.workspace.id;
  const mine = <T extends { workspace_id: string }>(rows: readonly T[], live: (r: T) => boolean) =>
    rows.reduce((n, r) => n + (r.workspace_id === ws && live(r) ? 1 : 0), 0);
  return {
    quick_jobs: mine(c.data.quick_jobs, (j) => j.status === 'running'),
    calls: liveCallCount(c.data, ws), // (an index: the calls are the largest collection, parsed only when used)
    videos: mine(c.data.videos, (v) => !VIDEO_DONE.has(v.status)),
    posts_scheduled: mine(c.data.posts, (p) => p.status === 'scheduled'),
    conversations: mine(
      c.data.assistant_conversations,
      (a) => a.status === 'working' || a.status === 'awaiting_approval',
    ),
    numbers_provisioning: mine(c.data.phone_numbers, (n) => n.status === 'provisioning'),
    webhook_retries: mine(c.data.webhook_outbox, () => true),
  };
}

export const controlStatus: Resource = {
  tag: {
    name: 'Status',
    description: 'Where things stand: the workspace, its money, the clock and what is in flight.',
  },
  routes: [
    route({
      method: 'GET',
      path: '/_sim/status',
      summary: 'Show where things stand',
      description:
        "The workspace of the key sent (or the seeded one): its organization's wallet, its plan and this month's usage, the clock with the next " +
        'transition due (in words), and counts of what is in flight. What `vmv status` shows.',
      responses: { 200: { description: 'The status', schema: SimStatusSchema } },
      handler: (c) => {
        const { workspace: w, org } = c.auth;
        const body: Infer<typeof SimStatusSchema> = {
          workspace: { id: w.id, name: w.name },
          wallet_usd: usd(org.wallet_cents),
          auto_recharge: org.auto_recharge.enabled && !org.auto_recharge.card_declined,
          plan: {
            content: w.plan.content,
            assistant: w.plan.assistant,
            video_credits_cents: w.plan.video_credits_cents,
          },
          usage: usageView(c),
          clock: clockView(c),
          next_due: nextDue(c),
          in_flight: inFlight(c),
        };
        return { body };
      },
    }),
  ],
};
