import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import { define as approve } from './approve.js';
import { define as create } from './create.js';
import { define as del } from './delete.js';
import { define as download } from './download.js';
import { define as get } from './get.js';
import { define as list } from './list.js';
import { define as music } from './music.js';
import { define as post } from './post.js';
import { define as posts } from './posts.js';
import { define as quote } from './quote.js';
import { define as retry } from './retry.js';

export function register(videos: Command, shell: Shell): void {
  for (const d of [quote, create, get, list, approve, retry, del, music, download, post, posts]) d(videos, shell);
}
