// ink and React are loaded by `vmv assistant chat` on a terminal only: the bundle keeps them in
// dist/ui-vendor.js (and its chunks), apart from every chunk of the command line, which reaches them
// only through the chat UI's chunk, itself reached by nothing but a dynamic import (dist/meta.json);
// real runs of `vmv --help`, other commands and the assistant's script verbs (bin/loader.cjs's
// VMV_LOAD_LOG records every dist file loaded) load neither. Needs the bundle: `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, T0, tempDir } from './helpers.js';

const ROOT = new URL('..', import.meta.url).pathname;
/** the packages of the terminal UI: ink, React and what only they use */
const UI_PACKAGES = /(^|\/)node_modules\/(ink|react|react-reconciler|scheduler|yoga-layout)\//;

interface Meta {
  outputs: Record<
    string,
    {
      entryPoint?: string;
      inputs: Record<string, unknown>;
      imports: { path: string; kind: string; external?: boolean }[];
    }
  >;
}

let meta: Meta;
let uiOutputs: string[];
let dir: string;
beforeAll(() => {
  const file = join(ROOT, 'dist/meta.json');
  if (!existsSync(file)) throw new Error('dist/meta.json is missing: run `npm run build` first');
  meta = JSON.parse(readFileSync(file, 'utf8'));
  uiOutputs = Object.keys(meta.outputs).filter(
    (o) => o.endsWith('.js') && Object.keys(meta.outputs[o].inputs).some((i) => UI_PACKAGES.test(i)),
  );
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The outputs a chunk loads as soon as it is loaded (its static imports, and theirs). */
function staticClosure(out: string, seen = new Set<string>()): Set<string> {
  if (seen.has(out)) return seen;
  seen.add(out);
  for (const i of meta.outputs[out]?.imports ?? [])
    if (i.kind === 'import-statement' && !i.external && meta.outputs[i.path]) staticClosure(i.path, seen);
  return seen;
}

describe('the bundle', () => {
  it("keeps ink and React in the vendored UI (and ink's devtools, loaded only with DEV=true), apart from every other chunk", () => {
    const ui = Object.keys(meta.outputs).find((o) => meta.outputs[o].entryPoint === 'commands/assistant/ui/chat.tsx');
    expect(ui, 'a chunk of its own for the chat UI').toBeDefined();
    expect(uiOutputs).toContain('dist/ui-vendor.js');
    for (const o of uiOutputs) expect(o).toMatch(/^dist\/ui-(vendor|chunk-|devtools-)/);
    // the chat UI takes ink and React from outside its chunk (the vendored UI, through the loader)
    expect(meta.outputs[ui!].imports.filter((i) => i.external).map((i) => i.path)).toEqual(
      expect.arrayContaining(['ink', 'react']),
    );
    // no chunk of the command line loads the chat UI when it loads
    for (const out of Object.keys(meta.outputs).filter((o) => o.endsWith('.js') && !uiOutputs.includes(o)))
      if (out !== ui) expect(staticClosure(out), `${out} statically loads the chat UI`).not.toContain(ui);
    // and the UI chunk is imported (dynamically) by the assistant's verbs only
    const importers = Object.keys(meta.outputs).filter((o) => meta.outputs[o].imports.some((i) => i.path === ui));
    expect(importers.length).toBeGreaterThan(0);
    for (const o of importers) {
      expect(meta.outputs[o].imports.find((i) => i.path === ui)!.kind).toBe('dynamic-import');
      expect(Object.keys(meta.outputs[o].inputs)).toContain('commands/assistant/chat.ts');
    }
  });
});

/** Runs bin/vmv with VMV_LOAD_LOG: its exit code, and the dist files it loaded. */
function loads(args: string[], o: { stdin?: string } = {}): { code: number | null; loaded: string[]; stderr: string } {
  const log = join(dir, `loads-${Math.random().toString(36).slice(2)}.txt`);
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    input: o.stdin ?? '',
    encoding: 'utf8',
    env: {
      ...process.env,
      VMV_LOAD_LOG: log,
      VMV_SIM_DATA: join(dir, 'sim.json'),
      VMV_CONFIG_DIR: join(dir, 'config'),
      VMV_BASE_URL: '',
      VMV_API_KEY: '',
      NO_COLOR: '1',
    },
  });
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const loaded = lines.map((l) => l.split(' ')[0]);
  return { code: r.status, loaded, stderr: r.stderr };
}

describe('what a command loads', () => {
  it('the log names the chunks a command loads (the vendored UI, when the chat is imported)', () => {
    const r = loads(['contacts', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.loaded).toContain('dist/cli.js');
    expect(r.loaded.some((f) => /^dist\/contacts-/.test(f))).toBe(true);
  });

  it.each([
    [['--help']],
    [['contacts', 'list']],
    [['assistant', '--help']],
    [['assistant', 'chat', '--help']],
    [['assistant', 'list']],
    [['assistant', 'send', 'how many calls did we get yesterday?', '--advance']],
  ])('vmv %j loads neither ink nor React', (args) => {
    expect(loads(['sim', 'reset', '--clock', 'manual', '--now', T0]).code).toBe(0);
    const r = loads(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.loaded.length).toBeGreaterThan(0);
    expect(r.loaded.filter((f) => uiOutputs.includes(f))).toEqual([]);
  });

  it('nor does the chat without a terminal (line mode)', () => {
    const r = loads(['assistant', 'chat'], { stdin: 'how many calls did we get yesterday?\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.loaded.some((f) => /^dist\/line-/.test(f))).toBe(true);
    expect(r.loaded.filter((f) => uiOutputs.includes(f))).toEqual([]);
  });
});

describe("the assistant's date reader (issue 36)", () => {
  it('chrono-node is bundled into dist/dates.js only, which the simulator imports dynamically', () => {
    const withChrono = Object.keys(meta.outputs).filter(
      (o) =>
        o.endsWith('.js') && Object.keys(meta.outputs[o].inputs).some((i) => i.includes('node_modules/chrono-node/')),
    );
    expect(withChrono).toEqual(['dist/dates.js']);
    const sim = meta.outputs['dist/simulator.js'];
    expect(sim.imports.filter((i) => i.path === './dates.js').map((i) => i.kind)).toEqual(['dynamic-import']);
  });

  it.each([[['--help']], [['contacts', 'list']], [['assistant', 'list']], [['sim', 'clock']]])(
    'vmv %j does not load it',
    (args) => {
      expect(loads(['sim', 'reset', '--clock', 'manual', '--now', T0]).code).toBe(0);
      const r = loads(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.loaded.length).toBeGreaterThan(0);
      expect(r.loaded).not.toContain('dist/dates.js');
    },
  );

  it('the assistant loads it when its run reads a message', () => {
    expect(loads(['sim', 'reset', '--clock', 'manual', '--now', T0]).code).toBe(0);
    const r = loads(['assistant', 'send', 'who called us yesterday?', '--advance']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.loaded).toContain('dist/dates.js');
  });
});
