// Starting a quick job (call or text) and optionally waiting for it.
import type { Context } from '../../src/context.js';
import { forStderr } from '../../src/io.js';
import { dim } from '../../src/output.js';
import { followJob } from './view.js';

export async function startJob(
  ctx: Context,
  path: string,
  body: Record<string, unknown>,
  wait: boolean,
): Promise<void> {
  const res = await ctx.call('POST', path, { body });
  const { data } = res.json<{ data: { id: string; kind: string; target_count: number; from_number?: string } }>();
  if (!wait) {
    ctx.emit(res, () => {
      ctx.io.out(`${data.id}\n`);
      ctx.io.err(
        dim(
          forStderr(ctx.io),
          `Started ${data.kind} job for ${data.target_count} number${data.target_count === 1 ? '' : 's'}${data.from_number ? ` from ${data.from_number}` : ''}. Follow it: vmv quick status ${data.id} --watch`,
        ) + '\n',
      );
    });
    return;
  }
  await followJob(ctx, data.id, { failOnFailed: true, streamChanges: false });
}
