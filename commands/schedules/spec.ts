// A schedule on the command line, shared by `schedules create` and `schedules update`: one flag per
// field of the body (or of the patch), or the whole of it from --file (flags given as well override
// its fields; --setting merges into its video_settings). What has a known form is checked here.
import type { Command } from 'commander';
import { assignmentsToPatch, merge } from '../../src/assign.js';
import { choicesArg, intArg } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { TEMPLATES } from '../../simulator/vocabulary.js';
import { resolve as resolveAccounts, toArg } from '../videos/post.js';
import { overlay, readJsonObject, type Body } from '../videos/recipe.js';
import { dateArg, daysArg, userZone, zoneArg } from './view.js';

export interface SpecOptions {
  file?: string;
  name?: string;
  videosPerDay?: number;
  days?: number[];
  hour?: number;
  timeZone?: string;
  startsOn?: string;
  to?: string[];
  /** false: --no-direction (update) */
  direction?: string | false;
  template?: string[];
  setting?: string[];
  sourceVideo?: string | false;
  notifyHours?: number;
  notifyEmail?: boolean;
  // create only
  paused?: boolean;
  // update only
  unsetSetting?: string[];
  anyTemplate?: boolean;
}

/** --setting key=value: the key a setting's name or a dotted path into one (subtitles.position). */
const settingArg = (v: string, prev: string[] = []) => {
  const eq = v.indexOf('=');
  const key = v.slice(0, Math.max(eq, 0));
  if (eq <= 0 || !/^[a-z_]+(\.[a-z_]+)*$/.test(key))
    throw usage(`--setting takes key=value, such as format=horizontal or subtitles.position=top; got "${v}".`);
  const top = key.split('.')[0];
  if (top === 'template')
    throw usage(
      '--setting cannot pin the template: --template names the templates the director may choose (one pins it).',
    );
  if (top === 'script') throw usage("--setting cannot pin a script: the director writes each video's script.");
  return [...prev, v];
};

/** --unset-setting KEY: a whole pinned setting (the API unpins top-level keys). */
const unsetArg = (v: string, prev: string[] = []) => {
  if (!/^[a-z_]+$/.test(v))
    throw usage(
      `--unset-setting takes the name of a pinned setting, such as format or subtitles (a whole one); got "${v}".`,
    );
  return [...prev, v];
};

/** The flags of a schedule's fields; `update` adds the ways to clear one, `create` --paused. */
export function withSpec(cmd: Command, o: { update: boolean }): Command {
  const req = (field: string) => (o.update ? '' : ` (this or "${field}" in --file is required)`);
  cmd
    .option('--name <text>', `what the schedule is called${req('name')}`)
    .option(
      '--days <days>',
      `posting days: mon … sun, monday …, 1-7 or a range such as mon-fri; comma-separated or repeated${req('days_of_week')}`,
      daysArg,
    )
    .option(
      '--hour <hour>',
      `the hour, 0-23 in --time-zone, when each posting day's videos are made and posted${req('post_hour')}`,
      intArg('--hour', 0, 23),
    )
    .option(
      '--time-zone <zone>',
      o.update
        ? 'an IANA time zone name, such as America/New_York'
        : `an IANA time zone name, such as America/New_York (default: your time zone, ${userZone()} here)`,
      zoneArg('--time-zone'),
    )
    .option(
      '--starts-on <date>',
      `the first date (YYYY-MM-DD, in --time-zone) that may be a posting day${o.update ? '' : ' (default: today there)'}`,
      dateArg('--starts-on'),
    )
    .option(
      '--to <account>',
      `a social connection id, or a platform whose one connected account to use; repeat for more${o.update ? ' (replaces the accounts)' : req('connection_ids')}`,
      toArg,
    )
    .option(
      '--videos-per-day <n>',
      `videos made each posting day, 1-10${o.update ? '' : ' (default 1)'}`,
      intArg('--videos-per-day', 1, 10),
    )
    .option('--direction <text>', 'a free-text steer for the AI director (tone, what to show, what to mention)');
  if (o.update) cmd.option('--no-direction', 'clear the direction');
  cmd.option(
    '--template <name>',
    `a template the director may choose, comma-separated or repeated; one pins it (default: any): ${TEMPLATES.join(', ')}`,
    choicesArg('--template', TEMPLATES),
  );
  if (o.update) cmd.option('--any-template', 'let the director choose any template again');
  cmd.option(
    '--setting <key=value>',
    "pin part of every video's recipe (repeatable): format=horizontal, subtitles.position=top, ...; values are JSON when they parse, else text",
    settingArg,
  );
  if (o.update) cmd.option('--unset-setting <key>', 'unpin a setting (repeatable): format, subtitles, ...', unsetArg);
  cmd.option(
    '--source-video <id>',
    'a video of the workspace to model the schedule on (its template, preset, format and length)',
  );
  if (o.update) cmd.option('--no-source-video', 'model it on no video');
  cmd
    .option(
      '--notify-hours <n>',
      `plan (and send the notice) this many hours before posting, 0-48${o.update ? '' : ' (default 1)'}`,
      intArg('--notify-hours', 0, 48),
    )
    .option('--notify-email', "email the workspace owner each day's plan when it is made");
  if (o.update) cmd.option('--no-notify-email', 'stop emailing the plans');
  else cmd.option('--paused', 'create it paused (nothing is made until `vmv schedules resume`)');
  return cmd.option(
    '--file <file>',
    `the whole ${o.update ? 'patch' : 'request body'} as JSON (- for standard input); flags given as well override its fields (--setting merges into its video_settings)`,
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** video_settings: the file's, then each --setting over it, then null for each --unset-setting. */
function settingsOf(file: Body, o: SpecOptions): Body | undefined {
  if (!o.setting && !o.unsetSetting) return undefined;
  const set = assignmentsToPatch(o.setting ?? []);
  const both = (o.unsetSetting ?? []).find((k) => k in set);
  if (both) throw usage(`--setting and --unset-setting both name ${both}: pin it or unpin it.`);
  const base = isObject(file.video_settings) ? file.video_settings : {};
  const settings: Body = merge(base as Parameters<typeof merge>[0], set);
  for (const k of o.unsetSetting ?? []) settings[k] = null;
  return settings;
}

/**
 * The body of POST /v1/video-schedules (`update`: of the PATCH, only what is given) from --file
 * and the flags. --to platforms are resolved to the workspace's accounts on them.
 */
export async function specBody(ctx: Context, o: SpecOptions, mode: { update: boolean }): Promise<Body> {
  if (o.template && o.anyTemplate) throw usage('Give one of --template or --any-template.');
  const file = o.file === undefined ? {} : await readJsonObject(ctx, '--file', o.file);
  const body = overlay(file, {
    name: o.name,
    connection_ids: o.to,
    days_of_week: o.days,
    post_hour: o.hour,
    time_zone: o.timeZone,
    starts_on: o.startsOn,
    videos_per_day: o.videosPerDay,
    direction: o.direction === false ? null : o.direction,
    allowed_templates: o.anyTemplate ? [] : o.template,
    video_settings: settingsOf(file, o),
    source_video_id: o.sourceVideo === false ? null : o.sourceVideo,
    notify_hours_before: o.notifyHours,
    notify_by_email: o.notifyEmail,
    status: o.paused ? 'paused' : undefined,
  });
  if (!mode.update) {
    const missing = (
      [
        ['--name', 'name'],
        ['--days', 'days_of_week'],
        ['--hour', 'post_hour'],
        ['--to', 'connection_ids'],
      ] as const
    ).filter(([, f]) => body[f] === undefined);
    if (missing.length > 0)
      throw usage(
        `${missing.map(([flag]) => flag).join(', ')} ${missing.length === 1 ? 'is' : 'are'} required (or ${missing.map(([, f]) => `"${f}"`).join(', ')} in --file).`,
      );
    body.time_zone ??= userZone();
  } else if (Object.keys(body).length === 0) {
    throw usage(
      'Nothing to change: give the flags of what changes (--name, --days, --hour, --setting, ...) or --file.',
      'Pause or resume it: vmv schedules pause|resume ID',
    );
  }
  // platform names become the workspace's one account on each (after the checks above: no request for a bad line)
  if (o.to) body.connection_ids = await resolveAccounts(ctx, o.to);
  return body;
}
