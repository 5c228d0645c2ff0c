// vmv schedules create: POST /v1/video-schedules (free; each video it makes is charged like any video)
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { forStderr } from '../../src/io.js';
import { dim } from '../../src/output.js';
import { specBody, withSpec, type SpecOptions } from './spec.js';
import { daysText, hourText, nextRunText, type Schedule } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withSpec(
      parent
        .command('create')
        .description(
          'Start a video schedule: on each posting day the AI director plans, makes and posts videos (free to create)',
        ),
      { update: false },
    )
      .addHelpText(
        'after',
        `
Posting days are the dates in --time-zone that fall on --days, from --starts-on, at --hour local time
(daylight saving as the zone has it). --notify-hours before each one the director plans the day's
--videos-per-day videos (\`vmv schedules get\` shows the plan; --notify-email mails it); at --hour it
makes each video and posts it to every --to account once ready.

Costs: creating a schedule is free. Each video it makes is charged when its script is approved (by
the schedule, at the end of research), like any video: plan video credits first, then the wallet.
\`vmv schedules get\` shows the estimate per video. Pause it or skip a day to make nothing.

--setting pins part of every video's recipe: any field of \`vmv videos create --file\` but template
and script (format=horizontal, target_duration_seconds=20, subtitles.position=top, ...).
Prints the new schedule's id.`,
      )
      .action(action(shell, run)),
    'vmv schedules create --name "Weekday tips" --days mon,wed,fri --hour 9 --time-zone America/New_York --to tiktok --to instagram',
    'SCHEDULE=$(vmv schedules create --file schedule.json --paused)',
    'vmv schedules create --name "Menu slides" --days mon-fri --hour 17 --to youtube --template slideshow --setting format=horizontal --notify-email',
  );
}

export async function run(ctx: Context, o: SpecOptions): Promise<void> {
  const res = await ctx.call('POST', '/v1/video-schedules', { body: await specBody(ctx, o, { update: false }) });
  ctx.emit(res, ({ data: s }: { data: Schedule }) => {
    ctx.io.out(`${s.id}\n`);
    ctx.io.err(
      dim(
        forStderr(ctx.io),
        `Schedule ${s.id} posts ${s.videos_per_day} video${s.videos_per_day === 1 ? '' : 's'} on ${daysText(s.days_of_week)} at ${hourText(s)}; ${nextRunText(s)}. See it: vmv schedules get ${s.id}`,
      ) + '\n',
    );
  });
}
