// vmv sim persona set|list|show|rm: how the person behind a number behaves (PUT, GET, DELETE
// /_sim/personas), set from a JSON file; `show` prints a document `set` accepts, so a built-in is a
// starting point.
import type { Command } from 'commander';
import { action, e164Arg, withExamples, readStdinBytes, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { ALWAYS, col, table, textCol } from '../../src/output.js';

interface Entry {
  number: string | null;
  last_digits: string | null;
  builtin: boolean;
  persona: {
    name?: string;
    call?: { attempts: { result: string }[]; outcome?: string };
    text?: { replies: unknown[] };
  };
}

export function define(parent: Command, shell: Shell): void {
  const persona = parent
    .command('persona')
    .description('How the person behind a number behaves on calls and texts (numbers without one: the built-ins)');
  withExamples(
    persona
      .command('set')
      .argument('<number>', 'E.164 number', e164Arg('<number>'))
      .requiredOption('--file <file>', 'the persona as JSON (- reads standard input)')
      .description("Set a number's persona; every problem of the file is listed by field path, and nothing changes")
      .action(action(shell, set)),
    'vmv sim persona set +14155550123 --file thursday.json',
    'vmv sim persona show +14155550105 | vmv sim persona set +14155550123 --file -',
  );
  withExamples(
    persona
      .command('list')
      .description("The numbers' personas, then the built-ins by last four digits")
      .action(action(shell, list)),
    'vmv sim persona list',
    'vmv sim persona list --json',
  );
  withExamples(
    persona
      .command('show')
      .argument('<number>', 'E.164 number', e164Arg('<number>'))
      .description('The persona a number meets (its own, or its built-in), as a file `set` accepts')
      .action(action(shell, show)),
    'vmv sim persona show +14155550107',
    'vmv sim persona show +14155550100 > persona.json',
  );
  withExamples(
    persona
      .command('rm')
      .argument('<number>', 'E.164 number', e164Arg('<number>'))
      .description("Remove a number's persona: its built-in applies again")
      .action(action(shell, rm)),
    'vmv sim persona rm +14155550123',
  );
}

const path = (n: string) => `/_sim/personas/${encodeURIComponent(n)}`;

/** The file's JSON; a file that cannot be read or is not JSON is a usage error (nothing is sent). */
async function readPersona(ctx: Context, file: string): Promise<unknown> {
  const { readFile } = await import('node:fs/promises');
  const bytes =
    file === '-'
      ? await readStdinBytes(ctx.io)
      : await readFile(file).catch((e: NodeJS.ErrnoException) => {
          throw usage(`--file: cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`);
        });
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw usage(`--file: ${file === '-' ? 'standard input' : file} is not JSON: ${(e as Error).message}.`);
  }
}

export async function set(ctx: Context, o: { file: string }, [number]: string[]): Promise<void> {
  const body = await readPersona(ctx, o.file);
  const res = await ctx.call('PUT', path(number), { body });
  ctx.emit(res, ({ data }: { data: Entry }) =>
    ctx.io.err(`${number} now meets ${data.persona.name ? `the persona "${data.persona.name}"` : 'its own persona'}\n`),
  );
}

/** A persona in a few words: its attempts and outcome, its replies (a part left out: as the built-in). */
function gist(p: Entry['persona']): [string, string] {
  const calls = p.call ? [...p.call.attempts.map((a) => a.result), p.call.outcome ?? ''].filter(Boolean) : [];
  const texts = p.text ? `${p.text.replies.length} ${p.text.replies.length === 1 ? 'reply' : 'replies'}` : '';
  return [p.call ? calls.join(' ') : 'as built-in', p.text ? texts : 'as built-in'];
}

export async function list(ctx: Context): Promise<void> {
  const res = await ctx.call('GET', '/_sim/personas');
  ctx.emit(res, ({ data }: { data: Entry[] }) =>
    table(
      ctx.io,
      [col('number', ALWAYS), col('kind', 4), textCol('name', 5), textCol('calls', 3), textCol('texts', 3)],
      data.map((e) => [
        e.number ?? (e.last_digits ? `…${e.last_digits}` : 'any other'),
        e.builtin ? 'built-in' : 'set',
        e.persona.name ?? '',
        ...gist(e.persona),
      ]),
    ),
  );
}

export async function show(ctx: Context, _o: unknown, [number]: string[]): Promise<void> {
  const res = await ctx.call('GET', path(number));
  ctx.emit(res, ({ data }: { data: Entry }) => {
    ctx.io.out(`${JSON.stringify(data.persona, null, 2)}\n`);
    if (data.builtin) ctx.io.err(`${number} has no persona of its own: this is its built-in\n`);
  });
}

export async function rm(ctx: Context, _o: unknown, [number]: string[]): Promise<void> {
  await ctx.call('DELETE', path(number));
  if (!ctx.json) ctx.io.err(`${number} meets its built-in persona again\n`);
}
