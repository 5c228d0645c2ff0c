// vmv quick text NUMBERS... --goal G: POST /v1/quick/ai-texts
import type { Command } from 'commander';
import { action, e164Args, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { startJob } from './start.js';

interface Options {
  goal: string;
  firstMessage?: string;
  maxMessages?: number;
  conversationTimeoutHours?: number;
  wait?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('text')
      .argument('<numbers...>', 'E.164 numbers to text', e164Args('<numbers...>', { dial: true }))
      .description('An AI agent holds an SMS conversation with each number toward a goal (0.05 USD per message sent)')
      .requiredOption('--goal <text>', 'the outcome to work toward')
      .option('--first-message <text>', 'the opener (default: written from the goal)')
      .option('--max-messages <n>', 'cap on messages sent per number (default 5)', intArg('--max-messages', 1, 100))
      .option(
        '--conversation-timeout-hours <n>',
        'end a thread after this much quiet (default 24)',
        intArg('--conversation-timeout-hours', 1, 720),
      )
      .option(
        '--wait',
        'wait for the job to end, showing progress on a terminal; exit 5 if any target failed (no answer is an outcome)',
      )
      .addHelpText(
        'after',
        '\nSimulator scenario numbers (last four digits): 0100 agrees, 0101 declines, 0102-0104 never reply,\n0105 agrees after a long pause, 0106 delivery fails, 0107 replies STOP. Reply yourself with `vmv sim text`.',
      )
      .action(action(shell, run)),
    'vmv quick text +14155550100 --goal "Confirm Tuesday\'s 3pm appointment" --first-message "Hi! Can you still make Tuesday at 3pm?" --wait',
    'vmv quick text +14155550100 +14155550101 --goal "Ask whether they want a quote" --max-messages 3',
  );
}

export async function run(ctx: Context, o: Options, numbers: string[]): Promise<void> {
  await startJob(
    ctx,
    '/v1/quick/ai-texts',
    {
      to_numbers: numbers,
      goal: o.goal,
      first_message: o.firstMessage,
      max_messages: o.maxMessages,
      conversation_timeout_hours: o.conversationTimeoutHours,
    },
    !!o.wait,
  );
}
