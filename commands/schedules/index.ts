import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as create } from './create.js';
import { define as del } from './delete.js';
import { define as get } from './get.js';
import { define as list } from './list.js';
import { define as pause } from './pause.js';
import { define as resume } from './resume.js';
import { define as skip } from './skip.js';
import { define as update } from './update.js';
import { define as videos } from './videos.js';

export function register(schedules: Command, shell: Shell): void {
  for (const d of [create, list, get, update, pause, resume, skip, del, videos]) d(schedules, shell);
}
