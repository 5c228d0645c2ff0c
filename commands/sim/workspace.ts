// vmv sim workspace: show, create and change simulator workspaces (GET/PATCH /_sim/workspace, POST /_sim/workspaces)
import type { Command } from 'commander';
import { action, withExamples, intArg, numberArg, onOff, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fields, money } from '../../src/output.js';
import { maskKey } from '../../src/settings.js';
import { rechargeFields } from './wallet.js';

interface SetOptions {
  name?: string;
  content?: boolean;
  assistant?: boolean;
  videoCredits?: number;
  recordings?: boolean;
  quickEmailsPerMinute?: number;
  includedMinutes?: number;
  includedTexts?: number;
  perMinute?: number;
  perText?: number;
}

export function define(parent: Command, shell: Shell): void {
  const ws = parent.command('workspace').description('The simulator workspace: plan, limits, and more workspaces');
  withExamples(
    ws
      .command('show')
      .description('Show the workspace of the API key (default: the seeded one)')
      .action(action(shell, show)),
    'vmv sim workspace show',
  );
  withExamples(
    ws
      .command('create')
      .description('Add an isolated workspace and print its full-access key')
      .option('--name <name>', 'workspace name')
      .action(action(shell, create)),
    'vmv sim workspace create --name "Second team"',
  );
  withExamples(
    ws
      .command('set')
      .description("Change the workspace's plan, its rates for calls and texts, and simulated limits")
      .option('--name <name>', 'workspace name')
      .option('--content <on|off>', 'plan includes Content (videos)', onOff('--content'))
      .option('--assistant <on|off>', 'plan includes the assistant', onOff('--assistant'))
      .option('--video-credits <cents>', 'plan video credits in cents', intArg('--video-credits', 0, 1e9))
      .option('--recordings <on|off>', 'off: compliance settings refuse recording downloads', onOff('--recordings'))
      .option(
        '--quick-emails-per-minute <n>',
        'simulated rate limit (0: none)',
        intArg('--quick-emails-per-minute', 0, 100000),
      )
      .option(
        '--included-minutes <n>',
        "minutes of calls on the workspace's numbers included each month",
        intArg('--included-minutes', 0, 1_000_000),
      )
      .option(
        '--included-texts <n>',
        "texts from the workspace's numbers included each month",
        intArg('--included-texts', 0, 1_000_000),
      )
      .option('--per-minute <usd>', 'price of a minute beyond the included ones', numberArg('--per-minute', 0))
      .option('--per-text <usd>', 'price of a text beyond the included ones', numberArg('--per-text', 0))
      .action(action(shell, set)),
    'vmv sim workspace set --content on --video-credits 5000',
    'vmv sim workspace set --quick-emails-per-minute 10',
    'vmv sim workspace set --included-minutes 0 --per-minute 0.25',
  );
}

const paused = (yes: boolean) => (yes ? ' (paused: the wallet cannot pay one)' : '');

const render = (ctx: Context) => (w: any) =>
  fields(ctx.io, [
    ['id', w.id],
    ['name', w.name],
    ['wallet', money(w.wallet_usd)],
    ...rechargeFields(w),
    [
      'plan',
      `content ${w.plan.content ? 'yes' : 'no'}, assistant ${w.plan.assistant ? 'yes' : 'no'}, video credits ${w.plan.video_credits_cents} cents`,
    ],
    [
      'call rates',
      `${w.plan.included_minutes} minutes a month included, then ${money(w.plan.per_minute_usd)} a minute`,
    ],
    ['text rates', `${w.plan.included_texts} texts a month included, then ${money(w.plan.per_text_usd)} a text`],
    ['this month', `${w.usage.period_start} to ${w.usage.period_end}`],
    ['minutes', `${w.usage.minutes_used} used, ${w.usage.minutes_left} left${paused(w.usage.calls_paused)}`],
    ['texts', `${w.usage.texts_used} used, ${w.usage.texts_left} left${paused(w.usage.texts_paused)}`],
    ['recordings', w.recordings_disabled ? 'refused by compliance settings' : 'downloadable'],
    ['quick emails', `${w.rate_limits.quick_emails_per_minute || 'unlimited'} per minute`],
    ['owner', `${w.owner.name} <${w.owner.email}>`],
  ]);

export async function show(ctx: Context): Promise<void> {
  ctx.emit(await ctx.call('GET', '/_sim/workspace'), render(ctx));
}

export async function create(ctx: Context, o: { name?: string }): Promise<void> {
  const res = await ctx.call('POST', '/_sim/workspaces', { body: { name: o.name } });
  ctx.emit(res, (w: any) => {
    ctx.io.out(w.api_key + '\n');
    ctx.io.err(`Workspace ${w.workspace_id} created; the line above is its full-access key (${maskKey(w.api_key)}).\n`);
  });
}

export async function set(ctx: Context, o: SetOptions): Promise<void> {
  const plan = {
    content: o.content,
    assistant: o.assistant,
    video_credits_cents: o.videoCredits,
    included_minutes: o.includedMinutes,
    included_texts: o.includedTexts,
    per_minute_usd: o.perMinute,
    per_text_usd: o.perText,
  };
  const res = await ctx.call('PATCH', '/_sim/workspace', {
    body: {
      name: o.name,
      plan: Object.values(plan).some((v) => v !== undefined) ? plan : undefined,
      recordings_disabled: o.recordings === undefined ? undefined : !o.recordings,
      rate_limits:
        o.quickEmailsPerMinute === undefined ? undefined : { quick_emails_per_minute: o.quickEmailsPerMinute },
    },
  });
  ctx.emit(res, render(ctx));
}
