// vmv completion bash|zsh|fish: prints a completion script generated from the whole command tree
// (every noun's verbs defined first), so new commands and flags are covered without edits here.
// The script is static: TAB costs no node start; regenerate it after upgrading vmv.
import type { Command } from 'commander';
import { action, defineVerbs, withExamples, type Noun, type Shell } from '../../src/command.js';
import { tree } from './tree.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** `nouns` comes from commands/index.ts (passed in, so this lazily loaded module does not import it). */
export function register(cmd: Command, shell: Shell, nouns: readonly Noun[]): void {
  withExamples(
    cmd
      .addArgument(cmd.createArgument('<shell>', 'the shell to complete in').choices(SHELLS))
      .addHelpText(
        'after',
        '\nInstall: see "Shell completion" in docs/terminal.md (bash: add `source <(vmv completion bash)` to ~/.bashrc).',
      )
      .action(
        action(shell, async (ctx, _o, [sh]) => {
          const root = cmd.parent!;
          await defineAll(root, shell, nouns);
          const { script } = await import('./scripts.js');
          ctx.io.out(script(sh as (typeof SHELLS)[number], tree(root)));
        }),
      ),
    'vmv completion bash > ~/.local/share/bash-completion/completions/vmv',
    'vmv completion zsh > ~/.zfunc/_vmv',
    'vmv completion fish > ~/.config/fish/completions/vmv.fish',
  );
}

/** Defines every noun's verbs on the program (those not defined yet: the one named on the command line is). */
export async function defineAll(program: Command, shell: Shell, nouns: readonly Noun[]): Promise<void> {
  await Promise.all(
    nouns.map(async (n) => {
      const cmd = program.commands.find((c) => c.name() === n.name);
      if (!cmd || cmd.commands.length || cmd.options.length || cmd.registeredArguments.length) return;
      await defineVerbs(cmd, n, shell);
    }),
  );
}
