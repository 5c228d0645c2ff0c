// vmv calls: voice calls from a verified caller ID; each verb in its own file.
import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import type { FieldAliases } from '../../src/field-flags.js';
import { define as hangup } from './hangup.js';
import { define as place } from './place.js';

/** Request fields named otherwise than their flag (see src/field-flags.ts). */
export const fieldAliases: FieldAliases = {
  '--to': ['destination'],
};

export function register(calls: Command, shell: Shell): void {
  place(calls, shell);
  hangup(calls, shell);
}
