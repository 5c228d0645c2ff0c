// Destructive actions, one rule for all: a command that deletes or releases something asks on a
// terminal (stdin, stdout and stderr all terminals, io.ts canAsk: the rule of every question; type
// its verb to go ahead; anything else declines, exit 7) and takes --yes to skip the question.
// Without one (output captured by $(...) included) it needs --yes (exit 2 with a hint), except the simulator's own reset:
// the simulator's data is disposable, and scripts reset it all the time.
// Each such command takes `.option('-y, --yes', 'do not ask for confirmation (needed without a
// terminal)')` and, before it changes anything, awaits confirmDestructive (imported when it runs).
import type { Context } from './context.js';
import { CliError, EXIT, usage } from './errors.js';
import { canAsk } from './io.js';

export interface Destructive {
  /** typed to confirm, and the verb of the messages: release, delete, reset */
  verb: string;
  /** the verb done, for the declined message: released, deleted, reset */
  done: string;
  /** what it is done to: `number 42`, `profile "staging"` */
  subject: string;
  /** what follows, one sentence: "Its call data and recordings are deleted; this cannot be undone." */
  consequence: string;
  /** the simulator's own state only (sim reset): no --yes needed without a terminal */
  simulatorOnly?: boolean;
}

/** Goes ahead when confirmed (or --yes); otherwise throws the error to report. */
export async function confirmDestructive(ctx: Context, yes: boolean | undefined, d: Destructive): Promise<void> {
  if (yes) return;
  if (!canAsk(ctx.io)) {
    if (d.simulatorOnly) return;
    throw usage(`To ${d.verb} ${d.subject} without a terminal, pass --yes. ${d.consequence}`);
  }
  const { ask } = await import('./prompt.js');
  const verb = d.verb[0].toUpperCase() + d.verb.slice(1);
  const answer = await ask(ctx.io, `${verb} ${d.subject}? ${d.consequence} Type "${d.verb}" to confirm: `);
  if (answer.trim() !== d.verb) throw new CliError(`Not ${d.done}.`, EXIT.declined);
}
