// vmv sim defaults [voice.field=value ...]: GET or PATCH /_sim/workspace/defaults
import type { Command } from 'commander';
import { assignmentsToPatch } from '../../src/assign.js';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('defaults')
      .argument('[assignments...]', 'voice.field=value or sms.field=value')
      .description('The voice and sms settings numbers inherit until they change them')
      .action(action(shell, run)),
    'vmv sim defaults',
    'vmv sim defaults voice.voice_id=ava sms.auto_reply_enabled=true',
  );
}

export async function run(ctx: Context, _o: unknown, assignments: string[]): Promise<void> {
  const res = assignments.length
    ? await ctx.call('PATCH', '/_sim/workspace/defaults', { body: assignmentsToPatch(assignments) })
    : await ctx.call('GET', '/_sim/workspace/defaults');
  ctx.emit(res, ({ data }: any) => ctx.io.out(JSON.stringify(data, null, 2) + '\n'));
}
