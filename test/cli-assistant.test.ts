// `vmv assistant` on both targets (issue 12, CLI part), against the simulator's assistant on a manual
// clock: send (the reply on stdout, actions on stderr; --advance; --wait and its end, exit 6; --wait
// 0), approvals (--approve-all, --decline-all, none answerable: exit 7, then `approve`), the 409
// conflict, a failed run (exit 5) and the next message, the plan gate, get and list, --json, the
// local checks, and the chat's line mode with standard input piped in.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, useTargets } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEXT = 'text +14155550100 and ask whether Tuesday works';
const record = (stdout: string) =>
  Object.fromEntries(
    stdout
      .split('\n')
      .filter((l) => l && !/^(action|approval|message)\t/.test(l))
      .map((l) => l.split('\t') as [string, string]),
  );
const lines = (stdout: string, key: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith(`${key}\t`))
    .map((l) => l.split('\t').slice(1));

/** A conversation waiting for approval of an AI text (exit 7 from send): its id. */
async function awaitingText(): Promise<string> {
  const r = await both(['assistant', 'send', TEXT, '--advance']);
  expect(r.code, r.stderr).toBe(7);
  return r.stdout.trim();
}

describe('assistant send', () => {
  it('prints the reply; each action on stderr as it completes, then the conversation to continue', async () => {
    const r = await both(['assistant', 'send', 'how many calls did we get yesterday?', '--advance']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('You got 0 inbound calls yesterday (2026-01-04, UTC).\n');
    const [action, conversation] = r.stderr.trimEnd().split('\n');
    expect(action).toMatch(/^✓ list_calls direction=inbound /);
    const id = /^conversation (\S+) · continue it: vmv assistant send --conversation \1 "\.\.\."$/.exec(
      conversation,
    )?.[1];
    expect(id).toMatch(UUID);
    // --conversation continues it
    const again = await both(['assistant', 'send', 'who texted us today?', '--conversation', id!, '--advance']);
    expect(again.stdout).toBe('Nobody texted you today.\n');
    const list = await both(['assistant', 'list']);
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--json prints the conversation as read at the end, transcript included; stderr stays empty', async () => {
    const r = await both(['assistant', 'send', 'how many calls did we get yesterday?', '--advance', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.json.data).toMatchObject({
      status: 'idle',
      reply: 'You got 0 inbound calls yesterday (2026-01-04, UTC).',
      pending_approvals: [],
      error: null,
      actions: [{ tool: 'list_calls', status: 'completed' }],
      transcript: [
        { role: 'user', content: 'how many calls did we get yesterday?' },
        { role: 'assistant', content: 'You got 0 inbound calls yesterday (2026-01-04, UTC).' },
      ],
    });
  });

  it('on a manual clock without --advance it waits for someone to move the clock: --wait ends it (exit 6, the id alone on stdout)', async () => {
    const r = await both(['assistant', 'send', 'how many calls did we get yesterday?', '--wait', '1']);
    expect(r.code).toBe(6);
    const id = r.stdout.trim();
    expect(id).toMatch(UUID);
    expect(r.stderr).toContain('note: the simulator clock is manual, so this waits until it is advanced');
    expect(r.stderr).toContain(
      `error: Stopped waiting after 1s (--wait); the assistant's run in conversation ${id} goes on.\nSee it: vmv assistant get ${id}\n`,
    );
    // it went on: the clock moved, it is done
    await both(['sim', 'advance', '10s']);
    expect(record((await both(['assistant', 'get', id])).stdout)).toMatchObject({
      status: 'idle',
      reply: 'You got 0 inbound calls yesterday (2026-01-04, UTC).',
    });
  });

  it('on a real clock the run moves on its own (2 s to think, 3 s an action): send waits for it', async () => {
    await both(['sim', 'clock', '--real']);
    for (const t of Object.values(targets)) {
      const started = Date.now();
      const r = await t.run(['assistant', 'send', 'who texted us today?']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('Nobody texted you today.\n');
      expect(Date.now() - started).toBeGreaterThan(1500);
    }
  }, 30_000);

  it('--wait 0 sends and prints the conversation id alone, still working', async () => {
    const r = await both(['assistant', 'send', 'who texted us today?', '--wait', '0']);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(UUID);
    expect(r.stderr).toBe(`conversation ${id}: working. See it: vmv assistant get ${id}\n`);
    expect(record((await both(['assistant', 'get', id])).stdout).status).toBe('working');
  });
});

describe('approvals', () => {
  it('without a terminal and without --approve-all/--decline-all: exit 7, the id on stdout, each approval with what it costs on stderr; nothing was done', async () => {
    const r = await both(['assistant', 'send', TEXT, '--advance']);
    expect(r.code).toBe(7);
    const id = r.stdout.trim();
    expect(id).toMatch(UUID);
    expect(r.stderr).toMatch(
      /^approval [0-9a-f-]{36}: create_quick_ai_text: Starts an AI text conversation with \+14155550100 toward "ask whether Tuesday works": 0\.05 USD per message/m,
    );
    expect(r.stderr).toContain(
      `error: The assistant waits for your approval of an action in conversation ${id}; it was not done.\nAnswer: vmv assistant approve ${id}`,
    );
    const get = await both(['assistant', 'get', id]);
    expect(record(get.stdout).status).toBe('awaiting_approval');
    expect(lines(get.stdout, 'approval')).toEqual([
      [
        expect.stringMatching(/^[0-9a-f-]{36}$/),
        'create_quick_ai_text',
        expect.stringContaining('0.05 USD per message'),
      ],
    ]);
    // --json: the error envelope names the conversation and the approvals
    const j = await both(['assistant', 'send', TEXT, '--advance', '--json']);
    expect(j.code).toBe(7);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr).error).toMatchObject({
      code: 'declined',
      id: expect.stringMatching(UUID),
      approval_ids: [expect.stringMatching(/^[0-9a-f-]{36}$/)],
    });
  });

  it('then `approve` answers them all (approved unless --decline names one) and prints the reply', async () => {
    const id = await awaitingText();
    const r = await both(['assistant', 'approve', id, '--advance']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^I started an AI text to \+14155550100 toward "ask whether Tuesday works" \(quick action [0-9a-f-]{36}\); it bills 0\.05 USD per message the agent sends\.\n$/,
    );
    expect(r.stderr).toMatch(/^✓ create_quick_ai_text to_numbers=\+14155550100 goal="ask whether Tuesday works"\n/);
    // nothing pending any more: the service's own answer, 409 conflict (with --json, its envelope)
    const again = await both(['assistant', 'approve', id]);
    expect(again).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: No approval is pending in this conversation. (conflict, HTTP 409)\n',
    });
    const json = await both(['assistant', 'approve', id, '--decline-all', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'conflict', message: 'No approval is pending in this conversation.' },
    });
    // nor while the run works
    const working = (await both(['assistant', 'send', 'who texted us today?', '--wait', '0'])).stdout.trim();
    expect(await both(['assistant', 'approve', working])).toMatchObject({
      code: 1,
      stderr: 'error: The assistant is still working; no approval is pending. (conflict, HTTP 409)\n',
    });
  });

  it('approve --decline APPROVAL_ID --reason: that one declined (not done, the reason kept), the reply says so', async () => {
    const id = await awaitingText();
    const approval = lines((await both(['assistant', 'get', id])).stdout, 'approval')[0][0];
    // an id that is not pending is the service's to refuse (400, naming it as --decline); nothing is answered
    const unknown = await both(['assistant', 'approve', id, '--decline', 'apr_nope']);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe(
      'error: Every pending approval must be answered, in one request. (validation_error, HTTP 400)\n  --decline (approvals[1].approval_id): is not a pending approval of this conversation\n',
    );
    expect(record((await both(['assistant', 'get', id])).stdout).status).toBe('awaiting_approval');
    const r = await both([
      'assistant',
      'approve',
      id,
      '--decline',
      approval,
      '--reason',
      'not this week',
      '--advance',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json.data.reply).toBe('I did not text +14155550100: you declined ("not this week").');
    expect(r.json.data.actions).toMatchObject([
      { tool: 'create_quick_ai_text', status: 'declined', error: 'declined: not this week' },
    ]);
    expect(r.json.data.actions[0]).not.toHaveProperty('output'); // an object in the spec: left out, not null
  });

  it('--approve-all answers each approval as it comes, saying so; the actions run (and bill)', async () => {
    const r = await both([
      'assistant',
      'send',
      `${TEXT} then call +14155550101 to confirm the appointment`,
      '--approve-all',
      '--advance',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^I started an AI text to \+14155550100 .*\nI started an AI call to \+14155550101 toward "confirm the appointment"/,
    );
    const err = r.stderr.split('\n');
    expect(err[0]).toMatch(
      /^approved \(--approve-all\): create_quick_ai_text: Starts an AI text conversation with \+14155550100/,
    );
    expect(err[1]).toMatch(
      /^approved \(--approve-all\): create_quick_ai_call: Places an AI call to \+14155550101 .*0\.20 USD per call placed/,
    );
    expect(err[2]).toMatch(/^✓ create_quick_ai_text /);
    expect(err[3]).toMatch(/^✓ create_quick_ai_call /);
  });

  it('--decline-all --reason: nothing done, the reply says what was not', async () => {
    const r = await both(['assistant', 'send', TEXT, '--decline-all', '--reason', 'too expensive', '--advance']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('I did not text +14155550100: you declined ("too expensive").\n');
    expect(r.stderr).toMatch(
      /^declined \(--decline-all\): create_quick_ai_text: .*\n– create_quick_ai_text to_numbers=\+14155550100 goal="ask whether Tuesday works" \(declined: too expensive; not done\)\n/,
    );
  });
});

describe('conflicts, failures and the plan', () => {
  it("a message while approvals are pending, or while the run works, is the service's 409 conflict: exit 1", async () => {
    const id = await awaitingText();
    const pending = await both(['assistant', 'send', 'hello', '--conversation', id]);
    expect(pending.code).toBe(1);
    expect(pending.stderr).toMatch(/^error: Approvals are pending: .* \(conflict, HTTP 409\)\n/);
    const working = (await both(['assistant', 'send', 'who texted us today?', '--wait', '0'])).stdout.trim();
    const busy = await both(['assistant', 'send', 'hello', '--conversation', working, '--json']);
    expect(busy.code).toBe(1);
    expect(JSON.parse(busy.stderr).error.code).toBe('conflict');
  });

  it('a failed run (#fail-run) exits 5 with its error; the conversation takes the next message', async () => {
    const r = await both(['assistant', 'send', 'hello #fail-run', '--advance']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: The run failed: .*#fail-run.*\nContinue it: vmv assistant send --conversation [0-9a-f-]{36} "\.\.\."/,
    );
    const id = /--conversation (\S+)/.exec(r.stderr)![1];
    expect(record((await both(['assistant', 'get', id])).stdout)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('#fail-run'),
    });
    const next = await both(['assistant', 'send', 'who texted us today?', '--conversation', id, '--advance']);
    expect(next).toMatchObject({ code: 0, stdout: 'Nobody texted you today.\n' });
  });

  it('a plan without the assistant: 403 plan_not_included, exit 1; a key without its scope: exit 3', async () => {
    await both(['sim', 'workspace', 'set', '--assistant', 'off']);
    for (const args of [
      ['assistant', 'send', 'hello'],
      ['assistant', 'list'],
    ]) {
      const r = await both(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('(plan_not_included, HTTP 403)');
    }
    await both(['sim', 'workspace', 'set', '--assistant', 'on']);
    for (const t of Object.values(targets)) {
      const key = (await t.run(['sim', 'key', '--scope', 'assistant:read'])).stdout.trim();
      const r = await t.run(['assistant', 'send', 'hello', '--api-key', key]);
      expect(r.code).toBe(3);
      expect((await t.run(['assistant', 'list', '--api-key', key])).code).toBe(0);
    }
  });
});

describe('assistant get and list', () => {
  it('get: the fields, the reply, the actions and the transcript, one line each when piped; --json the body', async () => {
    const id = (await both(['assistant', 'send', 'how many calls did we get yesterday?', '--advance', '--json'])).json
      .data.conversation_id;
    const r = await both(['assistant', 'get', id]);
    expect(record(r.stdout)).toMatchObject({
      id,
      title: 'how many calls did we get yesterday?',
      status: 'idle',
      error: '-',
      reply: 'You got 0 inbound calls yesterday (2026-01-04, UTC).',
    });
    expect(lines(r.stdout, 'action')).toEqual([
      [
        expect.stringMatching(/^[0-9a-f-]{36}$/),
        'list_calls',
        'completed',
        expect.stringMatching(/^direction=inbound created_after=/),
        '-',
      ],
    ]);
    expect(lines(r.stdout, 'message')).toEqual([
      ['2026-01-05T09:00:00.000Z', 'user', 'how many calls did we get yesterday?'],
      [
        expect.stringMatching(/^2026-01-05T09:00:0\d/),
        'assistant',
        'You got 0 inbound calls yesterday (2026-01-04, UTC).',
      ],
    ]);
    expect((await both(['assistant', 'get', id, '--json'])).json.data.transcript).toHaveLength(2);
    for (const args of [
      ['assistant', 'get', '00000000-0000-4000-8000-000000000000'],
      ['assistant', 'send', 'hi', '--conversation', 'nope'],
      ['assistant', 'chat', '--conversation', 'nope'],
    ]) {
      const missing = await both(args);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('(not_found, HTTP 404)');
    }
  });

  it("get, piped, never cuts an action's input: nested fields by their path, long values whole", async () => {
    const greeting = `Hello, thanks for calling Acme. ${'We are open from nine to five on weekdays. '.repeat(30)}Goodbye.`;
    expect(greeting.length).toBeGreaterThan(1000);
    const r = await both([
      'assistant',
      'send',
      `change the greeting on number 1001 to ${greeting}`,
      '--advance',
      '--json',
    ]);
    const id = r.json.data.conversation_id;
    expect(r.json.data.actions[0].input).toEqual({ phone_number_id: 1001, voice: { greeting_message: greeting } });
    const get = await both(['assistant', 'get', id]);
    expect(lines(get.stdout, 'action')).toEqual([
      [
        expect.stringMatching(/^[0-9a-f-]{36}$/),
        'update_phone_number_config',
        expect.any(String),
        `phone_number_id=1001 voice.greeting_message=${JSON.stringify(greeting)}`,
        expect.any(String),
      ],
    ]);
  });

  it('list: newest first, tab-separated (id, status, pending approvals, updated, title); --all, --json', async () => {
    const first = (await both(['assistant', 'send', 'how many calls did we get yesterday?', '--advance'])).stderr;
    const waiting = await awaitingText();
    const r = await both(['assistant', 'list']);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toEqual([
      [waiting, 'awaiting_approval', '1', expect.any(String), TEXT],
      [expect.stringMatching(UUID), 'idle', '-', expect.any(String), 'how many calls did we get yesterday?'],
    ]);
    expect(first).toContain(rows[1][0]);
    for (const t of Object.values(targets)) {
      const page = await t.run(['assistant', 'list', '--limit', '1']); // cursors are signed by each simulator
      expect(page.stdout).toBe(`${rows[0].join('\t')}\n`);
      expect(page.stderr).toMatch(/^More results: add --cursor \S+\n$/);
    }
    expect((await both(['assistant', 'list', '--limit', '1', '--all', '--json'])).json.data).toHaveLength(2);
  });
});

describe("the help's examples in a script", () => {
  it("approve's: `ID=$(vmv assistant send ...)` goes on past the approvals that wait (exit 7) under set -euo pipefail, and approve answers them", async () => {
    await both(['sim', 'clock', '--real']);
    const help = (await both(['assistant', 'approve', '--help'])).stdout;
    const [send, get, approve] = help
      .slice(help.lastIndexOf('Examples:'))
      .split('\n')
      .slice(1, 4)
      .map((l) => l.trim());
    expect(send).toMatch(/^ID=\$\(vmv assistant send "call \+14155550100 to confirm the appointment"/);
    for (const t of Object.values(targets)) {
      const script = `set -euo pipefail\nvmv() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }\n${send}\n${get} > /dev/null\n${approve} --wait 0 > /dev/null\necho "done $ID"\n`;
      // a terminal would be asked; the script's </dev/null (and this test's) is none
      const r = spawnSync('bash', ['-c', script], {
        env: { ...process.env, ...t.env },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^done [0-9a-f-]{36}\n$/);
    }
  }, 30_000);
});

describe('what the assistant did not understand, and the help\'s "and yesterday?" (issue 36)', () => {
  it('a reply that did not understand exits 8 after printing it; --json keeps the conversation on stdout and says not_understood', async () => {
    const r = await both(['assistant', 'send', 'who texted us today? also sing me a song', '--advance']);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toMatch(
      /^Nobody texted you today\.\nI didn't understand "also sing me a song"\. I can answer or do:\n- /,
    );
    expect(r.stderr).toMatch(
      /\nerror: The assistant did not understand "also sing me a song"\.\nIts reply says what it can do/,
    );
    const j = await both(['assistant', 'send', 'sing me a song', '--advance', '--json']);
    expect(j.code).toBe(8);
    expect(j.json.data).toMatchObject({ status: 'idle', not_understood: ['sing me a song'] });
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'not_understood', not_understood: ['sing me a song'] });
    // what it understands exits 0, as before
    expect((await both(['assistant', 'send', 'any texts today?', '--advance'])).code).toBe(0);
  });

  it('the chat without a terminal says it apart, on stderr, and goes on', async () => {
    const r = await both(['assistant', 'chat'], { stdin: 'sing me a song\nwho texted us today?\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('not understood: "sing me a song"');
    expect(r.stdout).toMatch(/\nNobody texted you today\.\n$/);
  });

  it('send\'s help example: ID=$(… --json | jq …) then "and yesterday?" --conversation "$ID" answers for real', async () => {
    await both(['sim', 'clock', '--real']);
    const help = (await both(['assistant', 'send', '--help'])).stdout;
    const examples = help
      .slice(help.lastIndexOf('Examples:'))
      .split('\n')
      .map((l) => l.trim());
    const first = examples.find((l) => l.startsWith('ID=$(vmv assistant send'))!;
    const then = examples.find((l) => l.includes('"and yesterday?"'))!;
    expect(then).toBe('vmv assistant send "and yesterday?" --conversation "$ID"');
    for (const t of Object.values(targets)) {
      // jq where the machine has it; else the same field read by node
      const jq = `command -v jq >/dev/null || jq() { ${JSON.stringify(process.execPath)} -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.conversation_id))'; }`;
      const script = `set -euo pipefail\n${jq}\nvmv() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }\n${first}\n${then}\n`;
      const r = spawnSync('bash', ['-c', script], {
        env: { ...process.env, ...t.env },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe('Nobody texted you yesterday.\n');
    }
  }, 60_000);
});

describe('the local checks, before anything is sent (exit 2)', () => {
  it.each([
    [['assistant', 'send', 'hi', '--wait', 'soon'], '--wait: "soon" is not a duration'],
    [
      ['assistant', 'send', 'hi', '--wait', '0', '--advance'],
      '--wait 0 does not wait for the run, so --advance would have nothing to do',
    ],
    [
      ['assistant', 'send', 'hi', '--approve-all', '--decline-all'],
      "option '--approve-all' cannot be used with option '--decline-all'",
    ],
    [
      ['assistant', 'send', 'hi', '--reason', 'no'],
      '--reason is told to the assistant with a decline: add --decline-all.',
    ],
    [['assistant', 'chat', '--reason', 'no'], '--reason is told to the assistant with each decline'],
  ])('vmv %j', async (args, message) => {
    const r = await both(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect((await both(['assistant', 'list'])).stdout).toBe('');
  });

  it("--advance on a served simulator's real clock is refused before the message is sent", async () => {
    await both(['sim', 'clock', '--real']);
    const r = await targets.remote.run(['assistant', 'send', 'hi', '--advance']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("this simulator's clock is real");
    expect((await targets.remote.run(['assistant', 'list'])).stdout).toBe('');
  });
});

describe('assistant chat without a terminal: line mode', () => {
  it('each line a message, each reply on stdout; the chat moves a manual clock itself and says so; /list prints rows', async () => {
    const r = await both(['assistant', 'chat'], {
      stdin: 'how many calls did we get yesterday?\n\nwho texted us today?\n/list\n',
    });
    expect(r.code, r.stderr).toBe(0);
    const [reply1, reply2, row] = r.stdout.trimEnd().split('\n');
    expect([reply1, reply2]).toEqual([
      'You got 0 inbound calls yesterday (2026-01-04, UTC).',
      'Nobody texted you today.',
    ]);
    expect(row.split('\t')).toEqual([
      expect.stringMatching(UUID),
      'idle',
      expect.any(String),
      'how many calls did we get yesterday?',
    ]);
    const err = r.stderr.split('\n');
    expect(err[0]).toBe(
      'note: the simulator clock is manual: the chat advances it while the assistant works (--no-auto-advance leaves it alone).',
    );
    expect(err[1]).toMatch(/^conversation [0-9a-f-]{36}$/);
    expect(err[2]).toMatch(/^✓ list_calls /);
    expect(err[3]).toMatch(/^✓ list_messages /);
  });

  it('approvals follow --approve-all; without it (or --decline-all) the chat ends there: exit 7, the id on stdout', async () => {
    const ok = await both(['assistant', 'chat', '--approve-all'], { stdin: `${TEXT}\n` });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^I started an AI text to \+14155550100 /);
    const stop = await both(['assistant', 'chat'], { stdin: `${TEXT}\nwho texted us today?\n` });
    expect(stop.code).toBe(7);
    const id = stop.stdout.trim();
    expect(id).toMatch(UUID);
    expect(stop.stderr).toContain(
      `Answer: vmv assistant approve ${id} [--decline APPROVAL_ID ...], or run the chat with --approve-all or --decline-all.`,
    );
    // the line after it was not sent
    expect(stop.stderr).not.toContain('list_messages');
  });

  it('on a manual clock the chat moves the clock on until the call it placed has ended, so "did they agree?" finds it over (issue 23, point 13)', async () => {
    const r = await both(['assistant', 'chat', '--approve-all'], {
      stdin: 'call +14155550100 to confirm the appointment\ndid they agree?\nhow much did that cost?\n',
    });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trimEnd().split('\n');
    expect(out[0]).toMatch(/^I started an AI call to \+14155550100 /);
    expect(out.slice(1)).toEqual([
      'Yes: +14155550100 agreed ("confirm the appointment").',
      'The call to +14155550100 cost 0.37 USD.',
    ]);
    // the clock moved past the call's end (and its review) and no further than the next due transition
    const clock = (await both(['sim', 'clock', '--json'])).json;
    expect(Date.parse(clock.now) - Date.parse('2026-01-05T09:00:00Z')).toBeLessThan(120_000);
  });

  it('a failed run ends the chat with exit 5; --conversation resumes one; /new, /open, an unknown /command', async () => {
    const failed = await both(['assistant', 'chat'], { stdin: 'hello #fail-run\nwho texted us today?\n' });
    expect(failed.code).toBe(5);
    const id = /conversation ([0-9a-f-]{36})/.exec(failed.stderr)![1];
    const resumed = await both(['assistant', 'chat', '--conversation', id], {
      stdin: '/nope\nwho texted us today?\n/new\nhow many calls did we get yesterday?\n',
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('Nobody texted you today.\nYou got 0 inbound calls yesterday (2026-01-04, UTC).\n');
    expect(resumed.stderr).toContain(`conversation ${id}: hello (failed)`);
    expect(resumed.stderr).toContain('Unknown command /nope. /help lists them');
    expect(resumed.stderr).toContain('new conversation: the next message starts it');
    const opened = await both(['assistant', 'chat'], {
      stdin: `/open ${id.slice(0, 8)}\nwho texted us today?\n/quit\nnot sent\n`,
    });
    expect(opened.code).toBe(0);
    expect(opened.stderr).toContain(`conversation ${id}: hello (idle)`);
    expect(opened.stdout).toBe('Nobody texted you today.\n'); // then /quit: the line after it is not sent
  });

  it("--json: the chat's commands print JSON too (/list the list, /help its lines); a command that fails is a JSON error on stderr, and the chat goes on", async () => {
    const r = await both(['assistant', 'chat', '--json'], {
      stdin:
        'who texted us today?\n/list\n/help\n/open zzz\n/bogus\n/open 00000000-0000-4000-8000-000000000000\n/new\nhow many calls did we get yesterday?\n',
    });
    expect(r.code, r.stderr).toBe(0);
    const docs = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(docs).toHaveLength(4);
    expect(docs[0].data.reply).toBe('Nobody texted you today.');
    expect(docs[1].data).toEqual([
      expect.objectContaining({ conversation_id: docs[0].data.conversation_id, status: 'idle' }),
    ]);
    expect(docs[2].help).toContain(
      '/open ID — continue a conversation: its id, or the first characters of one /list shows',
    );
    expect(docs[3].data.reply).toBe('You got 0 inbound calls yesterday (2026-01-04, UTC).');
    expect(
      r.stderr
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { error: { code: 'usage_error', message: 'No recent conversation starts with "zzz" (/list shows them).' } },
      {
        error: {
          code: 'usage_error',
          message: 'Unknown command /bogus. /help lists them (to send a message starting with /, type //).',
        },
      },
      { error: { code: 'not_found', message: expect.stringContaining('00000000-0000-4000-8000-000000000000') } },
    ]);
    // without --json the same errors are said, and /help goes to stderr with the other messages
    const text = await both(['assistant', 'chat'], {
      stdin: '/help\n/open zzz\n/open 00000000-0000-4000-8000-000000000000\n',
    });
    expect(text).toMatchObject({ code: 0, stdout: '' });
    expect(text.stderr).toContain('/open ID — continue a conversation');
    expect(text.stderr).toContain('No recent conversation starts with "zzz" (/list shows them).\n');
    expect(text.stderr).toMatch(
      /No assistant conversation 00000000-0000-4000-8000-000000000000 .*\(not_found, HTTP 404\)\n/,
    );
  });

  it('--json: the conversation after each reply, one JSON document per line', async () => {
    const r = await both(['assistant', 'chat', '--json'], {
      stdin: 'how many calls did we get yesterday?\nwho texted us today?\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const docs = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(docs.map((d) => d.data.reply)).toEqual([
      'You got 0 inbound calls yesterday (2026-01-04, UTC).',
      'Nobody texted you today.',
    ]);
    expect(docs[1].data.transcript).toHaveLength(4);
  });
});
