// Video schedules, declared: schedules that make and post videos on chosen days (the AI director's
// plan, its notices), and the marketing profile a workspace gives the director.
import type { Capability } from '../core/capability.js';
import { DEFAULT_PROFILE } from './director.js';

export const schedules: Capability = {
  name: 'schedules',
  resources: [
    {
      prefixes: ['/v1/video-schedules', '/_sim/notifications'],
      load: async () => (await import('./routes.js')).videoSchedules,
    },
  ],
  machines: [
    {
      types: ['schedule.plan', 'schedule.post'],
      calendar: ['schedule.plan', 'schedule.post'],
      load: async () => (await import('./machine.js')).scheduleTimers,
    },
  ],
  collections: { records: ['video_schedules', 'notifications'] },
  workspace: (ws) => void (ws.marketing_profile = DEFAULT_PROFILE(ws.name)),
  upgrade(world) {
    for (const w of world.workspaces) w.marketing_profile ??= DEFAULT_PROFILE(w.name);
    for (const sch of world.video_schedules) {
      sch.last_run_day ??= null;
      sch.notified_day ??= null;
    }
  },
};
