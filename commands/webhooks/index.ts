import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as create } from './create.js';
import { define as del } from './delete.js';
import { define as list } from './list.js';
import { define as listen } from './listen.js';
import { define as test } from './test.js';

export function register(program: Command, shell: Shell): void {
  const webhooks = program.command('webhooks').description('Signed event deliveries: register, list, delete and test webhooks, or listen locally');
  for (const d of [create, list, del, test, listen]) d(webhooks, shell);
}
