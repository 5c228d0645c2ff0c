// vmv webhooks create --url URL [--events ...] [--phone-number-id N] [--description D] [--sms]:
// POST /v1/voice/calls/webhooks or /v1/sms/webhooks. Prints the signing secret: creation is the one time it is shown.
import type { Command } from 'commander';
import { action, choicesArg, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { yellow } from '../../src/output.js';
import { KINDS, kindOf, printWebhook, withKind } from './view.js';

interface Options {
  url: string;
  events?: string[];
  phoneNumberId?: number;
  description?: string;
  sms?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withKind(
      parent.command('create').description('Register a webhook and print its signing secret (shown this once)'),
      'register',
    )
      .requiredOption(
        '--url <url>',
        'where events are POSTed (public https; the simulator also takes http on loopback)',
      )
      .option(
        '--events <types>',
        'call.started, call.ended (comma-separated or repeated; default both)',
        choicesArg('--events', ['call.started', 'call.ended']),
      )
      .option(
        '--phone-number-id <id>',
        'only events on this number of the workspace',
        intArg('--phone-number-id', 1, Number.MAX_SAFE_INTEGER),
      )
      .option('--description <text>', 'a note for the call webhook')
      .action(action(shell, run)),
    'vmv webhooks create --url https://example.com/hooks/vmv --events call.ended --description "CRM sync"',
    'vmv webhooks create --sms --url https://example.com/hooks/sms',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const kind = kindOf(o);
  if (kind === 'sms' && (o.events || o.description !== undefined))
    throw usage('--events and --description are for call webhooks; a text webhook always gets sms.received.');
  const body = { url: o.url, events: o.events, phone_number_id: o.phoneNumberId, description: o.description };
  const res = await ctx.call('POST', KINDS[kind].path, { body });
  ctx.emit(res, ({ data }: any) => {
    printWebhook(ctx, kind, data);
    ctx.io.err(
      yellow(
        forStderr(ctx.io),
        'Keep the secret now: it is never shown again (a lost secret means delete and create anew).',
      ) + '\n',
    );
  });
}
