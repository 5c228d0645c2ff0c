// A video's pipeline on the simulator clock (spec Part 3, Video): queued → researching → (script
// review) → rendering → compositing → ready, or failed with error. A video is priced from what it
// will contain and charged once, when released to render: plan video credits first, then the wallet.
// Posts publish at their time if the video is ready by then.
import { iso } from '../core/clock.js';
import type { PostRecord, SocialConnection, VideoRecord } from './records.js';
import { canCover, charge, price as priceText } from '../billing/index.js';
import { cancelTimers, schedule, type TimerHandlers } from '../core/scheduler.js';
import { recordById } from '../store/kept.js';
import type { Session } from '../core/session.js';
import type { World } from '../core/world.js';
import {
  compositeSeconds,
  PLATFORM_NAMES,
  priceOf,
  PUBLISH_SECONDS,
  renderSeconds,
  scenesFor,
  secondsOfScript,
  STAGE_SECONDS,
  TEMPLATE_INFO,
  WORDS_PER_SECOND,
  wordCount,
  type Price,
  type Template,
} from './catalog.js';
import type { FailableStage, VideoState } from './records.js';
import { slideshowSeconds, write, type Interview, type Scene, type Slide, type SlideSettings } from './writer.js';
import { orgOfWorkspace } from '../core/accounts.js';

/** Scenario markers in source_text: each fails its stage once; a retry then gets through. */
export const FAIL_MARKERS: Record<FailableStage, string> = {
  researching: '#fail-research',
  rendering: '#fail-render',
  compositing: '#fail-composite',
};
const FAIL_REASONS: Record<FailableStage, string> = {
  researching: 'Research failed: the sources could not be read (simulated by #fail-research).',
  rendering: 'Rendering failed: the render provider returned an error (simulated by #fail-render).',
  compositing: 'Compositing failed: the subtitles could not be burned in (simulated by #fail-composite).',
};

export interface Content {
  script: string | null;
  scenes: Scene[] | null;
  slides: Slide[] | null;
  interview: Interview | null;
}

/** What a video of this template contains: its length, spoken words and AI scenes, from its content if written. */
function measure(
  template: Template,
  preset: string,
  target: number,
  c: Content | null,
  ownScript: boolean,
  slide: SlideSettings,
) {
  const voiced = TEMPLATE_INFO[template].voiced(preset, ownScript);
  if (!c || (c.script === null && !c.scenes && !c.slides && !c.interview)) {
    // a slideshow's slide settings, when sent, set its length
    const seconds = template === 'slideshow' ? slideshowSeconds(target, slide) : Math.ceil(target);
    return {
      seconds,
      words: voiced ? Math.round(seconds * WORDS_PER_SECOND) : 0,
      scenes: template === 'freeform_ai' ? scenesFor(seconds) : 0,
    };
  }
  if (c.scenes) {
    const words = c.scenes.reduce((a, s) => a + wordCount(s.narration), 0);
    return { seconds: c.scenes.reduce((a, s) => a + s.seconds, 0), words, scenes: c.scenes.length };
  }
  if (c.slides) return { seconds: c.slides.reduce((a, s) => a + s.seconds, 0), words: 0, scenes: 0 };
  const words = c.interview ? c.interview.parts.reduce((a, p) => a + wordCount(p.text), 0) : wordCount(c.script ?? '');
  return { seconds: voiced ? secondsOfScript(template, words) : Math.ceil(target), words, scenes: 0 };
}

/** The price of a video with this recipe: exact from its content, else estimated from target_duration_seconds. */
export function priceVideo(
  template: Template,
  preset: string,
  target: number,
  content: Content | null,
  ownScript: boolean,
  slide: SlideSettings = {},
): Price & { estimated: boolean } {
  const m = measure(template, preset, target, content, ownScript, slide);
  const estimated = !content || (content.script === null && !content.scenes && !content.slides && !content.interview);
  return { ...priceOf(template, preset, { ...m, hasScript: ownScript }), estimated };
}

/** What a new video is made of: its recipe, and its content when already written (an own script, or a schedule's plan). */
export type NewVideo = Pick<
  VideoRecord,
  | 'template'
  | 'preset'
  | 'format'
  | 'target_duration_seconds'
  | 'source_url'
  | 'source_text'
  | 'source_image_urls'
  | 'source_video_urls'
  | 'script_review'
  | 'max_price_cents'
  | 'caption'
  | 'hashtags'
  | 'music'
  | 'settings'
  | 'schedule_id'
> & {
  content: Content | null;
  /** the content is the user's own script (exact price, spoken word for word) */
  ownScript: boolean;
};

/** A video record, priced (estimated without content), not yet in any state's timer: the caller releases or queues it. */
export function newVideo(s: Session, workspaceId: string, n: NewVideo): VideoRecord {
  const { content, ownScript, ...recipe } = n;
  const now = iso(s.now);
  const price = priceVideo(
    n.template,
    n.preset,
    n.target_duration_seconds,
    content,
    ownScript,
    (n.settings.slide_settings ?? {}) as SlideSettings,
  );
  return {
    id: s.rng.uuid(),
    seq: s.nextSeq(),
    workspace_id: workspaceId,
    status: 'queued',
    ...recipe,
    script: content?.script ?? null,
    scenes: content?.scenes ?? null,
    slides: content?.slides ?? null,
    interview: content?.interview ?? null,
    seconds: price.seconds,
    price_cents: price.price_cents,
    estimated: price.estimated,
    line_items: price.line_items,
    billed_cents: 0,
    paid_from: null,
    error: null,
    failed_stage: null,
    status_changed_at: now,
    released_at: null,
    ready_at: null,
    created_at: now,
    updated_at: now,
    failures_spent: [],
  };
}

export function reprice(v: VideoRecord, ownScript: boolean): void {
  const p = priceVideo(v.template, v.preset, v.target_duration_seconds, v, ownScript, v.settings.slide_settings ?? {});
  v.price_cents = p.price_cents;
  v.line_items = p.line_items;
  v.seconds = p.seconds;
  v.estimated = p.estimated;
}

/**
 * Pays `cents` for the workspace: plan video credits first, then the wallet (with auto-recharge).
 * Returns how it was paid, or null with nothing taken when credits and wallet together cannot.
 */
export function pay(
  s: Session,
  workspaceId: string,
  cents: number,
  what: { reference_id: string; description: string },
) {
  const ws = s.data.workspaces.find((w) => w.id === workspaceId)!;
  const org = orgOfWorkspace(s.data, workspaceId);
  const fromCredits = Math.min(ws.plan.video_credits_cents, cents);
  const fromWallet = cents - fromCredits;
  if (!canCover(org, fromWallet)) return null;
  ws.plan.video_credits_cents -= fromCredits;
  charge(s, workspaceId, fromWallet, { kind: 'video', ...what, credits_cents: fromCredits });
  return { credits_cents: fromCredits, wallet_cents: fromWallet };
}

/**
 * Releases a video to render: charges its price once and starts rendering. Returns false (nothing
 * charged, nothing changed) when the workspace cannot pay.
 */
export function release(s: Session, v: VideoRecord): boolean {
  const paid = pay(s, v.workspace_id, v.price_cents, {
    reference_id: v.id,
    description: `Video ${v.id} (${v.template}, ${v.seconds} s)`,
  });
  if (!paid) return false;
  v.billed_cents = v.price_cents;
  v.paid_from = paid;
  v.released_at = iso(s.now);
  v.error = null;
  enter(s, v, 'rendering');
  return true;
}

export const cannotPayMessage = (s: Session, v: VideoRecord) => {
  const ws = s.data.workspaces.find((w) => w.id === v.workspace_id)!;
  const org = orgOfWorkspace(s.data, v.workspace_id);
  return (
    `The video costs ${priceText(v.price_cents)}; the plan's video credits (${priceText(ws.plan.video_credits_cents)}) and the wallet ` +
    `(${priceText(org.wallet_cents)}) cannot cover it. Add funds or credits, then approve it.`
  );
};

export const overCapMessage = (price: number, cap: number) =>
  `The written script costs ${priceText(price)} (${price} cents), above max_price_cents ${cap}; approve it with a higher max_price_cents to render it.`;

function stageSeconds(v: VideoRecord, stage: VideoState): number {
  switch (stage) {
    case 'queued':
      return STAGE_SECONDS.queued;
    case 'researching':
      return STAGE_SECONDS.researching + (v.source_url ? STAGE_SECONDS.researchingUrl : 0);
    case 'rendering':
      return renderSeconds(v.template, v.seconds, v.scenes?.length ?? 0);
    case 'compositing':
      return compositeSeconds(v.seconds);
    default:
      return 0;
  }
}

/** The stored video `id` (a view to change), found without a scan. */
export const videoById = (data: World, id: string) => recordById<VideoRecord>(data, 'videos', id);

/** The stored post `id` (a view to change), found without a scan. */
export const postById = (data: World, id: string) => recordById<PostRecord>(data, 'posts', id);

/** Moves a video into a state, scheduling the end of a timed stage. */
export function enter(s: Session, v: VideoRecord, state: VideoState): void {
  v.status = state;
  v.status_changed_at = iso(s.now);
  v.updated_at = iso(s.now);
  cancelTimers(s, (type, p) => type === 'video.stage' && p.id === v.id);
  const seconds = stageSeconds(v, state);
  if (seconds > 0) schedule(s, s.now + seconds * 1000, 'video.stage', { id: v.id, stage: state });
}

/** Fails the stage the first time its scenario marker is met. */
function failsHere(v: VideoRecord, stage: FailableStage): boolean {
  const marker = FAIL_MARKERS[stage];
  if (!v.source_text?.toLowerCase().includes(marker) || v.failures_spent.includes(marker)) return false;
  v.failures_spent.push(marker);
  return true;
}

function fail(s: Session, v: VideoRecord, stage: FailableStage): void {
  v.failed_stage = stage;
  v.error = FAIL_REASONS[stage];
  enter(s, v, 'failed');
  scheduleError(s, v, `Video ${v.id} failed: ${v.error}`);
}

/** A written script is approved automatically unless it is over the cap or cannot be paid for: then it waits in script_review. */
function autoApprove(s: Session, v: VideoRecord): void {
  const sch = v.schedule_id ? s.data.video_schedules.find((x) => x.id === v.schedule_id) : undefined;
  if (v.schedule_id && sch?.status !== 'active') {
    // its schedule was deleted or paused while it was being written: no one approves it; it waits for you
    v.error = `Its schedule was ${sch ? 'paused' : 'deleted'} before the script was approved; nothing was charged. Approve it to render it.`;
    enter(s, v, 'script_review');
    return scheduleError(s, v, `Video ${v.id} was not made: ${v.error}`);
  }
  if (v.max_price_cents !== null && v.price_cents > v.max_price_cents)
    v.error = overCapMessage(v.price_cents, v.max_price_cents);
  else if (!release(s, v)) v.error = cannotPayMessage(s, v);
  else return;
  enter(s, v, 'script_review');
  scheduleError(s, v, `Video ${v.id} was not made: ${v.error}`);
}

const stageDone: Record<string, (s: Session, v: VideoRecord) => void> = {
  queued: (s, v) => enter(s, v, 'researching'),
  researching: (s, v) => {
    if (failsHere(v, 'researching')) return fail(s, v, 'researching');
    if (v.script === null)
      Object.assign(v, write(v.template, v.preset, v, v.target_duration_seconds, v.settings.slide_settings ?? {}));
    reprice(v, false);
    if (v.script_review === 'manual') {
      // a cap given at creation holds for the approval: error says so while the price is above it
      if (v.max_price_cents !== null && v.price_cents > v.max_price_cents)
        v.error = overCapMessage(v.price_cents, v.max_price_cents);
      return enter(s, v, 'script_review');
    }
    autoApprove(s, v);
  },
  rendering: (s, v) => (failsHere(v, 'rendering') ? fail(s, v, 'rendering') : enter(s, v, 'compositing')),
  compositing: (s, v) => {
    if (failsHere(v, 'compositing')) return fail(s, v, 'compositing');
    v.ready_at = iso(s.now);
    enter(s, v, 'ready');
    postForSchedule(s, v);
  },
};

/** Resumes a failed video at the stage it failed in. */
export function resume(s: Session, v: VideoRecord): void {
  const stage = v.failed_stage ?? 'rendering';
  v.error = null;
  v.failed_stage = null;
  enter(s, v, stage);
}

// ---- posts ----

/** A permalink as each platform shapes them, drawn from the seeded stream. */
export function permalink(s: Session, platform: string, handle: string): string {
  const digits = (n: number) =>
    Array.from({ length: n }, (_, i) => (i === 0 ? 1 + s.rng.int(9) : s.rng.int(10))).join('');
  const code = (n: number) =>
    Array.from(
      { length: n },
      () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'[s.rng.int(64)],
    ).join('');
  const user = handle.replace(/^@/, '');
  switch (platform) {
    case 'tiktok':
      return `https://www.tiktok.com/@${user}/video/${digits(19)}`;
    case 'instagram':
      return `https://www.instagram.com/reel/${code(11)}/`;
    case 'youtube':
      return `https://youtube.com/shorts/${code(11)}`;
    case 'x':
      return `https://x.com/${user}/status/${digits(19)}`;
    case 'facebook':
      return `https://www.facebook.com/reel/${digits(16)}`;
    default:
      return `https://www.linkedin.com/feed/update/urn:li:activity:${digits(19)}/`;
  }
}

/** A post of a video to one account, publishing at `at` (null: now, within PUBLISH_SECONDS). */
export function makePost(
  s: Session,
  v: VideoRecord,
  conn: SocialConnection,
  o: { caption: string | null; media_type: 'video' | 'carousel'; settings: Record<string, unknown>; at: number | null },
): PostRecord {
  const now = iso(s.now);
  const p: PostRecord = {
    id: s.rng.uuid(),
    seq: s.nextSeq(),
    workspace_id: v.workspace_id,
    video_id: v.id,
    connection_id: conn.id,
    platform: conn.platform,
    status: 'scheduled',
    caption: o.caption,
    media_type: o.media_type,
    settings: o.settings,
    scheduled_for: o.at === null ? null : iso(o.at),
    published_at: null,
    permalink: null,
    error: null,
    created_at: now,
    updated_at: now,
  };
  s.data.posts.push(p);
  schedule(s, o.at ?? s.now + PUBLISH_SECONDS * 1000, 'post.publish', { id: p.id });
  return p;
}

// ---- a schedule's videos ----

/** Records why a schedule's video did not go out (the schedule carries on). */
function scheduleError(s: Session, v: VideoRecord, why: string): void {
  const sch = v.schedule_id ? s.data.video_schedules.find((x) => x.id === v.schedule_id) : undefined;
  if (!sch) return;
  sch.last_error = why;
  sch.updated_at = iso(s.now);
}

/**
 * A video's posting text when a post sends none: its caption, then each hashtag with one leading #
 * (sent with or without it), separated by spaces; null when it has neither. The one rule for every
 * path: a manual post's default, a schedule's automatic posts.
 */
export function postCaption(v: Pick<VideoRecord, 'caption' | 'hashtags'>): string | null {
  const tags = v.hashtags.map((h) => (h.startsWith('#') ? h : `#${h}`)).join(' ');
  return [v.caption, tags].filter(Boolean).join(' ') || null;
}

/** A schedule's video, once ready, is posted to every account of the schedule that is still connected. */
function postForSchedule(s: Session, v: VideoRecord): void {
  const sch = v.schedule_id ? s.data.video_schedules.find((x) => x.id === v.schedule_id) : undefined;
  if (!sch) return; // the schedule was deleted once its video was paid for: the video stays, unposted
  if (sch.status === 'paused')
    return scheduleError(s, v, `Video ${v.id} is ready but was not posted: the schedule is paused.`);
  const caption = postCaption(v);
  for (const id of sch.connection_ids) {
    const conn = s.data.social_connections.find((c) => c.id === id && c.workspace_id === v.workspace_id);
    if (!conn) scheduleError(s, v, `Video ${v.id} was not posted to connection ${id}: the account was disconnected.`);
    else makePost(s, v, conn, { caption, media_type: 'video', settings: {}, at: null });
  }
}

function endPost(s: Session, p: PostRecord, status: 'failed' | 'canceled', error: string | null): void {
  p.status = status;
  p.error = error;
  p.updated_at = iso(s.now);
  cancelTimers(s, (type, x) => type === 'post.publish' && x.id === p.id);
}

export const cancelPost = (s: Session, p: PostRecord) => endPost(s, p, 'canceled', null);
export const failPost = (s: Session, p: PostRecord, why: string) => endPost(s, p, 'failed', why);

/** Cancels a video's scheduled posts (the video is being deleted). */
export function cancelPostsOf(s: Session, videoId: string): void {
  for (const p of s.data.posts) if (p.video_id === videoId && p.status === 'scheduled') cancelPost(s, p);
}

/** Fails the scheduled posts of a connection that was disconnected. */
export function failPostsOf(s: Session, connectionId: string, why: string): void {
  for (const p of s.data.posts) {
    if (p.connection_id !== connectionId || p.status !== 'scheduled') continue;
    failPost(s, p, why);
    const v = videoById(s.data, p.video_id);
    if (v) scheduleError(s, v, `Video ${v.id} was not posted: ${why}`);
  }
}

function publish(s: Session, p: PostRecord): void {
  const conn = s.data.social_connections.find((c) => c.id === p.connection_id);
  if (!conn)
    return failPost(s, p, `The ${PLATFORM_NAMES[p.platform]} account was disconnected before the post went out.`);
  const v = videoById(s.data, p.video_id);
  if (!v) return cancelPost(s, p);
  if (v.status !== 'ready')
    return failPost(s, p, `The video was not ready at the scheduled time (it was ${v.status.replace('_', ' ')}).`);
  p.status = 'published';
  p.published_at = iso(s.now);
  p.permalink = permalink(s, p.platform, conn.handle);
  p.updated_at = iso(s.now);
}

export const videoTimers: TimerHandlers = {
  'video.stage': (s, p) => {
    const v = videoById(s.data, p.id as string);
    if (!v || v.status !== p.stage) return;
    stageDone[v.status]?.(s, v);
    v.updated_at = iso(s.now);
  },
  'post.publish': (s, x) => {
    const p = postById(s.data, x.id as string);
    if (!p || p.status !== 'scheduled') return;
    // a video that becomes ready at this very instant is ready "by then": let its stage end first
    const stageNow = s.data.timers.some(
      (t) => t.type === 'video.stage' && t.payload.id === p.video_id && t.at_ms <= s.now,
    );
    if (stageNow) schedule(s, s.now, 'post.publish', { id: p.id });
    else publish(s, p);
  },
};
