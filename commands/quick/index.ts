import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as call } from './call.js';
import { define as cancel } from './cancel.js';
import { define as number } from './number.js';
import { define as status } from './status.js';
import { define as text } from './text.js';

export function register(quick: Command, shell: Shell): void {
  for (const d of [call, text, status, cancel, number]) d(quick, shell);
}
