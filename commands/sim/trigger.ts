// vmv sim trigger EVENT: sets off a webhook event with a real simulated call or text on a workspace
// number, like `stripe trigger`: call.started and call.ended by a call to the number (POST
// /_sim/inbound/calls; for call.ended the clock is moved to the call's end), sms.received by a text
// to it (POST /_sim/inbound/texts). Nothing is faked: the event goes the normal way, signed, to
// every webhook registered for it (and so to `vmv webhooks listen`), with its retries.
import type { Command } from 'commander';
import { action, choiceArg, e164Arg, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { CliError, EXIT } from '../../src/errors.js';

const EVENTS = ['call.started', 'call.ended', 'sms.received'] as const;

interface Options {
  phoneNumberId?: number;
  from: string;
  says?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('trigger')
      .argument('<event>', EVENTS.join(', '), choiceArg('<event>', EVENTS))
      .description(
        'Set off a webhook event with a real simulated call or text on a workspace number (every webhook registered for it gets it, signed)',
      )
      .option(
        '--phone-number-id <id>',
        "the workspace number called or texted (default: the workspace's first ready number; one is added when it has none)",
        intArg('--phone-number-id', 1, Number.MAX_SAFE_INTEGER),
      )
      .option('--from <number>', 'the person calling or texting', e164Arg('--from'), '+14155550100')
      .option('--says <text>', 'what the caller says to the AI agent, or the text sent')
      .action(action(shell, run)),
    'vmv sim trigger call.ended',
    'vmv sim trigger sms.received --says "Is Tuesday still free?"',
    'vmv sim trigger call.started --phone-number-id 1001 --from +14155550199',
  );
}

interface NumberRow {
  id: number;
  phone_number: string;
  status: string;
}

/** The workspace number the event is set off on: the one asked for, else the first ready one, else a new one. */
async function numberFor(ctx: Context, id: number | undefined): Promise<NumberRow> {
  const rows: NumberRow[] = [];
  for (let cursor: string | undefined, i = 0; i < 1000; i++) {
    const page = (await ctx.call('GET', '/v1/phone-numbers', { query: { limit: 100, cursor } })).json<{
      data: NumberRow[];
      meta?: { cursor?: string };
    }>();
    rows.push(...page.data);
    cursor = page.meta?.cursor;
    if (!cursor) break;
  }
  if (id !== undefined) {
    const n = rows.find((r) => r.id === id);
    if (!n) throw new CliError(`The workspace has no number ${id}.`, EXIT.usage, 'vmv numbers list shows its numbers.');
    if (n.status !== 'ready')
      throw new CliError(`Number ${id} is ${n.status}, not ready: it takes no calls or texts yet.`, EXIT.usage);
    return n;
  }
  const ready = rows.find((r) => r.status === 'ready');
  if (ready) return ready;
  const added = (await ctx.call('POST', '/_sim/phone-numbers', { body: { stack: 't2', name: 'Triggers' } })).json<{
    id: number;
    phone_number: string;
  }>();
  ctx.io.err(`The workspace had no ready number: added ${added.phone_number} (number ${added.id}).\n`);
  return { id: added.id, phone_number: added.phone_number, status: 'ready' };
}

/** Moves the clock, step by step through what is due, until the call has ended (the simulator's normal course, only sooner). */
async function runToEnd(ctx: Context, callId: string): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const call = (await ctx.call('GET', `/v1/calls/${callId}`)).json<{
      data: { status: string; ended_at: string | null };
    }>().data;
    if (call.ended_at) return call.status;
    const clock = (await ctx.call('GET', '/_sim/clock')).json<{ next_job_due_at: string | null }>();
    if (!clock.next_job_due_at) break;
    await ctx.call('POST', '/_sim/clock', {
      body: { now: clock.next_job_due_at, at_least: true },
      idempotencyKey: undefined,
      repeatable: true,
    });
  }
  throw new CliError(`Call ${callId} did not end: nothing more is due on the simulator clock.`, EXIT.api);
}

export async function run(ctx: Context, o: Options, [event]: string[]): Promise<void> {
  const n = await numberFor(ctx, o.phoneNumberId);
  if (event === 'sms.received') {
    const res = await ctx.call('POST', '/_sim/inbound/texts', {
      body: { from: o.from, to: n.phone_number, body: o.says ?? 'Hi, is this still available?' },
    });
    return ctx.emit(res, ({ data }: any) => {
      ctx.io.out(`${data.id}\n`);
      ctx.io.err(`sms.received: ${o.from} texted ${n.phone_number} (number ${n.id}).\n`);
    });
  }
  const res = await ctx.call('POST', '/_sim/inbound/calls', {
    body: { from: o.from, to: n.phone_number, says: o.says },
  });
  const call = res.json<{ data: { id: string } }>().data;
  if (event === 'call.ended') {
    const status = await runToEnd(ctx, call.id);
    const ended = await ctx.call('GET', `/v1/calls/${call.id}`);
    return ctx.emit(ended, ({ data }: any) => {
      ctx.io.out(`${data.id}\n`);
      ctx.io.err(
        `call.started and call.ended: ${o.from} called ${n.phone_number} (number ${n.id}); the clock moved to its end (${data.ended_at}), ${status}.\n`,
      );
    });
  }
  ctx.emit(res, ({ data }: any) => {
    ctx.io.out(`${data.id}\n`);
    ctx.io.err(
      `call.started: ${o.from} is calling ${n.phone_number} (number ${n.id}); it rings on the simulator clock.\n`,
    );
  });
}
