// vmv history call ID: GET /v1/calls/{id}
import type { Command } from 'commander';
import { action, withExamples, idArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { ALWAYS, col, fields, nested, textCol } from '../../src/output.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('call')
      .argument('<id>', 'call id', idArg('call'))
      .description('One call with its transcript, summary and tags')
      .action(action(shell, run)),
    'vmv history call "$(vmv history calls --limit 1 --json | jq -r \'.data[0].id\')"',
    'vmv history call "$CALL_ID" --json | jq .data.transcript',
  );
}

export async function run(ctx: Context, _o: unknown, [id]: string[]): Promise<void> {
  const res = await ctx.call('GET', `/v1/calls/${encodeURIComponent(id)}`);
  ctx.emit(res, ({ data: c }: any) => {
    fields(ctx.io, [
      ['id', c.id],
      ['direction', c.direction],
      ['status', c.status],
      ['from', c.from_number],
      ['to', c.to_number],
      ['created', c.created_at],
      ['duration', c.duration_seconds === null ? null : `${c.duration_seconds} s`],
      ['tags', c.tags.join(', ')],
      ['recording', c.has_recording ? `vmv history recording ${c.id} -o call.wav` : 'none'],
      ['summary', c.summary],
    ]);
    // the transcript: one `turn` line per turn when piped (seconds from the start, speaker, text)
    if (c.transcript_turns.length)
      nested(
        ctx.io,
        'turn',
        [col('seconds', ALWAYS), col('speaker', 6), textCol('text', 5)],
        c.transcript_turns.map((t: any) => [t.seconds_from_start, t.speaker, t.text]),
      );
  });
}
