// Errors the CLI reports, each with its exit code. They are thrown by commands and turned into
// stderr text and an exit code in one place (main.ts).

/** Exit codes, documented in docs/scripting.md, "Output and exit codes". */
export const EXIT = {
  ok: 0,
  /** the service answered with an error (validation, not found, conflict, limits, 5xx) */
  api: 1,
  /** the command line was wrong (unknown flag, missing argument, bad value) */
  usage: 2,
  /** the API key is missing, invalid (401) or lacks access (403 forbidden) */
  auth: 3,
  /** no reply from the service: it could not be reached, the connection was lost, or the reply did not come in time */
  network: 4,
  /** a waited-for job or number ended with failures (--wait) */
  failed: 5,
  /** --wait ran out of --timeout (the job continues) */
  timeout: 6,
  /** a confirmation was declined at the prompt */
  declined: 7,
  /** the assistant did not understand (part of) the message: its reply says what, and what it can do */
  notUnderstood: 8,
  /** interrupted (Ctrl-C) */
  interrupted: 130,
} as const;

export class CliError extends Error {
  /**
   * `hint` (what to do) and `details` (--json fields) may be added to where an error is given more
   * context on its way up: a wait names what continues (wait.ts), a keyed rerun what its key did (context.ts).
   */
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
    public hint?: string,
    public details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Envelope {
  error: { code: string; message: string; fields?: Record<string, string>; [k: string]: unknown };
}

/** An error reply from the API (or the simulator's control plane). */
export class ApiCallError extends CliError {
  /** request field → the flag it came from (set by Context.call), so errors name the flag */
  fieldFlags?: Record<string, string>;
  /** the reply came from a simulator (embedded, or `vmv sim serve`'s Server header): which hints apply */
  fromSimulator?: boolean;
  /** `unsure`: the hint and --json fields of a reply to a write that may have been applied all the same (a gateway's 502) */
  constructor(
    readonly status: number,
    readonly envelope: Envelope,
    readonly rawBody: string,
    unsure?: { hint: string; details: Record<string, unknown> },
  ) {
    const auth = status === 401 || (status === 403 && envelope.error.code === 'forbidden');
    super(
      envelope.error.message,
      auth ? EXIT.auth : EXIT.api,
      unsure?.hint ?? (auth ? authHint(status) : undefined),
      unsure?.details,
    );
  }
  get code() {
    return this.envelope.error.code;
  }
}

const authHint = (status: number) =>
  status === 401
    ? 'Check the API key: `vmv config set api_key -` stores one, or pass --api-key / VMV_API_KEY.'
    : 'This API key lacks the scope this command needs; use a key with more access.';

export const usage = (message: string, hint?: string) => new CliError(message, EXIT.usage, hint);
