// vmv sim persona set|list|show|rm on both targets (embedded and remote answer alike): a file or
// standard input, a built-in shown as a file set accepts, a bad file refused with every field path
// and nothing changed, and personas carried by vmv sim export and import.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, useTargets } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });
const N = '+12025550123';

const THURSDAY = {
  name: 'Moves it to Thursday',
  call: {
    attempts: [{ result: 'answer', ring_seconds: 4 }],
    lines: [{ says: 'Hello?' }, { says: 'Could we move it to Thursday?', pause_seconds: 2 }, { says: 'Great.' }],
  },
};

describe('vmv sim persona', () => {
  it('set from a file, list, show, rm', async () => {
    const file = join(tempDir(), 'thursday.json');
    writeFileSync(file, JSON.stringify(THURSDAY));
    const set = await both(['sim', 'persona', 'set', N, '--file', file]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe(`${N} now meets the persona "Moves it to Thursday"\n`);
    const list = await both(['sim', 'persona', 'list']);
    expect(list.stdout.split('\n')[0]).toBe(`${N}\tset\tMoves it to Thursday\tanswer\tas built-in`);
    expect(list.stdout).toContain(
      '…0105\tbuilt-in\tAnswers the second attempt\tno_answer answer goal_achieved\t1 reply',
    );
    const show = await both(['sim', 'persona', 'show', N]);
    expect(JSON.parse(show.stdout)).toEqual(THURSDAY);
    expect((await both(['sim', 'persona', 'rm', N])).stderr).toBe(`${N} meets its built-in persona again\n`);
    const gone = await both(['sim', 'persona', 'rm', N]);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('has no persona of its own');
  });

  it('show of a built-in prints a file set accepts, from standard input', async () => {
    const show = await both(['sim', 'persona', 'show', '+14155550105']);
    expect(show.stderr).toBe('+14155550105 has no persona of its own: this is its built-in\n');
    const set = await both(['sim', 'persona', 'set', N, '--file', '-'], { stdin: show.stdout });
    expect(set.code, set.stderr).toBe(0);
    const again = await both(['sim', 'persona', 'show', N, '--json']);
    expect(again.json.data).toMatchObject({ number: N, builtin: false, persona: JSON.parse(show.stdout) });
  });

  it('a bad file: every problem by field path, and nothing changes; a file that is not JSON is a usage error', async () => {
    const bad = { call: { attempts: [{ result: 'sometimes' }], lines: [] }, text: { replies: [{ says: 'Hi' }] } };
    const r = await both(['sim', 'persona', 'set', N, '--file', '-'], { stdin: JSON.stringify(bad) });
    expect(r.code).toBe(1);
    for (const path of ['call.attempts[0].result', 'call.lines', 'text.replies[0].after_seconds'])
      expect(r.stderr).toContain(`  ${path}: `);
    expect((await both(['sim', 'persona', 'show', N, '--json'])).json.data.builtin).toBe(true);
    const notJson = await both(['sim', 'persona', 'set', N, '--file', '-'], { stdin: '{"call": ' });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^error: --file: standard input is not JSON: /);
  });

  it('personas travel in vmv sim export and import', async () => {
    const env = targets.embedded.env;
    await targets.embedded.run(['sim', 'persona', 'set', N, '--file', '-'], { stdin: JSON.stringify(THURSDAY) });
    const dir = tempDir();
    const out = join(dir, 'world.json');
    expect((await cli(['sim', 'export', out], { env })).code).toBe(0);
    const copy = { ...env, VMV_SIM_DATA: join(dir, 'copy.json') };
    const imported = await cli(['sim', 'import', out], { env: copy });
    expect(imported.code, imported.stderr).toBe(0);
    const show = await cli(['sim', 'persona', 'show', N], { env: copy });
    expect(JSON.parse(show.stdout)).toEqual(THURSDAY);
  });
});
