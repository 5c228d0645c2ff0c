// Video schedules, declared: schedules that make and post videos on chosen days (the AI director's
// plan, its notices), and the marketing profile a workspace gives the director.
import type { Capability } from '../core/capability.js';
import type { World } from '../core/world.js';
import { DEFAULT_PROFILE } from './director.js';

/**
 * About how many transitions active schedules run between two times: each posting day is planned
 * and posted, and each of its videos goes through four timed stages (queued, researching,
 * rendering, compositing) and one publish per connection.
 */
function scheduleWork(data: World, fromMs: number, toMs: number): number {
  const days = Math.max(0, toMs - fromMs) / 86_400_000;
  let n = 0;
  for (const sch of data.video_schedules)
    if (sch.status === 'active')
      n += ((days * sch.days_of_week.length) / 7) * (2 + sch.videos_per_day * (4 + sch.connection_ids.length));
  return Math.ceil(n);
}

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
      work: scheduleWork,
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
