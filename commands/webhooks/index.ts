import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as create } from './create.js';
import { define as del } from './delete.js';
import { define as list } from './list.js';
import { define as listen } from './listen.js';
import { define as test } from './test.js';

export function register(webhooks: Command, shell: Shell): void {
  for (const d of [create, list, del, test, listen]) d(webhooks, shell);
}
