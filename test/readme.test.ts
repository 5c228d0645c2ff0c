// The README's runnable examples run as written: the walkthrough's first steps and the CI script,
// in a real bash with `vmv` on the PATH and a fresh simulated world.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv, tempDir } from './helpers.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const bin = new URL('../bin', import.meta.url).pathname;

/** The shell blocks of a README section, from its heading to the next heading of the same level. */
function blocks(heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const level = heading.split(' ')[0];
  const next = readme.slice(start + heading.length + 2).search(new RegExp(`\\n${level} `));
  const section = readme.slice(start, next < 0 ? undefined : start + heading.length + 2 + next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

function bash(script: string) {
  const dir = tempDir();
  const env = childEnv(dir, { PATH: `${bin}:${process.env.PATH}` });
  return {
    dir,
    ...spawnSync('bash', ['-c', `set -euo pipefail\ncd ${JSON.stringify(dir)}\n${script}`], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    }),
  };
}

describe('README', () => {
  it("the first block, in a fresh clone: npm ci (here: the installed modules linked, then prepare's build) and a first command with no configuration", () => {
    const first = /```sh\n([\s\S]*?)```/.exec(readme)![1];
    expect(first.split('\n')[0]).toMatch(/^npm ci\b/);
    expect(first).not.toMatch(/npm test/); // its own step, further down
    const repo = new URL('..', import.meta.url).pathname;
    const dir = tempDir();
    // a clone of what is committed; the registry is not reached in a test, so `npm ci` becomes the
    // installed modules linked and what npm ci runs after installing (prepare: the build)
    const clone = spawnSync('git', ['clone', '--quiet', repo, join(dir, 'vmv')], { encoding: 'utf8' });
    expect(clone.status, clone.stderr).toBe(0);
    const script = first.replace(
      /^npm ci\b.*$/m,
      `ln -s ${JSON.stringify(join(repo, 'node_modules'))} node_modules && npm run --silent prepare >/dev/null`,
    );
    const r = spawnSync('bash', ['-c', `set -euo pipefail\ncd ${JSON.stringify(join(dir, 'vmv'))}\n${script}`], {
      // no configuration at all: a new home, no VMV_ variables
      env: { PATH: process.env.PATH, HOME: join(dir, 'home'), NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toContain('Sent to 1 recipient');
  }, 200_000);

  it('the walkthrough: an email, then a call on a manual clock, its record and recording, and the one-command form', () => {
    const [email, call, oneCommand] = blocks('## A five-minute walkthrough');
    const r = bash([email, call, oneCommand].join('\n'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/status\tcompleted/);
    expect(r.stdout).toMatch(/summary\tThe recipient agreed/);
    expect(r.stderr).toMatch(/Saved \d+ bytes of audio\/wav to call\.wav/);
  });

  it("the walkthrough's video: quoted, made to the MP4 on a manual clock, posted and published", () => {
    const [email, call, , , , video] = blocks('## A five-minute walkthrough');
    const r = bash([email, call, video].join('\n'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Service markup/);
    expect(r.stdout).toMatch(/^\S+\ttiktok\tpublished\t.*https:\/\/www\.tiktok\.com\/@acme-sandbox\/video\/\d+/m);
    expect(readFileSync(join(r.dir, 'espresso.mp4')).subarray(4, 8).toString()).toBe('ftyp');
  });

  it('the assistant for scripts: a question, an approved text, a declined call', () => {
    const [script] = blocks('### The assistant: `vmv assistant chat`');
    const r = bash(script);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^You got 0 inbound calls yesterday/m);
    expect(r.stdout).toMatch(/^I started an AI text to \+14155550100/m);
    expect(r.stdout).toMatch(/^I did not call \+14155550100: you declined \("not now"\)\.$/m);
  });

  it("personas' worked examples: reschedule to Thursday, answered on the third attempt, a text reply with a question", () => {
    const [, thursday, third, question] = blocks('### The simulated other party');
    const r = bash(thursday);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^The recipient moved the appointment to Thursday at 10:00\.$/m);
    expect(r.stdout).toMatch(/^12\.1\tperson\tTuesday does not work\. Could we move it to Thursday at 10\?$/m);
    expect(r.stdout).toMatch(/^17\.9\tagent\tLet me check\. Thursday at 10:00 is free\.$/m);
    const t = bash(third);
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/^3 attempts, answered, goal false\nCOMPLETED BUSY NO_ANSWER$/m);
    const q = bash(question);
    expect(q.status, q.stderr).toBe(0);
    expect(q.stdout).toMatch(/^goal_achieved$/m);
    expect(q.stdout.match(/\t(inbound|outbound)\t.*$/gm)).toEqual([
      "\toutbound\tHi! I'm reaching out to confirm Tuesday at 10:00. Would that work for you? Reply STOP to opt out.",
      '\tinbound\tWhich Tuesday do you mean?',
      '\toutbound\tThanks for your reply! Just to check: would you like to confirm Tuesday at 10:00?',
      '\tinbound\tOk, that works.',
      '\toutbound\tWonderful, thank you! You are all set.',
    ]);
  });

  it('the CI script', () => {
    const [script] = blocks('### jq and CI examples');
    const r = bash(script);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\+14155550100\tcompleted\tgoal_achieved$/m);
  });
});
