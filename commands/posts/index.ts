import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as cancel } from './cancel.js';

export function register(posts: Command, shell: Shell): void {
  cancel(posts, shell);
}
