// vmv/testing as users install it (issue 35, "Done when"): vmv packed and installed into a fresh
// project (scripts/pack.mjs) beside vitest, Jest and TypeScript from the registry (one install),
// then the examples of examples/testing/ run there by each runner (node:test needs nothing; Jest
// both as ES modules and in its default CommonJS) with a fresh HOME, and TypeScript consumers (an
// ES module and a CommonJS one under node16 resolution, the ES ones again under bundler), with the
// JSDoc examples taken from the installed declarations, type-checked by `tsc --noEmit`.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, without types
import { npmCache, packAndInstall, registryEnv } from '../scripts/pack.mjs';
import { tempDir } from './temp.js';

const EXAMPLES = new URL('../examples/testing/', import.meta.url).pathname;
/** The runners, pinned to the majors the examples are written for (vitest's is this checkout's). */
const RUNNERS = ['vitest@4', 'jest@30', '@jest/globals@30', 'typescript@5.9', '@types/node@20'];

let project: string;
let home: string;
let cache: string;

/** A user's environment: PATH and a HOME of their own, nothing of this checkout's. */
const userEnv = () => ({ PATH: process.env.PATH ?? '', HOME: home, npm_config_cache: cache, NO_COLOR: '1' });

/** Runs a command in the project; its output, status and how long it took. */
function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const t = performance.now();
  const r = spawnSync(cmd, args, {
    cwd: project,
    env: { ...userEnv(), ...env },
    encoding: 'utf8',
    timeout: 120_000,
    killSignal: 'SIGKILL',
  });
  return { ...r, ms: performance.now() - t, out: `${r.stdout}\n${r.stderr}` };
}

beforeAll(() => {
  const dir = tempDir();
  home = join(dir, 'home');
  mkdirSync(home);
  cache = npmCache();
  ({ project } = packAndInstall(dir, { PATH: process.env.PATH, HOME: home, npm_config_cache: cache }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '-D', ...RUNNERS], {
    cwd: project,
    env: { ...registryEnv(), ...userEnv() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const f of readdirSync(EXAMPLES)) copyFileSync(join(EXAMPLES, f), join(project, f));
}, 600_000);

describe('vmv/testing in a fresh project, with the runners people use', () => {
  // each: a simulator per test, fetch code placing a quick call and registering a webhook,
  // waitFor('call.ended'), the outbox and the ledger read, a reset, a close; the runner then exits
  // by itself (nothing left open keeps it, and nothing was reported left open)
  const runners: [string, string, string[], Record<string, string>?][] = [
    ['vitest', join('node_modules', '.bin', 'vitest'), ['run', 'vitest.test.js']],
    [
      'Jest',
      process.execPath,
      ['node_modules/jest/bin/jest.js', 'jest.test.js'],
      { NODE_OPTIONS: '--experimental-vm-modules' },
    ],
    // Jest as it comes (no flags, no configuration): CommonJS, require('vmv/testing') (dist/testing.cjs)
    ['Jest, CommonJS', process.execPath, ['node_modules/jest/bin/jest.js', 'jest-commonjs.test.cjs']],
    // TAP named: Node 20 reports TAP when piped, Node 23+ its spec reporter
    ['node:test', process.execPath, ['--test', '--test-reporter=tap', 'node.test.js']],
  ];
  it.each(runners)('%s runs the example and exits by itself', (_name, cmd, args, env) => {
    const r = run(cmd, args, env);
    expect(r.out).not.toContain('left open');
    expect(r.status, r.out).toBe(0);
    expect(r.signal).toBeNull();
    expect(r.out).toMatch(/^# pass 1$|Tests\s+1 passed|Tests:\s+1 passed/m);
  });

  it('a simulator left open is reported with the line that started it, and does not keep the process alive', () => {
    writeFileSync(
      join(project, 'leak.mjs'),
      [
        "import { startSimulator } from 'vmv/testing';",
        "const sim = await startSimulator({ clock: 'real' });",
        'await fetch(`${sim.url}/v1/contacts`, { headers: { authorization: `Bearer ${sim.apiKey}` } });',
        'await sim.webhookReceiver();',
        '',
      ].join('\n'),
    );
    const r = run(process.execPath, ['leak.mjs']);
    expect(r.status, r.out).toBe(0);
    expect(r.ms).toBeLessThan(10_000); // not the 65 s of a kept-alive connection
    expect(r.stderr).toContain('vmv/testing: 2 left open at the end of the run');
    expect(r.stderr).toMatch(/a simulator at http:\/\/127\.0\.0\.1:\d+, started at file:\/\/.*leak\.mjs:2:/);
    expect(r.stderr).toMatch(/a webhook receiver at .*, started at file:\/\/.*leak\.mjs:4:/);
  });

  // vitest's and Jest's workers end without an exit event: their own end of a test file asks
  // (vmv/testing/vitest, a setup file; vmv/testing/jest-environment), after the file's own hooks,
  // so a simulator closed in the user's afterAll is not reported and one never closed is
  const leakyTest = (imports: string, ext: string) => {
    writeFileSync(
      join(project, `leaky.test.${ext}`),
      [
        imports,
        'let kept, closedLater;',
        'beforeAll(async () => { closedLater = await startSimulator(); });',
        'afterAll(async () => { await closedLater.close(); });',
        "test('forgets one simulator', async () => {",
        '  kept = await startSimulator();',
        '  expect((await fetch(`${kept.url}/v1/contacts`, { headers: { authorization: `Bearer ${kept.apiKey}` } })).status).toBe(200);',
        '});',
        '',
      ].join('\n'),
    );
  };
  const reported = (r: ReturnType<typeof run>, file: string, line: number) => {
    expect(r.status, r.out).toBe(0);
    expect(r.signal).toBeNull();
    expect(r.ms).toBeLessThan(60_000);
    // one: the simulator the afterAll closed is not among them
    expect(r.stderr).toContain('vmv/testing: 1 left open at the end of the test file');
    expect(r.stderr).toMatch(new RegExp(`a simulator at http://127\\.0\\.0\\.1:\\d+, started at .*${file}:${line}:`));
  };

  it('vitest with setupFiles vmv/testing/vitest: a simulator a test file left open is reported at its end, the one its afterAll closed is not', () => {
    leakyTest(
      "import { afterAll, beforeAll, expect, test } from 'vitest';\nimport { startSimulator } from 'vmv/testing';",
      'js',
    );
    writeFileSync(
      join(project, 'vitest.leaky.config.js'),
      "export default { test: { include: ['leaky.test.js'], setupFiles: ['vmv/testing/vitest'] } };\n",
    );
    reported(
      run(join('node_modules', '.bin', 'vitest'), ['run', '--config', 'vitest.leaky.config.js']),
      'leaky\\.test\\.js',
      7,
    );
  });

  it('Jest with testEnvironment vmv/testing/jest-environment (CommonJS, as Jest comes): the same report', () => {
    leakyTest("const { startSimulator } = require('vmv/testing');", 'cjs');
    const r = run(process.execPath, [
      'node_modules/jest/bin/jest.js',
      '--testEnvironment',
      'vmv/testing/jest-environment',
      'leaky.test.cjs',
    ]);
    reported(r, 'leaky\\.test\\.cjs', 6);
  });
});

describe("vmv/testing's types, as a TypeScript user compiles against them", () => {
  it('the declarations and the JSDoc examples type-check with tsc --noEmit (strict, the library checked too; node16 for import and require, bundler)', () => {
    const dts = readFileSync(join(project, 'node_modules/vmv/dist/types/src/testing/simulator.d.ts'), 'utf8');
    const examples = [...dts.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1].replace(/^\s*\* ?/gm, ''));
    expect(examples.length).toBeGreaterThanOrEqual(2);
    mkdirSync(join(project, 'ts'));
    examples.forEach((e, i) => writeFileSync(join(project, 'ts', `example-${i}.ts`), e));
    writeFileSync(
      join(project, 'ts', 'consumer.ts'),
      [
        "import { startSimulator, SimulatorError, type Simulator, type ReceivedEvent } from 'vmv/testing';",
        "import { verifySignature } from 'vmv';",
        "const sim: Simulator = await startSimulator({ clock: 'manual', seed: 7, data: 'memory' });",
        'const url: string = sim.url; const key: string = sim.env.VMV_API_KEY;',
        "const at: Date = await sim.advance('1h30m');",
        "const kinds: ('email' | 'text' | 'call')[] = (await sim.outbox()).map((m) => m.kind);",
        'const wallet: number[] = (await sim.ledger()).map((e) => e.wallet_after_cents);',
        'const codes: (number | null)[] = (await sim.deliveries()).map((d) => d.status_code);',
        'const hook = await sim.webhookReceiver(); const got: ReceivedEvent[] = [...hook.received];',
        '// @ts-expect-error: advance takes seconds or a duration, not an object',
        'await sim.advance({ minutes: 5 });',
        "// @ts-expect-error: a persona's attempt result is one of its words",
        "await sim.persona.set('+14155550123', { call: { attempts: [{ result: 'maybe' }] } });",
        "const refused = new SimulatorError('x', 400, {}); const s: number = refused.status;",
        "console.log(url, key, at, kinds, wallet, codes, got, s, verifySignature('', '', ''));",
        'export {};',
        '',
      ].join('\n'),
    );
    // a CommonJS consumer (require, through dist/testing.d.cts): `await using` in an async function, no top-level await
    writeFileSync(
      join(project, 'ts', 'consumer-cjs.cts'),
      [
        "import { startSimulator, SimulatorError, type Simulator, type ReceivedEvent } from 'vmv/testing';",
        'export async function check(): Promise<number> {',
        "  await using sim: Simulator = await startSimulator({ now: '2026-03-02T09:00:00Z' });",
        '  const got: ReceivedEvent[] = [...(await sim.webhookReceiver()).received];',
        "  const refused: SimulatorError = new SimulatorError('x', 400, {});",
        '  // @ts-expect-error: advance takes seconds or a duration, not an object',
        '  await sim.advance({ minutes: 5 });',
        "  return got.length + refused.status + (await sim.advance('5m')).getTime();",
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.bundler.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { module: 'ESNext', moduleResolution: 'bundler' },
        include: ['ts/*.ts'],
      }),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'ESNext.Disposable'],
          types: ['node'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        include: ['ts'],
      }),
    );
    for (const config of ['tsconfig.json', 'tsconfig.bundler.json']) {
      const r = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', config]);
      expect(r.out.trim(), config).toBe('');
      expect(r.status).toBe(0);
    }
  }, 180_000);
});
