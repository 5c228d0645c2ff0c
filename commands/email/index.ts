import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as send } from './send.js';

export function register(program: Command, shell: Shell): void {
  const email = program.command('email').description('Quick email from a shared sender address');
  send(email, shell);
}
