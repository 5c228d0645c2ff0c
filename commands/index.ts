// Every noun of the CLI, in help order.
import type { Command } from 'commander';
import type { Shell } from '../src/command.js';
import { register as api } from './api/index.js';
import { register as calls } from './calls/index.js';
import { register as config } from './config/index.js';
import { register as contacts } from './contacts/index.js';
import { register as email } from './email/index.js';
import { register as history } from './history/index.js';
import { register as numbers } from './numbers/index.js';
import { register as quick } from './quick/index.js';
import { register as sim } from './sim/index.js';
import { register as webhooks } from './webhooks/index.js';

export const nouns: ((program: Command, shell: Shell) => void)[] = [quick, email, numbers, calls, history, contacts, webhooks, sim, config, api];
