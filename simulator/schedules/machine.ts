// A video schedule on the simulator clock. Each active schedule has two timers: planning, due
// notify_hours_before its next posting time (the director decides the day's videos and, with
// notify_by_email, the owner is told), and posting, at post_hour in its time zone (each planned video
// is made, approved by the schedule at the end of research, charged, rendered and posted once
// ready). Paused schedules and skipped days make nothing; resuming never catches up.
import { iso } from '../core/clock.js';
import type { VideoScheduleRecord } from './records.js';
import { cancelTimers, schedule, type TimerHandlers } from '../core/scheduler.js';
import type { Session } from '../core/session.js';
import { nextPosting } from './calendar.js';
import { planDay, type Pins, type PlannedVideo } from './director.js';
import { videoInput, enter, newVideo } from '../videos/index.js';

const timerOf = (sch: VideoScheduleRecord) => (type: string, p: Record<string, unknown>) =>
  (type === 'schedule.plan' || type === 'schedule.post') && p.id === sch.id;

/**
 * Sets the next posting time (strictly after now, on a posting day that is not skipped) and the
 * planning time before it, and their timers. Paused, or nothing left: both null, no timers.
 */
export function reschedule(s: Session, sch: VideoScheduleRecord): void {
  cancelTimers(s, timerOf(sch));
  const next = sch.status === 'active' ? nextPosting(sch, s.now) : null;
  if (sch.plan && sch.plan.day !== next?.day) sch.plan = null; // planned for a day that no longer comes
  if (!next) {
    sch.next_run_at = null;
    sch.next_planning_at = null;
    return;
  }
  sch.next_run_at = iso(next.at);
  if (sch.plan) {
    sch.next_planning_at = sch.plan.planned_at;
  } else {
    const planAt = Math.max(next.at - sch.notify_hours_before * 3600_000, s.now);
    sch.next_planning_at = iso(planAt);
    schedule(s, planAt, 'schedule.plan', { id: sch.id, day: next.day });
  }
  schedule(s, next.at, 'schedule.post', { id: sch.id, day: next.day });
}

/** The director's plan for `day`. */
function planFor(s: Session, sch: VideoScheduleRecord, day: string): PlannedVideo[] {
  const ws = s.data.workspaces.find((w) => w.id === sch.workspace_id)!;
  const model = sch.source_video_id ? s.data.videos.find((v) => v.id === sch.source_video_id) : undefined;
  return planDay({
    dayIndex: sch.days_run,
    day,
    count: sch.videos_per_day,
    profile: ws.marketing_profile,
    direction: sch.direction,
    allowed: sch.allowed_templates,
    pins: sch.video_settings as Pins,
    model: model
      ? {
          template: model.template,
          preset: model.preset,
          format: model.format,
          target_duration_seconds: model.target_duration_seconds,
        }
      : null,
  });
}

function notify(s: Session, sch: VideoScheduleRecord, day: string, videos: PlannedVideo[]): void {
  const ws = s.data.workspaces.find((w) => w.id === sch.workspace_id)!;
  const owner = s.data.users.find((u) => u.organization_id === ws.organization_id)!;
  const lines = videos.map((v, i) => `${i + 1}. ${v.angle} on ${v.topic} (${v.template}, ${v.preset}): "${v.caption}"`);
  s.data.notifications.push({
    seq: s.nextSeq(),
    workspace_id: sch.workspace_id,
    kind: 'schedule_planned',
    to: owner.email,
    subject: `${sch.name}: ${videos.length} video${videos.length === 1 ? '' : 's'} planned for ${day}`,
    body:
      `Your schedule "${sch.name}" posts on ${day} at ${String(sch.post_hour).padStart(2, '0')}:00 ${sch.time_zone}:\n${lines.join('\n')}\n` +
      'Pause the schedule or skip the day before then to make, charge and post nothing.',
    schedule_id: sch.id,
    at: iso(s.now),
  });
}

/** Makes the day's videos: each queued, its planned script approved by the schedule at the end of research. */
function post(s: Session, sch: VideoScheduleRecord, day: string): void {
  const planned = sch.plan?.day === day ? sch.plan.videos : planFor(s, sch, day);
  const pins = sch.video_settings as Parameters<typeof videoInput>[0];
  for (const p of planned) {
    const v = newVideo(s, sch.workspace_id, {
      ...videoInput(pins, p.template, sch.id),
      preset: p.preset,
      format: p.format,
      target_duration_seconds: p.target_duration_seconds,
      source_text: p.brief,
      caption: p.caption,
      hashtags: p.hashtags,
      script_review: 'auto',
      content: p.content,
      ownScript: false,
    });
    s.data.videos.push(v);
    enter(s, v, 'queued');
  }
  sch.days_run++;
  sch.plan = null;
  sch.last_run_at = iso(s.now);
  sch.last_run_day = day;
}

export const scheduleTimers: TimerHandlers = {
  'schedule.plan': (s, p) => {
    const sch = s.data.video_schedules.find((x) => x.id === p.id);
    if (!sch || sch.status !== 'active' || sch.plan?.day === p.day) return;
    const day = p.day as string;
    const videos = planFor(s, sch, day);
    sch.plan = { day, planned_at: iso(s.now), videos };
    sch.next_planning_at = iso(s.now);
    if (sch.notify_by_email && sch.notified_day !== day) {
      notify(s, sch, day, videos);
      sch.notified_day = day;
    }
  },
  'schedule.post': (s, p) => {
    const sch = s.data.video_schedules.find((x) => x.id === p.id);
    if (!sch || sch.status !== 'active') return;
    post(s, sch, p.day as string);
    sch.updated_at = iso(s.now);
    reschedule(s, sch);
  },
};
