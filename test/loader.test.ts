// bin/loader.cjs, the code-cache loader bin/vmv starts through (issue 26): a command runs the same
// whether its caches are there, missing, stale or from another Node version; a run without an
// accepted cache leaves one in the user's cache directory for the next; and the published package
// carries the build's caches. Each case runs a copy of bin/ and dist/ as a real process, its log
// (VMV_LOAD_LOG) saying where each chunk's compile came from. Not timed: npm run bench measures.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { childEnv, tempDir } from './helpers.js';

const ROOT = new URL('..', import.meta.url).pathname;
const KEY = `${process.version}-${process.arch}`;
/** the parameters the loader hands a chunk, from the loader itself */
const { PARAMS } = createRequire(import.meta.url)('../bin/loader.cjs') as { PARAMS: string };
let dir: string;
let pkg: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cjs/manifest.json')))
    throw new Error('dist/cjs is missing: run `npm run build` first');
  dir = tempDir();
  pkg = join(dir, 'pkg');
  cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  writeFileSync(join(pkg, 'package.json'), readFileSync(join(ROOT, 'package.json')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const buildCache = () => join(pkg, 'dist/cjs/cache', KEY);
const manifest = () => JSON.parse(readFileSync(join(pkg, 'dist/cjs/manifest.json'), 'utf8'));

/** Runs the copy's bin/vmv: exit code, output, and how each chunk was compiled (file → how). */
function run(args: string[], cacheHome: string, env: Record<string, string> = {}) {
  const log = join(dir, `log-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync(process.execPath, [join(pkg, 'bin/vmv'), ...args], {
    encoding: 'utf8',
    env: childEnv(dir, { XDG_CACHE_HOME: cacheHome, VMV_LOAD_LOG: log, ...env }),
  });
  const how = new Map(
    (existsSync(log) ? readFileSync(log, 'utf8') : '')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, how };
}

describe('the code-cache loader', () => {
  it("runs from the build's caches, and writes nothing of its own", () => {
    const home = join(dir, 'cache-a');
    const r = run(['contacts', 'list', '--json'], home);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('data');
    expect(r.how.get('dist/cli.js')).toBe('build-cache');
    expect(r.how.get('dist/simulator.js')).toBe('build-cache');
    expect(existsSync(join(home, 'vmv/code-cache'))).toBe(false);
  });

  it('without the build caches: compiles, leaves caches in the user cache directory, and the next run uses them', () => {
    const saved = join(dir, 'saved-cache');
    cpSync(buildCache(), saved, { recursive: true });
    rmSync(buildCache(), { recursive: true });
    try {
      const home = join(dir, 'cache-b');
      const first = run(['--help'], home);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Usage: vmv');
      expect(first.how.get('dist/cli.js')).toBe('compiled');
      const written = readdirSync(join(home, 'vmv/code-cache', KEY));
      expect(written).toContain(`${manifest().hashes['cli.pack.js']}.bin`);
      const second = run(['--help'], home);
      expect(second.stdout).toBe(first.stdout);
      expect(second.how.get('dist/cli.js')).toBe('user-cache');
    } finally {
      cpSync(saved, buildCache(), { recursive: true });
    }
  });

  it('a stale cache (another source of the same name) and one from another Node version are refused: a plain compile, the same output', () => {
    const hashes = manifest().hashes;
    const cli = join(buildCache(), `${hashes['cli.pack.js']}.bin`);
    const good = readFileSync(cli);
    const expected = run(['--help'], join(dir, 'cache-c')).stdout;
    try {
      // the cache of another chunk under cli.js's name: V8 sees another source
      const other = Object.keys(hashes).find(
        (f) => f !== 'cli.pack.js' && existsSync(join(buildCache(), `${hashes[f]}.bin`)),
      )!;
      writeFileSync(cli, readFileSync(join(buildCache(), `${hashes[other]}.bin`)));
      const stale = run(['--help'], join(dir, 'cache-d'));
      expect(stale.code, stale.stderr).toBe(0);
      expect(stale.stdout).toBe(expected);
      expect(stale.how.get('dist/cli.js')).toBe('compiled');
      // the version stamp in the cache's header changed, as a cache made by another Node has it
      const foreign = Buffer.from(good);
      foreign.writeUInt32LE(~foreign.readUInt32LE(4) >>> 0, 4);
      writeFileSync(cli, foreign);
      const other2 = run(['--help'], join(dir, 'cache-e'));
      expect(other2.stdout).toBe(expected);
      expect(other2.how.get('dist/cli.js')).toBe('compiled');
    } finally {
      writeFileSync(cli, good);
    }
  });

  it('a command compiles one pack per part it loads, not a script per chunk', () => {
    const r = run(['--help'], join(dir, 'cache-p'));
    expect(r.code, r.stderr).toBe(0);
    const packs = manifest().packs as Record<string, string[]>;
    expect(packs['cli.pack.js'][0]).toBe('cli.js');
    // the pack compiled once, every chunk of it run from it, and nothing else compiled
    expect([...r.how.keys()].filter((f) => f.startsWith('dist/cjs/'))).toEqual(['dist/cjs/cli.pack.js']);
    expect([...r.how.keys()].filter((f) => !f.startsWith('dist/cjs/')).sort()).toEqual(
      packs['cli.pack.js'].map((id) => `dist/${id}`).sort(),
    );
    expect(new Set(r.how.values())).toEqual(new Set(['build-cache']));
  });

  it('a chunk two packs hold runs once, from the pack loaded first; a chunk in no pack is compiled alone', () => {
    // a made-up dist/: the entry imports two parts (packs a and b), which both hold `shared`
    const fake = join(dir, 'fake');
    cpSync(join(ROOT, 'bin'), join(fake, 'bin'), { recursive: true });
    const body = (code: string) => `function(${PARAMS}){${code}\n}`;
    const chunks: Record<string, string> = {
      'cli.js':
        'const a = require("./a.js"), b = require("./b.js"), c = require("./alone.js"); ' +
        'process.stdout.write(JSON.stringify({ a: a.v, b: b.v, c: c.v, runs: globalThis.sharedRuns }));',
      'a.js': 'exports.v = "a" + require("./shared.js").v;',
      'b.js': 'exports.v = "b" + require("./shared.js").v;',
      'shared.js': 'globalThis.sharedRuns = (globalThis.sharedRuns ?? 0) + 1; exports.v = "s";',
      'alone.js': 'exports.v = "c";',
    };
    const packs = { 'cli.pack.js': ['cli.js'], 'a.pack.js': ['a.js', 'shared.js'], 'b.pack.js': ['b.js', 'shared.js'] };
    const files: Record<string, string> = { ...chunks };
    for (const [name, ids] of Object.entries(packs))
      files[name] = `({${ids.map((id) => `${JSON.stringify(id)}:${body(chunks[id])}`).join(',')}})`;
    mkdirSync(join(fake, 'dist/cjs'), { recursive: true });
    const hashes = Object.fromEntries(Object.keys(files).map((f, i) => [f, `h${i}`]));
    for (const [f, code] of Object.entries(files)) writeFileSync(join(fake, 'dist/cjs', f), code);
    writeFileSync(
      join(fake, 'dist/cjs/manifest.json'),
      JSON.stringify({ hashes, vendor: 'none.js', needsVendor: [], packs }),
    );
    const log = join(dir, 'fake-log');
    const r = spawnSync(process.execPath, [join(fake, 'bin/vmv')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache-fake'), VMV_LOAD_LOG: log },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ a: 'as', b: 'bs', c: 'c', runs: 1 });
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toEqual([
      'dist/cjs/cli.pack.js compiled',
      'dist/cli.js compiled',
      'dist/cjs/a.pack.js compiled',
      'dist/a.js compiled',
      'dist/shared.js compiled',
      'dist/cjs/b.pack.js compiled',
      'dist/b.js compiled',
      'dist/alone.js compiled',
    ]);
  });

  // an arbitrary uid in a container: no HOME, and no account entry (os.homedir() throws)
  const asHomeless = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');
  it('a user with no home directory: help works, a command says what to set, never a stack trace', (ctx) => {
    if (!asHomeless) return ctx.skip('needs root and setpriv, to run as a uid with no account: runs as root in CI');
    const place = join(dir, 'homeless');
    // (a temporary folder is its owner's alone: the other user reads the package in it)
    chmodSync(dir, 0o755);
    execFileSync('chmod', ['-R', 'go+rX', pkg]);
    mkdirSync(place, { recursive: true, mode: 0o777 });
    chmodSync(place, 0o777);
    const homeless = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(
        '/usr/bin/setpriv',
        ['--reuid=54321', '--regid=54321', '--clear-groups', process.execPath, join(pkg, 'bin/vmv'), ...args],
        { encoding: 'utf8', cwd: place, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env } },
      );
    const help = homeless(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('a file VMV_SIM_DATA names (this user has no home directory)');
    expect(help.stderr).toBe('');
    const list = homeless(['contacts', 'list']);
    expect(list.status).toBe(2);
    expect(list.stderr).toContain("vmv has no home directory to keep the simulator's data in");
    expect(list.stderr).toContain('Set HOME, or VMV_SIM_DATA.');
    expect(list.stderr).not.toMatch(/\n\s+at /);
    const given = homeless(['contacts', 'list', '--json'], {
      VMV_SIM_DATA: join(place, 'sim.json'),
      VMV_CONFIG_DIR: join(place, 'config'),
    });
    expect(given.status, given.stderr).toBe(0);
    expect(JSON.parse(given.stdout)).toHaveProperty('data');
  });

  it('VMV_CODE_CACHE=off compiles everything and writes no cache', () => {
    const home = join(dir, 'cache-f');
    const r = run(['contacts', 'list'], home, { VMV_CODE_CACHE: 'off' });
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(r.how.values())).toEqual(new Set(['compiled']));
    expect(existsSync(join(home, 'vmv'))).toBe(false);
  });

  it("reads the API description the build made of this very bundle, and builds it when the file is another build's", () => {
    const want = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'));
    const served = run(['api', 'GET', '/v1/openapi.json'], join(dir, 'cache-g'));
    expect(served.code, served.stderr).toBe(0);
    expect(JSON.parse(served.stdout)).toEqual(want);
    const file = join(pkg, 'dist/api-description.json');
    const saved = readFileSync(file, 'utf8');
    try {
      const other = JSON.parse(saved);
      other.build = 'another-build';
      other.documents.api.info.title = 'not this build';
      writeFileSync(file, JSON.stringify(other));
      const built = run(['api', 'GET', '/v1/openapi.json'], join(dir, 'cache-g'));
      expect(JSON.parse(built.stdout)).toEqual(want);
    } finally {
      writeFileSync(file, saved);
    }
  });

  it("the published package holds the loader, the CommonJS chunks and the build's caches", () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
    );
    const files = new Set((packed.files as { path: string }[]).map((f) => f.path));
    for (const f of [
      'bin/vmv',
      'bin/loader.cjs',
      'bin/package.json',
      'dist/cjs/manifest.json',
      'dist/cjs/cli.pack.js',
      'dist/api-description.json',
    ])
      expect(files, f).toContain(f);
    const caches = [...files].filter((f) => f.startsWith(`dist/cjs/cache/${KEY}/`) && f.endsWith('.bin'));
    expect(caches).toContain(`dist/cjs/cache/${KEY}/${manifest().hashes['cli.pack.js']}.bin`);
  });
});
