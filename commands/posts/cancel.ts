// vmv posts cancel ID: DELETE /v1/posts/{id} (a scheduled post; published or failed ones are 409)
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('cancel')
      .argument('<id>', 'post id (vmv videos posts VIDEO_ID)', idArg('post'))
      .description('Cancel a scheduled post before it publishes')
      .action(action(shell, run)),
    'POST=$(vmv videos post "$VIDEO_ID" --to tiktok --at +1d)',
    'vmv posts cancel "$POST"',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('DELETE', `/v1/posts/${encodeURIComponent(id)}`);
  ctx.emit(res, ({ data }: { data: { id: string; platform: string; status: string } }) =>
    ctx.io.err(`Post ${data.id} (${data.platform}) is ${data.status}\n`),
  );
}
