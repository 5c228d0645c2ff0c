// The documentation's runnable examples run as written: the README's walkthrough and CI script, and
// the guides' examples (docs/*.md), in a real bash with `vmv` on the PATH and a fresh simulated world.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv, tempDir } from './helpers.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const read = (file: string) =>
  file === 'README.md' ? readme : readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const bin = new URL('../bin', import.meta.url).pathname;

/**
 * The shell blocks of a section of the README (or of a guide, `file` from the repository's root),
 * from its heading to the next heading of the same level or above (its subsections included).
 */
function blocks(heading: string, file = 'README.md'): string[] {
  const lines = read(file).split('\n');
  const start = lines.indexOf(heading);
  expect(start, `${file}: ${heading}`).toBeGreaterThan(-1);
  const level = heading.split(' ')[0].length;
  // the section ends at the next heading of its level or above, outside code (a shell comment is no heading)
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    if (lines[end].trimStart().startsWith('```')) fenced = !fenced;
    else if (!fenced && new RegExp(`^#{1,${level}} `).test(lines[end])) break;
  }
  const section = lines.slice(start, end).join('\n');
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
    const [script] = blocks('## The assistant: `vmv assistant chat`', 'docs/terminal.md');
    const r = bash(script);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^You got 0 inbound calls yesterday/m);
    expect(r.stdout).toMatch(/^I started an AI text to \+14155550100/m);
    expect(r.stdout).toMatch(/^I did not call \+14155550100: you declined \("not now"\)\.$/m);
  });

  it("personas' worked examples: reschedule to Thursday, answered on the third attempt, a text reply with a question", () => {
    const [, thursday, third, question] = blocks('## The simulated other party', 'docs/personas.md');
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
    const [script] = blocks('## A CI script');
    const r = bash(script);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\+14155550100\tcompleted\tgoal_achieved$/m);
  });
});

// ---- The walkthrough and the CI recipe, verbatim, as a new user runs them (issue 33, point 7) ----
// Every shell block of each section, in order, in one bash with a new HOME and no VMV_ variable:
// the user's own default world. A block the README runs "in one terminal" while the next runs "in
// another" (webhooks listen) runs in the background, stopped as Ctrl-C would (SIGTERM, which it
// treats alike) once the other terminal's block is done. Each step's output is told apart by a
// marker line, so that what each step shows can be checked.

/** Where the sections live: [heading, file]. */
const WALKTHROUGH = ['## A five-minute walkthrough', 'README.md'] as const;
const CI_RECIPE = ['## A CI script', 'README.md'] as const;

/** Runs `steps` in one bash as a new user: a new HOME, vmv on the PATH; the output of each step apart. */
function asNewUser(steps: string[], timeout = 120_000) {
  const dir = tempDir();
  const marked = steps.map((s, i) => `echo "@@step ${i}"; echo "@@step ${i}" >&2\n${s}`).join('\n');
  const r = spawnSync('bash', ['-c', `set -euo pipefail\ncd ${JSON.stringify(dir)}\n${marked}`], {
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: join(dir, 'home'), NO_COLOR: '1' },
    encoding: 'utf8',
    timeout,
  });
  const split = (s: string) => s.split(/^@@step \d+\n/m).slice(1);
  return { dir, status: r.status, stdout: split(r.stdout), stderr: split(r.stderr), all: r.stderr };
}

describe('README walkthrough, verbatim from a fresh HOME', () => {
  it('every step in order in one shell: email, call on a manual clock, listen beside a call, the video, the clock real again', () => {
    const walkthrough = blocks(...WALKTHROUGH);
    expect(walkthrough).toHaveLength(7);
    const [email, call, oneCommand, listen, listenCall, video, real] = walkthrough;
    expect(listen.trim()).toBe('vmv webhooks listen');
    // the first terminal in the background; the second waits for it to be ready, then for its events
    const waitFor = (what: string, file: string) =>
      `for i in $(seq 300); do grep -q ${JSON.stringify(what)} ${file} && break; sleep 0.1; done; grep -q ${JSON.stringify(what)} ${file}`;
    const steps = [
      email,
      call,
      oneCommand,
      `${listen.trim()} > listen.out 2> listen.err &\nLISTEN=$!\n${waitFor('Ready', 'listen.err')}`,
      `${listenCall}\n${waitFor('call.ended', 'listen.out')}\nkill $LISTEN; wait $LISTEN`,
      video,
      real,
    ];
    const r = asNewUser(steps);
    expect(r.status, r.all).toBe(0);
    expect(r.stdout).toHaveLength(7);
    const [s1, s2, s3, , s5, s6, s7] = r.stdout;
    // 1: sent (the id captured), ada's record, the outbox and the send's messages: each of them ada's copy
    expect(r.stderr[0]).toContain('Sent to 1 recipient for 0.01 USD');
    expect(s1.match(/\tada@example\.com\t(sent\t)?Hello$/gm)).toHaveLength(3);
    // 2: running then completed, the record with its summary, the audio saved
    expect(s2).toMatch(/status\trunning/);
    expect(s2).toMatch(/status\tcompleted/);
    expect(s2).toMatch(/summary\tThe recipient agreed/);
    expect(r.stderr[1]).toMatch(/Saved \d+ bytes of audio\/wav to call\.wav/);
    // 3: the one command ends with the job completed; no note about the clock (already manual)
    expect(s3).toMatch(/status\tcompleted/);
    expect(r.stderr[2]).not.toContain('set it manual');
    // the listener's terminal: registered, ready, both events of the second terminal's call, removed on exit
    const listened = readFileSync(join(r.dir, 'listen.out'), 'utf8');
    expect(listened).toMatch(/call\.started/);
    expect(listened).toMatch(/call\.ended/);
    const listenErr = readFileSync(join(r.dir, 'listen.err'), 'utf8');
    expect(listenErr).toMatch(/^Registered call webhook (\S+) for call\.started, call\.ended$/m);
    expect(listenErr).toMatch(/^Removed call webhook \S+$/m);
    expect(s5).toMatch(/status\tcompleted/);
    // 4: the quote's lines; no question asked (output captured), the video made, posted, published; its links said
    expect(s6).toMatch(/Service markup/);
    expect(r.stderr[5]).not.toContain('[y/N]');
    expect(s6).toMatch(/^\S+\ttiktok\tpublished\t.*https:\/\/www\.tiktok\.com\/@acme-sandbox\/video\/\d+/m);
    expect(s6).toMatch(/^video\thttp:\/\/127\.0\.0\.1:4010\/v1\/media\/videos\//m);
    expect(r.stderr[5]).toMatch(/nothing listens at http:\/\/127\.0\.0\.1:4010 until `vmv sim serve` runs/);
    expect(readFileSync(join(r.dir, 'espresso.mp4')).subarray(4, 8).toString()).toBe('ftyp');
    // 5: the clock real again
    expect(s7).toMatch(/^mode\treal$/m);
  }, 180_000);
});

describe('README CI recipe, verbatim from a fresh machine', () => {
  it('every block in order in one shell from a new HOME: the jq script, then the smallest script on a fresh (real-clock) world', () => {
    const recipe = blocks(...CI_RECIPE);
    expect(recipe).toHaveLength(2);
    const r = asNewUser(recipe);
    expect(r.status, r.all).toBe(0);
    expect(r.stdout[0]).toMatch(/^\+14155550100\tcompleted\tgoal_achieved$/m);
    expect(r.stdout[0]).toMatch(/^Wonderful, thank you! You are all set\.$/m); // the texts' last column
    expect(r.stdout[0]).toMatch(/^contact_not_found$/m); // the error's code, read by jq
    // the smallest script: the call followed to its end, the clock set manual and said so
    expect(r.stdout[1]).toMatch(/status\tcompleted/);
    expect(r.stderr[1]).toContain("note: the simulator's clock was real; --advance set it manual");
  }, 180_000);
});
