// What a command's run function receives: its streams, environment, global flags, and the one API
// client (created on first use, so commands that never call the API never load it), through which
// each of the command's writes goes with an Idempotency-Key of its own.
import type { Command } from 'commander';
import {
  call,
  createClient,
  newIdempotencyKey,
  type ApiClient,
  type ApiResponse,
  type RequestOptions,
} from './client.js';
import { ApiCallError } from './errors.js';
import type { Known } from './faults.js';
import { fieldFlagsOf } from './field-flags.js';
import { forStderr, withIO, type IO } from './io.js';
import { dim } from './colors.js';
import type { Env } from './paths.js';
import { visibleDeep } from './visible.js';
import { resolveNet, resolveTarget, type GlobalOptions, type Target } from './settings.js';

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

  client(): Promise<ApiClient> {
    // a retry is said on stderr, unless --json keeps stderr for the error document alone
    const onRetry = this.json ? undefined : (note: string) => this.io.err(dim(forStderr(this.io), note) + '\n');
    return (this.clientP ??= Promise.resolve().then(() =>
      createClient(this.target(), { ...resolveNet(this.globals, this.env), onRetry, connections: this.connections }),
    ));
  }

  /** how many of the command's own writes have been sent (each takes the next key) */
  private writes = 0;
  private baseKey: Promise<string | undefined> | null = null;
  /** the last of the command's own writes that went through with an id: named if a later request fails */
  private done: Known['done'];

  /**
   * The key of the command's next own write, and the --idempotency-key that gives it that key
   * again on a rerun: --idempotency-key KEY (on a base URL without one, a new UUID) for the first,
   * KEY-2, KEY-3, ... for the next, so every write has its own and a rerun repeats them in order.
   */
  private async ownKey(): Promise<{ key?: string; rerunKey?: string }> {
    const n = ++this.writes;
    const base = await (this.baseKey ??=
      this.globals.idempotencyKey !== undefined
        ? Promise.resolve(this.globals.idempotencyKey)
        : newIdempotencyKey(this.target()));
    return base === undefined ? {} : { key: n === 1 ? base : await nthKey(base, n), rerunKey: base };
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
      ? await this.ownKey()
      : {
          key: write ? (o.idempotencyKey ?? (await newIdempotencyKey(this.target()))) : undefined,
          rerunKey: undefined,
        };
    try {
      const res = await call(await this.client(), method, path, {
        ...o,
        idempotencyKey: key,
        known: { rerunKey, done: this.done },
      });
      if (own && this.target().kind === 'remote') this.noteDone(res, rerunKey);
      return res;
    } catch (e) {
      if (e instanceof ApiCallError) {
        e.fieldFlags = this.fieldFlags;
        await this.addHint(e, o.body);
      }
      if (
        e instanceof ApiCallError &&
        e.code === 'idempotency_conflict' &&
        own &&
        this.globals.idempotencyKey !== undefined
      )
        e.hint = conflictHint(key!, e);
      throw e;
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
function conflictHint(key: string, e: ApiCallError): string {
  const first =
    e.envelope.error.fields?.conflicts_with ?? (e.envelope.error as { conflicts_with?: unknown }).conflicts_with;
  return (
    `A request with Idempotency-Key ${key} was already applied${first ? ` (request ${String(first)})` : ''}, and this run's request is not the same ` +
    '(what a command works out anew on each run, such as a relative time like --at +1h, differs): check what the first request did before sending this one without the key.'
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
