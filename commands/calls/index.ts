import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as hangup } from './hangup.js';
import { define as place } from './place.js';

export function register(program: Command, shell: Shell): void {
  const calls = program.command('calls').description('Voice calls from a verified caller ID');
  place(calls, shell);
  hangup(calls, shell);
}
