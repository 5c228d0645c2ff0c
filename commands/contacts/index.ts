import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as get } from './get.js';
import { define as list } from './list.js';

export function register(contacts: Command, shell: Shell): void {
  list(contacts, shell);
  get(contacts, shell);
}
