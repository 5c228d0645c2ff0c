// Help and completion over the whole command tree (every noun loaded): each leaf command's help ends
// with examples that parse against the tree, required options say so, group pages leave the global
// options to the root and the leaves, and `vmv completion bash|zsh|fish` completes every command and
// flag in a real shell.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineAll } from '../commands/completion/index.js';
import { nouns } from '../commands/index.js';
import { examplesOf as recordedExamples } from '../src/command.js';
import { bufferIO } from '../src/io.js';
import { buildProgram } from '../src/main.js';
import { BIN, tempDir, useTargets } from './helpers.js';

const { targets, both } = useTargets();

/** The program with every noun's verbs defined, exiting through exceptions, writing nowhere. */
async function fullProgram(): Promise<Command> {
  const shell = { io: await bufferIO(), env: {} };
  const program = buildProgram(shell);
  await defineAll(program, shell, nouns);
  const quiet = (c: Command): void => {
    c.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
    c.commands.forEach(quiet);
  };
  quiet(program);
  return program;
}

const descendants = (c: Command): Command[] => c.commands.flatMap((s) => [s, ...descendants(s)]);
const pathOf = (c: Command): string[] => (c.parent ? [...pathOf(c.parent), c.name()] : []);

let leaves: string[][];
let groups: string[][];
beforeAll(async () => {
  const all = descendants(await fullProgram());
  leaves = all.filter((c) => c.commands.length === 0).map(pathOf);
  groups = all.filter((c) => c.commands.length > 0).map(pathOf);
});

/** Parses a command line against the full tree without running it: the path of the command it reaches. */
async function parse(argv: string[]): Promise<string> {
  const program = await fullProgram();
  let ran = '';
  for (const c of descendants(program)) if (!c.commands.length) c.action(() => void (ran = pathOf(c).join(' ')));
  await program.parseAsync(argv, { from: 'user' });
  return ran;
}

/**
 * The vmv command lines in one line of shell (`a | vmv x`, `X=$(vmv y)`, `vmv z "$(vmv w)" > f`),
 * split into words as the shell would (quotes removed; variables stay as written, a command
 * substitution is one word of its own and its command line is read too).
 */
function vmvLines(line: string): string[][] {
  const lines: string[][] = [];
  // command substitutions first: each becomes the word $(...), its inside is a line of its own
  let src = line;
  for (let at = src.indexOf('$('); at >= 0; at = src.indexOf('$(', at + 1)) {
    let depth = 0;
    let end = at + 1;
    for (let quote = ''; end < src.length; end++) {
      const c = src[end];
      if (quote) quote = c === quote ? '' : quote;
      else if (c === "'" || c === '"') quote = c;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
    }
    lines.push(...vmvLines(src.slice(at + 2, end)));
    src = `${src.slice(0, at)}$(…)${src.slice(end + 1)}`;
  }
  const tokens: (string | null)[] = []; // null: an operator
  let word: string | null = null;
  const flush = () => {
    if (word !== null) tokens.push(word);
    word = null;
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i];
    const op = ['&&', '||', '|', ';', '>', '<'].find((o) => src.startsWith(o, i));
    if (c === ' ') {
      flush();
      i++;
    } else if (c === "'") {
      const j = src.indexOf("'", i + 1);
      word = (word ?? '') + src.slice(i + 1, j);
      i = j + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      while (src[j] !== '"') (s += src[j] === '\\' ? src[++j] : src[j]), j++;
      word = (word ?? '') + s;
      i = j + 1;
    } else if (op) {
      flush();
      tokens.push(null);
      i += op.length;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  flush();
  let cur: string[] | null = null;
  for (const t of tokens) {
    if (t === null) cur = null;
    else if (cur) cur.push(t);
    else if (t === 'vmv') lines.push((cur = []));
  }
  return lines;
}

/** The lines of the Examples block that ends a help text ([] when it does not end with one). */
function examplesOf(help: string): string[] {
  const lines = help.trimEnd().split('\n');
  const at = lines.lastIndexOf('Examples:');
  if (at < 0) return [];
  const block = lines.slice(at + 1);
  return block.every((l) => l.startsWith('  ')) ? block.map((l) => l.slice(2)) : [];
}

describe('help of every leaf command', () => {
  it('the tree is the whole CLI: every noun, and the commands under groups', () => {
    expect(leaves.length).toBeGreaterThan(50);
    for (const n of nouns)
      expect(
        [...leaves, ...groups].some((p) => p[0] === n.name),
        n.name,
      ).toBe(true);
    expect(leaves).toContainEqual(['numbers', 'config', 'set']);
    expect(leaves).toContainEqual(['sim', 'workspace', 'create']);
  });

  it('ends with examples, the last a `vmv ...` line; each example parses against the tree, and one runs the command itself', async () => {
    for (const path of leaves) {
      const r = await both([...path, '--help']);
      const where = `vmv ${path.join(' ')} --help`;
      expect(r.code, where).toBe(0);
      const examples = examplesOf(r.stdout);
      expect(examples.length, `${where} ends with an Examples block`).toBeGreaterThan(0);
      expect(examples[examples.length - 1], where).toMatch(/^vmv /);
      const reached: string[] = [];
      for (const example of examples) {
        const lines = vmvLines(example);
        expect(lines.length, `${where}: a vmv command in "${example}"`).toBeGreaterThan(0);
        for (const argv of lines) {
          const ran = await parse(argv).catch((e: Error) => `error: ${e.message} (vmv ${argv.join(' ')})`);
          expect(ran, `${where}: "${example}"`).not.toMatch(/^error|^$/);
          reached.push(ran);
        }
      }
      expect(reached, where).toContain(path.join(' '));
    }
  });

  it('its examples are data withExamples recorded (what group pages read), the same lines its help ends with', async () => {
    const program = await fullProgram();
    for (const c of descendants(program).filter((d) => !d.commands.length)) {
      let help = '';
      c.configureOutput({ writeOut: (s) => void (help += s) });
      c.outputHelp();
      const where = `vmv ${pathOf(c).join(' ')}`;
      expect(recordedExamples(c).length, `${where}: examples recorded`).toBeGreaterThan(0);
      expect(examplesOf(help), where).toEqual(recordedExamples(c));
    }
  });

  it('marks every required option "(required)", and no other', async () => {
    const program = await fullProgram();
    let marked = 0;
    for (const c of descendants(program).filter((d) => !d.commands.length)) {
      const r = await both([...pathOf(c), '--help']);
      const own = r.stdout.slice(r.stdout.indexOf('\nOptions:'), r.stdout.indexOf('\nGlobal Options:'));
      for (const o of c.options) {
        // an option's entry runs from its flags to the next entry (its description may wrap)
        const entry = own.slice(own.indexOf(`  ${o.flags}`)).split(/\n  -/)[0];
        expect(entry.replace(/\s+/g, ' ').includes('(required)'), `vmv ${pathOf(c).join(' ')} ${o.flags}`).toBe(
          o.mandatory,
        );
        if (o.mandatory) marked++;
      }
    }
    expect(marked).toBeGreaterThanOrEqual(10);
    const quickCall = (await both(['quick', 'call', '--help'])).stdout;
    expect(quickCall).toMatch(/--goal <text> +the outcome to work toward \(required\)\n/);
  });
});

describe('global options', () => {
  it('group pages (vmv quick --help, vmv numbers config --help, ...) do not list them', async () => {
    for (const path of groups) {
      const r = await both([...path, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout, path.join(' ')).not.toContain('Global Options');
      expect(r.stdout, path.join(' ')).not.toContain('--base-url');
      expect(r.stdout, path.join(' ')).toContain('Commands:');
    }
    expect((await both(['help', 'quick'])).stdout).not.toContain('--base-url');
  });

  it('the root help lists them as its options; a leaf command lists them under Global Options', async () => {
    // (each target's help names its own data file: compared apart)
    const root = await targets.embedded.run(['--help']);
    expect(root.stdout).toMatch(/Options:\n(.*\n)*  --base-url <url>/);
    expect(root.stdout).not.toContain('Global Options');
    const leaf = await both(['history', 'texts', '--help']);
    expect(leaf.stdout).toMatch(/Global Options:\n(.*\n)*  --json /);
  });
});

describe('root and group pages: commands first, an example in every help (issue 33 point 7)', () => {
  /** The examples of a page parse against the tree; the commands they reach. */
  async function reached(where: string, help: string): Promise<string[]> {
    const examples = examplesOf(help);
    expect(examples.length, `${where} ends with an Examples block`).toBeGreaterThan(0);
    const paths: string[] = [];
    for (const argv of examples.flatMap(vmvLines)) {
      const ran = await parse(argv).catch((e: Error) => `error: ${e.message} (vmv ${argv.join(' ')})`);
      expect(ran, where).not.toMatch(/^error/);
      // '': a group that runs as a command too (vmv sim deliveries) reached itself
      paths.push(ran || argv.filter((a) => !a.startsWith('-')).join(' '));
    }
    return paths;
  }

  it('vmv --help (the process): its commands on the first screen, the global options after them, examples at the end', async () => {
    const r = vmvProcess(['--help']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.indexOf('Commands:')).toBeGreaterThan(0);
    expect(lines.indexOf('Commands:')).toBeLessThan(8);
    expect(r.stdout.indexOf('\nOptions:\n')).toBeGreaterThan(r.stdout.indexOf('  help [command]'));
    expect(await reached('vmv --help', r.stdout)).toContain('quick call');
  });

  it('every group page lists its commands before its options and ends with examples of its own commands', async () => {
    for (const path of groups) {
      const where = `vmv ${path.join(' ')} --help`;
      const r = await both([...path, '--help']);
      expect(r.stdout.indexOf('\nCommands:\n'), where).toBeGreaterThan(-1);
      expect(r.stdout.indexOf('\nCommands:\n'), where).toBeLessThan(r.stdout.indexOf('\nOptions:\n'));
      const ran = await reached(where, r.stdout);
      const own = (c: string) => `${c} `.startsWith(`${path.join(' ')} `);
      // its own, each after what sets it up (a caller ID verified, a contact added, `POST=$(vmv videos post ...)`)
      expect(own(ran[ran.length - 1]), where).toBe(true);
      if (path[0] === 'sim') for (const c of ran) expect(own(c), `${where}: ${c}`).toBe(true);
    }
  });
});

// ---- completion ----

function vmvProcess(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, HOME: tempDir(), NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const missing = (tool: string) => `${tool} is not installed (.ci/run installs it: apt-get install ${tool})`;
const longFlags = (c: Command) => c.options.map((o) => o.long).filter((l): l is string => !!l);

describe('vmv completion', () => {
  const scripts = {} as Record<'bash' | 'zsh' | 'fish', string>;
  const dir = tempDir();
  beforeAll(() => {
    for (const sh of ['bash', 'zsh', 'fish'] as const) {
      const r = vmvProcess(['completion', sh]);
      expect(r.code, r.stderr).toBe(0);
      scripts[sh] = r.stdout;
      writeFileSync(join(dir, sh), r.stdout);
    }
  });

  it('prints the same script through main() on both targets; an unknown shell is a usage error', async () => {
    for (const sh of ['bash', 'zsh', 'fish'] as const) {
      const r = await both(['completion', sh]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(scripts[sh]);
    }
    const bad = await both(['completion', 'powershell']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bash, zsh, fish');
  });

  it('every script names every noun, every command and every long flag of the tree', async () => {
    const program = await fullProgram();
    for (const sh of ['bash', 'zsh', 'fish'] as const) {
      for (const n of nouns) expect(scripts[sh], `${sh}: ${n.name}`).toContain(n.name);
      for (const c of descendants(program)) {
        expect(scripts[sh], `${sh}: ${pathOf(c).join(' ')}`).toContain(pathOf(c).join(' '));
        for (const f of longFlags(c))
          expect(scripts[sh], `${sh}: ${pathOf(c).join(' ')} ${f}`).toContain(sh === 'fish' ? `-l '${f.slice(2)}'` : f);
      }
    }
  });

  /** Runs the bash completion function on command lines (the last word is the one completed). */
  function bashComplete(lines: string[][], source = `source ${join(dir, 'bash')}`): string[][] {
    const body = lines
      .map(
        (words) =>
          `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _vmv_completion; echo "\${COMPREPLY[*]}"`,
      )
      .join('\n');
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', `${source}\n${body}`], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH!, HOME: tempDir() },
    });
    expect(r.stderr).toBe('');
    return r.stdout
      .split('\n')
      .slice(0, lines.length)
      .map((l) => l.split(' ').filter(Boolean));
  }

  it('bash: `vmv qu<TAB>` completes to quick, a subcommand and a flag complete, after global flags and flag values too', () => {
    const out = bashComplete([
      ['vmv', 'qu'],
      ['vmv', 'quick', 'ca'],
      ['vmv', 'quick', 'call', '--go'],
      ['vmv', '--json', 'numbers', 'config', 's'],
      ['vmv', '--profile', 'quick', 'qu'], // "quick" is the profile's name here: still at the root
      ['vmv', 'quick', 'call', '--goal', 'num', '--wa'],
      ['vmv', 'completion', ''],
      ['vmv', 'help', 'num'],
      ['vmv', 'sim', 'clock', '--js'],
      ['vmv', 'history', 'calls', '--status', 'in'], // a flag's fixed values complete too
      ['vmv', 'history', 'texts', '--direction', ''],
    ]);
    expect(out).toEqual([
      ['quick'],
      ['call', 'cancel'],
      ['--goal'],
      ['set'],
      ['quick'],
      ['--wait'],
      ['bash', 'zsh', 'fish'],
      ['numbers'],
      ['--json'],
      ['in_progress'],
      ['inbound', 'outbound'],
    ]);
  });

  it('bash: `source <(vmv completion bash)` as docs/terminal.md says, and every command and flag of the tree completes', async () => {
    const program = await fullProgram();
    const cases: [string[], string[]][] = [];
    for (const c of [program, ...descendants(program)]) {
      const path = pathOf(c);
      if (c.commands.length)
        cases.push([
          ['vmv', ...path, ''],
          [...c.commands.map((s) => s.name()), 'help'],
        ]);
      cases.push([['vmv', ...path, '--'], longFlags(c)]);
    }
    const out = bashComplete(
      cases.map(([line]) => line),
      `source <(${process.execPath} ${BIN} completion bash)`,
    );
    cases.forEach(([line, expected], i) => {
      for (const e of expected) expect(out[i], line.join(' ')).toContain(e);
    });
  });

  it('bash: `vmv qu<TAB>` typed in an interactive bash (tmux) becomes `vmv quick `', async (ctx) => {
    if (!has('tmux')) return ctx.skip(missing('tmux'));
    const session = `vmv-help-${process.pid}`;
    const tmux = (...a: string[]) => spawnSync('tmux', a, { encoding: 'utf8' });
    tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '20', 'bash --norc --noprofile');
    try {
      tmux('send-keys', '-t', session, `PS1='$ '; source ${join(dir, 'bash')}; clear`, 'Enter');
      tmux('send-keys', '-t', session, 'vmv qu', 'Tab');
      tmux('send-keys', '-t', session, 'ca', 'Tab', 'Tab');
      let screen = '';
      for (let i = 0; i < 50 && !/\$ vmv quick ca/.test(screen); i++) {
        await new Promise((r) => setTimeout(r, 100));
        screen = tmux('capture-pane', '-p', '-t', session).stdout;
      }
      expect(screen).toContain('$ vmv quick ca');
      expect(screen).toMatch(/call\s+cancel/); // two candidates listed on the second TAB
    } finally {
      tmux('kill-session', '-t', session);
    }
  });

  it('zsh: the completion function offers nouns, subcommands, flags and values', (ctx) => {
    if (!has('zsh')) return ctx.skip(missing('zsh'));
    // compadd/_describe/_files stand in for the completion system: they print the candidates
    const stubs =
      'compdef(){}; _describe(){ local a; for a in ${(P)4}; do print -r -- ${a%%:*}; done }; compadd(){ [[ $1 == -a ]] && print -rl -- ${(P)2} }; _files(){ print FILES }';
    const complete = (words: string[]) => {
      const r = spawnSync(
        'zsh',
        [
          '-f',
          '-c',
          `${stubs}; source ${join(dir, 'zsh')}; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _vmv`,
        ],
        { encoding: 'utf8' },
      );
      expect(r.stderr).toBe('');
      const cur = words[words.length - 1];
      return r.stdout.split('\n').filter((c) => c && c.startsWith(cur));
    };
    expect(complete(['vmv', 'qu'])).toEqual(['quick']);
    expect(complete(['vmv', 'quick', 'ca'])).toEqual(['call', 'cancel']);
    expect(complete(['vmv', 'quick', 'call', '--go'])).toEqual(['--goal']);
    expect(complete(['vmv', '--json', 'numbers', 'config', 's'])).toEqual(['set']);
    expect(complete(['vmv', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(complete(['vmv', 'history', 'recording', 'ID', '-o', ''])).toEqual(['FILES']);
  });

  it('fish: complete -C offers nouns, subcommands, flags and values', (ctx) => {
    if (!has('fish')) return ctx.skip(missing('fish'));
    const complete = (line: string) => {
      const r = spawnSync('fish', ['--no-config', '-c', `source ${join(dir, 'fish')}; complete -C '${line}'`], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH!, HOME: tempDir() },
      });
      expect(r.stderr).toBe('');
      return r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    };
    expect(complete('vmv qu')).toEqual(['quick']);
    expect(complete('vmv quick ca')).toEqual(['call', 'cancel']);
    expect(complete('vmv quick call --go')).toEqual(['--goal']);
    expect(complete('vmv --json numbers config s')).toEqual(['set']);
    expect(complete('vmv completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(complete('vmv sim clock --js')).toEqual(['--json']);
  });
});
