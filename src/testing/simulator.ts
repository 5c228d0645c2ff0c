// startSimulator: the simulated service in-process on a loopback port, for a test of code that
// calls it. An in-memory world by default (nothing written to disk), a manual clock by default,
// the control plane's verbs as methods that return plain data, and reset() back to the world as it
// stood once started (same key, same seeded generator) without a new server.
import type { OutboxMessageSchema } from '../../simulator/control/outbox.js';
import type { SimWorkspaceSchema } from '../../simulator/control/workspace.js';
import type { Persona } from '../../simulator/calls/persona.js';
import type { Infer } from '../../simulator/core/schema.js';
import type { DeliveryAttemptSchema } from '../../simulator/history/index.js';
import type { App, RunningServer } from '../../simulator/index.js';
import { checkStartOptions, durationSeconds, idleBounds, shown, startMs } from './arguments.js';
import { all, control, webhookSecrets } from './control.js';
import { callerFrame, opened } from './open.js';
import { startReceiver, type WebhookReceiver } from './receiver.js';

export type { Persona };
/** An email, text or call the workspace sent, as `GET /_sim/outbox` shows it. */
export type OutboxMessage = Infer<typeof OutboxMessageSchema>;
/** A movement of the wallet or video credits, as `GET /_sim/ledger` shows it. */
export type LedgerEntry = Infer<typeof SimWorkspaceSchema>['ledger'][number];
/** One webhook delivery attempt, as `GET /_sim/webhook-deliveries` shows it. */
export type DeliveryAttempt = Infer<typeof DeliveryAttemptSchema>;

export interface SimulatorOptions {
  /** `manual` (the default): time stands still until advanced; `real`: wall time */
  clock?: 'manual' | 'real';
  /** the simulator's time at start (default: now); a manual clock stands there */
  now?: string | number | Date;
  /** the seed of the simulator's generator (default 1) */
  seed?: number;
  /** `memory` (the default): nothing is written to disk; a path: a data file kept there, its world reused */
  data?: 'memory' | (string & {});
  /** personas set at start, by phone number (E.164); reset() keeps them */
  personas?: Record<string, Persona>;
}

/** What `advanceUntilIdle` is told: its bounds. */
export interface IdleOptions {
  /** at most this many steps of the clock (default 1000) */
  maxSteps?: number;
  /** at most this far ahead of where it started, as `advance` takes it (default '31d') */
  maxTime?: string | number;
}

type Clock = { now: string; mode: 'real' | 'manual'; next_due_at: string | null; next_job_due_at: string | null };

/** The Store class and the server, from the simulator's bundle (loaded on the first start). */
const door = () => import('../../simulator/index.js');

/** A running simulator: see startSimulator. */
export class Simulator implements AsyncDisposable {
  /** `http://127.0.0.1:PORT`: where the code under test sends its requests */
  readonly url: string;
  /** the seeded workspace's full-access key (the same after reset()) */
  readonly apiKey: string;
  /** the environment a child process (the `vmv` CLI, a program under test) needs to reach it */
  readonly env: { VMV_BASE_URL: string; VMV_API_KEY: string };
  readonly #server: RunningServer;
  readonly #app: App;
  readonly #seeded: string;
  readonly #receivers = new Set<WebhookReceiver>();
  readonly #closed: () => void;
  #closing: Promise<void> | null = null;

  /** @internal use startSimulator */
  constructor(server: RunningServer, apiKey: string, seeded: string, where: string) {
    this.#server = server;
    this.#app = server.app;
    this.url = server.url;
    this.apiKey = apiKey;
    this.env = { VMV_BASE_URL: server.url, VMV_API_KEY: apiKey };
    this.#seeded = seeded;
    this.#closed = opened(this, `a simulator at ${server.url}`, where, () => this.close());
  }

  /** The other party: the persona a phone number meets on calls and texts (PUT /_sim/personas/{number}). */
  readonly persona = {
    set: async (number: string, persona: Persona): Promise<void> => {
      await control(this.#live('persona.set'), 'PUT', `/_sim/personas/${encodeURIComponent(number)}`, persona);
    },
    remove: async (number: string): Promise<void> => {
      await control(this.#live('persona.remove'), 'DELETE', `/_sim/personas/${encodeURIComponent(number)}`);
    },
  };

  /** Someone texts or calls one of the workspace's numbers, or answers a quick text (POST /_sim/inbound/...). */
  readonly inbound = {
    /** a text from `from` to `to`: the text record */
    text: async (t: { from: string; to: string; body: string }): Promise<Record<string, unknown>> =>
      (await control<{ data: Record<string, unknown> }>(this.#live('inbound.text'), 'POST', '/_sim/inbound/texts', t))
        .data,
    /** a call from `from` to `to`, routed by the number's configuration: the call record and its routing */
    call: async (c: {
      from: string;
      to: string;
      /** the caller's words to the AI */
      says?: string;
      /** keys pressed in the phone menu, in order */
      digits?: string;
    }): Promise<{ data: Record<string, unknown>; routing: Record<string, unknown> }> =>
      control(this.#live('inbound.call'), 'POST', '/_sim/inbound/calls', c),
  };

  /** The simulator's time. */
  async now(): Promise<Date> {
    this.#live('now');
    return new Date((await this.#clock()).now);
  }

  /**
   * Moves the clock forward by `by` (seconds, or '90s', '15m', '2h', '1d', '1h30m' as the CLI's
   * `sim advance` takes), running every transition that falls due on the way, in time order; the
   * webhook deliveries they make have been attempted when it returns. A duration that is none, or
   * negative, is a TypeError or RangeError at once.
   */
  async advance(by: string | number): Promise<Date> {
    const call = `advance(${shown(by)})`;
    const app = this.#live(call);
    const clock = await control<Clock>(app, 'POST', '/_sim/clock/advance', { seconds: durationSeconds(call, by) });
    return new Date(clock.now);
  }

  /**
   * Moves the clock to each next due transition in turn until none is left (what recurs on the
   * calendar, such as an AI number's monthly line, does not count). Bounded: past `maxSteps` steps
   * or `maxTime` ahead it throws, saying what is still due.
   */
  async advanceUntilIdle(o: IdleOptions = {}): Promise<Date> {
    this.#live('advanceUntilIdle');
    const { maxSteps, maxSeconds, maxTime } = idleBounds(o);
    const start = Date.parse((await this.#clock()).now);
    const limit = start + maxSeconds * 1000;
    for (let step = 0; ; step++) {
      const clock = await this.#clock();
      if (clock.next_job_due_at === null) return new Date(clock.now);
      const due = Date.parse(clock.next_job_due_at);
      if (step >= maxSteps || due > limit) {
        const bound =
          step >= maxSteps
            ? `${maxSteps} steps`
            : `${typeof maxTime === 'number' ? `${maxTime} s` : maxTime} ahead of ${new Date(start).toISOString()}`;
        throw new Error(`advanceUntilIdle stopped after ${bound}: ${await this.#nextDue()} is still due.`);
      }
      await this.#moveTo(clock.next_job_due_at);
    }
  }

  /** Every email, text and call the workspace sent, newest first (GET /_sim/outbox). */
  async outbox(o: { kind?: 'email' | 'text' | 'call' } = {}): Promise<OutboxMessage[]> {
    return all(this.#live('outbox'), '/_sim/outbox', { kind: o.kind });
  }

  /** Every movement of the wallet and credits kept, newest first (GET /_sim/ledger). */
  async ledger(): Promise<LedgerEntry[]> {
    return all(this.#live('ledger'), '/_sim/ledger');
  }

  /** Every webhook delivery attempt, oldest first (GET /_sim/webhook-deliveries). */
  async deliveries(): Promise<DeliveryAttempt[]> {
    return (await control<{ data: DeliveryAttempt[] }>(this.#live('deliveries'), 'GET', '/_sim/webhook-deliveries'))
      .data;
  }

  /** A receiver for webhook deliveries on a loopback port; closed with the simulator. */
  async webhookReceiver(): Promise<WebhookReceiver> {
    this.#live('webhookReceiver');
    const receiver = await startReceiver(
      {
        secrets: (origin) => webhookSecrets(this.#app, origin),
        step: () => this.#step(),
        describeClock: async () => `the clock is at ${(await this.#clock()).now}, next due: ${await this.#nextDue()}`,
      },
      callerFrame(),
    );
    const close = receiver.close;
    const closing = async () => (this.#receivers.delete(receiver), close());
    Object.assign(receiver, { close: closing, [Symbol.asyncDispose]: closing });
    this.#receivers.add(receiver);
    return receiver;
  }

  /**
   * Back to the world as it stood once started (its personas set), on the clock it started on: the
   * same API key, the seeded generator from its start. Receivers forget what they received. It
   * first waits for what is in flight (a webhook delivery to a slow receiver: up to its 10 s timeout),
   * so nothing of the old world lands in the new one.
   */
  async reset(): Promise<void> {
    this.#live('reset');
    await this.#app.idle();
    await this.#app.store.withLock(async (ss) => {
      const s = await ss.begin();
      Object.assign(s.data, JSON.parse(this.#seeded));
      s.markDirty();
      await ss.commit(s);
    });
    for (const r of this.#receivers) r.clear();
  }

  /** Stops the server and every receiver; a data file keeps the world. Calling it again does nothing. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed();
      await Promise.all([...this.#receivers].map((r) => r.close()));
      await this.#server.close();
    })();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** The simulator's request handler while it is open; after close() an error naming `call`. */
  #live(call: string): App {
    if (this.#closing) throw new Error(`vmv/testing: ${call} on the simulator at ${this.url}, which is closed.`);
    return this.#app;
  }

  #clock(): Promise<Clock> {
    return control<Clock>(this.#app, 'GET', '/_sim/clock');
  }

  async #moveTo(at: string): Promise<void> {
    await control(this.#app, 'POST', '/_sim/clock', { now: at, at_least: true });
  }

  /** One step for a receiver's wait: a manual clock moved to its next due transition (false: none, or a real clock). */
  async #step(): Promise<boolean> {
    await this.#app.idle();
    const clock = await this.#clock();
    if (clock.mode !== 'manual' || clock.next_due_at === null) return false;
    await this.#moveTo(clock.next_due_at);
    return true;
  }

  /** What falls due next, in words (GET /_sim/status). */
  async #nextDue(): Promise<string> {
    const status = await control<{ next_due: { at: string; type: string; what: string } | null }>(
      this.#app,
      'GET',
      '/_sim/status',
    );
    const n = status.next_due;
    return n ? `${n.what} (${n.type}) at ${n.at}` : 'nothing';
  }
}

/**
 * Starts a simulator in-process on `127.0.0.1` at a free port: a freshly seeded in-memory world
 * (nothing written to disk), on a manual clock unless `clock: 'real'`. Starting and closing one
 * takes a few milliseconds, so each test can have its own; `reset()` is cheaper still.
 *
 * Requests the simulator refuses are answered, never thrown: the code under test sees the HTTP
 * status and the error envelope. Only the fixture's own methods throw (a `SimulatorError` naming
 * every field's reason); a wrong argument is a TypeError or RangeError naming the call. A
 * simulator left open at the end of the run never keeps the process alive; when the process ends
 * (a script, `node --test`: not vitest's or Jest's workers) it is reported on stderr with the line
 * that started it.
 *
 * @example A quick call, its webhook and what it cost
 * ```ts
 * import { startSimulator } from 'vmv/testing';
 *
 * await using sim = await startSimulator({ now: '2026-03-02T09:00:00Z' });
 * const hooks = await sim.webhookReceiver();
 * const api = (path: string, body: unknown) =>
 *   fetch(`${sim.url}${path}`, {
 *     method: 'POST',
 *     headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
 *     body: JSON.stringify(body),
 *   });
 * await api('/v1/voice/calls/webhooks', { url: hooks.url, events: ['call.ended'] });
 * await api('/v1/quick/ai-calls', { to_numbers: ['+14155550123'], goal: 'Confirm Tuesday at 10' });
 *
 * const ended = await hooks.waitFor('call.ended', { timeout: 5000 });
 * console.log(ended.event.data.call);
 * const [call] = await sim.outbox({ kind: 'call' });
 * const spent: number = (await sim.ledger()).reduce((sum, e) => sum + e.wallet_cents, 0);
 * console.log(call.to, spent);
 * ```
 *
 * @example The other party, the clock, and what a refusal says
 * ```ts
 * import { SimulatorError, startSimulator } from 'vmv/testing';
 *
 * const sim = await startSimulator({
 *   personas: { '+14155550123': { call: { attempts: [{ result: 'busy' }, { result: 'answer' }] } } },
 * });
 * // a number of the workspace's own (the control plane needs no key), for someone to call or text
 * const line = (await fetch(`${sim.url}/_sim/phone-numbers`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ stack: 't2' }),
 * }).then((r) => r.json())) as { phone_number: string };
 * await sim.inbound.call({ from: '+14155550199', to: line.phone_number, says: 'Can I move to Thursday?' });
 * await sim.inbound.text({ from: '+14155550199', to: line.phone_number, body: 'Thursday at 10?' });
 * await sim.advance('5m');
 * await sim.advanceUntilIdle({ maxTime: '2d' });
 * try {
 *   await sim.persona.set('+14155550123', { call: { attempts: [] } });
 * } catch (e) {
 *   if (e instanceof SimulatorError) console.log(e.status, e.message); // 400, and every field's reason
 * }
 * console.log(await sim.now(), sim.env.VMV_BASE_URL, (await sim.deliveries()).length);
 * await sim.reset();
 * await sim.close();
 * ```
 */
export async function startSimulator(o: SimulatorOptions = {}): Promise<Simulator> {
  const where = callerFrame();
  checkStartOptions(o);
  const { startServer } = await door();
  const at = startMs(o.now);
  const { store, apiKey } = await openWorld(await door(), o, at);
  const server = await startServer({ store, port: 0 });
  // neither the listening socket nor a connection keeps the process alive: a simulator left open does not hang the runner
  server.server.unref();
  server.server.on('connection', (socket) => socket.unref());
  try {
    for (const [number, persona] of Object.entries(o.personas ?? {}))
      await control(server.app, 'PUT', `/_sim/personas/${encodeURIComponent(number)}`, persona);
    const seeded = await store.withLock(async (ss) => JSON.stringify((await ss.begin()).data));
    return new Simulator(server, apiKey, seeded, where);
  } catch (e) {
    await server.close();
    throw e;
  }
}

/**
 * The store of a new simulator and its workspace's key: in memory, or a data file's world (kept
 * if it holds one; the options still set its clock, as `vmv sim serve` does). A data file the
 * simulator cannot use is an Error that names the option, the store's reason after it.
 */
async function openWorld(
  { Store, setMode, realClock, clockNow }: Awaited<ReturnType<typeof door>>,
  o: SimulatorOptions,
  at: number | undefined,
) {
  const file = o.data === undefined || o.data === 'memory' ? null : o.data;
  try {
    const store = new Store(file, { seed: o.seed, clock: setMode(realClock(), o.clock ?? 'manual', at) });
    const apiKey = await store.withLock(async (ss) => {
      const s = await ss.begin();
      const c = s.data.meta.clock;
      if (at !== undefined && at < clockNow(c))
        throw new RangeError(
          `now (${new Date(at).toISOString()}) is before the data file's clock (${new Date(clockNow(c)).toISOString()}), which moves only forward.`,
        );
      if (o.clock !== undefined || at !== undefined) {
        s.data.meta.clock = setMode(c, o.clock ?? c.mode, at ?? clockNow(c));
        await ss.commit(s);
      }
      return s.data.meta.default_api_key;
    });
    return { store, apiKey };
  } catch (e) {
    if (file === null) throw e;
    const err = e instanceof RangeError ? RangeError : Error;
    throw new err(`startSimulator({ data: '${file}' }): ${(e as Error).message}`, { cause: e });
  }
}
