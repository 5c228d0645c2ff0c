// vmv config set KEY [VALUE]: store a setting in a profile (api_key from stdin with "-", or a hidden prompt)
import type { Command } from 'commander';
import { action, withExamples, readStdin, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { checkKey, openConfig, retargetNote } from '../../src/config-store.js';
import { usage } from '../../src/errors.js';
import { maskKey, normalizeBaseUrl } from '../../src/settings.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('set')
      .argument('<key>', 'base_url, api_key or default_country')
      .argument('[value]', 'the value; "-" reads it from standard input')
      .description('Store a setting in the profile (--profile, default: the active one)')
      .action(action(shell, run)),
    'printf %s "$KEY" | vmv config set api_key -',
    'vmv --profile staging config set base_url http://127.0.0.1:4010',
    'vmv config set default_country GB',
  );
}

export async function run(ctx: Context, _o: unknown, [rawKey, rawValue]: string[]): Promise<void> {
  const key = checkKey(rawKey);
  let value = rawValue;
  if (value === '-') value = (await readStdin(ctx.io)).trim();
  else if (value === undefined) {
    if (key !== 'api_key' || !ctx.io.stdinTTY)
      throw usage(`Give a value for ${key}${key === 'api_key' ? ', or "-" to read it from standard input' : ''}.`);
    value = await promptHidden(ctx, 'API key: ');
  }
  if (!value) throw usage(`The value for ${key} is empty.`);
  if (key === 'base_url') value = normalizeBaseUrl(value);
  if (key === 'default_country') {
    const code = (await import('../../src/phone.js')).countryCode(value);
    if (!code) throw usage(`default_country takes a two-letter country code such as US or GB, got "${value}".`);
    value = code;
  }
  const store = await openConfig(ctx.env);
  const profile = ctx.globals.profile ?? ctx.env.VMV_PROFILE ?? store.active();
  const moved = store.setValue(profile, key, value);
  const target =
    key === 'api_key' ? ` (the key of ${store.profiles()[profile]?.base_url ?? 'the embedded simulator'})` : '';
  ctx.io.err(`Set ${key} = ${key === 'api_key' ? maskKey(value) : value} in profile "${profile}"${target}.\n`);
  if (moved) ctx.io.err(retargetNote(moved, value) + '\n');
}

async function promptHidden(ctx: Context, prompt: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const { Writable } = await import('node:stream');
  let muted = false;
  const output = new Writable({ write: (chunk, _enc, cb) => (muted || ctx.io.err(String(chunk)), cb()) });
  const rl = createInterface({ input: ctx.io.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      rl.close();
      ctx.io.err('\n');
      resolve(answer.trim());
    });
    muted = true;
  });
}
