// The program: global flags, every noun and verb, and the one place errors become stderr text and
// exit codes. Verbs load what they need (API client, simulator, conf) only when they run.
import { Command, CommanderError, Help, Option } from 'commander';
import { nounOf, nouns, VALUE_OPTIONS } from '../commands/index.js';
import { defineVerbs, examples, examplesOf, intArg, type Shell } from './command.js';
import { ApiCallError, CliError, EXIT } from './errors.js';
import { forStderr, processIO, type IO } from './io.js';
import { simDataFileShown } from './paths.js';
import { bold, dim, red } from './colors.js';
import type { Env } from './paths.js';
import { DEFAULT_RETRIES, MAX_RETRIES } from './retry.js';
import { DEFAULT_REQUEST_TIMEOUT_S, requestTimeoutMs } from './settings.js';
import { VERSION } from './version.js';
import { visible } from './visible.js';

export function buildProgram(shell: Shell): Command {
  const root = new Command('vmv')
    .description(
      'AI voice calls, texts, email and videos from the command line, against the service or a local simulator.',
    )
    .version(VERSION, '-V, --version');
  const program = globalOptions(root)
    .showSuggestionAfterError(true)
    .configureHelp(HELP)
    .addHelpText('after', rootHelp(shell));
  for (const n of nouns) program.command(n.name).description(n.description);
  configure(program, shell);
  return program;
}

/** The flags every command takes (commander lists them on the root's help and each leaf's). */
function globalOptions(program: Command): Command {
  return program
    .addOption(
      new Option('--json', 'print the API response body exactly as returned (an error: its JSON envelope on stderr)'),
    )
    .addOption(
      new Option('--base-url <url>', 'service base URL (env VMV_BASE_URL); without one, the embedded simulator'),
    )
    .addOption(new Option('--api-key <key>', 'API key (env VMV_API_KEY); prefer `vmv config set api_key -`'))
    .addOption(new Option('--profile <name>', 'settings profile to use (env VMV_PROFILE)'))
    .addOption(
      new Option(
        '--idempotency-key <key>',
        "Idempotency-Key of the command's write (default on a base URL: a new UUID; a second write gets KEY-2, ...)",
      ),
    )
    .addOption(
      new Option(
        '--new-request',
        'send the write as a new request, not with the Idempotency-Key vmv kept from an earlier run of it whose outcome was unknown',
      ).conflicts('idempotencyKey'),
    )
    .addOption(
      new Option(
        '--retries <n>',
        `retries of a request that failed on the network or got 429/502/503/504, where that cannot apply a write twice (env VMV_MAX_RETRIES; default ${DEFAULT_RETRIES})`,
      ).argParser(intArg('--retries', 0, MAX_RETRIES)),
    )
    .addOption(
      new Option(
        '--request-timeout <duration>',
        `how long to wait for a reply (30s, 5m; env VMV_REQUEST_TIMEOUT; default ${DEFAULT_REQUEST_TIMEOUT_S}s, plus what an assistant message waits)`,
      ).argParser((v) => (requestTimeoutMs('--request-timeout', v), v)),
    )
    .addOption(
      new Option(
        '--wide',
        'on a terminal, tables show every value whole (ids too) instead of fitting the width; piped output is never cut',
      ),
    );
}

/** How help is laid out, for the root and every command under it. */
const HELP: Partial<Help> = {
  sortSubcommands: false,
  // global options are listed on the root's help and on each leaf command's (they apply to the
  // command run), not on the pages of groups such as `vmv quick`
  showGlobalOptions: true,
  visibleGlobalOptions(cmd) {
    return cmd.commands.length ? [] : Help.prototype.visibleGlobalOptions.call(this, cmd);
  },
  // commander marks nothing: a required option says so at the end of its description
  optionDescription(o) {
    return Help.prototype.optionDescription.call(this, o) + (o.mandatory ? ' (required)' : '');
  },
  // the root and the groups list their commands first (as gh does), the options after; a
  // group's page ends with examples taken from its commands' own
  formatHelp(cmd, helper) {
    const text = Help.prototype.formatHelp.call(this, cmd, helper);
    if (!cmd.commands.length) return text;
    // (a group that runs as a command too, such as `vmv sim deliveries`, has examples of its own)
    const own = examplesOf(cmd).length > 0;
    return commandsFirst(text) + (cmd.parent && !own ? groupExamples(cmd) : '');
  },
};

/** What ends the root's help: targets, the network's rules, exit codes and examples. */
function rootHelp(shell: Shell): string {
  return `
Targets: with no base URL configured, commands run against the bundled simulator, its data in
${simDataFileShown(shell.env)} (VMV_SIM_DATA, or XDG_DATA_HOME). \`vmv sim serve\` serves the same simulator over HTTP.

Network: on a base URL every write carries an Idempotency-Key, and a request that fails on the
network or gets 429, 502, 503 or 504 is retried (--retries) only where that cannot apply a write
twice; a write that may have been applied all the same says so, with the key to rerun it with,
and the next run of the same request reuses that key (--new-request: a new one).

Exit codes:
  0    ok
  1    the API answered with an error; a webhook test that could not be delivered
  2    usage: unknown command or flag, missing or malformed argument (checked before any request)
  3    authentication: missing or invalid API key (401), or a key without access (403)
  4    network: no reply from the service (could not connect, connection lost, timed out); a
       write that may have been applied says so, with the --idempotency-key to rerun it safely
  5    --wait ended without success: a call not completed, a quick job target failed (no
       answer is an outcome), an AI number not provisioned, a video that failed
  6    --wait ran out of --timeout (the job continues; its id is printed on stdout)
  7    a confirmation was declined at the prompt
  130  interrupted (Ctrl-C)
${examples(
  'vmv email send --to ada@example.com --subject Hello --body "First email from the simulator"',
  'vmv quick call +14155550100 --goal "confirm the appointment" --wait --advance',
  "vmv history calls --phone +14155550100 --json | jq -r '.data[0].summary'",
  'vmv status',
)}`;
}

/** commander's help text with its Commands section moved before its Options (sections are blank-line separated). */
function commandsFirst(text: string): string {
  const sections = text.split('\n\n');
  const commands = sections.findIndex((s) => s.startsWith('Commands:'));
  const options = sections.findIndex((s) => s.startsWith('Options:'));
  if (commands < 0 || options < 0 || commands < options) return text;
  const [moved] = sections.splice(commands, 1);
  sections.splice(options, 0, moved.trimEnd());
  return `${sections.join('\n\n').trimEnd()}\n`;
}

/**
 * A group's Examples: the first example of each of its first three commands (a sub-group: of its
 * first command), each with the lines before it in its command's block that it needs (a caller ID
 * verified first, `CALL=$(...)` before `"$CALL"`), so that the lines run as they stand, in order.
 */
function groupExamples(cmd: Command): string {
  const lines = [...new Set(cmd.commands.slice(0, 3).flatMap((c) => firstExample(c)))];
  return lines.length ? `${examples(...lines)}\n` : '';
}

/**
 * The first example of a command (of those withExamples recorded for it) that runs the command
 * itself, or of its first command's; with the lines before it that set up what it uses: a line
 * setting a variable, or a simulator command (`vmv sim caller-id`) before another's.
 */
function firstExample(c: Command): string[] {
  if (c.commands.length) return firstExample(c.commands[0]);
  const lines = examplesOf(c);
  if (!lines.length) return [];
  const path: string[] = [];
  for (let p: Command | null = c; p; p = p.parent) path.unshift(p.name());
  const own = Math.max(
    0,
    lines.findIndex((l) => l.includes(`${path.join(' ')} `)),
  );
  // (a simulator command sets up another's; one of the sim group's own is no setup but another example)
  const setup = lines
    .slice(0, own)
    .filter((l) => /^[A-Z_]+=\$\(/.test(l) || (path[1] !== 'sim' && /^vmv sim /.test(l)));
  return [...setup, lines[own]];
}

/** Every command reports through our streams and never calls process.exit itself. */
function configure(c: Command, shell: Shell): void {
  c.exitOverride().configureOutput({
    writeOut: (s) => shell.io.out(s),
    writeErr: (s) => shell.io.err(s),
    // commander's own errors are printed by report(), as text or (--json) as JSON
    outputError: () => undefined,
    // the width and colour of help from our IO, not process.stdout's: asking that makes the stream,
    // which a stdout that is a file never needs (src/io.ts, plainStdout); off a terminal, commander's 80
    getOutHelpWidth: () => (shell.io.stdoutTTY ? shell.io.columns : 80),
    getErrHelpWidth: () => (shell.io.stderrTTY ? shell.io.columns : 80),
    getOutHasColors: () => shell.io.color,
    getErrHasColors: () => shell.io.errColor,
  });
  (c as Internals).missingMandatoryOptionValue = () => missingOptions(c);
  for (const sub of c.commands) configure(sub, shell);
}

/** Defines the verbs of the noun the command line names (the others stay names in the help). */
async function defineNoun(program: Command, shell: Shell, argv: readonly string[]): Promise<void> {
  const noun = nounOf(argv);
  if (!noun) return;
  const cmd = program.commands.find((c) => c.name() === noun.name)!;
  await defineVerbs(cmd, noun, shell);
  configure(cmd, shell);
}

export async function main(argv: string[], io?: IO, env: Env = process.env): Promise<number> {
  io ??= processIO(env);
  const program = buildProgram({ io, env });
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.ok;
  }
  try {
    await defineNoun(program, { io, env }, argv);
    checkHelpTopic(program, argv);
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    return report(io, e, wantsJson(argv));
  }
}

/** --json among the options (not after `--`, where words are operands). */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** The `code` of an error the CLI raises itself, in the API's envelope shape for --json. */
const LOCAL_CODES: Record<number, string> = {
  [EXIT.api]: 'error',
  [EXIT.usage]: 'usage_error',
  [EXIT.auth]: 'auth_error',
  [EXIT.network]: 'network_error',
  [EXIT.failed]: 'job_failed',
  [EXIT.timeout]: 'wait_timeout',
  [EXIT.declined]: 'declined',
  [EXIT.notUnderstood]: 'not_understood',
  [EXIT.interrupted]: 'interrupted',
};

/** Commander shows the program's help for `vmv help foo` (and `vmv quick help foo`): make an unknown topic an error. */
function checkHelpTopic(program: Command, argv: readonly string[]): void {
  let cmd = program;
  let help = false;
  for (const word of argv.filter((a, i) => !a.startsWith('-') && !VALUE_OPTIONS.has(argv[i - 1]))) {
    if (cmd.commands.length === 0) return;
    if (word === 'help' && !help) {
      help = true;
      continue;
    }
    const next = cmd.commands.find((c) => c.name() === word);
    if (!next) return help ? unknownTopic(cmd, word) : undefined;
    cmd = next;
  }
  // `vmv help quick call`: commander's help command goes one level deep; show the deepest topic
  if (help && cmd.parent && cmd.parent !== program) cmd.help();
}

/** commander's own error steps (undocumented, stable since commander 2), replaced or reused here */
type Internals = Command & { missingMandatoryOptionValue(o: Option): void; unknownOption(flag: string): void };

/**
 * A required option is missing: a mistyped flag on the line is the likelier cause (reported with
 * the closest flag, as commander does); otherwise every missing one is named, and a lone unknown
 * flag is suggested to be the missing one.
 */
function missingOptions(c: Command): never {
  const all = [c, ...ancestors(c)].flatMap((x) => x.options);
  const given = c.args
    .filter((a) => a.startsWith('--'))
    .map((a) => a.split('=')[0])
    .filter((a) => !all.some((o) => o.long === a));
  const missing = [c, ...ancestors(c)].flatMap((x) =>
    x.options.filter((o) => o.mandatory && x.getOptionValue(o.attributeName()) === undefined),
  );
  for (const flag of given)
    if (
      closest(
        flag,
        all.flatMap((o) => (o.long ? [o.long] : [])),
      )
    )
      (c as Internals).unknownOption(flag);
  const names = missing.map((o) => `'${o.flags}'`).join(', ');
  const guess =
    given.length === 1 && missing.length === 1 ? `\n(Did you mean ${missing[0].long} instead of ${given[0]}?)` : '';
  c.error(`error: required option${missing.length > 1 ? 's' : ''} ${names} not specified${guess}`, {
    code: 'commander.missingMandatoryOptionValue',
  });
  throw new Error('unreachable');
}

const ancestors = (c: Command): Command[] => (c.parent ? [c.parent, ...ancestors(c.parent)] : []);

function unknownTopic(cmd: Command, word: string): never {
  const names = cmd.commands.map((c) => c.name());
  const near = closest(word, names);
  cmd.error(`error: unknown command '${word}'\n(${near ? `Did you mean ${near}?` : `Commands: ${names.join(', ')}`})`, {
    code: 'commander.unknownCommand',
  });
  throw new Error('unreachable');
}

/** The candidate nearest to a mistyped word, as commander's suggestions pick it (edit distance, similar enough). */
function closest(word: string, candidates: string[]): string | undefined {
  const strip = (s: string) => s.replace(/^--/, '');
  let best: string | undefined;
  let bestD = 4;
  for (const c of candidates) {
    const a = strip(word);
    const b = strip(c);
    if (b.length <= 1) continue;
    const d = distance(a, b);
    const len = Math.max(a.length, b.length);
    if ((len - d) / len > 0.4 && d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** Commander's "errors" that are a finished command: help or the version shown. */
const DONE_CODES = new Set([
  'commander.helpDisplayed',
  'commander.version',
  'commander.help',
  'commander.executeSubCommandAsync',
]);

function report(out: IO, e: unknown, json = false): number {
  // help and version print and exit 0 (before stderr is asked about colour: it is not written)
  if (e instanceof CommanderError && DONE_CODES.has(e.code)) return EXIT.ok;
  const io = forStderr(out);
  if (e instanceof CommanderError) {
    // everything else commander rejects is a usage error
    if (json)
      return reportJson(
        io,
        { error: { code: LOCAL_CODES[EXIT.usage], message: e.message.replace(/^error: /, '') } },
        EXIT.usage,
      );
    io.err(e.message + '\n');
    return EXIT.usage;
  }
  // --json: the error as one JSON document on stderr, the API's envelope as received, or one in its shape
  // a write that may have been applied all the same: its key, beside the envelope's fields
  if (json && e instanceof ApiCallError)
    return reportJson(
      io,
      e.details ? { ...e.envelope, error: { ...e.envelope.error, ...e.details } } : e.envelope,
      e.exitCode,
    );
  if (json && e instanceof CliError)
    return reportJson(
      io,
      {
        error: {
          code: LOCAL_CODES[e.exitCode] ?? 'error',
          message: e.message,
          ...(e.hint ? { hint: e.hint } : {}),
          ...e.details,
        },
      },
      e.exitCode,
    );
  if (e instanceof ApiCallError) {
    const { code, message, fields } = e.envelope.error;
    // the envelope's words are the server's: shown, never obeyed (src/visible.ts), before vmv colours them
    io.err(`${red(io, 'error')}: ${visible(message)} ${dim(io, visible(`(${code}, HTTP ${e.status})`))}\n`);
    for (const [k, v] of Object.entries(fields ?? {}))
      io.err(`  ${bold(io, visible(fieldName(k, e.fieldFlags)))}: ${visible(String(v))}\n`);
    if (e.hint) io.err(dim(io, visible(e.hint)) + '\n');
    return e.exitCode;
  }
  if (e instanceof CliError) {
    io.err(`${red(io, 'error')}: ${visible(e.message)}\n`);
    if (e.hint) io.err(dim(io, visible(e.hint)) + '\n');
    return e.exitCode;
  }
  const err = e as NodeJS.ErrnoException;
  // a local failure (a file that cannot be read or written) is the command line's, not the API's
  const code = typeof err?.code === 'string' && /^E[A-Z]+$/.test(err.code) ? EXIT.usage : EXIT.api;
  if (json) return reportJson(io, { error: { code: LOCAL_CODES[code], message: err?.message ?? String(e) } }, code);
  io.err(`${red(io, 'error')}: ${visible(err?.message ?? String(e))}\n`);
  if (process.env.VMV_DEBUG) io.err(String(err?.stack) + '\n');
  return code;
}

function reportJson(io: IO, envelope: unknown, exit: number): number {
  io.err(JSON.stringify(envelope) + '\n');
  return exit;
}

/** A field of an error reply as the command line gave it: `--to (to_numbers[0])`, or the field alone. */
function fieldName(field: string, flags: Record<string, string> = {}): string {
  const flag = flags[field] ?? flags[field.replace(/[.[].*$/, '')];
  return flag ? `${flag} (${field})` : field;
}
