// vmv webhooks listen: like `stripe listen`. Starts a receiver on a loopback port, registers a call
// webhook and a text webhook for it (at its loopback address when the service runs on this machine,
// else at --public-url, for a tunnel the user runs), prints every verified event, forwards each to
// --forward-to, and removes its webhooks on Ctrl-C or SIGTERM before exiting 0.
// Status lines go to stderr; stdout has one line (or one JSON object) per event.
import type { Command } from 'commander';
import { action, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { CliError, EXIT, usage } from '../../src/errors.js';
import { forStderr, onStop } from '../../src/io.js';
import { dim, green } from '../../src/output.js';
import { eventList, KINDS, type Kind } from './view.js';

interface Options {
  events?: string[];
  phoneNumberId?: number;
  forwardTo?: string;
  publicUrl?: string;
  port: number;
  printSecret?: boolean;
}

const EVENT_TYPES = ['call.started', 'call.ended', 'sms.received'];
/** On the embedded simulator nobody else runs the clock: listen looks for due transitions this often (like sim serve). */
const PUMP_MS = 1000;

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('listen')
      .description(
        'Receive events locally: registers webhooks for a local receiver, prints and forwards each event, removes them on exit',
      )
      .option('--events <types>', `${EVENT_TYPES.join(', ')} (comma-separated or repeated; default all)`, eventList)
      .option(
        '--phone-number-id <id>',
        'only events on this number of the workspace',
        intArg('--phone-number-id', 1, Number.MAX_SAFE_INTEGER),
      )
      .option('--forward-to <url>', 'POST each event (raw body and X-Service-* headers unchanged) to this URL')
      .option(
        '--public-url <url>',
        'the https URL a tunnel you run serves this receiver at; needed when the service is not on this machine',
      )
      .option('--port <port>', 'local port of the receiver (0: a free one)', intArg('--port', 0, 65535), 0)
      .option('--print-secret', 'print the signing secrets on stderr (to verify forwarded events)')
      .addHelpText('after', '\nWith --json, each event is printed as one JSON object per line, ready for jq.')
      .action(action(shell, run)),
    'vmv webhooks listen --forward-to http://localhost:3000/webhooks --print-secret',
    'vmv webhooks listen --events sms.received --json | jq -r .data.body',
  );
}

function httpUrl(flag: string, raw: string): string {
  let u: URL | null = null;
  try {
    u = new URL(raw);
  } catch {
    // reported below
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
    throw usage(`${flag} must be an http(s) URL, got "${raw}".`);
  return raw;
}

function parseEvents(raw: string[] | undefined): string[] {
  const events = raw ?? EVENT_TYPES;
  const unknown = events.find((e) => !EVENT_TYPES.includes(e));
  if (unknown !== undefined || events.length === 0)
    throw usage(`--events takes ${EVENT_TYPES.join(', ')}${unknown ? `, got "${unknown}"` : ''}.`);
  return events;
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const events = parseEvents(o.events);
  const forwardTo = o.forwardTo === undefined ? undefined : httpUrl('--forward-to', o.forwardTo);
  const publicUrl = o.publicUrl === undefined ? undefined : httpUrl('--public-url', o.publicUrl);
  const target = ctx.target();
  const { isLoopbackHost } = await import('../../src/webhooks.js');
  if (!publicUrl && target.kind === 'remote' && !isLoopbackHost(new URL(target.baseUrl!).hostname))
    throw usage(
      `--public-url is needed: the service at ${target.baseUrl} cannot reach this machine's loopback address.`,
      "Run a tunnel to the receiver's port (--port N) and pass the tunnel's https URL as --public-url.",
    );

  const stop = untilSignal();
  const { startReceiver } = await import('./receiver.js');
  const receiver = await startReceiver({ io: ctx.io, json: ctx.json, forwardTo, publicUrl, port: o.port }).catch(
    (e: NodeJS.ErrnoException) => {
      stop.dispose();
      throw usage(`Cannot listen on 127.0.0.1:${o.port}: ${e.code ?? e.message}`);
    },
  );
  const registered: { kind: Kind; id: string }[] = [];
  const io = forStderr(ctx.io);
  let pump: NodeJS.Timeout | null = null;
  try {
    const url = publicUrl ?? `http://127.0.0.1:${receiver.port}/`;
    const callEvents = events.filter((e) => e !== 'sms.received');
    const wanted: [Kind, Record<string, unknown>][] = [];
    if (callEvents.length > 0)
      wanted.push([
        'call',
        { url, events: callEvents, phone_number_id: o.phoneNumberId, description: 'vmv webhooks listen' },
      ]);
    if (events.includes('sms.received')) wanted.push(['sms', { url, phone_number_id: o.phoneNumberId }]);
    for (const [kind, body] of wanted) {
      const w = (await ctx.call('POST', KINDS[kind].path, { body })).json<{ data: { id: string; secret: string } }>()
        .data;
      registered.push({ kind, id: w.id });
      receiver.secrets.push(w.secret);
      ctx.io.err(
        `Registered ${KINDS[kind].noun} ${w.id} for ${kind === 'call' ? callEvents.join(', ') : 'sms.received'}\n`,
      );
      if (o.printSecret) ctx.io.err(`Signing secret of ${KINDS[kind].noun} ${w.id}: ${w.secret}\n`);
    }
    if (forwardTo) ctx.io.err(`Forwarding events to ${forwardTo}\n`);
    if (publicUrl) ctx.io.err(dim(io, `The tunnel at ${publicUrl} must lead to 127.0.0.1:${receiver.port}.`) + '\n');
    ctx.io.err(
      `${green(io, 'Ready')}: receiving events at ${url} ${dim(io, '(Ctrl-C to stop; the webhooks are removed on exit)')}\n`,
    );
    if (target.kind === 'embedded') pump = pumpEmbedded(ctx);
    await stop.signalled;
  } finally {
    if (pump) clearInterval(pump);
    try {
      await unregister(ctx, registered);
    } finally {
      // signals keep being caught until the webhooks are gone: a second Ctrl-C must not leave them behind
      stop.dispose();
      await receiver.close();
    }
  }
}

/** Resolves on the first SIGINT or SIGTERM; until disposed, those signals no longer end the process at once. */
function untilSignal(): { signalled: Promise<void>; dispose(): void } {
  let resolve!: () => void;
  const signalled = new Promise<void>((r) => (resolve = r));
  const on = () => resolve();
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  const unregister = onStop(on); // also when stdout's reader goes away (| head)
  return { signalled, dispose: () => (process.off('SIGINT', on), process.off('SIGTERM', on), unregister()) };
}

/**
 * A request now and then runs what fell due on the embedded simulator's clock, and so delivers its
 * events. When it fails (a full disk, a damaged journal), nothing is delivered: the first failure
 * is said on stderr, each different one after it, and the recovery.
 */
function pumpEmbedded(ctx: Context): NodeJS.Timeout {
  let busy = false;
  const health = clockHealth((line) => ctx.io.err(line + '\n'));
  return setInterval(() => {
    if (busy) return;
    busy = true;
    void ctx
      .call('GET', '/_sim/clock')
      .then(
        () => health.ok(),
        (e: Error & { code?: unknown }) => health.failed(typeof e.code === 'string' ? e.code : e.message, e.message),
      )
      .finally(() => (busy = false));
  }, PUMP_MS);
}

/** The clock pump's state as stderr says it: a line when it starts failing, when the failure changes, and when it runs again. */
export function clockHealth(say: (line: string) => void): { ok(): void; failed(kind: string, message: string): void } {
  let failing: string | null = null;
  return {
    ok() {
      if (failing === null) return;
      failing = null;
      say("The simulator's clock runs again: events that fell due are delivered.");
    },
    /** `kind`: what tells one failure from another (an error code), so a failure repeated each second is said once */
    failed(kind, message) {
      if (failing === kind) return;
      const first = failing === null;
      failing = kind;
      say(
        first
          ? `The simulator's clock cannot run, so no event is delivered until it can (tried again every ${PUMP_MS / 1000}s): ${message}`
          : `The simulator's clock still cannot run, now: ${message}`,
      );
    },
  };
}

async function unregister(ctx: Context, registered: { kind: Kind; id: string }[]): Promise<void> {
  const failed: string[] = [];
  for (const { kind, id } of registered) {
    try {
      await ctx.call('DELETE', `${KINDS[kind].path}/${encodeURIComponent(id)}`, { body: {} });
      ctx.io.err(`Removed ${KINDS[kind].noun} ${id}\n`);
    } catch (e) {
      failed.push(
        `${KINDS[kind].noun} ${id} (${(e as Error).message}): vmv webhooks delete ${id}${kind === 'sms' ? ' --sms' : ''}`,
      );
    }
  }
  if (failed.length > 0) throw new CliError(`Could not remove ${failed.join('; ')}`, EXIT.api);
}
