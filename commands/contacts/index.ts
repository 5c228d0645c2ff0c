import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as get } from './get.js';
import { define as list } from './list.js';

export function register(program: Command, shell: Shell): void {
  const contacts = program.command('contacts').description('Contacts of the workspace (free reads)');
  list(contacts, shell);
  get(contacts, shell);
}
