// @ts-check
// bin/vmv's module loader (issue 26): runs the CommonJS copy of the bundle (dist/cjs/, written by
// scripts/cjs.mjs) through vm.Script with a V8 code cache, so a command skips compiling what an
// earlier run compiled, and skips Node's ES module loader altogether (resolution, a job per file).
//
// The chunks a command needs together come in packs (dist/cjs/*.pack.js: the entry's, and one for
// each part a command loads when it runs, as a noun's verbs): one file, one script, one cache,
// each chunk a function in it run when first required. A chunk two packs hold runs once, from the
// pack loaded first; one no pack holds is compiled from its own file.
//
// Where a pack's (or a lone chunk's) cache comes from, first that V8 accepts:
//   1. dist/cjs/cache/<node>/<hash>.bin, written by the build (scripts/train-cache.mjs runs the hot
//      commands: --help, a list on the embedded simulator and against a server, the MCP server);
//   2. <cache dir>/vmv/code-cache/<node>/<hash>.bin, written by an earlier run on this machine;
//   3. none: a plain compile (still faster than the ES module loader), and when the command exits
//      the cache of what it compiled is written to 2, so the next run has one.
// <node> is the Node version and architecture (V8 refuses a cache from another version, or made
// under other V8 flags); <hash> is the chunk's content hash from dist/cjs/manifest.json (V8 checks
// a cache against the source's length only, so a cache must never outlive its source).
//
// VMV_CODE_CACHE=off compiles without any cache (and writes none); VMV_LOAD_LOG=FILE appends each
// pack compiled and each chunk run, and how its code was compiled, one a line
// (`dist/cjs/cli.pack.js build-cache`, `dist/cli.js build-cache`): the tests read what a command
// loads, and whether a cache served it, from there.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const DIST = path.join(__dirname, '..', 'dist');
const CJS = path.join(DIST, 'cjs');
const KEY = `${process.version}-${process.arch}`;
const nodeRequire = createRequire(__filename);
/** What dist/ui-vendor.js exports each vendored package as (commands/assistant/ui/vendor.ts). */
/** @type {Record<string, string>} */
const VENDOR_EXPORTS = { ink: 'ink', react: 'react', 'react/jsx-runtime': 'jsxRuntime' };

/** @typedef {{ hashes: Record<string, string>, vendor: string, needsVendor: string[], packs?: Record<string, string[]> }} Manifest */

/** What a chunk is handed: the names CommonJS gives a module, and two of vmv's (a pack's functions take them too: scripts/cjs.mjs). */
const PARAMS = 'exports, require, module, __filename, __dirname, __vmvImport, __vmvMeta';

/** Loads dist/cjs/<entry> and what it requires; false when vmv is not built. */
function start(entry) {
  /** @type {Manifest} */
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(CJS, 'manifest.json'), 'utf8'));
  } catch {
    process.stderr.write('vmv is not built yet: run `npm run build` (npm ci does it for you).\n');
    process.exitCode = 1;
    return false;
  }
  const loader = new Loader(manifest, process.env);
  loader.require(entry);
  return true;
}

class Loader {
  /** @param {Manifest} manifest @param {NodeJS.ProcessEnv} env */
  constructor(manifest, env) {
    this.manifest = manifest;
    this.useCache = env.VMV_CODE_CACHE !== 'off';
    this.train = env.VMV_CODE_CACHE_TRAIN || null;
    /** training only where no run has left a cache yet (VMV_CODE_CACHE_TRAIN_FILL=1: see scripts/train-cache.mjs) */
    this.fillOnly = env.VMV_CODE_CACHE_TRAIN_FILL === '1';
    this.log = env.VMV_LOAD_LOG || null;
    this.env = env;
    /** @type {Map<string, { exports: any }>} */
    this.modules = new Map();
    /** scripts compiled without an accepted cache (or every one, when training): their cache is written at exit */
    /** @type {{ script: vm.Script, file: string }[]} */
    this.uncached = [];
    /** @type {any} the vendored UI libraries, once imported */
    this.vendor = null;
    /** @type {Map<string, string>} each chunk's pack: the one it is the root of, else the first that holds it */
    this.packOf = new Map();
    for (const [pack, ids] of Object.entries(manifest.packs ?? {}))
      ids.forEach((id, i) => {
        if (i === 0 || !this.packOf.has(id)) this.packOf.set(id, pack);
      });
    /** @type {Map<string, Function>} chunks compiled (in a pack) and not run yet */
    this.factories = new Map();
    /** @type {Map<string, string>} how each chunk's code was compiled, for VMV_LOAD_LOG */
    this.how = new Map();
    if (this.useCache) process.once('exit', () => this.writeCaches());
  }

  /**
   * <cache dir>/vmv/code-cache/<node>, or null when there is no cache directory (no home): asked
   * only when a build cache is missing or rejected (it loads node:os).
   * @returns {string | null}
   */
  get userDir() {
    const home = cacheHome(this.env);
    const dir = home === null ? null : path.join(home, 'vmv', 'code-cache', KEY);
    Object.defineProperty(this, 'userDir', { value: dir });
    return dir;
  }

  /** A chunk's exports, loading it the first time; a Node built-in or a vendored UI library otherwise. */
  require(id) {
    if (id.startsWith('./')) id = id.slice(2);
    const known = this.modules.get(id);
    if (known) return known.exports;
    if (!(id in this.manifest.hashes) && !this.packOf.has(id)) return this.fromOutside(id);
    const module = { exports: {} };
    this.modules.set(id, module);
    const filename = path.join(DIST, id);
    const run = this.factory(id);
    if (this.log) fs.appendFileSync(this.log, `dist/${id} ${this.how.get(id)}\n`);
    run.call(
      module.exports,
      module.exports,
      (s) => this.require(s),
      module,
      filename,
      DIST,
      (s) => this.import(s),
      {
        // import.meta.url, made when a chunk asks (two do): a URL costs ~0.1 ms, and a command loads ~15 chunks
        get url() {
          return url(filename);
        },
      },
    );
    return module.exports;
  }

  /**
   * The function that runs chunk `id`: from a pack compiled earlier, else from its pack (compiled
   * now, every chunk in it made ready) or its own file.
   * @param {string} id @returns {Function}
   */
  factory(id) {
    const ready = this.factories.get(id);
    if (ready) return ready;
    const pack = this.packOf.get(id);
    if (!pack) {
      const { script, from } = this.compile(id, `(function (${PARAMS}) {${this.source(id)}\n})`);
      this.how.set(id, from);
      return script.runInThisContext();
    }
    const { script, from } = this.compile(pack, this.source(pack));
    if (this.log) fs.appendFileSync(this.log, `dist/cjs/${pack} ${from}\n`);
    for (const [member, run] of Object.entries(script.runInThisContext())) {
      // a chunk an earlier pack holds too ran from there, or will
      if (member !== id && (this.factories.has(member) || this.modules.has(member))) continue;
      this.factories.set(member, run);
      this.how.set(member, from);
    }
    return /** @type {Function} */ (this.factories.get(id));
  }

  /** @param {string} file a chunk or pack of dist/cjs/ */
  source(file) {
    return fs.readFileSync(path.join(CJS, file), 'utf8');
  }

  /** A Node built-in, or one of the vendored UI libraries (imported by then: see import). */
  fromOutside(id) {
    const name = VENDOR_EXPORTS[id];
    if (!name) return LAZY_BUILTINS.has(id.replace(/^node:/, '')) ? lazy(id) : nodeRequire(id);
    if (!this.vendor) throw new Error(`${id} is loaded only through the chat's import (bin/loader.cjs)`);
    return this.vendor[name];
  }

  /** A chunk that needs the vendored UI: the UI's ES module is imported first, then the chunk required. */
  async import(spec) {
    if (!this.vendor) {
      this.vendor = await import(url(path.join(DIST, this.manifest.vendor)));
      if (this.log) fs.appendFileSync(this.log, `dist/${this.manifest.vendor} es-module\n`);
    }
    return this.require(spec);
  }

  /**
   * A chunk or pack compiled, with the first cache V8 accepts, and where that came from
   * (`build-cache`, `user-cache`, or `compiled` without one).
   * @param {string} file its name in dist/cjs/ @param {string} code what is compiled
   * @returns {{ script: vm.Script, from: string }}
   */
  compile(file, code) {
    const filename = path.join(CJS, file);
    const hash = this.manifest.hashes[file];
    if (this.useCache && !this.train)
      for (const from of ['build-cache', 'user-cache']) {
        const dir = from === 'build-cache' ? path.join(CJS, 'cache', KEY) : this.userDir;
        if (dir === null) continue;
        const cachedData = readIfThere(path.join(dir, `${hash}.bin`));
        if (!cachedData) continue;
        const script = new vm.Script(code, { filename, cachedData });
        if (!script.cachedDataRejected) return { script, from };
      }
    const script = new vm.Script(code, { filename });
    if (this.useCache) this.uncached.push({ script, file: `${hash}.bin` });
    return { script, from: 'compiled' };
  }

  /** At exit: the cache of each script compiled without one (what the run compiled of it, lazily compiled functions included). */
  writeCaches() {
    if (this.uncached.length === 0) return; // (every script had a cache: no cache directory is asked for)
    const dir = this.train ? path.join(this.train, KEY) : this.userDir;
    if (dir === null) return;
    for (const { script, file } of this.uncached) {
      try {
        const data = script.createCachedData();
        const to = path.join(dir, file);
        // training runs several commands: the first ones keep the cache that holds the most compiled
        // code; the others only fill in caches no earlier run made
        const had = this.train ? (readIfThere(to)?.length ?? 0) : 0;
        if (had > 0 && (this.fillOnly || had >= data.length)) continue;
        fs.mkdirSync(dir, { recursive: true });
        const tmp = `${to}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, data);
        fs.renameSync(tmp, to);
      } catch {
        // a cache is an optimisation: a directory that cannot be written only means no cache
      }
    }
  }
}

/**
 * Built-ins that cost milliseconds to load and that most commands never call: commander's
 * child_process (for executable subcommands vmv does not have), the simulator's http server and
 * zlib (for `sim serve` and media), net (address checks of webhook targets), graceful-fs's
 * assert, os (the home directory, asked only where a path is not set). The bundle requires them
 * when its chunk loads (esbuild hoists imports); these are handed a stand-in that loads the real
 * module at its first use. Measured with the code cache, CA certificates unset: --help -11 ms, an
 * embedded command -17 ms.
 */
const LAZY_BUILTINS = new Set(['child_process', 'http', 'https', 'zlib', 'assert', 'net', 'os']);

/** A stand-in for built-in `id` that loads it at the first property read (or key listing). */
function lazy(id) {
  /** @type {any} */
  let real;
  const load = () => {
    real ??= nodeRequire(id);
    return real;
  };
  return new Proxy(
    {},
    {
      get: (_, key) => load()[key],
      has: (_, key) => key in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => {
        const d = Reflect.getOwnPropertyDescriptor(load(), key);
        return d && { ...d, configurable: true };
      },
    },
  );
}

/** A file's file: URL (node:url is loaded when first asked). */
const url = (file) => require('node:url').pathToFileURL(file).href;

function readIfThere(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** $XDG_CACHE_HOME, else ~/.cache (the place vmv's other XDG paths follow), else null (no home). @returns {string | null} */
function cacheHome(env) {
  if (env.XDG_CACHE_HOME) return env.XDG_CACHE_HOME;
  try {
    return path.join(require('node:os').homedir(), '.cache');
  } catch {
    return null; // a user with no home (an arbitrary uid in a container): no user cache, never an error
  }
}

module.exports = { start, PARAMS };
