// vmv sim serve: the simulator over HTTP, on loopback by default.
import type { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { action, choiceArg, collect, withExamples, intArg, timeArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { forStderr, onStop } from '../../src/io.js';
import { dim, yellow } from '../../src/output.js';
import { simDataFile } from '../../src/paths.js';
import { maskKey } from '../../src/settings.js';

interface Options {
  host: string;
  port: number;
  allowHost?: string[];
  remoteInspector?: boolean;
  /** a token given, or false (--no-control-token): none on a bind beyond loopback */
  controlToken?: string | false;
  data?: string;
  clock?: 'real' | 'manual';
  now?: string;
  seed?: number;
  moveLimit?: number;
  quiet?: boolean;
  printEnv?: boolean;
  /** (vmv sim ui) called with the server's address once it listens */
  onListening?: (url: string) => void;
}

/** A value as a POSIX shell word (single-quoted unless it is plain). */
const shellWord = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);

/** The line that points vmv (in another shell) at this server: its URL and key, to paste or eval. */
export const envLine = (url: string, key: string) =>
  `export VMV_BASE_URL=${shellWord(url)} VMV_API_KEY=${shellWord(key)}`;

/** The command that prints this server's export line, with the flags that name it; --json where the port is picked when listening. */
function printEnvCommand(o: Options, file: string): string {
  if (o.port === 0) return 'its URL and key are printed by --json';
  const flags = [
    o.host !== '127.0.0.1' ? ` --host ${shellWord(o.host)}` : '',
    o.port !== 4010 ? ` --port ${o.port}` : '',
    o.data ? ` --data ${shellWord(file)}` : '',
  ].join('');
  return `eval "$(vmv sim serve --print-env${flags})"`;
}

/** Where a client reaches a server bound to `host`: a loopback address for the wildcard ones. */
function reachAt(host: string, port: number): string {
  const WILDCARDS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1' };
  const h = WILDCARDS[host] ?? host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('serve')
      .description('Serve the simulator over HTTP until interrupted')
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--port <port>', 'port to listen on (0 picks a free one)', intArg('--port', 0, 65535), 4010)
      .option(
        '--allow-host <name>',
        "also answer requests whose Host is this name or address (repeatable; '*': any host); default from VMV_SIM_ALLOW_HOSTS (comma-separated)",
        collect,
      )
      .option(
        '--remote-inspector',
        'serve the inspector (the page, and its keyless way to /v1) to other machines too, not only to this one',
      )
      .option(
        '--control-token <token>',
        'bound beyond loopback, the token other machines send to reach /_sim (default: VMV_SIM_CONTROL_TOKEN, else one made and printed)',
      )
      .option(
        '--no-control-token',
        'bound beyond loopback, let anyone who reaches the port use /_sim without a token (reset, the clock, new keys)',
      )
      .option('--data <file>', "data file (default: the embedded simulator's, or VMV_SIM_DATA)")
      .option(
        '--clock <mode>',
        'real (wall time plus advances) or manual (stands still until advanced)',
        choiceArg('--clock', ['real', 'manual']),
      )
      .option(
        '--now <time>',
        'set the clock to this ISO 8601 time at start (forward only on existing data)',
        timeArg('--now', { relative: false }),
      )
      .option('--seed <n>', 'seed for a new data file (default 1)', intArg('--seed', 0, 2 ** 32 - 1))
      .option(
        '--move-limit <n>',
        'the most transitions one move of the clock may run before it is refused with a step that fits (default 50000; VMV_SIM_MOVE_LIMIT)',
        intArg('--move-limit', 1, 10_000_000),
      )
      .option('--quiet', 'do not log requests to stderr')
      .option(
        '--print-env',
        'print only the export line of VMV_BASE_URL and VMV_API_KEY (the key whole) for the server these flags start, and exit: eval "$(vmv sim serve --print-env)"',
      )
      .addHelpText(
        'after',
        '\nWith --json, prints one line once listening: {"url": "...", "api_key": "<full-access key>"}, and\n' +
          '"control_token" when one is needed. Bound beyond loopback (--host 0.0.0.0), clients on other machines\n' +
          'reach /_sim only with the control token, in the Vmv-Control-Token header (vmv: VMV_SIM_CONTROL_TOKEN).',
      )
      .addHelpText(
        'after',
        'Answers only requests whose Host is a loopback name (localhost, 127.0.0.0/8, [::1]), the --host\n' +
          'address (bound to 0.0.0.0 or ::, any IP address) or an --allow-host name (421 otherwise); refuses\n' +
          'requests from web pages not on a loopback address (Origin, 403) or from another site (Sec-Fetch-Site, 403),\n' +
          'paths with dot segments (400) and bodies not sent as application/json (415). The inspector answers only\n' +
          'clients on this machine (by their address; 403 otherwise) unless --remote-inspector.',
      )
      .action(action(shell, run)),
    'vmv sim serve --port 4010',
    'vmv sim serve --clock manual --now 2026-01-05T09:00:00Z --data ./ci-sim.json --quiet',
    'vmv sim serve --host 0.0.0.0 --allow-host sim --allow-host devbox.local',
    'VMV_SIM_CONTROL_TOKEN="$(openssl rand -hex 24)" vmv sim serve --host 0.0.0.0',
    'vmv sim serve --print-env --port 4010',
  );
}

type Sim = typeof import('../../simulator/index.js');

export async function run(ctx: Context, o: Options): Promise<void> {
  const sim = await import('../../simulator/index.js');
  const { io } = ctx;
  const gate = await import('../../src/http-gate.js');
  const allowed = allowedHosts(o, ctx.env, gate.normalHost);
  const bound = gate.normalHost(o.host, { port: false });
  const file = o.data ?? simDataFile(ctx.env);
  const { store, apiKey, now, mode } = await openStore(sim, o, file);

  if (o.printEnv) {
    if (o.port === 0) throw usage('--print-env needs a fixed --port (0 picks one only when listening).');
    io.out(`${envLine(reachAt(o.host, o.port), apiKey)}\n`);
    return;
  }
  const beyond = bound === null || !gate.isLoopbackHost(bound);
  const controlToken = beyond ? controlTokenOf(o, ctx.env) : undefined;
  warnings(io, [
    exposure(o.host, beyond, o.remoteInspector === true, controlToken !== undefined),
    allowed.includes('*')
      ? "warning: --allow-host '*' answers requests naming any host: a web page could reach the simulator by DNS rebinding."
      : null,
  ]);
  const server = await listen(sim, ctx, o, store, { allowed, controlToken });

  if (ctx.json)
    io.out(
      JSON.stringify({ url: server.url, api_key: apiKey, ...(controlToken ? { control_token: controlToken } : {}) }) +
        '\n',
    );
  else
    banner(io, o, {
      url: server.url,
      apiKey,
      file,
      clock: `${mode} at ${sim.iso(now)}`,
      hosts: gate.describeHosts(gate.hostPolicy(o.host, allowed)),
      controlToken,
      tokenGiven: o.controlToken !== undefined || Boolean(ctx.env.VMV_SIM_CONTROL_TOKEN),
    });

  o.onListening?.(server.url);
  await untilStopped(server);
}

/** The data file's store, its clock set by --clock and --now (an existing file keeps its data), and the key and clock to show. */
async function openStore(sim: Sim, o: Options, file: string) {
  const { Store, setMode, clockNow, realClock, iso } = sim;
  const start = o.now !== undefined ? Date.parse(o.now) : undefined;
  const initialClock = setMode(realClock(), o.clock ?? 'real', start);
  const store = new Store(file, { seed: o.seed, clock: initialClock });

  // an existing file keeps its data; the flags still set its clock
  const seen = await store.withLock(async (ss) => {
    const s = await ss.begin();
    const c = s.data.meta.clock;
    if (start !== undefined && start < clockNow(c))
      throw usage(`--now is before the data file's clock (${iso(clockNow(c))}); the clock only moves forward.`);
    // (a clock already so is left alone: a server restarted on a full disk starts, and serves reads)
    if (!o.printEnv && ((o.clock !== undefined && o.clock !== c.mode) || start !== undefined)) {
      s.data.meta.clock = setMode(c, o.clock ?? c.mode, start ?? clockNow(c));
      await ss.commit(s);
    }
    return { apiKey: s.data.meta.default_api_key, now: clockNow(s.data.meta.clock), mode: s.data.meta.clock.mode };
  });
  return { store, ...seen };
}

/** The server listening (requests logged to stderr unless --quiet); a usage error when it cannot. */
function listen(
  sim: Sim,
  ctx: Context,
  o: Options,
  store: InstanceType<Sim['Store']>,
  door: { allowed: string[]; controlToken: string | undefined },
) {
  const { io } = ctx;
  return sim
    .startServer({
      store,
      host: o.host,
      port: o.port,
      allowedHosts: door.allowed,
      remoteInspector: o.remoteInspector,
      controlToken: door.controlToken,
      moveLimit:
        o.moveLimit ??
        (ctx.env.VMV_SIM_MOVE_LIMIT
          ? intArg('VMV_SIM_MOVE_LIMIT', 1, 10_000_000)(ctx.env.VMV_SIM_MOVE_LIMIT)
          : undefined),
      onRequest: o.quiet
        ? undefined
        : (m, u, status, ms) => io.err(dim(forStderr(io), `${m} ${u} ${status} ${ms.toFixed(1)}ms`) + '\n'),
    })
    .catch((e: NodeJS.ErrnoException) => {
      throw usage(
        `Cannot listen on ${o.host}:${o.port}: ${e.code ?? e.message}`,
        e.code === 'EADDRINUSE' ? 'Pick another --port, or --port 0 for a free one.' : undefined,
      );
    });
}

/** Resolves once SIGINT, SIGTERM or a registered stop (onStop) has closed the server. */
function untilStopped(server: { close(): Promise<unknown> }): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      unregister();
      void server.close().then(() => resolve());
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const unregister = onStop(stop);
  });
}

/** The names answered beyond loopback's: --allow-host, else VMV_SIM_ALLOW_HOSTS (comma-separated); one not a host is a usage error. */
function allowedHosts(
  o: Options,
  env: Context['env'],
  normalHost: (h: string, x: { port: false }) => string | null,
): string[] {
  const allowed =
    o.allowHost ??
    env.VMV_SIM_ALLOW_HOSTS?.split(',')
      .map((h) => h.trim())
      .filter(Boolean) ??
    [];
  const bad = allowed.find((n) => n !== '*' && normalHost(n, { port: false }) === null);
  if (bad !== undefined)
    throw usage(
      `${o.allowHost ? '--allow-host' : 'VMV_SIM_ALLOW_HOSTS'} takes a host name or IP address without scheme or port (or '*'), got "${bad}".`,
    );
  return allowed;
}

/** The warnings that apply, each a line of stderr, in yellow on a terminal. */
function warnings(io: Context['io'], lines: (string | null)[]): void {
  for (const line of lines) if (line) io.err(yellow(forStderr(io), line) + '\n');
}

/**
 * The control token of a server bound beyond loopback: --control-token, VMV_SIM_CONTROL_TOKEN, or
 * one made now (192 random bits); undefined with --no-control-token. Like Jupyter's token: printed
 * once when the server starts, so only whoever started it (or reads its output) can hand it on.
 */
function controlTokenOf(o: Options, env: Context['env']): string | undefined {
  if (o.controlToken === false) return undefined;
  const given = o.controlToken ?? (env.VMV_SIM_CONTROL_TOKEN || undefined);
  if (given === undefined) return `simctl_${randomBytes(24).toString('base64url')}`;
  if (!/^[\x21-\x7e]{16,200}$/.test(given))
    throw usage(
      `${o.controlToken ? '--control-token' : 'VMV_SIM_CONTROL_TOKEN'} must be 16 to 200 visible ASCII characters, without spaces.`,
      'Make one with: openssl rand -hex 24',
    );
  return given;
}

/**
 * The warning for a server other machines can reach: exactly what is open to them. /v1 needs a key;
 * the control plane needs the control token (none with --no-control-token: then it can mint
 * full-access keys for anyone); the inspector spends as the seeded workspace's key, so it stays
 * loopback-only unless --remote-inspector. Null on a loopback address.
 */
export function exposure(
  host: string,
  beyondLoopback: boolean,
  remoteInspector: boolean,
  tokened = false,
): string | null {
  if (!beyondLoopback)
    return remoteInspector
      ? `warning: --remote-inspector changes nothing here: bound to ${host}, only this machine can connect.`
      : null;
  const open = [
    '/v1 to anyone holding an API key',
    tokened
      ? 'the /_sim control plane to anyone holding the control token (it resets the world, moves the clock and mints full-access API keys)'
      : 'the /_sim control plane to anyone, without a key, by --no-control-token (it resets the world, moves the clock and mints full-access API keys)',
  ];
  if (remoteInspector)
    open.push(
      'and, by --remote-inspector, the inspector and its /_sim/inspector/v1, which spends as the full-access key without one',
    );
  const inspector = remoteInspector
    ? ''
    : ' The inspector (its page, and its /v1 without a key) answers only this machine (--remote-inspector opens it).';
  return `warning: binding ${host} opens the simulator to other machines: ${open.join('; ')}.${inspector}`;
}

/** What `sim serve` says on stderr once it listens (--json prints the URL and key on stdout instead). */
function banner(
  io: Context['io'],
  o: Options,
  b: {
    url: string;
    apiKey: string;
    file: string;
    clock: string;
    hosts: string;
    controlToken?: string;
    tokenGiven: boolean;
  },
) {
  io.err(`Simulator listening on ${b.url}\n`);
  io.err(`  hosts  ${b.hosts}\n`);
  const who = o.remoteInspector ? 'any client' : 'this machine only';
  io.err(
    `  page   ${b.url}/  (the inspector, for ${who}: vmv sim ui opens it)\n  data   ${b.file}\n  clock  ${b.clock}\n`,
  );
  // the key whole only on a terminal: it opens a local simulator and nothing else, but a banner
  // piped to a file or a CI log keeps it masked
  const url = reachAt(o.host, Number(new URL(b.url).port));
  if (io.stderrTTY) {
    io.err(`  key    ${b.apiKey} (full-access)\n`);
    io.err(dim(forStderr(io), '  Point vmv at it from another shell:') + `\n  ${envLine(url, b.apiKey)}\n`);
  } else {
    io.err(`  key    ${maskKey(b.apiKey)} (full-access; printed whole on a terminal, by --json, or by --print-env)\n`);
    io.err(`  Point vmv at it: ${printEnvCommand(o, b.file)}\n`);
  }
  // a token made here is printed whole, as Jupyter prints its own (there is no other way to learn it
  // but --json); one the user gave is theirs already, and stays out of logs
  if (b.controlToken)
    io.err(
      `  token  ${b.tokenGiven ? maskKey(b.controlToken) : b.controlToken}\n` +
        '         (other machines reach /_sim only with it: header Vmv-Control-Token, or VMV_SIM_CONTROL_TOKEN for vmv;\n' +
        `         ${o.remoteInspector ? 'the inspector from another machine: open the page at /?token=TOKEN once' : 'the inspector answers this machine only'})\n`,
    );
  io.err(dim(forStderr(io), '  Stop with Ctrl-C.') + '\n');
}
