// The command tree as the completion scripts see it (./scripts.ts writes them from it): every
// command's path, subcommands, flags (which take a value, which values they take) and positional
// arguments, read from commander once every noun's verbs are defined (./index.ts).
import type { Command } from 'commander';
import { choicesOf } from '../../src/command.js';

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
  const flagsOf = (c: Command, global: boolean): Flag[] =>
    c
      .createHelp()
      .visibleOptions(c)
      .map((o) => ({
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
      args: c.registeredArguments.map((a) => ({
        choices: a.argChoices ?? (c.name() === 'help' ? siblings : undefined),
        variadic: a.variadic,
      })),
    };
  };
  return walk(program, [], []);
}
