// Glue between commander and a verb's run function: builds the Context from the parsed command,
// and always closes the client afterwards.
import { Option, type Command } from 'commander';
import { errorEnvelope, SIMULATOR_SERVER } from './client.js';
import { Context } from './context.js';
import { CliError, EXIT, usage } from './errors.js';
import { declareFieldAliases, type FieldAliases } from './field-flags.js';
import { E164, isIsoTime } from './formats.js';
import { IdArg, isPrefix, type IdKind } from './ids.js';
import type { IO } from './io.js';
import type { Env } from './paths.js';

/** What every command definition receives: the process's streams and environment. */
export interface Shell {
  io: IO;
  env: Env;
}

export type Run<O> = (ctx: Context, opts: O, args: string[]) => Promise<void>;

export function action<O>(shell: Shell, run: Run<O>) {
  return async (...a: unknown[]) => {
    const cmd = a[a.length - 1] as Command;
    const opts = a[a.length - 2] as O;
    const args = a.slice(0, -2).flat() as string[];
    const ctx = Context.of(shell.io, shell.env, cmd);
    try {
      refuseEmpty(cmd, a.slice(0, -2));
      const w = opts as { timeout?: string; advance?: boolean };
      // checked before the command sends anything: a refused --advance starts no job
      if (w.timeout !== undefined || w.advance)
        await (await import('./wait.js')).prepareWait(
          ctx,
          cmd.options.some((x) => x.long === '--watch') ? '--watch' : '--wait',
        );
      await resolvePhones(ctx, opts as Record<string, unknown>, args);
      await resolveIds(ctx, opts as Record<string, unknown>, args);
      await resolveTimes(ctx, opts as Record<string, unknown>);
      await run(ctx, opts, args);
    } finally {
      await ctx.close();
    }
  };
}

/**
 * Refuses an argument given empty (exit 2), before anything is sent: in a script it is a
 * variable not set (`vmv quick status "$JOB"` with no JOB), which would otherwise reach the API as
 * a path with nothing in it (a 404 for a route that does not exist).
 */
function refuseEmpty(cmd: Command, given: unknown[]): void {
  for (const [i, arg] of cmd.registeredArguments.entries()) {
    const values = [given[i]].flat();
    if (values.some((v) => typeof v === 'string' && v.trim() === ''))
      throw usage(
        `${arg.name().toUpperCase()} is empty: give one (in a script, a "$VARIABLE" that is not set expands to nothing).`,
      );
  }
}

/** commander option parsers that fail as usage errors */
export const collect = (v: string, prev: string[] = []) => [...prev, v];

export function intArg(name: string, min: number, max: number) {
  return (v: string) => {
    if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max)
      throw usage(`${name} must be a whole number from ${min} to ${max}, got "${v}".`);
    return Number(v);
  };
}

export function onOff(name: string) {
  return (v: string) => {
    if (['on', 'true', 'yes', '1'].includes(v)) return true;
    if (['off', 'false', 'no', '0'].includes(v)) return false;
    throw usage(`${name} takes on or off, got "${v}".`);
  };
}

export function numberArg(name: string, min: number) {
  return (v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min)
      throw usage(`${name} must be a number of at least ${min}, got "${v}".`);
    return n;
  };
}

/**
 * A phone number given on the command line that needs the numbering plans to be judged: one that
 * is not written in E.164 (perhaps a national number, to be offered in E.164), or one to be dialed
 * or texted (it must be a number that can exist). Checked by action() before the command runs,
 * loading src/phone.ts (libphonenumber) only then.
 */
export class PhoneArg {
  constructor(
    readonly flag: string,
    readonly raw: string,
    readonly dial: boolean,
  ) {}
}

/**
 * An E.164 phone number (spaces, dashes, dots and brackets are dropped: "+1 415-555-0100"); with
 * `dial`, a number the command calls or texts, which must be one that can exist (the simulator's
 * carrier fails a call to any other).
 */
export function e164Arg(name: string, o: { dial?: boolean } = {}) {
  return (v: string): string | PhoneArg => {
    const n = v.replace(/[\s().-]/g, '');
    return E164.test(n) && !o.dial ? n : new PhoneArg(name, v, !!o.dial);
  };
}

/** E.164 numbers as a variadic argument (commander passes the list so far). */
export function e164Args(name: string, o: { dial?: boolean } = {}) {
  const one = e164Arg(name, o);
  return (v: string, prev: (string | PhoneArg)[] = []) => [...prev, one(v)];
}

/**
 * Judges every PhoneArg among a command's options and arguments, in place: a number that can exist
 * becomes its E.164 string; one that cannot, or one not written in E.164, is a usage error naming
 * its flag, a national number with its E.164 form ("did you mean +14155550100?", read in the
 * default_country setting's country).
 */
async function resolvePhones(ctx: Context, opts: Record<string, unknown>, args: unknown[]): Promise<void> {
  const lists = [args, ...Object.values(opts).filter(Array.isArray)] as unknown[][];
  const given = [...lists.flat(), ...Object.values(opts)].some((v) => v instanceof PhoneArg);
  if (!given) return;
  const phone = await import('./phone.js');
  const { resolveCountry } = await import('./settings.js');
  const judge = (p: PhoneArg): string => {
    const n = p.raw.replace(/[\s().-]/g, '');
    if (!E164.test(n)) {
      const country = phone.countryCode(resolveCountry(ctx.env, ctx.globals.profile)) ?? 'US';
      const guess = phone.asE164(p.raw, country);
      throw usage(
        `${p.flag} must be an E.164 phone number such as +14155550100, got "${p.raw}"${guess ? ` (did you mean ${guess}?)` : ''}.`,
        guess
          ? `A number without + is read as a number of ${country} (the default_country setting: vmv config set default_country GB).`
          : undefined,
      );
    }
    const problem = phone.numberProblem(n);
    if (problem) throw usage(`${p.flag}: ${n} is not a phone number that can exist: it ${problem.words}.`);
    return n;
  };
  for (const l of lists) l.forEach((v, i) => v instanceof PhoneArg && (l[i] = judge(v)));
  for (const [k, v] of Object.entries(opts)) if (v instanceof PhoneArg) opts[k] = judge(v);
}

export function areaCodeArg(name: string) {
  return (v: string) => {
    if (!/^\d{3}$/.test(v)) throw usage(`${name} must be a 3-digit area code such as 415, got "${v}".`);
    return v;
  };
}

/**
 * An id argument of a kind tables show shortened (src/ids.ts): a whole id, or the start of one,
 * resolved by listing before the command runs (an ambiguous start exits 2 naming the candidates).
 */
export function idArg(kind: IdKind) {
  return (v: string): string | IdArg => (isPrefix(v) ? new IdArg(kind, v) : v);
}

/** Resolves every IdArg among a command's arguments and options, in place (the ids module is loaded only then). */
async function resolveIds(ctx: Context, opts: Record<string, unknown>, args: unknown[]): Promise<void> {
  const given = [...args, ...Object.values(opts)].filter((v): v is IdArg => v instanceof IdArg);
  if (given.length === 0) return;
  const { ID_SOURCES, resolveId } = await import('./ids.js');
  const one = (v: IdArg) => resolveId(ctx, v.raw, ID_SOURCES[v.kind]);
  for (const [i, v] of args.entries()) if (v instanceof IdArg) args[i] = await one(v);
  for (const [k, v] of Object.entries(opts)) if (v instanceof IdArg) opts[k] = await one(v);
}

/** One of a fixed set of values (any letter case; the canonical spelling is kept). */
export function choiceArg(name: string, choices: readonly string[]) {
  const parse = (v: string) => {
    const c = choices.find((x) => x.toLowerCase() === v.toLowerCase());
    if (c === undefined) throw usage(`${name} takes one of ${choices.join(', ')}; got "${v}".`);
    return c;
  };
  return Object.assign(parse, { choices });
}

/** The fixed values a flag's parser takes (shell completion offers them). */
export const choicesOf = (parser: unknown): readonly string[] | undefined =>
  (parser as { choices?: readonly string[] } | undefined)?.choices;

/** Several of a fixed set, comma-separated or repeated (each once, in the order given). */
export function choicesArg(name: string, choices: readonly string[]) {
  const one = choiceArg(name, choices);
  return Object.assign(
    (v: string, prev: string[] = []) => [
      ...new Set([
        ...prev,
        ...v
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean)
          .map(one),
      ]),
    ],
    { choices },
  );
}

/** A time to be resolved against the target's "now" before the command runs (see resolveTimes). */
export class RelativeTime {
  constructor(
    readonly text: string,
    readonly at: (now: Date) => Date,
  ) {}
}

const UNIT_MS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };
const midnight = (t: Date, days = 0) => new Date(t.getFullYear(), t.getMonth(), t.getDate() + days);

/** Milliseconds in a span such as 30m, 24h, 7d, 2w or 1h30m; null when it is not one. */
function spanMs(v: string): number | null {
  const parts = [...v.matchAll(/(\d+)([smhdw])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) return null;
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MS[p[2]], 0);
}

/**
 * A time flag: ISO 8601 with Z or an offset, or a date (midnight local time); with `relative`
 * (the default) also `now`, `today`, `yesterday` (local midnights) and a time ago such as 30m,
 * 24h, 7d, 2w or 1h30m; with `ahead` a time from now such as +30m, +1h or +2d (for a time to come:
 * a post's publication). Absolute times become UTC ISO strings here; relative ones a RelativeTime.
 */
export function timeArg(name: string, o: { relative?: boolean; ahead?: boolean } = {}) {
  const relative = o.relative ?? true;
  return (v: string): string | RelativeTime => {
    const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    if (date) {
      const [y, m, d] = date.slice(1).map(Number);
      const t = new Date(y, m - 1, d);
      if (t.getFullYear() === y && t.getMonth() === m - 1 && t.getDate() === d) return t.toISOString();
    } else if (v.includes('T') && isIsoTime(v)) return new Date(v).toISOString();
    if (relative) {
      if (v === 'now') return new RelativeTime(v, (now) => now);
      if (v === 'today') return new RelativeTime(v, (now) => midnight(now));
      if (v === 'yesterday') return new RelativeTime(v, (now) => midnight(now, -1));
      const ago = spanMs(v);
      if (ago !== null) return new RelativeTime(v, (now) => new Date(now.getTime() - ago));
    }
    const ahead = o.ahead && v.startsWith('+') ? spanMs(v.slice(1)) : null;
    if (ahead !== null) return new RelativeTime(v, (now) => new Date(now.getTime() + ahead));
    const forms =
      (relative ? ', or a time ago: 30m, 24h, 7d, today, yesterday' : '') +
      (o.ahead ? ', or a time from now: +30m, +1h, +2d' : '');
    throw usage(
      `${name} takes an ISO 8601 time with Z or an offset (2026-01-31T09:00:00Z) or a date (2026-01-31)${forms}; got "${v}".`,
    );
  };
}

/**
 * Relative times count from "now" on the target: the simulator's clock (GET /_sim/clock) when the
 * target is a simulator, this machine's clock on a real service (which has no such route).
 */
async function resolveTimes(ctx: Context, opts: Record<string, unknown>): Promise<void> {
  const relative = Object.entries(opts).filter(([, v]) => v instanceof RelativeTime) as [string, RelativeTime][];
  if (relative.length === 0) return;
  const now = await targetNow(
    ctx,
    relative.map(([, v]) => v.text),
  );
  for (const [k, v] of relative) opts[k] = v.at(now).toISOString();
}

/**
 * "Now" on the target, for times given relative to it. A simulator (embedded, or a base URL whose
 * replies name it in their Server header) must answer with its clock: any other answer stops the
 * command, since this machine's clock may be years from a simulated one and the filter would
 * quietly cover another span. A base URL that is not a simulator is a service: a 4xx (it has no
 * such route), or a 200 that is no clock, means this machine's clock. A 5xx from something
 * unnamed cannot tell the two apart: it stops too. Network failures stop the command as any
 * request's do (exit 4).
 */
async function targetNow(ctx: Context, texts: string[]): Promise<Date> {
  const res = await (await ctx.client()).request('GET', '/_sim/clock');
  const simulator = ctx.target().kind === 'embedded' || res.headers.server === SIMULATOR_SERVER;
  let now: Date | null = null;
  try {
    if (res.status === 200) now = new Date(res.json<{ now: string }>().now);
  } catch {
    // not the simulator's clock reply
  }
  if (now && !Number.isNaN(now.getTime())) return now;
  if (!simulator && res.status < 500) return new Date();
  const { code, message } = errorEnvelope(res).error;
  const answer = res.status === 200 ? 'a reply that holds no clock' : `${res.status} ${code}: ${message}`;
  throw new CliError(
    `${texts.map((t) => `"${t}"`).join(', ')} counts back from the ${simulator ? "simulator's" : "target's"} clock, which could not be read (GET /_sim/clock answered ${answer}).`,
    EXIT.api,
    'Try again, or give an absolute time (2026-01-31T09:00:00Z, or a date) instead.',
  );
}

/** Reads all of stdin (for `-` arguments). */
export async function readStdin(io: IO): Promise<string> {
  return (await readStdinBytes(io)).toString('utf8');
}

/** The text of a file named by a flag, or of stdin for `-`; an unreadable file is a usage error naming the flag. */
export async function readFileArg(io: IO, flag: string, file: string): Promise<string> {
  if (file === '-') return readStdin(io);
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8').catch((e: Error) => {
    throw usage(`Cannot read ${flag}: ${e.message}`);
  });
}

/** Reads all of stdin as bytes, unchanged (a body sent as it is); null past `max` bytes (read no further). */
export async function readStdinBytes(io: IO): Promise<Buffer>;
export async function readStdinBytes(io: IO, max: number): Promise<Buffer | null>;
export async function readStdinBytes(io: IO, max = Infinity): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of io.stdin) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(String(c));
    if ((n += b.length) > max) return null;
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/**
 * The examples that end a command's help, in one form for every command: a real command line each,
 * written `vmv ...` (a pipe into or out of vmv is fine). Every leaf command has at least one, added
 * last so the help ends with it: `withExamples(parent.command('status')...action(...), 'vmv quick
 * status JOB_ID')`. test/cli-help.test.ts parses each example against the command tree.
 */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/** Each command's examples, as withExamples gave them (a group's page shows its commands' first). */
const EXAMPLES = new WeakMap<Command, readonly string[]>();

/**
 * Ends a command's help with its examples and records them as the command's own data, so that a
 * group's page can show its commands' examples without reading commander's help listeners back.
 */
export function withExamples<C extends Command>(c: C, ...lines: string[]): C {
  EXAMPLES.set(c, lines);
  return c.addHelpText('after', examples(...lines));
}

/** The examples withExamples recorded for a command (none: an empty list). */
export const examplesOf = (c: Command): readonly string[] => EXAMPLES.get(c) ?? [];

/**
 * Every wait (a --wait or --watch flag) also takes --timeout and --advance (see src/wait.ts); a
 * command that defines either itself keeps its own and takes no other (assistant send: its --wait
 * takes the time to wait, so it has no --timeout).
 */
export function addWaitOptions(c: Command): void {
  for (const sub of c.commands) addWaitOptions(sub);
  const wait = c.options.find((o) => o.long === '--wait' || o.long === '--watch')?.long;
  if (!wait || c.options.some((o) => o.long === '--timeout' || o.long === '--advance')) return;
  c.addOption(
    new Option(
      '--timeout <duration>',
      `with ${wait}: stop waiting after this much wall-clock time (90s, 5m, 1h); exit 6, the job continues`,
    ),
  );
  c.addOption(
    new Option(
      '--advance',
      `with ${wait}, on a simulator: advance its manual clock to each next due transition until the job ends (the embedded simulator's real clock is set manual first)`,
    ),
  );
}

/** A noun of the CLI (commands/index.ts lists them): its name, one line for `vmv --help`, and its verbs' module, loaded when needed. */
export interface Noun {
  name: string;
  description: string;
  /** the noun's verbs module, loaded only when a command line names the noun (or completion walks them all) */
  load: () => Promise<Verbs>;
}

/** What a noun's verbs module (commands/NOUN/index.ts) exports. */
export interface Verbs {
  /** defines the noun's verbs (or, for a single-verb noun such as api, its options) on its command */
  register: (noun: Command, shell: Shell) => void;
  /** request fields its verbs send under another name than the flag's: named after the flag in a validation error */
  fieldAliases?: FieldAliases;
}

/**
 * Defines a noun's verbs on its command: their module's register and field aliases, then what every
 * wait takes. The one way verbs come to be, for the noun a command line names and for completion's
 * whole tree.
 */
export async function defineVerbs(cmd: Command, noun: Pick<Noun, 'load'>, shell: Shell): Promise<void> {
  const verbs = await noun.load();
  verbs.register(cmd, shell);
  if (verbs.fieldAliases) declareFieldAliases(cmd, verbs.fieldAliases);
  addWaitOptions(cmd);
}
