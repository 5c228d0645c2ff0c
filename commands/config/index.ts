import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as get } from './get.js';
import { define as list } from './list.js';
import { define as path } from './path.js';
import { define as remove } from './delete.js';
import { define as set } from './set.js';
import { define as unset } from './unset.js';
import { define as use } from './use.js';

export function register(config: Command, shell: Shell): void {
  for (const d of [get, set, unset, list, use, remove, path]) d(config, shell);
}
