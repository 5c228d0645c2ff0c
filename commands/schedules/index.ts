// vmv schedules: video schedules; each verb in its own file (the flags create and update share in spec.ts).
import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import type { FieldAliases } from '../../src/field-flags.js';
import { define as create } from './create.js';
import { define as del } from './delete.js';
import { define as get } from './get.js';
import { define as list } from './list.js';
import { define as pause } from './pause.js';
import { define as resume } from './resume.js';
import { define as skip } from './skip.js';
import { define as update } from './update.js';
import { define as videos } from './videos.js';

/** Request fields named otherwise than their flag (see src/field-flags.ts). */
export const fieldAliases: FieldAliases = {
  '--to': ['connection_ids'],
  '--days': ['days_of_week'],
  '--hour': ['post_hour'],
  '--template': ['allowed_templates'],
  '--setting': ['video_settings'],
  '--unset-setting': ['video_settings'],
  '--source-video': ['source_video_id'],
  '--notify-hours': ['notify_hours_before'],
  '--notify-email': ['notify_by_email'],
  '--paused': ['status'],
};

export function register(schedules: Command, shell: Shell): void {
  for (const d of [create, list, get, update, pause, resume, skip, del, videos]) d(schedules, shell);
}
