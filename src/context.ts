// What a command's run function receives: its streams, environment, global flags, and the one API
// client (created on first use, so commands that never call the API never load it).
import type { Command } from 'commander';
import { call, createClient, type ApiClient, type ApiResponse, type RequestOptions } from './client.js';
import type { IO } from './io.js';
import type { Env } from './paths.js';
import { resolveTarget, type GlobalOptions, type Target } from './settings.js';

export class Context {
  private clientP: Promise<ApiClient> | null = null;
  private targetV: Target | null = null;

  constructor(readonly io: IO, readonly env: Env, readonly globals: GlobalOptions) {}

  static of(io: IO, env: Env, cmd: Command): Context {
    return new Context(io, env, cmd.optsWithGlobals() as GlobalOptions);
  }

  get json(): boolean {
    return !!this.globals.json;
  }

  target(): Target {
    return (this.targetV ??= resolveTarget(this.globals, this.env));
  }

  client(): Promise<ApiClient> {
    return (this.clientP ??= createClient(this.target()));
  }

  /** Calls the API (throwing on an error reply); the global --idempotency-key goes on writes. */
  async call(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse> {
    return call(await this.client(), method, path, { idempotencyKey: this.globals.idempotencyKey, ...o });
  }

  /** Prints a reply: its body exactly as returned with --json, otherwise through `human`. */
  emit<T = any>(res: ApiResponse, human: (body: T) => void): void {
    if (this.json) this.io.out(res.text().endsWith('\n') ? res.text() : res.text() + '\n');
    else human(res.json<T>());
  }

  async close(): Promise<void> {
    if (this.clientP) await (await this.clientP).close();
  }
}
