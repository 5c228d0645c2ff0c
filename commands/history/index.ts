import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as call } from './call.js';
import { define as calls } from './calls.js';
import { define as emails } from './emails.js';
import { define as people } from './people.js';
import { define as recording } from './recording.js';
import { define as texts } from './texts.js';

export function register(history: Command, shell: Shell): void {
  for (const d of [people, calls, texts, emails, call, recording]) d(history, shell);
}
