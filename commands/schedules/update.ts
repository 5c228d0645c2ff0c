// vmv schedules update ID: PATCH /v1/video-schedules/{id} with the fields given (free)
import type { Command } from 'commander';
import { leafPaths } from '../../src/assign.js';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { specBody, withSpec, type SpecOptions } from './spec.js';
import { nextRunText, schedulePath, type Schedule } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withSpec(
      parent
        .command('update')
        .argument('<id>', 'schedule id', idArg('schedule'))
        .description('Change a schedule: only the fields given change (free)'),
      { update: true },
    )
      .addHelpText(
        'after',
        `
--setting merges into the pinned settings, a setting at a time: subtitles.position=top replaces a
pinned subtitles object whole, so give each part you want kept. A change to what the director reads
(--videos-per-day, --direction, --template, --setting, --source-video) plans the next day again.
Pause and resume with \`vmv schedules pause|resume\`.`,
      )
      .action(action(shell, run)),
    'vmv schedules update "$SCHEDULE" --hour 17 --days tue,thu',
    'vmv schedules update "$SCHEDULE" --setting format=horizontal --unset-setting subtitles --no-direction',
    'vmv schedules update "$SCHEDULE" --to tiktok --to youtube --template slideshow,remotion',
  );
}

export async function run(ctx: Context, o: SpecOptions, [id]: string[]): Promise<void> {
  const body = await specBody(ctx, o, { update: true });
  const res = await ctx.call('PATCH', schedulePath(id), { body });
  ctx.emit(res, ({ data: s }: { data: Schedule }) =>
    ctx.io.err(
      `Updated schedule ${s.id}: ${leafPaths(body as Parameters<typeof leafPaths>[0]).join(', ')}; ${nextRunText(s)}\n`,
    ),
  );
}
