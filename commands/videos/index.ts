// vmv videos: short social videos from templates; each verb in its own file (the recipe's flags,
// shared by quote and create, in recipe.ts).
import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import type { FieldAliases } from '../../src/field-flags.js';
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

/** Request fields named otherwise than their flag (see src/field-flags.ts): the recipe's fields by their short flags, and a post's. */
export const fieldAliases: FieldAliases = {
  '--duration': ['target_duration_seconds'],
  '--url': ['source_url'],
  '--text': ['source_text'],
  '--image-url': ['source_image_urls'],
  '--video-url': ['source_video_urls'],
  '--script-file': ['script'],
  '--review': ['script_review'],
  '--hashtag': ['hashtags'],
  '--music': ['music'],
  '--to': ['connection_ids'],
  '--at': ['scheduled_for'],
  '--carousel': ['media_type'],
  '--privacy': ['settings'],
};

export function register(videos: Command, shell: Shell): void {
  for (const d of [quote, create, get, list, approve, retry, del, music, download, post, posts]) d(videos, shell);
}
