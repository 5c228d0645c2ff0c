// What video schedules keep: the schedules with the director's bookkeeping, the notices they send,
// and the marketing profile the director reads.
import type { Template } from '../videos/index.js';
import type { MarketingProfile, PlannedVideo } from './director.js';

/** A video schedule as stored: the API's record less what is derived (the estimate), plus the director's bookkeeping. */
export interface VideoScheduleRecord {
  id: string;
  seq: number;
  workspace_id: string;
  name: string;
  videos_per_day: number;
  days_of_week: number[];
  post_hour: number;
  time_zone: string;
  starts_on: string;
  connection_ids: string[];
  direction: string | null;
  allowed_templates: Template[];
  video_settings: Record<string, unknown>;
  source_video_id: string | null;
  notify_hours_before: number;
  notify_by_email: boolean;
  status: 'active' | 'paused';
  last_error: string | null;
  skipped_days: string[];
  next_run_at: string | null;
  next_planning_at: string | null;
  last_run_at: string | null;
  /** the posting day last run (a day runs once) */
  last_run_day: string | null;
  /** the posting day whose plan was last emailed (a pause and resume does not send it twice) */
  notified_day: string | null;
  /** posting days run so far: the director rotates its choices with it */
  days_run: number;
  /** the next posting day's videos, once planned */
  plan: { day: string; planned_at: string; videos: PlannedVideo[] } | null;
  created_at: string;
  updated_at: string;
}

/** A notice the simulated service sent (GET /_sim/notifications). */
export interface Notification {
  seq: number;
  workspace_id: string;
  kind: 'schedule_planned';
  to: string;
  subject: string;
  body: string;
  schedule_id: string;
  at: string;
}

declare module '../core/world.js' {
  interface World {
    video_schedules: VideoScheduleRecord[];
    notifications: Notification[];
  }
  interface Workspace {
    /** what the AI director of video schedules reads */
    marketing_profile: MarketingProfile;
  }
}
