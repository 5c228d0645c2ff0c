import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as list } from './list.js';

export function register(social: Command, shell: Shell): void {
  list(social, shell);
}
