// Video schedules' API shapes: what a client sends (the bodies of POST, PATCH and skip, each setting
// declared once) and what the API returns (VideoSchedule with its estimated price, the notices of
// /_sim/notifications), and how a stored schedule is shown. The routes that use them: routes.ts.
import * as z from 'zod/mini';
import type { World } from '../core/world.js';
import type { VideoScheduleRecord } from './records.js';
import {
  absent,
  arr,
  bool,
  doc,
  freeObject,
  int,
  named,
  nullable,
  obj,
  oneOf,
  record,
  str,
  timestamp,
  uuid,
  withoutNulls,
  type Infer,
} from '../core/schema.js';
import { candidates, picksTemplate } from './director.js';
import { priceVideo, recipe, DEFAULTS, defaultPreset, TEMPLATES } from '../videos/index.js';

// ---- what a client sends ----

/**
 * video_settings: any field of the video creation body but template (allowed_templates pins it),
 * script (the director writes it) and script_review (the schedule approves each script itself).
 */
function settingsShape() {
  const { template: _t, script: _s, script_review: _r, ...rest } = recipe();
  return rest;
}
const Settings = () =>
  obj(settingsShape(), {
    description:
      "pins parts of every video's recipe: any field of the video creation body but template, script and script_review",
  });
/** In a PATCH, each pinned setting may be sent as null to unpin it. */
const SettingsPatch = () => {
  const shape = settingsShape();
  return obj(
    Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, nullable(s)])) as {
      [K in keyof typeof shape]: z.ZodMiniNullable<(typeof shape)[K]>;
    },
    { description: 'merged over the pinned settings; a key sent as null unpins it' },
  );
};

const fields = () => ({
  name: str({ min: 1, max: 200, pattern: /\S/, patternMessage: 'must not be blank', example: 'Weekday espresso tips' }),
  videos_per_day: int({
    min: 1,
    max: 10,
    description: 'videos made each posting day, 1 to 10 (default 1)',
    example: 1,
  }),
  days_of_week: arr(int({ min: 1, max: 7 }), {
    min: 1,
    max: 7,
    unique: true,
    description: 'posting days, distinct: 1 Monday … 7 Sunday',
    example: [1, 3, 5],
  }),
  post_hour: int({
    min: 0,
    max: 23,
    description: "the hour, in time_zone, when the day's videos are made and posted",
    example: 9,
  }),
  time_zone: str({
    min: 1,
    max: 64,
    description: 'an IANA time zone name (UTC and Etc/* included)',
    example: 'America/New_York',
  }),
  starts_on: str({
    min: 10,
    max: 10,
    format: 'date',
    description: 'the first date (YYYY-MM-DD, in time_zone) that may be a posting day (default: today there)',
    example: '2026-01-05',
  }),
  connection_ids: arr(uuid('a social connection of the workspace'), {
    min: 1,
    max: 20,
    unique: true,
    description: 'the accounts every video is posted to',
  }),
  direction: str({
    min: 1,
    max: 2000,
    description: 'a free-text steer for the AI director',
    example: 'Playful, show the baristas, mention the loyalty card.',
  }),
  allowed_templates: arr(oneOf(TEMPLATES), {
    max: 8,
    unique: true,
    description: 'the templates the director may choose (one pins it; none: any)',
    example: ['talking_avatar', 'slideshow'],
  }),
  source_video_id: uuid(
    'a video of the workspace the schedule is modelled on (its template, preset, format and length)',
  ),
  notify_hours_before: int({
    min: 0,
    max: 48,
    description: 'planning (and the notice) this many hours before posting (default 1)',
    example: 1,
  }),
  notify_by_email: bool("email the workspace owner the day's plan when it is made (default false)"),
  status: oneOf(['active', 'paused'], 'active (the default) or paused'),
});

/** A schedule as a client would send it, every part coherent (built from field examples, a preset would not fit the templates). */
const SCHEDULE_EXAMPLE = {
  name: 'Weekday espresso tips',
  videos_per_day: 1,
  days_of_week: [1, 3, 5],
  post_hour: 9,
  time_zone: 'America/New_York',
  starts_on: '2026-01-05',
  connection_ids: ['3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90'],
  direction: 'Playful, show the baristas, mention the loyalty card.',
  allowed_templates: ['talking_avatar', 'slideshow'],
  notify_hours_before: 1,
  notify_by_email: true,
  video_settings: {
    format: 'vertical',
    target_duration_seconds: 30,
    source_text: 'Our new espresso bar opens Monday on Main Street.',
    caption: 'Our espresso bar opens Monday',
    hashtags: ['#coffee', '#mainstreet'],
  },
};
export const CreateBody = obj(
  { ...fields(), video_settings: Settings() },
  { required: ['name', 'days_of_week', 'post_hour', 'time_zone', 'connection_ids'], example: SCHEDULE_EXAMPLE },
);
export const PatchBody = obj(
  {
    ...fields(),
    direction: nullable(
      str({ min: 1, max: 2000, description: 'a free-text steer for the AI director; null clears it' }),
    ),
    source_video_id: nullable(uuid('a video to model the schedule on; null: none')),
    video_settings: SettingsPatch(),
  },
  { example: { direction: 'Show the new pastries this week.', notify_by_email: false, status: 'paused' } },
);
export const SkipBody = obj({
  day: str({
    min: 1,
    max: 10,
    format: 'date',
    description: "a future posting day, YYYY-MM-DD in the schedule's time zone (default: the next posting day)",
    example: '2026-01-07',
  }),
});
export const Id = obj({ id: uuid('the schedule id') }, { required: ['id'] });

// ---- what the API returns ----

export const VideoScheduleSchema = named(
  'VideoSchedule',
  () =>
    record({
      id: uuid(),
      name: doc(z.string(), { example: 'Weekday espresso tips' }),
      videos_per_day: z.int(),
      days_of_week: doc(z.array(z.int()), { description: '1 Monday … 7 Sunday', example: [1, 3, 5] }),
      post_hour: doc(z.int(), { description: 'hour in time_zone', example: 9 }),
      time_zone: doc(z.string(), { example: 'America/New_York' }),
      starts_on: doc(z.string(), { example: '2026-01-05' }),
      connection_ids: z.array(z.string()),
      direction: doc(absent(z.string()), 'absent when none was given'),
      allowed_templates: z.array(oneOf(TEMPLATES)),
      video_settings: freeObject("the pinned parts of every video's recipe (demo_login.password masked)"),
      source_video_id: doc(absent(z.string()), 'absent when the schedule is modelled on no video'),
      notify_hours_before: z.int(),
      notify_by_email: z.boolean(),
      status: oneOf(['active', 'paused']),
      estimated_price_cents_per_video: doc(z.int(), {
        description: 'what each video is estimated to cost (the highest of the templates the director may pick)',
        example: 370,
      }),
      estimate_depends_on_template: doc(
        z.boolean(),
        'true when the director picks the template (allowed_templates empty or several)',
      ),
      last_error: doc(
        absent(z.string()),
        'why a video did not go out (the schedule carries on); absent until one did not',
      ),
      next_run_at: doc(nullable(timestamp()), 'the next posting time, UTC; null when paused or nothing is left'),
      next_planning_at: doc(
        nullable(timestamp()),
        'when the director plans (planned) that day: notify_hours_before ahead',
      ),
      skipped_days: doc(z.array(z.string()), 'posting days skipped, YYYY-MM-DD in time_zone'),
      last_run_at: doc(nullable(timestamp()), 'when it last made videos'),
      next_plan: doc(
        nullable(
          z.array(
            record({
              template: oneOf(TEMPLATES),
              preset: z.string(),
              angle: z.string(),
              topic: z.string(),
              caption: z.string(),
            }),
          ),
        ),
        "the next posting day's videos once the director has planned them",
      ),
      created_at: timestamp(),
      updated_at: timestamp(),
    }),
  'A video schedule: a cadence of posting days in a time zone, on which the AI director makes and posts videos.',
);
export type ScheduleOut = Infer<typeof VideoScheduleSchema>;

export const NotificationSchema = named(
  'SimNotification',
  () =>
    record({
      kind: oneOf(['schedule_planned']),
      to: doc(z.string(), { example: 'owner@acme-sandbox.example.com' }),
      subject: z.string(),
      body: z.string(),
      schedule_id: uuid(),
      at: timestamp(),
    }),
  'A notice the simulated service sent.',
);

/** Each video's estimated price: the highest among the templates the director may pick. */
function estimate(
  data: World,
  sch: Pick<VideoScheduleRecord, 'allowed_templates' | 'video_settings' | 'source_video_id'>,
) {
  const model = sch.source_video_id ? data.videos.find((v) => v.id === sch.source_video_id) : undefined;
  const pins = sch.video_settings as { preset?: string; target_duration_seconds?: number; slide_settings?: object };
  const prices = candidates(sch.allowed_templates, model ? { ...model } : null).map((t) => {
    const preset = pins.preset ?? (model?.template === t ? model.preset : defaultPreset(t));
    return priceVideo(
      t,
      preset,
      pins.target_duration_seconds ?? model?.target_duration_seconds ?? DEFAULTS.target_duration_seconds,
      null,
      false,
      pins.slide_settings ?? {},
    ).price_cents;
  });
  return { cents: Math.max(...prices), depends: picksTemplate(sch.allowed_templates) };
}

export function present(data: World, sch: VideoScheduleRecord): ScheduleOut {
  const { seq: _s, workspace_id: _w, days_run: _d, last_run_day: _l, notified_day: _n, plan, ...rest } = sch;
  const e = estimate(data, sch);
  // direction, source_video_id and last_error are typed without |null by the spec: left out when
  // there is none (docs/spec-silent.md)
  const shown = withoutNulls(rest, ['direction', 'source_video_id', 'last_error']);
  return {
    ...shown,
    estimated_price_cents_per_video: e.cents,
    estimate_depends_on_template: e.depends,
    next_plan: plan
      ? plan.videos.map((v) => ({
          template: v.template,
          preset: v.preset,
          angle: v.angle,
          topic: v.topic,
          caption: v.caption,
        }))
      : null,
  };
}
