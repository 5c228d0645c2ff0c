// Every noun of the CLI, in help order: its name and one line for `vmv --help`. A noun's verbs
// (their options, help texts and code) are loaded only when a command line names it, so a
// command costs what it uses and `vmv --help` loads none of them.
import type { Command } from 'commander';
import type { Noun, Shell } from '../src/command.js';

export const nouns: readonly Noun[] = [
  {
    name: 'quick',
    description: 'Quick agent actions: AI calls, AI texts and AI numbers from shared senders',
    load: () => import('./quick/index.js'),
  },
  { name: 'email', description: 'Quick email from a shared sender address', load: () => import('./email/index.js') },
  {
    name: 'videos',
    description: 'Short social videos from templates: quote, make, approve, download and post them',
    load: () => import('./videos/index.js'),
  },
  {
    name: 'schedules',
    description:
      'Video schedules: an AI director plans, makes and posts videos on posting days (free; each video is charged like any video)',
    load: () => import('./schedules/index.js'),
  },
  {
    name: 'assistant',
    description:
      'The assistant: ask in plain English (texts, calls, emails, history, videos, numbers); costly actions wait for your approval',
    load: () => import('./assistant/index.js'),
  },
  {
    name: 'posts',
    description: 'Posts of videos to social accounts: cancel a scheduled one',
    load: () => import('./posts/index.js'),
  },
  {
    name: 'social',
    description: 'Social accounts videos are posted to (free reads)',
    load: () => import('./social/index.js'),
  },
  {
    name: 'numbers',
    description: 'Phone numbers: list, search, release, and the configuration of the AI agent that answers each',
    load: () => import('./numbers/index.js'),
  },
  { name: 'calls', description: 'Voice calls from a verified caller ID', load: () => import('./calls/index.js') },
  {
    name: 'history',
    description: 'Conversation history: people, calls, texts and emails (free reads)',
    load: () => import('./history/index.js'),
  },
  {
    name: 'contacts',
    description: 'Contacts of the workspace (free reads)',
    load: () => import('./contacts/index.js'),
  },
  {
    name: 'webhooks',
    description: 'Signed event deliveries: register, list, delete and test webhooks, or listen locally',
    load: () => import('./webhooks/index.js'),
  },
  {
    name: 'sim',
    description: 'The local simulator: serve it, and drive its clock, keys, wallet and fixtures',
    load: () => import('./sim/index.js'),
  },
  {
    name: 'config',
    description: 'Settings profiles: base URL and API key (file readable by you only)',
    load: () => import('./config/index.js'),
  },
  {
    name: 'status',
    description: 'Where you are: target, key, workspace, wallet and plan usage, the clock, what is in flight',
    load: () => import('./status/index.js'),
  },
  {
    name: 'mcp',
    description: 'Serve every action as a Model Context Protocol tool over stdio, for AI assistants (Claude, IDEs)',
    load: () => import('./mcp/index.js'),
  },
  {
    name: 'api',
    description: 'Send a raw API request (any /v1 or /_sim path) and print the response body, like `gh api`',
    load: () => import('./api/index.js'),
  },
  // completion walks every noun: they are passed in (its lazily loaded module does not import this one)
  {
    name: 'completion',
    description: 'Print a completion script for bash, zsh or fish (every command and flag)',
    load: () =>
      import('./completion/index.js').then((m) => ({ register: (c: Command, s: Shell) => m.register(c, s, nouns) })),
  },
];

/** Global options that take a value: the token after one is not a noun. */
export const VALUE_OPTIONS = new Set([
  '--base-url',
  '--api-key',
  '--profile',
  '--idempotency-key',
  '--retries',
  '--request-timeout',
]);

/** The noun a command line names (`vmv [globals] NOUN ...`, or `vmv help NOUN`), if any. */
export function nounOf(argv: readonly string[]): Noun | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i];
    if (a === '--') continue; // commander reads what follows as operands: the noun among them
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  const name = words[0] === 'help' ? words[1] : words[0];
  return nouns.find((n) => n.name === name);
}
