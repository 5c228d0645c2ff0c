// What the CLI says when a request to a remote target ended without a clear answer: it could not
// connect, the connection was lost after the request was sent, or no reply came in time; and when
// a write may have been applied anyway, says so with its Idempotency-Key and how to check and retry
// without applying it twice (the service charges money: a blind rerun can pay twice).
import { CliError, EXIT } from './errors.js';
import { isTlsFailure, keyHonoured, type Fault, type Outcome } from './retry.js';

/** A request that got no clear answer, as the client saw it. */
export interface Failure {
  fault: Fault;
  /** the error code (ECONNREFUSED, UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT, ...) */
  code: string;
  baseUrl: string;
  method: string;
  /** the path on the target, without the query */
  path: string;
  attempts: number;
  /** a write some attempt of which may have reached the service: it may have been applied */
  mayHaveApplied: boolean;
  /** the Idempotency-Key it carried */
  key?: string;
  /** how long the attempt that timed out waited (ms) */
  waitedMs?: number;
}

/** A write some attempt of which may have reached the service although an error reply came last (a gateway's 502). */
export type Unsure = Pick<Failure, 'method' | 'path' | 'key'>;

/** What the command knows beyond the request, for saying how to check and retry. */
export interface Known {
  /** the --idempotency-key that gives this request the same key when the command is run again */
  rerunKey?: string;
  /** what a write of this command created before the failure (its id), and the key that repeats it */
  done?: { id: string; rerunKey?: string };
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** A failure to connect because the certificate was refused is told apart: its hint and reason differ from other failures to connect. */
type Kind = Fault | 'certificate';

const kindOf = (f: Pick<Failure, 'fault' | 'code'>): Kind =>
  f.fault === 'unreached' && isTlsFailure(f.code) ? 'certificate' : f.fault;

/** The --json `reason` of each kind of failure. */
const REASONS: Record<Kind, string> = {
  certificate: 'certificate_not_accepted',
  unreached: 'could_not_connect',
  lost: 'connection_lost',
  timeout: 'timed_out',
};

/** What to do about a failure that cannot have applied a write (a read, or a write that never left). */
const HINTS: Record<Kind, string> = {
  certificate:
    "Check the base URL (the certificate names the hosts it is for); a certificate from a private authority needs NODE_EXTRA_CA_CERTS pointing at that authority's certificate.",
  unreached: 'Is the service (or `vmv sim serve`) running at that address? Check --base-url / VMV_BASE_URL.',
  lost: 'The service was reached but did not answer; reading again is safe.',
  timeout:
    'The service was reached but did not answer in time (allow longer with --request-timeout, e.g. 5m); reading again is safe.',
};

/** What happened, in a few words ("Could not reach …", "The connection … was lost …", "No reply …"), with how many attempts it took. */
function happened(f: Failure): string {
  const tries = f.attempts > 1 ? ` (${f.attempts} attempts)` : '';
  const and = f.attempts > 1 ? `; ${f.attempts} attempts` : '';
  if (kindOf(f) === 'certificate')
    return `Could not reach ${f.baseUrl}: its TLS certificate was not accepted (${f.code}); nothing was sent`;
  if (f.fault === 'unreached')
    return f.code === 'UND_ERR_CONNECT_TIMEOUT'
      ? `Could not reach ${f.baseUrl}: no connection within ${seconds(f.waitedMs ?? 0)} (connect timeout${and})`
      : `Could not reach ${f.baseUrl}: ${f.code}${tries}`;
  if (f.fault === 'lost') return `The connection to ${f.baseUrl} was lost after the request was sent (${f.code}${and})`;
  return f.code === 'UND_ERR_BODY_TIMEOUT'
    ? `The reply from ${f.baseUrl} stopped arriving for ${seconds(f.waitedMs ?? 0)} (--request-timeout${and})`
    : `No reply from ${f.baseUrl} within ${seconds(f.waitedMs ?? 0)} (--request-timeout${and})`;
}

/**
 * How to find out whether a write that may have been applied was, and how to retry it without
 * applying it twice: with a key the target keeps, rerunning with that key replays the first reply.
 */
export function unsureHint(f: Unsure, k: Known): string {
  const honoured = keyHonoured(f.path);
  if (f.key && honoured) {
    const sent = `Idempotency-Key: ${f.key}.`;
    if (!k.rerunKey)
      return `${sent} Check whether it was applied before running it again: a request sent again with this key is not applied twice (keys are kept 24 hours).`;
    return `${sent} To retry safely, rerun the command with --idempotency-key ${k.rerunKey}: if it was applied, the service answers with its first reply (and the id) instead of applying it again (keys are kept 24 hours).`;
  }
  return honoured
    ? "It carried no Idempotency-Key, so it was not sent again: check whether it was applied before sending it again. With --idempotency-key KEY (vmv api: or -H 'Idempotency-Key: KEY') a retry cannot apply it twice."
    : "The simulator's control plane (/_sim) keeps no Idempotency-Keys, so it was not sent again: check whether it was applied before running it again.";
}

/** A write of this command that went through before the failure: its id, and how to repeat the command safely. */
function doneHint(d: NonNullable<Known['done']>, rerun: boolean): string {
  const went = `This command's write went through before the failure: ${d.id}.`;
  // when the failed request may itself have been applied, its own hint says how to rerun
  if (!rerun) return went;
  if (d.rerunKey)
    return `${went} Rerunning the command with --idempotency-key ${d.rerunKey} answers with it instead of applying it again.`;
  return `${went} Check it before running the command again.`;
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

/** A request that got no reply, and what is known about whether it was applied. Exit 4. */
export class NetworkError extends CliError {
  constructor(
    readonly failure: Failure,
    known: Known = {},
  ) {
    const f = failure;
    const unsure = f.mayHaveApplied && isWrite(f.method);
    const message = `${happened(f)}${unsure ? `: ${f.method} ${f.path} may have been applied.` : '.'}`;
    const hint = unsure ? unsureHint(f, known) : HINTS[kindOf(f)];
    super(message, EXIT.network, known.done ? `${doneHint(known.done, !unsure)} ${hint}` : hint, {
      reason: REASONS[kindOf(f)],
      request: `${f.method} ${f.path}`,
      attempts: f.attempts,
      ...(isWrite(f.method) ? { may_have_been_applied: unsure } : {}),
      ...(unsure && f.key ? { idempotency_key: known.rerunKey ?? f.key } : {}),
      ...(known.done
        ? { id: known.done.id, ...(!unsure && known.done.rerunKey ? { idempotency_key: known.done.rerunKey } : {}) }
        : {}),
    });
  }
}

/** The hint and --json fields of an error reply to a write that may have been applied (a gateway's 502/503/504), or none. */
export function unsureReply(
  f: Unsure | undefined,
  known: Known = {},
): { hint: string; details: Record<string, unknown> } | undefined {
  if (!f || !isWrite(f.method)) return undefined;
  return {
    hint: `${f.method} ${f.path} may have been applied. ${unsureHint(f, known)}`,
    details: { may_have_been_applied: true, ...(f.key ? { idempotency_key: known.rerunKey ?? f.key } : {}) },
  };
}

/** One line on stderr before a retry: what failed, when it is sent again. */
export function retryNote(
  method: string,
  path: string,
  outcome: Outcome,
  delayMs: number,
  retry: number,
  of: number,
): string {
  const after = delayMs < 1000 ? `${Math.round(delayMs)} ms` : seconds(delayMs);
  return `Retrying ${method} ${path} in ${after} (${whyRetried(outcome)}; retry ${retry} of ${of})`;
}

/** What failed the attempt, for retryNote: a reply's status, or the fault and its code. */
function whyRetried(outcome: Outcome): string {
  if ('status' in outcome) return `HTTP ${outcome.status}`;
  if (outcome.fault === 'unreached') return `could not connect: ${outcome.code}`;
  if (outcome.fault === 'lost') return `connection lost: ${outcome.code}`;
  return 'no reply in time';
}
