import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as approve } from './approve.js';
import { define as chat } from './chat.js';
import { define as get } from './get.js';
import { define as list } from './list.js';
import { define as send } from './send.js';

export function register(assistant: Command, shell: Shell): void {
  for (const d of [chat, send, approve, get, list]) d(assistant, shell);
}
