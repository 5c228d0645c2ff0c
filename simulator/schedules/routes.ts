// Video schedules (spec capability 6, Part 4 Video schedules): start, list, read, change (pause,
// resume), delete, skip a day, and the videos a schedule made; plus the notices the simulated
// service sent (/_sim/notifications). Plan gate and scopes as for videos. What they take and
// answer: schemas.ts.
import * as z from 'zod/mini';
import { iso } from '../core/clock.js';
import { ApiError, notFound, validationError, type Fields } from '../core/errors.js';
import { route, type Ctx, type Resource } from '../core/http.js';
import type { VideoScheduleRecord } from './records.js';
import { listParams, paginate } from '../core/pagination.js';
import { dataOf, isPlainObject, listOf, obj, oneOf, uuid } from '../core/schema.js';
import { check, newFields } from '../core/check.js';
import { canonicalZone, instantOf, isDate, isPostingDay, localDay, nextPosting } from './calendar.js';
import { reschedule } from './machine.js';
import {
  checkMusic,
  TEMPLATE_INFO,
  TEMPLATES,
  wordCount,
  type Template,
  presentVideo,
  VideoSchema,
} from '../videos/index.js';
import { removeWhere } from '../store/tracker.js';
import { CreateBody, Id, NotificationSchema, PatchBody, present, SkipBody, VideoScheduleSchema } from './schemas.js';

/** The schedule the path names, in the caller's workspace (404 otherwise). */
function find(c: Ctx<{ id: string }, any, any>): VideoScheduleRecord {
  const sch = c.data.video_schedules.find((x) => x.id === c.params.id && x.workspace_id === c.auth.workspace.id);
  if (!sch) throw notFound(`No video schedule ${c.params.id} in this workspace.`);
  return sch;
}

// ---- checking a schedule as a whole ----

type Candidate = Omit<
  VideoScheduleRecord,
  | 'id'
  | 'seq'
  | 'workspace_id'
  | 'last_error'
  | 'skipped_days'
  | 'next_run_at'
  | 'next_planning_at'
  | 'last_run_at'
  | 'last_run_day'
  | 'notified_day'
  | 'days_run'
  | 'plan'
  | 'created_at'
  | 'updated_at'
>;

/** What the cross-field checks read: the schedule as it would be, each value as sent (even of the wrong type: the checks look before they leap). */
type Loose = {
  [K in
    | 'days_of_week'
    | 'allowed_templates'
    | 'time_zone'
    | 'starts_on'
    | 'connection_ids'
    | 'source_video_id'
    | 'video_settings']: unknown;
};

/**
 * The checks that span fields or need the store, made on the raw values so that one 400 lists them
 * with the structural problems; `sent` is the request body (problems of fields it did not send are
 * reported under the field that made them).
 */
function checkSchedule(c: Ctx<any, any, any>, x: Loose, sent: Record<string, unknown>, errs: Fields): void {
  const add = (field: string, why: string) => (errs[field] ??= why);
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  if ('time_zone' in sent && typeof x.time_zone === 'string' && canonicalZone(x.time_zone) === null)
    add('time_zone', 'is not an IANA time zone name such as America/New_York or UTC');
  if ('starts_on' in sent && typeof x.starts_on === 'string' && !isDate(x.starts_on))
    add('starts_on', 'must be a date, YYYY-MM-DD');
  if ('connection_ids' in sent) {
    list(x.connection_ids).forEach((id, i) => {
      if (
        typeof id === 'string' &&
        !c.data.social_connections.some((k) => k.id === id && k.workspace_id === c.auth.workspace.id)
      )
        add(`connection_ids[${i}]`, 'is not a social connection of this workspace (GET /v1/social-connections)');
    });
  }
  if (
    'source_video_id' in sent &&
    typeof x.source_video_id === 'string' &&
    !c.data.videos.some((v) => v.id === x.source_video_id && v.workspace_id === c.auth.workspace.id)
  )
    add('source_video_id', 'is not a video of this workspace');
  const pins = isPlainObject(x.video_settings) ? x.video_settings : {};
  const allowed = list(x.allowed_templates).filter(
    (t): t is Template => typeof t === 'string' && (TEMPLATES as readonly string[]).includes(t),
  );
  if (typeof pins.preset === 'string') {
    const where =
      isPlainObject(sent.video_settings) && 'preset' in sent.video_settings
        ? 'video_settings.preset'
        : 'allowed_templates';
    if (allowed.length === 0)
      add(where, 'a pinned preset needs allowed_templates naming the template(s) it belongs to');
    else {
      const misfit = allowed.find((t) => !TEMPLATE_INFO[t].presets.includes(pins.preset as string));
      if (misfit)
        add(
          where,
          `${pins.preset} is not a preset of ${misfit} (its presets: ${TEMPLATE_INFO[misfit].presets.join(', ')})`,
        );
    }
  }
  checkMusic(pins.music, errs, 'video_settings.music');
  if (typeof pins.source_text === 'string' && wordCount(pins.source_text) === 0)
    add('video_settings.source_text', 'must contain words');
}

const masked = (settings: Record<string, unknown>) =>
  isPlainObject(settings.demo_login)
    ? { ...settings, demo_login: { ...settings.demo_login, password: '********' } }
    : settings;

function create(c: Ctx<{}, {}, unknown>) {
  const errs = newFields();
  const b = check(CreateBody, c.body, errs);
  const raw = isPlainObject(c.body) ? c.body : {};
  checkSchedule(c, raw as Loose, raw, errs);
  if (!b || Object.keys(errs).length > 0) throw validationError(errs);
  const zone = canonicalZone(b.time_zone)!;
  const x: Candidate = {
    name: b.name,
    videos_per_day: b.videos_per_day ?? 1,
    days_of_week: b.days_of_week,
    post_hour: b.post_hour,
    time_zone: zone,
    starts_on: b.starts_on ?? localDay(c.s.now, zone),
    connection_ids: b.connection_ids,
    direction: b.direction ?? null,
    allowed_templates: b.allowed_templates ?? [],
    video_settings: masked(b.video_settings ?? {}),
    source_video_id: b.source_video_id ?? null,
    notify_hours_before: b.notify_hours_before ?? 1,
    notify_by_email: b.notify_by_email ?? false,
    status: b.status ?? 'active',
  };
  const now = iso(c.s.now);
  const sch: VideoScheduleRecord = {
    ...x,
    id: c.s.rng.uuid(),
    seq: c.s.nextSeq(),
    workspace_id: c.auth.workspace.id,
    last_error: null,
    skipped_days: [],
    next_run_at: null,
    next_planning_at: null,
    last_run_at: null,
    last_run_day: null,
    notified_day: null,
    days_run: 0,
    plan: null,
    created_at: now,
    updated_at: now,
  };
  c.data.video_schedules.push(sch);
  reschedule(c.s, sch);
  return { status: 201, body: { data: present(c.data, sch) } };
}

/** Changes to these make the director plan the next day again. */
const DIRECTOR_INPUTS = ['videos_per_day', 'direction', 'allowed_templates', 'video_settings', 'source_video_id'];

function patch(c: Ctx<{ id: string }, {}, unknown>) {
  const sch = find(c);
  const errs = newFields();
  const b = check(PatchBody, c.body, errs);
  const raw = isPlainObject(c.body) ? c.body : {};
  // the schedule as it would be: what was sent over what it is; video_settings merged (null unpins)
  const merged: Record<string, unknown> = { ...sch.video_settings };
  if (isPlainObject(raw.video_settings))
    for (const [k, v] of Object.entries(raw.video_settings))
      if (v === null) delete merged[k];
      else merged[k] = v;
  checkSchedule(c, { ...sch, ...raw, video_settings: merged } as Loose, raw, errs);
  if (!b || Object.keys(errs).length > 0) throw validationError(errs);
  const { video_settings: _v, ...rest } = b;
  const changes = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Partial<Candidate>;
  if (changes.time_zone !== undefined) changes.time_zone = canonicalZone(changes.time_zone)!;
  if (DIRECTOR_INPUTS.some((k) => k in raw)) sch.plan = null;
  Object.assign(sch, changes, { video_settings: masked(merged), updated_at: iso(c.s.now) });
  reschedule(c.s, sch);
  return { body: { data: present(c.data, sch) } };
}

function skip(c: Ctx<{ id: string }, {}, unknown>) {
  const sch = find(c);
  // the body's structure and its day's meaning, in one 400
  const errs = newFields();
  check(SkipBody, c.body, errs);
  const raw = isPlainObject(c.body) ? c.body : {};
  let day = typeof raw.day === 'string' ? raw.day : undefined;
  if (day !== undefined && !errs.day) {
    if (!isDate(day)) errs.day = 'must be a date, YYYY-MM-DD';
    else if (!isPostingDay(sch, day))
      errs.day = `is not a posting day of this schedule (days_of_week ${sch.days_of_week.join(', ')}, from ${sch.starts_on})`;
    else if (instantOf(day, sch.post_hour, sch.time_zone) <= c.s.now)
      errs.day = `has passed: its post time was ${iso(instantOf(day, sch.post_hour, sch.time_zone))}`;
    else if (sch.last_run_day && day <= sch.last_run_day) errs.day = `has already run (${sch.last_run_day})`;
  }
  if (Object.keys(errs).length > 0) throw validationError(errs);
  if (day === undefined) {
    const next = nextPosting(sch, c.s.now);
    if (!next) throw new ApiError(409, 'conflict', 'This schedule has no posting day left to skip.');
    day = next.day;
  }
  if (!sch.skipped_days.includes(day)) sch.skipped_days = [...sch.skipped_days, day].sort();
  sch.updated_at = iso(c.s.now);
  reschedule(c.s, sch);
  return { body: { data: present(c.data, sch) } };
}

const one = (description: string) => ({ 200: { description, schema: dataOf(VideoScheduleSchema) } });

export const videoSchedules: Resource = {
  tag: {
    name: 'Video schedules',
    description:
      'Standing schedules on which an AI director makes and posts videos on posting days in a time zone. Each operation needs a plan that includes Content.',
  },
  routes: [
    route({
      method: 'POST',
      path: '/v1/video-schedules',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Start a video schedule',
      description:
        'Posting days are the dates in `time_zone` that fall on `days_of_week`, from `starts_on`, at `post_hour` local time (daylight saving as the zone has it). ' +
        'Planning happens `notify_hours_before` ahead. Every problem of the body comes in one 400. Free; each video is charged at script approval like any video.',
      body: CreateBody,
      bodyCheckedByHandler: true,
      responses: { 201: { description: 'The schedule', schema: dataOf(VideoScheduleSchema) } },
      handler: create,
    }),
    route({
      method: 'GET',
      path: '/v1/video-schedules',
      scope: 'videos:read',
      plan: 'content',
      summary: 'List video schedules',
      description: 'Every schedule of the workspace, newest first.',
      query: obj({ ...listParams(), status: oneOf(['active', 'paused'], 'only schedules in this state') }),
      responses: { 200: { description: 'Schedules', schema: listOf(VideoScheduleSchema) } },
      handler: (c) => {
        const items = c.data.video_schedules.filter(
          (x) => x.workspace_id === c.auth.workspace.id && (!c.query.status || x.status === c.query.status),
        );
        return {
          body: paginate(c.s, items, c.query, {
            key: (x) => Date.parse(x.created_at),
            tie: (x) => x.seq,
            scope: `schedules:${c.query.status ?? ''}`,
            present: (x) => present(c.data, x),
          }),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/v1/video-schedules/{id}',
      scope: 'videos:read',
      plan: 'content',
      summary: 'Read a video schedule',
      description:
        "The schedule with its next run (`next_run_at`), its planning time and, once planned, the next day's videos (`next_plan`).",
      params: Id,
      responses: one('The schedule'),
      handler: (c) => ({ body: { data: present(c.data, find(c)) } }),
    }),
    route({
      method: 'PATCH',
      path: '/v1/video-schedules/{id}',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Change, pause or resume a video schedule',
      description:
        'Changes the fields sent. `video_settings` merges over the pinned settings (a key sent as null unpins it). `status` paused stops it (nothing is made, charged ' +
        'or posted while paused); active resumes it from the next posting day, never catching up. A change to what the director reads re-plans the next day. Free.',
      params: Id,
      body: PatchBody,
      bodyCheckedByHandler: true,
      responses: one('The schedule'),
      handler: patch,
    }),
    route({
      method: 'DELETE',
      path: '/v1/video-schedules/{id}',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Delete a video schedule',
      description: 'Removes the schedule; the videos it made stay (GET /v1/videos lists them, with their schedule_id).',
      params: Id,
      responses: { 204: { description: 'Deleted' } },
      handler: (c) => {
        const sch = find(c);
        sch.status = 'paused';
        reschedule(c.s, sch); // drops its timers
        removeWhere(c.data.video_schedules, (x) => x === sch);
        return { status: 204 };
      },
    }),
    route({
      method: 'POST',
      path: '/v1/video-schedules/{id}/skip',
      scope: 'videos:write',
      plan: 'content',
      summary: 'Skip a posting day',
      description:
        "`{}` skips the next posting day; `{day}` a given future posting day (a date in the schedule's time zone): 400 for a day that is not a posting day or " +
        'whose post time has passed. Nothing is made, charged or posted that day.',
      params: Id,
      body: SkipBody,
      bodyCheckedByHandler: true,
      responses: one('The schedule'),
      errors: { 409: ['conflict'] },
      handler: skip,
    }),
    route({
      method: 'GET',
      path: '/v1/video-schedules/{id}/videos',
      scope: 'videos:read',
      plan: 'content',
      summary: 'List the videos a schedule made',
      description: 'Newest first.',
      params: Id,
      query: obj({ ...listParams() }),
      responses: { 200: { description: 'Videos', schema: listOf(VideoSchema) } },
      handler: (c) => {
        const sch = find(c);
        const items = c.data.videos.filter((v) => v.schedule_id === sch.id);
        return {
          body: paginate(c.s, items, c.query, {
            key: (v) => Date.parse(v.created_at),
            tie: (v) => v.seq,
            scope: `schedule-videos:${sch.id}`,
            present: (v) => presentVideo(c.data, c.origin, v),
          }),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/_sim/notifications',
      summary: 'List the notices the service sent',
      description:
        "Emails the simulated service sent to workspace owners (a schedule's plan, with notify_by_email), oldest first.",
      query: obj({ schedule_id: uuid("only this schedule's") }),
      responses: { 200: { description: 'Notices', schema: z.strictObject({ data: z.array(NotificationSchema) }) } },
      handler: (c) => ({
        body: {
          data: c.data.notifications
            .filter(
              (n) =>
                n.workspace_id === c.auth.workspace.id &&
                (!c.query.schedule_id || n.schedule_id === c.query.schedule_id),
            )
            .map(({ seq: _s, workspace_id: _w, ...n }) => n),
        },
      }),
    }),
  ],
};
