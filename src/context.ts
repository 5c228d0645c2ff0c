// What a command's run function receives: its streams, environment, global flags, and the one API
// client (created on first use, so commands that never call the API never load it), through which
// each of the command's writes goes with an Idempotency-Key of its own (kept on disk when its
// outcome is unknown, for the next run of the same request: src/unsettled.ts).
import type { Command } from 'commander';
import {
  bodyOf,
  buildPath,
  call,
  createClient,
  newIdempotencyKey,
  type ApiClient,
  type ApiResponse,
  type RequestOptions,
} from './client.js';
import { ApiCallError, CliError } from './errors.js';
import { NetworkError, type Known } from './faults.js';
import { fieldFlagsOf } from './field-flags.js';
import { forStderr, withIO, type IO } from './io.js';
import { dim } from './colors.js';
import type { Env } from './paths.js';
import { keyHonoured, settlementOf } from './retry.js';
import { visibleDeep } from './visible.js';
import { resolveNet, resolveTarget, type GlobalOptions, type NetSettings, type Target } from './settings.js';
import type { Unsettled, UnsettledWrite } from './unsettled.js';

export class Context {
  private clientP: Promise<ApiClient> | null = null;
  private targetV: Target | null = null;
  /** request field → the flag or argument it came from, for naming it in a validation error */
  fieldFlags: Record<string, string> = {};

  constructor(
    readonly io: IO,
    readonly env: Env,
    readonly globals: GlobalOptions,
  ) {}

  static of(io: IO, env: Env, cmd: Command): Context {
    const globals = cmd.optsWithGlobals() as GlobalOptions;
    // an environment variable set to the empty string counts as unset (VMV_PROFILE= is no profile)
    const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')) as Env;
    const ctx = new Context(globals.wide ? withIO(io, { wide: true }) : io, set, globals);
    ctx.fieldFlags = fieldFlagsOf(cmd);
    return ctx;
  }

  get json(): boolean {
    return !!this.globals.json;
  }

  target(): Target {
    return (this.targetV ??= resolveTarget(this.globals, this.env));
  }

  /** connections the client may open at once: a command needs one; a server of many callers (vmv mcp) sets more before its first call */
  connections = 1;

  /**
   * retries when neither --retries nor VMV_MAX_RETRIES says: a command that only looks (vmv status)
   * sets 0 before its first call, to report a target that does not answer at once
   */
  defaultRetries?: number;

  client(): Promise<ApiClient> {
    return (this.clientP ??= Promise.resolve().then(() =>
      createClient(this.target(), {
        ...this.net(),
        onRetry: (note) => this.say(note),
        onMark: (note) => this.say(note),
        connections: this.connections,
      }),
    ));
  }

  private net(): NetSettings {
    const net = resolveNet(this.globals, this.env);
    if (this.defaultRetries !== undefined && this.globals.retries === undefined && !this.env.VMV_MAX_RETRIES)
      net.retries = this.defaultRetries;
    return net;
  }

  /** A line on stderr about how a request is sent (a retry, a key reused), unless --json keeps stderr for the error document alone. */
  private say(note: string): void {
    if (!this.json) this.io.err(dim(forStderr(this.io), note) + '\n');
  }

  /** how many of the command's own writes have been sent (each takes the next key) */
  private writes = 0;
  private baseKey: Promise<string | undefined> | null = null;
  /** the last of the command's own writes that went through with an id: named if a later request fails */
  private done: Known['done'];
  /**
   * The command's first own write among the writes whose outcome was unknown (src/unsettled.ts):
   * its entry on disk, what the entry holds (`kept`), and whether this run took its key.
   */
  private unsettled: { entry: UnsettledWrite; kept: Unsettled | null; reused: boolean } | null = null;

  /**
   * The key of the command's next own write, and the --idempotency-key that gives it that key
   * again on a rerun: --idempotency-key KEY (on a base URL without one, the key kept from an earlier
   * run of the same request whose outcome was unknown, else a new UUID) for the first, KEY-2,
   * KEY-3, ... for the next, so every write has its own and a rerun repeats them in order.
   */
  private async ownKey(method: string, path: string, o: RequestOptions): Promise<{ key?: string; rerunKey?: string }> {
    const n = ++this.writes;
    const base = await (this.baseKey ??= this.firstKey(method, path, o));
    return base === undefined ? {} : { key: n === 1 ? base : await nthKey(base, n), rerunKey: base };
  }

  /** The key of the command's first own write (see ownKey), said on stderr when it is one kept from an earlier run. */
  private async firstKey(method: string, path: string, o: RequestOptions): Promise<string | undefined> {
    if (this.globals.idempotencyKey !== undefined) return this.globals.idempotencyKey;
    const fresh = await newIdempotencyKey(this.target());
    // in-process nothing is lost; /_sim keeps no keys: nothing to remember
    if (fresh === undefined || !keyHonoured(path)) return fresh;
    const { UnsettledWrite, unsettledId } = await import('./unsettled.js');
    const t = this.target();
    const id = unsettledId({
      baseUrl: t.baseUrl!,
      apiKey: t.apiKey,
      method,
      path: buildPath(path, o.query),
      body: bodyOf(o),
    });
    const entry = new UnsettledWrite(this.env, id, `${method} ${path}`);
    const kept = entry.read();
    const reused = kept !== null && !this.globals.newRequest;
    this.unsettled = { entry, kept, reused };
    if (!reused) return fresh;
    const ago = Math.max(1, Math.round((Date.now() - Date.parse(kept.created_at)) / 60_000));
    this.say(
      `Reusing Idempotency-Key ${kept.key} of this same request ${ago} min ago, whose outcome was unknown: it is not applied twice (--new-request sends a new one)`,
    );
    return kept.key;
  }

  /**
   * Calls the API (throwing on an error reply). A write is the command's own unless `o` says
   * `idempotencyKey`: its key is the command's next (see ownKey); a write given
   * `idempotencyKey: undefined` is apart from the command's (a quote, moving the clock, each of a
   * chat's messages) and takes a new key of its own on a base URL. Either way every retry of a
   * write sends its key again, so a lost reply never has it applied twice.
   */
  async call(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse> {
    const write = method !== 'GET' && method !== 'HEAD';
    const own = write && !('idempotencyKey' in o);
    const { key, rerunKey } = own
      ? await this.ownKey(method, path, o)
      : {
          key: write ? (o.idempotencyKey ?? (await newIdempotencyKey(this.target()))) : undefined,
          rerunKey: undefined,
        };
    const n = this.writes;
    try {
      const res = await call(await this.client(), method, path, {
        ...o,
        idempotencyKey: key,
        known: { rerunKey, done: this.done },
      });
      if (own && this.target().kind === 'remote') this.noteDone(res, rerunKey);
      if (own) this.settle(n, path, res.status, false, rerunKey);
      return res;
    } catch (e) {
      if (own && e instanceof ApiCallError)
        this.settle(n, path, e.status, e.details?.may_have_been_applied === true, rerunKey, e);
      if (own && e instanceof NetworkError) this.settle(n, path, null, e.failure.mayHaveApplied, rerunKey, e);
      if (e instanceof ApiCallError) {
        e.fieldFlags = this.fieldFlags;
        await this.addHint(e, o.body);
      }
      if (
        e instanceof ApiCallError &&
        e.code === 'idempotency_conflict' &&
        own &&
        (this.globals.idempotencyKey !== undefined || this.unsettled?.reused)
      )
        e.hint = conflictHint(key!, e, !!this.unsettled?.reused);
      throw e;
    }
  }

  /**
   * After the command's n-th own write ended (a reply's status, or null for none): keeps its key
   * for the next run when its outcome is unknown (src/unsettled.ts, settlementOf), and forgets a
   * kept one once answered, when the write answered is the last one left unknown (or a refusal, which ends
   * the command; or the kept key is an earlier one this run did not take). A kept key that could
   * not be written down is said on stderr, with the flag that does the same by hand.
   */
  private settle(n: number, path: string, status: number | null, mayHave: boolean, base?: string, e?: CliError): void {
    const u = this.unsettled;
    if (!u || base === undefined) return;
    const how = settlementOf(status, mayHave || u.reused);
    if (how === 'answered') {
      if (u.kept && (status! >= 400 || u.kept.key !== base || n >= u.kept.writes)) {
        u.entry.forget();
        u.kept = null;
      }
      return;
    }
    if (how !== 'unknown' || !keyHonoured(path)) return;
    const same = u.kept?.key === base ? u.kept : null;
    const kept: Unsettled = {
      key: base,
      writes: Math.max(n, same?.writes ?? 0),
      created_at: same?.created_at ?? new Date().toISOString(),
      request: u.entry.request,
    };
    try {
      u.entry.save(kept);
      u.kept = kept;
      if (e)
        e.hint = `${e.hint ? `${e.hint} ` : ''}Running this same command again within 24 hours reuses this key (vmv keeps it; --new-request sends a new request instead).`;
    } catch (err) {
      this.say(
        `Could not keep Idempotency-Key ${base} for a rerun (${(err as Error).message}): rerun with --idempotency-key ${base}.`,
      );
    }
  }

  /**
   * Puts the hint of the error's code (src/hints.ts) under it, for a simulator or a service (told
   * by the reply itself, with no request of its own); a reply that may have been applied keeps its
   * own hint, and one the client gave already (a Retry-After) comes first.
   */
  private async addHint(e: ApiCallError, body: unknown): Promise<void> {
    if (e.details) return;
    const { hintFor } = await import('./hints.js');
    const { code, message, fields } = e.envelope.error;
    const hint = hintFor({
      code,
      message,
      fields,
      status: e.status,
      simulator: !!e.fromSimulator,
      target: this.target(),
      body,
    });
    if (hint) e.hint = e.hint && e.status !== 401 && e.status !== 403 ? `${e.hint}\n${hint}` : hint;
  }

  /** Keeps the id an own write created, for the words of a later failure (the command's write went through). */
  private noteDone(res: ApiResponse, rerunKey: string | undefined): void {
    if (!/json/.test(res.headers['content-type'] ?? '')) return;
    try {
      const id = res.json<{ data?: { id?: unknown } }>()?.data?.id;
      if (typeof id === 'string') this.done = { id, rerunKey };
    } catch {
      // not JSON after all: nothing to name
    }
  }

  /**
   * Prints a reply: its body exactly as returned with --json, otherwise through `human`, given the
   * body with every string in it made visible (src/visible.ts): a value from outside is shown, never obeyed.
   */
  emit<T = any>(res: ApiResponse, human: (body: T) => void): void {
    if (this.json) this.io.out(res.text().endsWith('\n') ? res.text() : res.text() + '\n');
    else human(visibleDeep(res.json<T>()));
  }

  async close(): Promise<void> {
    if (this.clientP) await (await this.clientP).close();
  }
}

/**
 * A rerun with --idempotency-key whose request is not the first one's: the key did its work (the
 * first request was applied), and this run asked for something else with it — a relative time
 * (`--at +1h`) or an answer to what is pending now is worked out anew on each run.
 */
function conflictHint(key: string, e: ApiCallError, kept: boolean): string {
  const first =
    e.envelope.error.fields?.conflicts_with ?? (e.envelope.error as { conflicts_with?: unknown }).conflicts_with;
  return (
    `A request with Idempotency-Key ${key} was already applied${first ? ` (request ${String(first)})` : ''}, and this run's request is not the same ` +
    '(what a command works out anew on each run, such as a relative time like --at +1h, differs): check what the first request did before sending this one without the key' +
    (kept ? ' (--new-request).' : '.')
  );
}

/** The longest Idempotency-Key the API takes. */
const MAX_KEY = 255;

/**
 * The key of a command's n-th write, from the key of its first: KEY-n, or, where that would pass the
 * API's 255 characters, the SHA-256 of KEY (hex) and -n: the same on every rerun with KEY.
 */
async function nthKey(base: string, n: number): Promise<string> {
  const plain = `${base}-${n}`;
  if (plain.length <= MAX_KEY) return plain;
  const { createHash } = await import('node:crypto');
  return `${createHash('sha256').update(base).digest('hex')}-${n}`;
}
