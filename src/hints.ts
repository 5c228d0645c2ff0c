// What to do about an error the API answered: one table from error code to the hint printed under
// the message, in two columns. On a simulator the fix is usually a command that changes the
// simulated world (`vmv sim wallet --set 50`); on a service it is what the service's user would do
// (add money, verify the caller ID in the dashboard, wait for tomorrow's ceiling). Loaded only when
// a command fails.
import type { Target } from './settings.js';
import { describeTarget, maskKey } from './settings.js';

export interface HintInput {
  code: string;
  status: number;
  message: string;
  fields?: Record<string, string>;
  /** a simulator answered (embedded, or a base URL whose replies say Server: vmv-simulator) */
  simulator: boolean;
  target: Target;
  /** the request's JSON body, if any: a hint may name what was sent (the caller ID) */
  body?: unknown;
}

type Hint = string | ((x: HintInput) => string | undefined);

/** A value of the request body, if it is a string. */
const sent = (x: HintInput, field: string): string | undefined => {
  const v = (x.body as Record<string, unknown> | undefined)?.[field];
  return typeof v === 'string' ? v : undefined;
};

const ADD_KEY =
  'Store the service\'s key for this URL: printf %s "$KEY" | vmv config set api_key - (or pass --api-key / VMV_API_KEY).';

/** 401: which target refused which key, from where, and what to do (docs/terminal.md, "Settings and API keys"). */
function unauthorized(x: HintInput): string {
  const t = x.target;
  const where = describeTarget(t);
  const other = t.otherKeyFor
    ? ` Profile "${t.profile}" keeps a key for ${t.otherKeyFor}: a key is sent only to the target it was set for.`
    : '';
  if (!t.apiKey) return `No API key was sent to ${where}.${other} ${ADD_KEY}`;
  const what = `${where.replace(/^the /, 'The ')} refused the API key ${maskKey(t.apiKey)} (from ${t.apiKeyFrom ?? 'the settings'}).`;
  if (t.kind === 'embedded')
    return `${what} The embedded simulator takes only keys it minted: leave the key unset to use its own, or store one it mints: vmv sim key | vmv config set api_key -`;
  if (x.simulator)
    return `${what} A simulator takes only keys it minted: its own is printed by vmv sim serve (and vmv sim reset --json); store it for this URL: printf %s "$KEY" | vmv config set api_key -`;
  return `${what} ${ADD_KEY}`;
}

/** 403 forbidden: the scope the key lacks, from the message ("lacks the calls:read scope"). */
function forbidden(x: HintInput, simulator: boolean): string {
  const scope = /the ([a-z_]+:[a-z]+) scope/.exec(x.message)?.[1];
  if (simulator)
    return scope
      ? `Use a key with the ${scope} scope (vmv sim key --scope ${scope}) or a full-access one (vmv sim key).`
      : 'Use a full-access key: vmv sim key mints one.';
  return scope
    ? `Use an API key with the ${scope} scope (or full access), made in the service's dashboard.`
    : "Use an API key with more access, made in the service's dashboard.";
}

/** 400 bad_request for a path the simulator reads only one way (core/router.ts, normalTarget). */
const PLAIN_PATH =
  'Write the path plainly: no "." or ".." segment, "//", backslash or escaped slash (%2F, %5C); an id never holds a "/".';

/** 403 plan_not_included: the feature the plan lacks, from the message. */
const feature = (x: HintInput) => (/assistant/i.test(x.message) ? 'assistant' : 'content');

/**
 * Every code the API (and the simulator's control plane and server) can answer, and what to do on
 * a simulator and on a service (nothing more, where the message and its fields already say it). test/cli-hints.test.ts checks that every code of both API
 * descriptions is here.
 */
export const HINTS: Record<string, { simulator: Hint; service: Hint }> = {
  // the fields under the message say what each takes: a hint only for a cursor to drop
  validation_error: {
    simulator: (x) => (x.fields?.cursor ? 'Start the list again without --cursor.' : undefined),
    service: (x) => (x.fields?.cursor ? 'Start the list again without --cursor.' : undefined),
  },
  bad_request: {
    simulator: (x) =>
      x.message.startsWith('The request path')
        ? PLAIN_PATH
        : 'The request was not well-formed HTTP: retry; if it repeats, a proxy between vmv and the simulator is at fault.',
    service:
      'The request was not well-formed HTTP: retry; if it repeats, a proxy between vmv and the service is at fault.',
  },
  unauthorized: { simulator: unauthorized, service: unauthorized },
  forbidden: { simulator: (x) => forbidden(x, true), service: (x) => forbidden(x, false) },
  plan_not_included: {
    simulator: (x) => `Turn it on for the simulated workspace: vmv sim workspace set --${feature(x)} on`,
    service: (x) =>
      `The workspace's plan needs ${feature(x) === 'assistant' ? 'the assistant' : 'Content'}: upgrade it in the service's billing settings.`,
  },
  not_found: {
    simulator: 'Check the id: the list command shows them (a shortened id must be the start of exactly one).',
    service: 'Check the id: the list command shows them (a shortened id must be the start of exactly one).',
  },
  // each conflict's message says what state the record is in, and so what to do
  conflict: { simulator: () => undefined, service: () => undefined },
  idempotency_conflict: {
    simulator:
      'That Idempotency-Key was used for a different request: rerun without --idempotency-key, or with a new key.',
    service:
      'That Idempotency-Key was used for a different request: rerun without --idempotency-key, or with a new key.',
  },
  caller_id_not_verified: {
    simulator: (x) => `Verify it on the simulator first: vmv sim caller-id ${sent(x, 'caller_id') ?? '+1…'}`,
    service: (x) =>
      `Verify ${sent(x, 'caller_id') ?? 'the caller ID'} for the account in the service's dashboard, then place the call again.`,
  },
  insufficient_funds: {
    simulator:
      'Add money to the simulated wallet: vmv sim wallet --set 50 (or let it top up: vmv sim wallet --auto-recharge on).',
    service: "Add money to the organization's wallet, or turn on auto-recharge, in the service's billing settings.",
  },
  shared_pool_exhausted: {
    simulator:
      "The shared numbers' daily ceilings reset the next day: vmv sim advance 1d (vmv sim pool shows each number's count).",
    service:
      'Every shared number has reached its daily ceiling: try again tomorrow, or use a number of your own (vmv quick number).',
  },
  daily_limit_exceeded: {
    simulator: 'Quick email allows 200 recipients per rolling 24 hours: vmv sim advance 1d frees them.',
    service: 'Quick email allows 200 recipients per rolling 24 hours: send the rest once the oldest are a day old.',
  },
  rate_limited: {
    simulator:
      'Wait a minute, or lift the simulated limit: vmv sim workspace set --quick-emails-per-minute 0 (0 turns it off).',
    service: 'Wait and send again (Retry-After says how long); vmv retries it itself with --retries.',
  },
  contact_not_found: {
    simulator: 'Give an address instead of a name, or add the contact: vmv sim contact --name NAME --email ADDRESS',
    service: "Give an address instead of a name, or add the contact in the service's contacts.",
  },
  ambiguous_contact: {
    simulator: 'Several contacts match that name (listed above): give the full name or the address.',
    service: 'Several contacts match that name (listed above): give the full name or the address.',
  },
  contact_without_email: {
    simulator:
      'Give the address itself, or add one to the contact (vmv sim contact --name NAME --email ADDRESS adds a new one).',
    service: "Give the address itself, or add one to the contact in the service's contacts.",
  },
  video_not_ready: {
    simulator:
      'Post it once it is ready (vmv sim advance 5m moves its pipeline on), or schedule the post for later with --at.',
    service: 'Wait for it to be ready (vmv videos get ID --wait), or schedule the post for later with --at.',
  },
  webhook_limit_exceeded: {
    simulator: 'Remove one first: vmv webhooks list, then vmv webhooks delete ID.',
    service: 'Remove one first: vmv webhooks list, then vmv webhooks delete ID.',
  },
  hosts_limit_exceeded: {
    simulator: 'Remove an entry first: vmv sim hosts list, then vmv sim hosts unset NAME.',
    service: 'Remove an entry first: vmv sim hosts list, then vmv sim hosts unset NAME.',
  },
  personas_limit_exceeded: {
    simulator: 'Remove a persona first: vmv sim persona list, then vmv sim persona rm NUMBER.',
    service: 'Remove a persona first: vmv sim persona list, then vmv sim persona rm NUMBER.',
  },
  range_not_satisfiable: {
    simulator: 'Ask for bytes within the file (its size is in Content-Range), or download it whole.',
    service: 'Ask for bytes within the file (its size is in Content-Range), or download it whole.',
  },
  payload_too_large: {
    simulator: 'Send less in one request: split a bulk body, or shorten the largest field.',
    service: 'Send less in one request: split it, or shorten the largest field.',
  },
  headers_too_large: {
    simulator: 'Send fewer or shorter headers (-H).',
    service: 'Send fewer or shorter headers (-H).',
  },
  unsupported_media_type: {
    simulator: 'Bodies are JSON: with vmv api, send a JSON document (--input FILE, or -f/-F fields).',
    service: 'Bodies are JSON: with vmv api, send a JSON document (--input FILE, or -f/-F fields).',
  },
  host_not_allowed: {
    simulator:
      'The simulator answers to loopback names only: use http://127.0.0.1:PORT, or serve it for that name (vmv sim serve --host ADDRESS --allow-host NAME: docs/simulator.md).',
    service: 'The service does not answer to that host name: check the base URL (vmv config get base_url).',
  },
  control_token_required: {
    simulator:
      'Set VMV_SIM_CONTROL_TOKEN to the control token `vmv sim serve` printed when it started (its --json line has it too; docs/simulator.md).',
    service: 'That address is a simulator bound beyond its machine: set VMV_SIM_CONTROL_TOKEN to its control token.',
  },
  origin_not_allowed: {
    simulator:
      'Only pages on a loopback address may call the simulator: vmv sends no Origin, so a proxy or browser added it.',
    service: 'The service refused the Origin header a proxy or browser added: call it without one.',
  },
  request_timeout: {
    simulator: 'The request took too long to arrive: retry (--request-timeout bounds the wait for the reply).',
    service: 'The request took too long to arrive: retry (--request-timeout bounds the wait for the reply).',
  },
  move_stopped: {
    simulator:
      'The clock stands where the message says: move it again from there (vmv sim clock) if you still want it on.',
    service: 'The clock stands where the message says: move it again from there if you still want it on.',
  },
  too_many_streams: {
    simulator:
      'The simulator holds at most 100 live feeds (GET /_sim/events) at once: close an inspector page or a client that follows it, then retry.',
    service: 'The service holds no more live feeds at the moment: retry after the time it names.',
  },
  // the message says to retry, and vmv already has (--retries)
  store_busy: { simulator: () => undefined, service: () => undefined },
  insufficient_storage: {
    simulator: (x) =>
      `The disk holding the simulator's data file is full (nothing was applied): free space${x.target.kind === 'embedded' ? ` near ${x.target.dataFile}` : ''}, then rerun.`,
    service: 'The service ran out of storage (nothing was applied): retry later.',
  },
  internal_error: {
    simulator: 'A fault in the simulator: rerun with VMV_DEBUG=1 and report what it prints, with the command.',
    service: "Retry later; if it persists, give the service's support the Request-Id (vmv api -i shows it).",
  },
};

/** The hint for an error reply, on a simulator or a service; none for a code outside the table. */
export function hintFor(x: HintInput): string | undefined {
  const row = HINTS[x.code];
  if (!row) return undefined;
  const h = x.simulator ? row.simulator : row.service;
  return typeof h === 'function' ? h(x) : h;
}
