import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as send } from './send.js';

export function register(email: Command, shell: Shell): void {
  send(email, shell);
}
