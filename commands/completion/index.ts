// vmv completion bash|zsh|fish: prints a completion script generated from the whole command tree
// (every noun's verbs defined first), so new commands and flags are covered without edits here.
// The script is static: TAB costs no node start; regenerate it after upgrading vmv.
import type { Command } from 'commander';
import type { Noun } from '../index.js';
import { action, choicesOf, defineVerbs, examples, type Shell } from '../../src/command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** `nouns` comes from commands/index.ts (passed in, so this lazily loaded module does not import it). */
export function register(cmd: Command, shell: Shell, nouns: readonly Noun[]): void {
  cmd.addArgument(cmd.createArgument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText('after', '\nInstall: see "Shell completion" in the README (bash: add `source <(vmv completion bash)` to ~/.bashrc).')
    .addHelpText('after', examples(
      'vmv completion bash > ~/.local/share/bash-completion/completions/vmv',
      'vmv completion zsh > ~/.zfunc/_vmv',
      'vmv completion fish > ~/.config/fish/completions/vmv.fish',
    ))
    .action(action(shell, async (ctx, _o, [sh]) => {
      const root = cmd.parent!;
      await defineAll(root, shell, nouns);
      const { script } = await import('./scripts.js');
      ctx.io.out(script(sh as (typeof SHELLS)[number], tree(root)));
    }));
}

/** Defines every noun's verbs on the program (those not defined yet: the one named on the command line is). */
export async function defineAll(program: Command, shell: Shell, nouns: readonly Noun[]): Promise<void> {
  await Promise.all(nouns.map(async (n) => {
    const cmd = program.commands.find((c) => c.name() === n.name);
    if (!cmd || cmd.commands.length || cmd.options.length || cmd.registeredArguments.length) return;
    await defineVerbs(cmd, n, shell);
  }));
}

/** A command of the tree as the completion scripts see it. */
export interface Node {
  /** words after `vmv`, empty for the root */
  path: string[];
  description: string;
  commands: Node[];
  /** the command's own options and the global ones (the root's), help included */
  options: Flag[];
  /** positional arguments, with the values they take where the tree knows them */
  args: { choices?: string[]; variadic: boolean }[];
}

export interface Flag {
  /** e.g. ['-y', '--yes'] */
  names: string[];
  /** takes a value (`--goal <text>`): the next word is that value */
  value: boolean;
  choices?: string[];
  description: string;
  /** one of the root's options: valid after every command */
  global: boolean;
}

export function tree(program: Command): Node {
  const flagsOf = (c: Command, global: boolean): Flag[] => c.createHelp().visibleOptions(c).map((o) => ({
    names: [o.short, o.long].filter((n): n is string => !!n),
    value: o.required || o.optional,
    // commander's own .choices(), or the values a vmv parser takes (choiceArg)
    choices: o.argChoices ?? (choicesOf((o as { parseArg?: unknown }).parseArg) as string[] | undefined),
    description: o.description,
    global,
  }));
  const globals = flagsOf(program, true);
  const walk = (c: Command, path: string[], siblings: string[]): Node => {
    const own = path.length ? flagsOf(c, false) : globals;
    const names = new Set(own.flatMap((f) => f.names));
    const help = c.createHelp();
    const subs = help.visibleCommands(c);
    const subNames = subs.map((s) => s.name()).filter((n) => n !== 'help');
    return {
      path,
      description: c.description(),
      commands: subs.map((s) => walk(s, [...path, s.name()], subNames)),
      options: [...own, ...globals.filter((g) => !g.names.some((n) => names.has(n)))],
      // commander's help command takes the name of a sibling
      args: c.registeredArguments.map((a) => ({ choices: a.argChoices ?? (c.name() === 'help' ? siblings : undefined), variadic: a.variadic })),
    };
  };
  return walk(program, [], []);
}
