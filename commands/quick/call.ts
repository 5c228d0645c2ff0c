// vmv quick call NUMBERS... --goal G: POST /v1/quick/ai-calls
import type { Command } from 'commander';
import { action, e164Args, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { startJob } from './start.js';

interface Options {
  goal: string;
  instructions?: string;
  openingMessage?: string;
  voice?: string;
  voiceModelTier?: string;
  language?: string;
  retryAttempts?: number;
  retryDelayMinutes?: number;
  maxCallDurationSeconds?: number;
  voicemail?: boolean;
  voicemailMessage?: string;
  contactName?: string;
  wait?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('call')
      .argument('<numbers...>', 'E.164 numbers to call', e164Args('<numbers...>', { dial: true }))
      .description(
        'An AI agent calls each number toward a goal, with retries (0.20 USD per call placed + 0.20 USD/min)',
      )
      .requiredOption('--goal <text>', 'the outcome to work toward')
      .option('--instructions <text>', 'tone, facts the agent may state, objections to expect')
      .option(
        '--opening-message <text>',
        'first thing said once the recipient speaks ({{CONTACT_NAME}} is substituted)',
      )
      .option('--voice <name>', "voice: one a number's agent can have (vmv numbers voices ID lists them)")
      .option('--voice-model-tier <tier>', 'standard or premium')
      .option('--language <code>', 'language, e.g. en-US')
      .option('--retry-attempts <n>', 'retries for an unanswered number (default 2)', intArg('--retry-attempts', 0, 10))
      .option(
        '--retry-delay-minutes <n>',
        'wait between attempts (default 10)',
        intArg('--retry-delay-minutes', 1, 10080),
      )
      .option(
        '--max-call-duration-seconds <n>',
        'hard stop on call length (default 600)',
        intArg('--max-call-duration-seconds', 10, 7200),
      )
      .option('--voicemail', 'leave a voicemail when one answers')
      .option('--no-voicemail', 'do not leave voicemails (the default)')
      .option('--voicemail-message <text>', 'exactly what to say on voicemail')
      .option('--contact-name <name>', 'substituted for {{CONTACT_NAME}}')
      .option(
        '--wait',
        'wait for the job to end, showing progress on a terminal; exit 5 if any target failed (no answer is an outcome)',
      )
      .addHelpText(
        'after',
        '\nSimulator scenario numbers (last four digits): 0100 goal achieved, 0101 not interested, 0102 rings out,\n0103 voicemail, 0104 busy, 0105 answers on the second attempt, 0106 provider failure, 0107 call back later.',
      )
      .action(action(shell, run)),
    'vmv quick call +14155550100 --goal "Confirm Tuesday\'s 3pm appointment" --wait',
    'vmv quick call +14155550100 +14155550103 --goal "Remind them the invoice is due Friday" --voicemail --voicemail-message "Hi, this is Acme: your invoice is due Friday." --retry-attempts 1',
  );
}

export async function run(ctx: Context, o: Options, numbers: string[]): Promise<void> {
  await startJob(
    ctx,
    '/v1/quick/ai-calls',
    {
      to_numbers: numbers,
      goal: o.goal,
      instructions: o.instructions,
      opening_message: o.openingMessage,
      voice: o.voice,
      voice_model_tier: o.voiceModelTier,
      language: o.language,
      retry_attempts: o.retryAttempts,
      retry_delay_minutes: o.retryDelayMinutes,
      max_call_duration_seconds: o.maxCallDurationSeconds,
      voicemail_enabled: o.voicemail,
      voicemail_message: o.voicemailMessage,
      contact_name: o.contactName,
    },
    !!o.wait,
  );
}
