import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as advance } from './advance.js';
import { define as call } from './call.js';
import { define as callerId } from './caller-id.js';
import { define as defaults } from './defaults.js';
import { define as number } from './number.js';
import { define as clock } from './clock.js';
import { define as contact } from './contact.js';
import { define as deliveries } from './deliveries.js';
import { define as exportWorld } from './export.js';
import { define as hosts } from './hosts.js';
import { define as importWorld } from './import.js';
import { define as key } from './key.js';
import { define as pool } from './pool.js';
import { define as repair } from './repair.js';
import { define as reset } from './reset.js';
import { define as serve } from './serve.js';
import { define as social } from './social.js';
import { define as suppress } from './suppress.js';
import { define as text } from './text.js';
import { define as wallet } from './wallet.js';
import { define as workspace } from './workspace.js';

export function register(sim: Command, shell: Shell): void {
  for (const d of [serve, reset, clock, advance, key, contact, wallet, workspace, suppress, text, call, pool, number, callerId, defaults, deliveries, hosts, social, exportWorld, importWorld, repair]) d(sim, shell);
}
