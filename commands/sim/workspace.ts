// vmv sim workspace: show, create and change simulator workspaces (GET/PATCH /_sim/workspace, POST /_sim/workspaces)
import type { Command } from 'commander';
import { action, examples, intArg, onOff, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fields, money } from '../../src/output.js';
import { maskKey } from '../../src/settings.js';

interface SetOptions { name?: string; content?: boolean; assistant?: boolean; videoCredits?: number; recordings?: boolean; quickEmailsPerMinute?: number }

export function define(parent: Command, shell: Shell): void {
  const ws = parent.command('workspace').description('The simulator workspace: plan, limits, and more workspaces');
  ws.command('show').description('Show the workspace of the API key (default: the seeded one)')
    .addHelpText('after', examples('vmv sim workspace show'))
    .action(action(shell, show));
  ws.command('create').description('Add an isolated workspace and print its full-access key')
    .option('--name <name>', 'workspace name')
    .addHelpText('after', examples('vmv sim workspace create --name "Second team"'))
    .action(action(shell, create));
  ws.command('set').description('Change the workspace\'s plan and simulated limits')
    .option('--name <name>', 'workspace name')
    .option('--content <on|off>', 'plan includes Content (videos)', onOff('--content'))
    .option('--assistant <on|off>', 'plan includes the assistant', onOff('--assistant'))
    .option('--video-credits <cents>', 'plan video credits in cents', intArg('--video-credits', 0, 1e9))
    .option('--recordings <on|off>', 'off: compliance settings refuse recording downloads', onOff('--recordings'))
    .option('--quick-emails-per-minute <n>', 'simulated rate limit (0: none)', intArg('--quick-emails-per-minute', 0, 100000))
    .addHelpText('after', examples(
      'vmv sim workspace set --content on --video-credits 5000',
      'vmv sim workspace set --quick-emails-per-minute 10',
    ))
    .action(action(shell, set));
}

const render = (ctx: Context) => (w: any) => fields(ctx.io, [
  ['id', w.id], ['name', w.name], ['wallet', money(w.wallet_usd)],
  ['plan', `content ${w.plan.content ? 'yes' : 'no'}, assistant ${w.plan.assistant ? 'yes' : 'no'}, video credits ${w.plan.video_credits_cents} cents`],
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
  const plan = o.content !== undefined || o.assistant !== undefined || o.videoCredits !== undefined
    ? { content: o.content, assistant: o.assistant, video_credits_cents: o.videoCredits } : undefined;
  const res = await ctx.call('PATCH', '/_sim/workspace', {
    body: {
      name: o.name, plan,
      recordings_disabled: o.recordings === undefined ? undefined : !o.recordings,
      rate_limits: o.quickEmailsPerMinute === undefined ? undefined : { quick_emails_per_minute: o.quickEmailsPerMinute },
    },
  });
  ctx.emit(res, render(ctx));
}
