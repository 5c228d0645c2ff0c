import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as configEdit } from './config/edit.js';
import { define as configGet } from './config/get.js';
import { define as configSet } from './config/set.js';
import { define as list } from './list.js';
import { define as release } from './release.js';
import { define as search } from './search.js';
import { define as voices } from './voices.js';

export function register(numbers: Command, shell: Shell): void {
  for (const d of [list, search, release, voices]) d(numbers, shell);
  const config = numbers.command('config').description("Read and change every setting of a number's AI agent");
  for (const d of [configGet, configSet, configEdit]) d(config, shell);
}
