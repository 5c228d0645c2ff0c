import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as get } from './get.js';
import { define as list } from './list.js';
import { define as path } from './path.js';
import { define as remove } from './delete.js';
import { define as set } from './set.js';
import { define as unset } from './unset.js';
import { define as use } from './use.js';

export function register(program: Command, shell: Shell): void {
  const config = program.command('config').description('Settings profiles: base URL and API key (file readable by you only)');
  for (const d of [get, set, unset, list, use, remove, path]) d(config, shell);
}
