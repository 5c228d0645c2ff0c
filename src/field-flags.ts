// Which flag or argument of the command line supplied each field of a request, so that a validation
// error names the user's own flag (`--duration (target_duration_seconds): ...`). A flag's field is
// its own name in snake case; fields named otherwise are declared as aliases on the command that
// has the flag: a noun's verbs module exports its table (defineVerbs in ./command.ts declares it on
// the noun's command), a shared helper that adds flags (withFilters in ./list.ts) declares its own.
import type { Command } from 'commander';

/** Request fields named otherwise than their flag (or argument): the flag → the fields it sets. */
export type FieldAliases = Readonly<Record<string, readonly string[]>>;

/** the aliases declared on each command (a commander Command has no room for them of its own) */
const declared = new WeakMap<Command, FieldAliases>();

/** Declares fields named otherwise than their flag, for `cmd` and every command below it. */
export function declareFieldAliases(cmd: Command, aliases: FieldAliases): void {
  declared.set(cmd, { ...declared.get(cmd), ...aliases });
}

/** The aliases in force on a command: its ancestors' and its own (the nearest declaration of a flag wins). */
function aliasesOf(cmd: Command): FieldAliases {
  const own = declared.get(cmd) ?? {};
  return cmd.parent ? { ...aliasesOf(cmd.parent), ...own } : own;
}

/**
 * A command's fields → flags: each option's own name in snake case (retry_attempts ← --retry-attempts),
 * and the aliases. Where two flags set one field (--script, --script-file), the one given wins; a
 * field that only `--file` (a whole body) supplied is named after --file.
 */
export function fieldFlagsOf(cmd: Command): Record<string, string> {
  const aliases = aliasesOf(cmd);
  const map: Record<string, string> = {};
  const given = new Set<string>();
  const add = (flag: string, fields: readonly string[], wasGiven = false) => {
    for (const f of fields) {
      if (wasGiven && !given.has(f)) {
        map[f] = flag;
        given.add(f);
      } else if (!given.has(f) && (!map[f] || map[f].startsWith('--no-'))) map[f] = flag;
    }
  };
  const fromCli = (o: { attributeName(): string }) => cmd.getOptionValueSource(o.attributeName()) === 'cli';
  const fileGiven = cmd.options.some((o) => o.long === '--file' && fromCli(o));
  for (const o of cmd.options) {
    if (!o.long) continue;
    const fields = [o.attributeName().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), ...(aliases[o.long] ?? [])];
    // with a whole body from --file, a flag that was not given did not supply its field: --file did
    add(fileGiven && !fromCli(o) && o.long !== '--file' ? '--file' : o.long, fields, fromCli(o));
  }
  for (const a of cmd.registeredArguments) {
    const shown = `<${a.name()}${a.variadic ? '...' : ''}>`;
    add(shown, aliases[shown] ?? []);
  }
  return map;
}
