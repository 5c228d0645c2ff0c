// Flags the assistant verbs share, checked before anything is sent: how long to wait for a run, and
// how approvals are answered without asking. (Conversation ids are the service's to check, as every
// id is: a malformed one is its 400, naming the flag.)
import { Option, type Command } from 'commander';
import { parseDuration } from '../../src/duration.js';
import { usage } from '../../src/errors.js';
import type { Policy } from './follow.js';

export const DEFAULT_WAIT_S = 120;

/** --wait DURATION: seconds or 90s, 5m; 0 does not wait. */
export function waitOption(): Option {
  return new Option(
    '--wait <duration>',
    'how long to wait for the run to stop working: seconds, or 90s, 5m; past it exit 6 and the run goes on; 0: do not wait (prints the conversation id)',
  )
    .default(DEFAULT_WAIT_S, `${DEFAULT_WAIT_S}s`)
    .argParser((v: string) => {
      try {
        return parseDuration(v);
      } catch (e) {
        throw usage(`--wait: ${(e as Error).message}`);
      }
    });
}

/** --approve-all, --decline-all (one of them) and --reason. */
export function withPolicy(cmd: Command, o: { reason: boolean; decline?: boolean }): Command {
  cmd.addOption(
    new Option(
      '--approve-all',
      'approve every action the assistant asks approval for (they cost money or cannot be undone)',
    ).conflicts('declineAll'),
  );
  cmd.addOption(
    new Option(
      '--decline-all',
      'decline every action the assistant asks approval for (it says what it did not do)',
    ).conflicts('approveAll'),
  );
  if (o.reason)
    cmd.option('--reason <text>', `with --decline-all${o.decline ? ' or --decline' : ''}: why, told to the assistant`);
  return cmd;
}

/** How approvals are answered without asking: by --approve-all or --decline-all (commander lets only one through), or asked. */
export function policyOf(o: { approveAll?: boolean; declineAll?: boolean }): Policy | undefined {
  if (o.approveAll) return 'approve';
  if (o.declineAll) return 'decline';
  return undefined;
}

/** The flags that act while waiting for a run, in the order a conflict with --wait 0 names the first one given. */
const WHILE_WAITING = [
  ['advance', '--advance'],
  ['approveAll', '--approve-all'],
  ['declineAll', '--decline-all'],
] as const;

/**
 * send and approve, before anything is sent: --wait 0 does not wait, so flags that act while waiting
 * have nothing to do with it; --reason goes with a decline.
 */
export function checkFlags(o: {
  wait?: number;
  advance?: boolean;
  approveAll?: boolean;
  declineAll?: boolean;
  reason?: string;
  decline?: string[];
}): void {
  if (o.reason !== undefined && !o.declineAll && !o.decline?.length)
    throw usage(
      `--reason is told to the assistant with a decline: add --decline-all${o.decline ? ' or --decline APPROVAL_ID' : ''}.`,
    );
  if (o.wait !== 0) return;
  const flag = WHILE_WAITING.find(([option]) => o[option])?.[1];
  if (flag) throw usage(`--wait 0 does not wait for the run, so ${flag} would have nothing to do: drop one of them.`);
}
