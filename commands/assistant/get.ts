// vmv assistant get ID: GET /v1/assistant/conversations/{id}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { conversationPath } from './session.js';
import { printConversation, type ConversationWithTranscript } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('get')
      .argument('<id>', 'conversation id', idArg('conversation'))
      .description(
        "A conversation: its state, latest reply, the current run's actions and pending approvals, and the transcript (free)",
      )
      .action(action(shell, run)),
    'vmv assistant get "$ID"',
    'vmv assistant get "$ID" --json | jq -r \'.data.pending_approvals[] | [.approval_id, .reason] | @tsv\'',
  );
}

export async function run(ctx: Context, _o: object, [id]: string[]): Promise<void> {
  ctx.emit(await ctx.call('GET', conversationPath(id)), (b: { data: ConversationWithTranscript }) =>
    printConversation(ctx, b.data),
  );
}
