// vmv assistant: the assistant's conversations; each verb in its own file (the approval flags they
// share in flags.ts, the chat's terminal UI in ui/).
import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import type { FieldAliases } from '../../src/field-flags.js';
import { define as approve } from './approve.js';
import { define as chat } from './chat.js';
import { define as get } from './get.js';
import { define as list } from './list.js';
import { define as send } from './send.js';

/** Request fields named otherwise than their flag or argument (see src/field-flags.ts). */
export const fieldAliases: FieldAliases = {
  '--conversation': ['conversation_id'],
  '<message>': ['message'],
};

export function register(assistant: Command, shell: Shell): void {
  for (const d of [chat, send, approve, get, list]) d(assistant, shell);
}
