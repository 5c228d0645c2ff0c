// vmv status: where you are, in one command (like `gh auth status`, `stripe status`): the target
// (embedded data file or base URL) and where it came from, the key (masked) and its source, and,
// on a simulator, the workspace, wallet and plan usage, the clock with the next thing due, and
// counts of what is in flight (GET /_sim/status). On a service, what its API tells: whether it
// takes the key, and the calls under way.
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { ApiCallError, type CliError } from '../../src/errors.js';
import { NetworkError } from '../../src/faults.js';
import { price } from '../../src/money.js';
import { fields, humanTime, money } from '../../src/output.js';
import { plural } from '../../src/words.js';
import { describeTarget, maskKey } from '../../src/settings.js';

export function register(cmd: Command, shell: Shell): void {
  withExamples(
    cmd
      .description('Where you are: the target, the key, the workspace, its money, the clock and what is in flight')
      .action(action(shell, run)),
    'vmv status',
    'vmv status --json | jq .in_flight',
  );
}

/** A service's answer to reads with the key: whether it takes it, the calls under way, what went wrong. */
type Service = { key_accepted: boolean; live_calls: number | null; error?: string };

/**
 * What the target says of itself: a simulator's status, or a service's answer to a read with the
 * key; `failed` is why the target cannot be used (refused key, no answer, a 5xx), the command's exit
 * code after it has printed what it knows. A simulator answers /_sim/status (401 to a key it refuses);
 * a service has no /_sim (404 there).
 */
type Probe = ({ simulator: any } | { service: Service } | { unknown: 'simulator' | 'target' }) & { failed?: CliError };

async function probe(ctx: Context): Promise<Probe> {
  try {
    return { simulator: (await ctx.call('GET', '/_sim/status')).json() };
  } catch (e) {
    if (e instanceof NetworkError) return { unknown: 'target', failed: e };
    if (!(e instanceof ApiCallError)) throw e;
    if (e.fromSimulator && e.status !== 404) return { unknown: 'simulator', failed: e };
  }
  // a service: does it take the key, and how many calls are under way (each status a list's total)
  let live = 0;
  for (const status of ['queued', 'ringing', 'in_progress']) {
    try {
      const r = await ctx.call('GET', '/v1/calls', { query: { status, limit: 1 } });
      const total = r.json<{ meta?: { total_results?: number } }>().meta?.total_results;
      if (typeof total !== 'number') return { service: { key_accepted: true, live_calls: null } };
      live += total;
    } catch (e) {
      if (e instanceof NetworkError) return { unknown: 'target', failed: e };
      if (!(e instanceof ApiCallError)) throw e;
      const service = { key_accepted: e.status !== 401, live_calls: null, error: e.message };
      return { service, ...(e.status === 401 || e.status >= 500 ? { failed: e } : {}) };
    }
  }
  return { service: { key_accepted: true, live_calls: live } };
}

/** Prints what is known of the target, then fails with why it cannot be used (exit 3 refused key, 4 no answer, 1 a 5xx). */
export async function run(ctx: Context): Promise<void> {
  const t = ctx.target();
  ctx.defaultRetries = 0;
  const p = await probe(ctx);
  const view = {
    target: {
      kind: t.kind,
      base_url: t.baseUrl,
      data_file: t.kind === 'embedded' ? t.dataFile : null,
      from: t.baseUrlFrom ?? null,
      profile: t.profile,
    },
    api_key: {
      key: t.apiKey ? maskKey(t.apiKey) : null,
      from: t.apiKeyFrom ?? null,
      ...(t.otherKeyFor ? { profile_key_for: t.otherKeyFor } : {}),
    },
    ...('simulator' in p ? { simulator: true, ...p.simulator } : {}),
    ...('service' in p ? { simulator: false, service: p.service } : {}),
    ...('unknown' in p ? { simulator: p.unknown === 'simulator' ? true : null } : {}),
    ...(p.failed ? { usable: false, error: p.failed.message } : { usable: true }),
  };
  if (ctx.json) ctx.io.out(JSON.stringify(view, null, 2) + '\n');
  else
    fields(ctx.io, [
      ['target', describeTarget(t) + (t.baseUrlFrom ? ` (from ${t.baseUrlFrom})` : '')],
      ['api key', keyLine(t, 'simulator' in p || ('unknown' in p && p.unknown === 'simulator'))],
      ...('simulator' in p ? simulatorLines(p.simulator, ctx.io.stdoutTTY ? humanTime : (x) => x) : []),
      ...('service' in p ? serviceLines(p.service) : []),
      ...('unknown' in p ? unknownLines(p.unknown, p.failed!) : []),
    ]);
  if (p.failed) throw p.failed;
}

function keyLine(t: ReturnType<Context['target']>, simulator: boolean): string {
  if (t.apiKey) return `${maskKey(t.apiKey)} (from ${t.apiKeyFrom})`;
  const other = t.otherKeyFor ? `; profile "${t.profile}" keeps one for ${t.otherKeyFor}, not sent here` : '';
  if (t.kind === 'embedded' || simulator) return `none: the seeded workspace's own${other}`;
  return `none${other}`;
}

/** The simulator's status as lines; `time` shows a time (friendly on a terminal, as given when piped). */
function simulatorLines(s: any, time: (iso: string) => string): [string, string][] {
  const u = s.usage;
  const f = s.in_flight;
  const inFlight = [
    plural(f.quick_jobs, 'quick job'),
    plural(f.calls, 'call'),
    plural(f.videos, 'video'),
    plural(f.posts_scheduled, 'scheduled post'),
    plural(f.conversations, 'assistant conversation'),
    plural(f.numbers_provisioning, 'number being wired', 'numbers being wired'),
    plural(f.webhook_retries, 'webhook retry', 'webhook retries'),
  ].filter((x) => !x.startsWith('0 '));
  return [
    ['workspace', `${s.workspace.name} (${s.workspace.id})`],
    ['wallet', `${money(s.wallet_usd)} (auto-recharge ${s.auto_recharge ? 'on' : 'off'})`],
    [
      'plan',
      `content ${s.plan.content ? 'on' : 'off'}, assistant ${s.plan.assistant ? 'on' : 'off'}, video credits ${price(s.plan.video_credits_cents)}`,
    ],
    [
      'this month',
      `${u.minutes_used} min used, ${u.minutes_left} left; ${u.texts_used} texts used, ${u.texts_left} left (until ${time(u.period_end)})` +
        (u.calls_paused || u.texts_paused ? ' (paused: no allowance left and the wallet cannot pay)' : ''),
    ],
    ['clock', `${s.clock.mode}, ${time(s.clock.now)}`],
    ['next due', s.next_due ? `${time(s.next_due.at)}: ${s.next_due.what}` : 'nothing scheduled'],
    ['in flight', inFlight.join(', ') || 'nothing'],
  ];
}

function serviceLines(s: Service): [string, string][] {
  return [
    ['key accepted', s.key_accepted ? 'yes' : `no: ${s.error ?? 'refused'}`],
    [
      'calls under way',
      s.live_calls === null ? `unknown${s.key_accepted && s.error ? `: ${s.error}` : ''}` : String(s.live_calls),
    ],
    ['workspace', "not told by a service's API (its wallet, plan and clock are on its dashboard)"],
  ];
}

/** What cannot be told of a simulator that refused the key, or of a target that did not answer. */
function unknownLines(what: 'simulator' | 'target', failed: CliError): [string, string][] {
  if (what === 'simulator')
    return [
      ['key accepted', `no: ${failed.message}`],
      ['workspace', 'unknown: the simulator shows the workspace of a key it accepts'],
    ];
  return [
    ['reachable', `no: ${failed.message}`],
    ['workspace', 'unknown: the target did not answer'],
  ];
}
