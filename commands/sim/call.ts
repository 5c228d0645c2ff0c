// vmv sim call --from --to [--digits] [--says]: POST /_sim/inbound/calls (call a workspace number)
import type { Command } from 'commander';
import { action, e164Arg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';

interface Options {
  from: string;
  to: string;
  digits?: string;
  says?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('call')
      .description('Call a workspace number as a person: its configuration decides who answers')
      .requiredOption('--from <number>', "the caller's E.164 number", e164Arg('--from'))
      .requiredOption('--to <number>', 'the workspace number called', e164Arg('--to'))
      .option('--digits <keys>', 'keys pressed in the phone menu, in order (e.g. 1 or 12)')
      .option('--says <text>', 'what the caller says to the AI agent')
      .action(action(shell, run)),
    'vmv sim number --stack t2 --phone +14155550142',
    'vmv sim call --from +14155550199 --to +14155550142 --says "I\'d like to book a cleaning"',
    'vmv sim call --from +14155550199 --to +14155550142 --digits 1',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const res = await ctx.call('POST', '/_sim/inbound/calls', {
    body: { from: o.from, to: o.to, digits: o.digits, says: o.says },
  });
  ctx.emit(res, ({ data, routing }: any) => {
    ctx.io.out(`${data.id}\n`);
    const who = {
      nobody: 'nobody answers',
      owner: "the owner's phone answers",
      ivr: 'the phone menu answers',
      ai: 'the AI agent answers',
    }[routing.handled_by as string];
    ctx.io.err(
      `Ringing: ${who}${routing.transferred_to ? `; goes to ${routing.transferred_to}` : ''}; ends ${routing.status} (${routing.end_reason}).\n`,
    );
  });
}
