// vmv numbers config get ID [--section S]: GET /v1/phone-numbers/{id}/config
import type { Command } from 'commander';
import { action, choiceArg, withExamples, type Shell } from '../../../src/command.js';
import type { Context } from '../../../src/context.js';

export const SECTIONS = [
  'name',
  'is_active',
  'business_name',
  'business_description',
  'timezone',
  'stack',
  'call_settings',
  'voice',
  'sms',
  'knowledge',
  'qualification',
  'booking',
  'transfers',
  'sms_referrals',
  'forwarding',
  'ivr',
];

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('get')
      .argument('<id>', 'number id')
      .description('Show the full configuration (as indented JSON), or one section')
      .option('--section <name>', `one of: ${SECTIONS.join(', ')}`, choiceArg('--section', SECTIONS))
      .addHelpText(
        'after',
        '\nWith --json the whole response body is printed as returned (pipe it to jq for a section).',
      )
      .action(action(shell, run)),
    'vmv numbers config get 1001',
    'vmv numbers config get 1001 --section voice',
  );
}

export async function run(ctx: Context, o: { section?: string }, [id]: string[]): Promise<void> {
  const res = await ctx.call('GET', `/v1/phone-numbers/${encodeURIComponent(id)}/config`);
  ctx.emit(res, ({ data }: any) => ctx.io.out(JSON.stringify(o.section ? data[o.section] : data, null, 2) + '\n'));
}
