// vmv quick number --area-code A: POST /v1/quick/ai-numbers (and --wait until it is ready)
import type { Command } from 'commander';
import { action, areaCodeArg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { CliError, EXIT } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { dim, fields } from '../../src/output.js';
import { followRead } from '../../src/poll.js';

interface Options {
  areaCode: string;
  name?: string;
  businessName?: string;
  businessDescription?: string;
  greeting?: string;
  handleCalls: boolean;
  handleTexts?: boolean;
  wait?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('number')
      .description('Buy a number with an AI agent answering it (5 USD a month)')
      .requiredOption('--area-code <code>', '3-digit area code', areaCodeArg('--area-code'))
      .option('--name <name>', 'agent name')
      .option('--business-name <name>', 'business the agent speaks for')
      .option('--business-description <text>', 'what the business does')
      .option('--greeting <text>', 'what the agent says when it answers')
      .option('--no-handle-calls', 'do not answer inbound calls')
      .option('--handle-texts', 'also answer inbound texts')
      .option('--wait', 'wait until the number is ready (or failed); exit 5 if it failed')
      .action(action(shell, run)),
    'vmv quick number --area-code 415 --name Ava --business-name "Acme Dental" --greeting "Thanks for calling Acme Dental!" --wait',
    'vmv quick number --area-code 212 --handle-texts --no-handle-calls',
  );
}

/** The line's state: its next monthly charge, or the month it owes while suspended. */
function line(n: any): string {
  if (n.suspended) return `suspended: the month due ${n.next_charge_at} is unpaid (top up the wallet to resume)`;
  return n.next_charge_at ? `5.00 USD a month, next charged ${n.next_charge_at}` : 'none';
}

export const renderNumber = (ctx: Context) => (n: any) =>
  fields(ctx.io, [
    ['id', n.id],
    ['status', n.status],
    ['number', n.phone_number],
    ['line', line(n)],
    ['calls', n.handles_calls ? 'answered by the agent' : 'not answered'],
    ['texts', n.handles_texts ? 'answered by the agent' : 'not answered'],
    ['agent', n.agent.name],
    ['voice', `${n.agent.voice} (${n.agent.language})`],
    ['greeting', n.agent.greeting],
  ]);

export async function run(ctx: Context, o: Options): Promise<void> {
  const res = await ctx.call('POST', '/v1/quick/ai-numbers', {
    body: {
      area_code: o.areaCode,
      name: o.name,
      business_name: o.businessName,
      business_description: o.businessDescription,
      greeting: o.greeting,
      handle_calls: o.handleCalls,
      handle_texts: o.handleTexts,
    },
  });
  const created = res.json().data;
  if (!o.wait) {
    ctx.emit(res, (b: any) => {
      ctx.io.out(`${b.data.id}\n`);
      ctx.io.err(
        dim(
          forStderr(ctx.io),
          `Number ${b.data.id} is provisioning. Follow it: vmv quick status ${b.data.id} --watch`,
        ) + '\n',
      );
    });
    return;
  }
  await followNumber(ctx, String(created.id), true);
}

/** Follows an AI number until it is no longer provisioning. */
export async function followNumber(ctx: Context, id: string, failOnFailed: boolean): Promise<void> {
  const { data } = await followRead<{ data: any }>(ctx, `/v1/quick/ai-numbers/${encodeURIComponent(id)}`, {
    done: (b) => b.data.status !== 'provisioning',
    live: (b) => [`number ${b.data.id}: ${b.data.status}${b.data.phone_number ? ` ${b.data.phone_number}` : ''}`],
    final: (b) => renderNumber(ctx)(b.data),
  });
  if (failOnFailed && data.status === 'failed')
    throw new CliError(`Number ${id} could not be provisioned.`, EXIT.failed);
}
