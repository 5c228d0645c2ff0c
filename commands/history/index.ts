// vmv history: conversation history (free reads); each verb in its own file.
import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import type { FieldAliases } from '../../src/field-flags.js';
import { define as call } from './call.js';
import { define as calls } from './calls.js';
import { define as emails } from './emails.js';
import { define as people } from './people.js';
import { define as recording } from './recording.js';
import { define as texts } from './texts.js';

/** Request fields named otherwise than their flag (see src/field-flags.ts; --after and --before come with src/list.ts's withFilters). */
export const fieldAliases: FieldAliases = {
  '--contact': ['contact_id'],
  '--phone': ['phone_number'],
};

export function register(history: Command, shell: Shell): void {
  for (const d of [people, calls, texts, emails, call, recording]) d(history, shell);
}
