// vmv calls place --caller-id C --to D: POST /v1/voice/calls
import type { Command } from 'commander';
import { action, e164Arg, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { CliError, EXIT, usage } from '../../src/errors.js';
import { fields } from '../../src/output.js';
import { followRead } from '../../src/poll.js';

interface Options {
  callerId: string;
  to: string;
  record: boolean;
  metadata?: string;
  wait?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('place')
      .description('Place a call from a verified caller ID (shown to the person called)')
      .requiredOption('--caller-id <number>', 'verified E.164 caller ID', e164Arg('--caller-id'))
      .requiredOption('--to <number>', 'E.164 destination', e164Arg('--to', { dial: true }))
      .option('--no-record', 'do not record the call')
      .option('--metadata <json>', 'a JSON object kept with the call')
      .option('--wait', 'wait until the call has ended, then show it; exit 5 unless it completed')
      .action(action(shell, run)),
    'vmv sim caller-id +14155550123',
    'vmv calls place --caller-id +14155550123 --to +14155550100 --wait',
    'vmv calls place --caller-id +14155550123 --to +14155550100 --no-record --metadata \'{"ticket":"T-1042"}\'',
  );
}

const render = (ctx: Context) => (c: any) =>
  fields(ctx.io, [
    ['id', c.id],
    ['status', c.status],
    ['from', c.from_number],
    ['to', c.to_number],
    ['duration', c.duration_seconds === null ? null : `${c.duration_seconds} s`],
    ['end reason', c.end_reason],
  ]);

export async function run(ctx: Context, o: Options): Promise<void> {
  let metadata: unknown;
  if (o.metadata !== undefined) {
    try {
      metadata = JSON.parse(o.metadata);
    } catch {
      throw usage('--metadata must be a JSON object, e.g. \'{"ticket": 42}\'.');
    }
  }
  const res = await ctx.call('POST', '/v1/voice/calls', {
    body: { caller_id: o.callerId, destination: o.to, record: o.record, metadata },
  });
  const id = res.json().data.id as string;
  if (!o.wait) return ctx.emit(res, () => ctx.io.out(`${id}\n`));
  const { data } = await followRead<{ data: any }>(ctx, `/v1/calls/${id}`, {
    done: (b) => !['RINGING', 'IN_PROGRESS'].includes(b.data.status),
    live: (b) => [`call ${id}: ${b.data.status}`],
    final: (b) => render(ctx)(b.data),
  });
  if (data.status !== 'COMPLETED')
    throw new CliError(`Call ${id} ended ${data.status} (${data.end_reason}).`, EXIT.failed);
}
