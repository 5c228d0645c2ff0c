import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as hangup } from './hangup.js';
import { define as place } from './place.js';

export function register(calls: Command, shell: Shell): void {
  place(calls, shell);
  hangup(calls, shell);
}
