// vmv api [METHOD] PATH: a raw request to the configured target with the configured key, like `gh api`.
// The body comes back as received; fields (-f/-F) build a JSON body or the query string.
import type { Command } from 'commander';
import { action, collect, withExamples, readStdin, readStdinBytes, type Shell } from '../../src/command.js';
import { errorEnvelope, type ApiResponse } from '../../src/client.js';
import type { Context } from '../../src/context.js';
import { ApiCallError, CliError, EXIT, usage } from '../../src/errors.js';
import { unsureReply, type Known } from '../../src/faults.js';
import { forStderr } from '../../src/io.js';
import { bold, dim } from '../../src/output.js';

interface Options {
  method?: string;
  rawField?: string[];
  field?: string[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  include?: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** headers the transport sets itself */
const RESERVED = ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'host', 'upgrade'];

export function register(cmd: Command, shell: Shell): void {
  // METHOD and PATH are read from the command's arguments (not declared: the command list stays narrow)
  withExamples(
    cmd
      .usage('[METHOD] PATH [options]')
      .allowExcessArguments(true)
      .option('-X, --method <method>', 'the HTTP method, instead of the METHOD argument')
      .option(
        '-f, --raw-field <key=value>',
        'add a string field to the JSON body (the query string for GET); repeatable',
        collect,
      )
      .option(
        '-F, --field <key=value>',
        "add a typed field: true, false, null and numbers become JSON values, @file a file's text, @- standard input; repeatable",
        collect,
      )
      .option(
        '--input <file>',
        'send this file as the request body (- for standard input); fields then go to the query string',
      )
      .option(
        '-H, --header <header>',
        '"Name: value" request header, added or overriding (e.g. Authorization, Idempotency-Key); "Name:" removes one; repeatable',
        collect,
      )
      .option('--paginate', 'GET every page of a list (following meta.cursor) and print all items as one JSON array')
      .option('-i, --include', 'print the status line and response headers to stderr')
      .addHelpText(
        'after',
        `
METHOD is GET, POST, PUT, PATCH or DELETE (default GET; POST when fields or --input are given).
PATH is a path on the target, e.g. /v1/contacts?limit=5 or /_sim/clock (the leading slash is optional).

Fields: key=value; nested objects with a[b]=1, arrays with a[]=1 -F a[]=2, an empty array with a[]
(no =), arrays of objects with a[][name]=x. -f values are always strings; -F values are typed:
true, false, null, numbers (5, -1.5; not +1555...), @file (the file's text) or @- (standard input).

The response body goes to stdout exactly as received (pretty-printed JSON on a terminal), audio
and other bodies included. An error status still prints its body; the exit code is the one every
command uses: 1 for API errors, 3 for 401 and 403 forbidden.

Retries (on a base URL; --retries): a request that never reached the service is sent again; after
a lost reply, no reply in time, 429, 502, 503 or 504, so are GET, PUT and DELETE, but a POST or
PATCH only when it carries an Idempotency-Key on a /v1 path (--idempotency-key KEY, or -H
'Idempotency-Key: KEY'). Unlike other commands, vmv api adds no key of its own: a write sent
without one is never sent twice.`,
      )
      .action(action(shell, (ctx, o: Options) => run(ctx, o, cmd.args))),
    'vmv api /v1/contacts',
    'vmv api /v1/openapi.json > openapi.json',
    'vmv api GET /v1/calls -f status=completed -F limit=5',
    "vmv api POST /v1/quick/emails -f 'to[]=ada@example.com' -f subject=Hi -f body='Hello there'",
    "vmv api /_sim/contacts -f name='Grace Hopper' -f 'tags[]=vip' -F 'custom_fields[score]=5'",
    'echo \'{"seconds": 3600}\' | vmv api POST /_sim/clock/advance --input -',
    "vmv api --paginate '/v1/contacts?limit=100' | jq length",
    "vmv api -i /v1/contacts -H 'Authorization: Bearer sk_other'",
    "vmv api POST /v1/quick/emails --input mail.json -H 'Idempotency-Key: mail-1'",
    'vmv api POST /v1/quick/emails --input mail.json --idempotency-key mail-1 --retries 5',
    'vmv api /v1/calls/ID/recording > call.wav',
  );
}

interface Field {
  spec: string;
  typed: boolean;
}
interface Prepared {
  method: string;
  url: string;
  body?: unknown;
  rawBody?: Buffer;
  headers: Record<string, string | null>;
}

export async function run(ctx: Context, o: Options, args: string[]): Promise<void> {
  const req = await prepare(ctx, o, args);
  const client = await ctx.client();
  // a raw tool sends what it is given: no key of its own, so a write without one is not sent again
  // once it may have reached the service; with one (--idempotency-key, -H), a rerun with it is safe
  const key =
    req.headers['idempotency-key'] === undefined
      ? ctx.globals.idempotencyKey
      : (req.headers['idempotency-key'] ?? undefined);
  const known = { rerunKey: key };
  const send = (url: string) =>
    client.request(req.method, url, {
      body: req.body,
      rawBody: req.rawBody,
      headers: req.headers,
      idempotencyKey: ctx.globals.idempotencyKey,
      known,
    });
  const statusText = o.include ? (await import('node:http')).STATUS_CODES : {};
  const head = (res: ApiResponse) => {
    if (!o.include) return;
    const e = forStderr(ctx.io);
    ctx.io.err(`HTTP/1.1 ${res.status} ${statusText[res.status] ?? ''}`.trimEnd() + '\n');
    for (const k of Object.keys(res.headers).sort()) ctx.io.err(`${bold(e, k)}: ${res.headers[k]}\n`);
    ctx.io.err('\n');
  };

  if (!o.paginate) {
    const res = await send(req.url);
    head(res);
    printBody(ctx, res);
    if (res.status >= 400) throw failure(ctx, res, known);
    return;
  }

  const items: unknown[] = [];
  const [path, search = ''] = splitQuery(req.url);
  const seen = new Set<string>();
  let url = req.url;
  for (;;) {
    const res = await send(url);
    head(res);
    if (res.status >= 400) {
      printBody(ctx, res);
      throw failure(ctx, res);
    }
    let page: { data?: unknown; meta?: { cursor?: unknown } } | undefined;
    try {
      page = res.json();
    } catch {
      page = undefined;
    }
    if (!Array.isArray(page?.data))
      throw usage(
        `--paginate: GET ${path} did not answer a list (an object with a "data" array); run it without --paginate.`,
      );
    items.push(...page.data);
    const cursor = page.meta?.cursor;
    if (typeof cursor !== 'string' || cursor === '') break;
    if (seen.has(cursor))
      throw new CliError(
        `--paginate: the service answered the same cursor twice; stopped after ${seen.size + 1} pages.`,
        EXIT.api,
      );
    seen.add(cursor);
    const q = new URLSearchParams(search);
    q.set('cursor', cursor);
    url = `${path}?${q}`;
  }
  ctx.io.out((ctx.io.stdoutTTY ? JSON.stringify(items, null, 2) : JSON.stringify(items)) + '\n');
}

/** Checks the command line and builds the request: every usage error comes before anything is sent. */
async function prepare(ctx: Context, o: Options, args: string[]): Promise<Prepared> {
  if (args.length > 2)
    throw usage(`Too many arguments: vmv api takes [METHOD] PATH, got ${args.map((a) => `"${a}"`).join(' ')}.`);
  if (args.length === 1 && METHODS.includes(args[0].toUpperCase()) && !args[0].includes('/'))
    throw usage(`Give the PATH after the method, e.g. vmv api ${args[0].toUpperCase()} /v1/contacts.`);
  const [given, rawPath] = args.length >= 2 ? args : [undefined, args[0]];
  if (rawPath === undefined) throw usage('Give the PATH to request, e.g. vmv api /v1/contacts.');
  if (given !== undefined && o.method !== undefined)
    throw usage('Give the method once: as the METHOD argument or with --method.');
  const named = given ?? o.method;
  if (named !== undefined && !METHODS.includes(named.toUpperCase()))
    throw usage(`Unknown method "${named}": use GET, POST, PUT, PATCH or DELETE.`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rawPath))
    throw usage(
      'PATH is a path such as /v1/contacts, not a URL: the target comes from --base-url (or VMV_BASE_URL, or the profile).',
    );
  // characters a request target cannot hold are percent-encoded; the rest is sent as typed
  let url = (rawPath.startsWith('/') ? '' : '/') + rawPath.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));

  const fields: Field[] = [
    ...(o.rawField ?? []).map((spec) => ({ spec, typed: false })),
    ...(o.field ?? []).map((spec) => ({ spec, typed: true })),
  ];
  // none named: a body (fields or --input) is POSTed; anything else, --paginate's pages too, is a GET
  const sendsBody = !o.paginate && (fields.length > 0 || o.input !== undefined);
  const method = named?.toUpperCase() ?? (sendsBody ? 'POST' : 'GET');
  if (o.paginate && method !== 'GET')
    throw usage(`--paginate follows the pages of a GET list; it cannot be used with ${method}.`);
  if (o.paginate && o.input !== undefined) throw usage('--paginate cannot be used with --input.');
  const stdinReaders = (o.input === '-' ? 1 : 0) + fields.filter((f) => f.typed && f.spec.endsWith('=@-')).length;
  if (stdinReaders > 1) throw usage('Standard input can be read once: give @- or --input - to one of them only.');

  const headers: Record<string, string | null> = {};
  for (const h of o.header ?? []) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim() : '';
    const value = h.slice(i + 1).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value))
      throw usage(`-H takes "Name: value", got "${h}".`);
    if (RESERVED.includes(name.toLowerCase())) throw usage(`-H ${name}: vmv api sets this header itself.`);
    headers[name.toLowerCase()] = value === '' ? null : value;
  }

  const parsed = await Promise.all(fields.map((f) => parseField(ctx, f)));
  let body: unknown;
  let rawBody: Buffer | undefined;
  if (method === 'GET' || o.input !== undefined) {
    const q = new URLSearchParams();
    for (const f of parsed) if (f.hasValue) q.append(f.key, f.value === null ? '' : String(f.value));
    if (q.size > 0) url += (url.includes('?') ? '&' : '?') + q.toString();
  } else if (parsed.length > 0) {
    body = buildBody(parsed);
  }
  if (o.input !== undefined) {
    // the body goes as its bytes are, whatever they are
    rawBody = o.input === '-' ? await readStdinBytes(ctx.io) : await readBytes(o.input, '--input');
  }
  return { method, url, body, rawBody, headers };
}

interface ParsedField {
  spec: string;
  key: string;
  parts: string[];
  value: unknown;
  hasValue: boolean;
}

async function parseField(ctx: Context, f: Field): Promise<ParsedField> {
  const flag = f.typed ? '-F' : '-f';
  const eq = f.spec.indexOf('=');
  const key = eq < 0 ? f.spec : f.spec.slice(0, eq);
  const m = /^([^[\]=]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw usage(`${flag} "${f.spec}": a field is key=value, with a[b] for nested keys and a[] for arrays.`);
  const parts = [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1])];
  if (eq < 0) {
    if (parts[parts.length - 1] !== '')
      throw usage(`${flag} "${f.spec}": a field needs a value after "=" (key=value).`);
    return { spec: f.spec, key, parts, value: undefined, hasValue: false };
  }
  const raw = f.spec.slice(eq + 1);
  return { spec: f.spec, key, parts, value: f.typed ? await typedValue(ctx, raw, flag, f.spec) : raw, hasValue: true };
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** -F values: JSON literals and numbers become those; @file is the file's text, @- standard input. */
async function typedValue(ctx: Context, v: string, flag: string, spec: string): Promise<unknown> {
  if (v.startsWith('@')) return v === '@-' ? readStdin(ctx.io) : readText(v.slice(1), `${flag} ${spec}`);
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (NUMBER.test(v)) {
    const n = Number(v);
    // numbers JSON would not keep exactly (beyond 2^53, overflowing) stay strings
    if (Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n))) return n;
  }
  return v;
}

async function readText(file: string, what: string): Promise<string> {
  return (await readBytes(file, what)).toString('utf8');
}

async function readBytes(file: string, what: string): Promise<Buffer> {
  const { readFile } = await import('node:fs/promises');
  return readFile(file).catch((e: NodeJS.ErrnoException) => {
    throw usage(`${what}: cannot read ${file}: ${unreadable(e)}.`);
  });
}

/** Why a file cannot be read, in a few words: the usual two plainly, anything else as Node says it. */
function unreadable(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EISDIR') return 'it is a folder';
  return e.message;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const newObj = (): Obj => Object.create(null) as Obj;

/** The JSON body of the fields, as gh builds it: a[b]=1 nests, a[]=1 appends, a[][b]=1 starts or fills an object in an array. */
function buildBody(fields: ParsedField[]): Obj {
  const root = newObj();
  for (const f of fields) {
    const conflict = (at: string) => usage(`The field "${f.spec}" conflicts with an earlier field at "${at}".`);
    let dest = root;
    let inArray = false;
    let name: string | undefined;
    for (const part of f.parts) {
      if (part === '') {
        inArray = true;
        continue;
      }
      if (name !== undefined) {
        const cur = dest[name];
        if (inArray) {
          if (cur !== undefined && !Array.isArray(cur)) throw conflict(name);
          const list = (dest[name] ??= []) as unknown[];
          const last = list[list.length - 1];
          if (isObj(last) && (!(part in last) || Array.isArray(last[part]))) dest = last;
          else list.push((dest = newObj()));
        } else {
          if (cur !== undefined && !isObj(cur)) throw conflict(name);
          dest = (dest[name] ??= newObj()) as Obj;
        }
        inArray = false;
      }
      name = part;
    }
    const key = name!;
    if (inArray) {
      const cur = dest[key];
      if (cur !== undefined && !Array.isArray(cur)) throw conflict(key);
      if (!f.hasValue) dest[key] = cur ?? [];
      else dest[key] = [...((cur as unknown[]) ?? []), f.value];
    } else {
      if (Object.hasOwn(dest, key)) throw conflict(key);
      dest[key] = f.value;
    }
  }
  return root;
}

const splitQuery = (url: string): [string, string?] => {
  const i = url.indexOf('?');
  return i < 0 ? [url] : [url.slice(0, i), url.slice(i + 1)];
};

/**
 * The body as received: pretty-printed JSON on a terminal, otherwise the bytes unchanged, a JSON
 * or text body ending with a newline (as every other command's output does: the next shell prompt
 * starts on its own line, and `while read` sees the last line).
 */
function printBody(ctx: Context, res: ApiResponse): void {
  if (res.body.length === 0) return;
  const type = res.headers['content-type'] ?? '';
  if (ctx.io.stdoutTTY && /[/+]json(;|$)/.test(type)) {
    try {
      ctx.io.out(JSON.stringify(JSON.parse(res.text()), null, 2) + '\n');
      return;
    } catch {
      // not JSON after all: as received
    }
  }
  ctx.io.out(res.body);
  if (/json|^text\//.test(type) && res.body[res.body.length - 1] !== 0x0a) ctx.io.out('\n');
}

/**
 * One line on stderr for an error status, with the exit code any command gives that status (and
 * for a write that may have been applied all the same, a gateway's 502, how to check and retry).
 */
function failure(ctx: Context, res: ApiResponse, known: Known = {}): CliError {
  const env = errorEnvelope(res);
  const { exitCode } = new ApiCallError(res.status, env, '');
  const unsure = unsureReply(res.unsure, known);
  return new CliError(
    `${env.error.message} ${dim(forStderr(ctx.io), `(${env.error.code}, HTTP ${res.status})`)}`,
    exitCode,
    unsure?.hint,
    unsure?.details,
  );
}
