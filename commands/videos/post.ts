// vmv videos post ID --to ACCOUNT...: POST /v1/videos/{id}/posts (free), now or --at a later time
import type { Command } from 'commander';
import { action, choiceArg, withExamples, idArg, timeArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { dim, humanTime } from '../../src/output.js';
import { PLATFORM_NAMES, PLATFORMS, TIKTOK_PRIVACY, type Platform } from '../../simulator/vocabulary.js';
import { type Post, videoPath } from './view.js';

interface Options {
  to: string[];
  at?: string;
  caption?: string;
  carousel?: boolean;
  privacy?: string;
}

/** TikTok's privacy levels (the API's; declared beside the route's schema in the simulator). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const platform = choiceArg('--to', PLATFORMS);

/** --to values: connection ids or platform names, comma-separated or repeated (each once). Shared with `schedules create|update --to`. */
export const toArg = Object.assign(
  (v: string, prev: string[] = []) => {
    const values = v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .map((x) => {
        if (UUID.test(x)) return x.toLowerCase();
        try {
          return platform(x);
        } catch {
          throw usage(
            `--to takes a social connection id (vmv social list) or a platform: ${PLATFORMS.join(', ')}; got "${x}".`,
          );
        }
      });
    return [...new Set([...prev, ...values])];
  },
  { choices: PLATFORMS },
);

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('post')
      .argument('<id>', 'video id', idArg('video'))
      .description('Post a video to social accounts, now (once ready) or at a later time (free)')
      .requiredOption(
        '--to <account>',
        `a social connection id, or a platform whose one connected account to use (${PLATFORMS.join(', ')}); repeat for more`,
        toArg,
      )
      .option(
        '--at <time>',
        'publish then: ISO 8601, a date, or a time from now such as +1h or +2d (default: now; the video must be ready)',
        timeArg('--at', { relative: false, ahead: true }),
      )
      .option('--caption <text>', "the text posted (default: the video's caption and hashtags)")
      .option('--carousel', 'post a slideshow as slides (TikTok and Instagram only)')
      .option(
        '--privacy <level>',
        `TikTok privacy level: ${TIKTOK_PRIVACY.join(', ')}`,
        choiceArg('--privacy', TIKTOK_PRIVACY),
      )
      .addHelpText(
        'after',
        '\nPrints the id of each post made (one per account). A post made now publishes within a minute.',
      )
      .action(action(shell, run)),
    'vmv videos post "$VIDEO_ID" --to tiktok --to instagram --caption "Opening Monday! #coffee"',
    'vmv videos post "$VIDEO_ID" --to youtube --at +2h',
    'vmv videos post "$VIDEO_ID" --to tiktok --at 2026-01-06T17:00:00Z --privacy SELF_ONLY',
  );
}

interface Connection {
  id: string;
  platform: Platform;
  name: string;
  handle: string;
}

/** A platform name → the workspace's one account on it (exit 2 when it has none, or several). Shared with `schedules create|update --to`. */
export async function resolve(ctx: Context, to: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const value of to) {
    if (UUID.test(value)) {
      ids.push(value);
      continue;
    }
    const res = await ctx.call('GET', '/v1/social-connections', { query: { platform: value, limit: 100 } });
    const accounts = res.json<{ data: Connection[] }>().data;
    const name = PLATFORM_NAMES[value as Platform];
    if (accounts.length === 0)
      throw usage(
        `--to ${value}: no ${name} account is connected to this workspace.`,
        'See the accounts: vmv social list (on the simulator: vmv sim social add --platform ' + value + ').',
      );
    if (accounts.length > 1)
      throw usage(
        `--to ${value}: ${accounts.length} ${name} accounts are connected; pass the id of one:\n${accounts.map((a) => `  ${a.id}  ${a.handle}  ${a.name}`).join('\n')}`,
      );
    ids.push(accounts[0].id);
  }
  return [...new Set(ids)];
}

export async function run(ctx: Context, o: Options, [id]: string[]): Promise<void> {
  const connectionIds = await resolve(ctx, o.to);
  const res = await ctx.call('POST', `${videoPath(id)}/posts`, {
    body: {
      connection_ids: connectionIds,
      caption: o.caption,
      scheduled_for: o.at,
      media_type: o.carousel ? 'carousel' : undefined,
      settings: o.privacy ? { tiktok: { privacy_level: o.privacy } } : undefined,
    },
  });
  ctx.emit(res, ({ data }: { data: Post[] }) => {
    for (const p of data) ctx.io.out(`${p.id}\n`);
    const at = data[0]?.scheduled_for;
    const when = at ? `at ${ctx.io.stderrTTY ? humanTime(at) : at}` : 'within a minute';
    ctx.io.err(
      dim(
        forStderr(ctx.io),
        `${data.length} post${data.length === 1 ? '' : 's'} (${data.map((p) => p.platform).join(', ')}) publish${data.length === 1 ? 'es' : ''} ${when}. See them: vmv videos posts ${id}`,
      ) + '\n',
    );
  });
}
