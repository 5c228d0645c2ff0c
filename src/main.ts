// The program: global flags, every noun and verb, and the one place errors become stderr text and
// exit codes. Verbs load what they need (API client, simulator, conf) only when they run.
import { Command, CommanderError, Help, Option } from 'commander';
import { nounOf, nouns } from '../commands/index.js';
import type { Shell } from './command.js';
import { ApiCallError, CliError, EXIT } from './errors.js';
import { forStderr, processIO, type IO } from './io.js';
import { bold, dim, red } from './output.js';
import type { Env } from './paths.js';

export const VERSION = '0.1.0';

export function buildProgram(shell: Shell): Command {
  const program = new Command('vmv')
    .description('AI voice calls, texts, email and videos from the command line, against the service or a local simulator.')
    .version(VERSION, '-V, --version')
    .addOption(new Option('--json', 'print the API response body exactly as returned'))
    .addOption(new Option('--base-url <url>', 'service base URL (env VMV_BASE_URL); without one, the embedded simulator'))
    .addOption(new Option('--api-key <key>', 'API key (env VMV_API_KEY); prefer `vmv config set api_key -`'))
    .addOption(new Option('--profile <name>', 'settings profile to use (env VMV_PROFILE)'))
    .addOption(new Option('--idempotency-key <key>', 'Idempotency-Key header for the request this command writes'))
    .showSuggestionAfterError(true)
    .configureHelp({
      sortSubcommands: false,
      // global options are listed on the root's help and on each leaf command's (they apply to the
      // command run), not on the pages of groups such as `vmv quick`
      showGlobalOptions: true,
      visibleGlobalOptions(cmd) { return cmd.commands.length ? [] : Help.prototype.visibleGlobalOptions.call(this, cmd); },
      // commander marks nothing: a required option says so at the end of its description
      optionDescription(o) { return Help.prototype.optionDescription.call(this, o) + (o.mandatory ? ' (required)' : ''); },
    })
    .addHelpText('after', `
Targets: with no base URL configured, commands run against the bundled simulator (data in
~/.local/share/vmv/sim.json, or VMV_SIM_DATA). \`vmv sim serve\` serves the same simulator over HTTP.

Exit codes: 0 ok, 1 API error, 2 usage, 3 authentication, 4 network.`);
  for (const n of nouns) program.command(n.name).description(n.description);
  configure(program, shell);
  return program;
}

/** Every command reports through our streams and never calls process.exit itself. */
function configure(c: Command, shell: Shell): void {
  c.exitOverride().configureOutput({
    writeOut: (s) => shell.io.out(s),
    writeErr: (s) => shell.io.err(s),
    outputError: (s, write) => write(s),
  });
  for (const sub of c.commands) configure(sub, shell);
}

/** Defines the verbs of the noun the command line names (the others stay names in the help). */
async function defineNoun(program: Command, shell: Shell, argv: readonly string[]): Promise<void> {
  const noun = nounOf(argv);
  if (!noun) return;
  const cmd = program.commands.find((c) => c.name() === noun.name)!;
  (await noun.load()).register(cmd, shell);
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
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    return report(io, e);
  }
}

function report(out: IO, e: unknown): number {
  const io = forStderr(out);
  if (e instanceof CommanderError) {
    // help and version print and exit 0; everything else commander rejects is a usage error
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
    if (e.code === 'commander.executeSubCommandAsync') return EXIT.ok;
    return EXIT.usage;
  }
  if (e instanceof ApiCallError) {
    const { code, message, fields } = e.envelope.error;
    io.err(`${red(io, 'error')}: ${message} ${dim(io, `(${code}, HTTP ${e.status})`)}\n`);
    for (const [k, v] of Object.entries(fields ?? {})) io.err(`  ${bold(io, k)}: ${v}\n`);
    if (e.hint) io.err(dim(io, e.hint) + '\n');
    return e.exitCode;
  }
  if (e instanceof CliError) {
    io.err(`${red(io, 'error')}: ${e.message}\n`);
    if (e.hint) io.err(dim(io, e.hint) + '\n');
    return e.exitCode;
  }
  const err = e as NodeJS.ErrnoException;
  io.err(`${red(io, 'error')}: ${err?.message ?? String(e)}\n`);
  if (process.env.VMV_DEBUG) io.err(String(err?.stack) + '\n');
  // a local failure (a file that cannot be read or written) is the command line's, not the API's
  return typeof err?.code === 'string' && /^E[A-Z]+$/.test(err.code) ? EXIT.usage : EXIT.api;
}
