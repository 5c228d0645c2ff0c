// vmv quick: AI calls, AI texts and AI numbers from shared senders; each verb in its own file.
import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import type { FieldAliases } from '../../src/field-flags.js';
import { define as call } from './call.js';
import { define as cancel } from './cancel.js';
import { define as number } from './number.js';
import { define as status } from './status.js';
import { define as text } from './text.js';

/** Request fields named otherwise than their flag (see src/field-flags.ts). */
export const fieldAliases: FieldAliases = {
  '<numbers...>': ['to_numbers'],
  '--voicemail': ['voicemail_enabled'],
};

export function register(quick: Command, shell: Shell): void {
  for (const d of [call, text, status, cancel, number]) d(quick, shell);
}
