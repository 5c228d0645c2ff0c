// @ts-check
// bin/vmv's module loader (issue 26): runs the CommonJS copy of the bundle (dist/cjs/, written by
// scripts/cjs.mjs) through vm.Script with a V8 code cache, so a command skips compiling what an
// earlier run compiled, and skips Node's ES module loader altogether (resolution, a job per file).
//
// Where a chunk's cache comes from, first that V8 accepts:
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
// dist file loaded and how, one a line (`dist/cli.js build-cache`): the tests read what a command
// loads, and whether a cache served it, from there.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');

const DIST = path.join(__dirname, '..', 'dist');
const CJS = path.join(DIST, 'cjs');
const KEY = `${process.version}-${process.arch}`;
const nodeRequire = createRequire(__filename);
/** What dist/ui-vendor.js exports each vendored package as (commands/assistant/ui/vendor.ts). */
/** @type {Record<string, string>} */
const VENDOR_EXPORTS = { ink: 'ink', react: 'react', 'react/jsx-runtime': 'jsxRuntime' };

/** @typedef {{ hashes: Record<string, string>, vendor: string, needsVendor: string[] }} Manifest */

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
    this.log = env.VMV_LOAD_LOG || null;
    this.userDir = path.join(cacheHome(env), 'vmv', 'code-cache', KEY);
    /** @type {Map<string, { exports: any }>} */
    this.modules = new Map();
    /** scripts compiled without an accepted cache (or every one, when training): their cache is written at exit */
    /** @type {{ script: vm.Script, file: string }[]} */
    this.uncached = [];
    /** @type {any} the vendored UI libraries, once imported */
    this.vendor = null;
    if (this.useCache) process.once('exit', () => this.writeCaches());
  }

  /** A chunk's exports, loading it the first time; a Node built-in or a vendored UI library otherwise. */
  require(id) {
    if (id.startsWith('./')) id = id.slice(2);
    const known = this.modules.get(id);
    if (known) return known.exports;
    if (!(id in this.manifest.hashes)) return this.fromOutside(id);
    const module = { exports: {} };
    this.modules.set(id, module);
    const filename = path.join(DIST, id);
    const { script, from } = this.compile(id, filename);
    if (this.log) fs.appendFileSync(this.log, `dist/${id} ${from}\n`);
    const fn = script.runInThisContext();
    fn.call(
      module.exports,
      module.exports,
      (s) => this.require(s),
      module,
      filename,
      DIST,
      (s) => this.import(s),
      pathToFileURL(filename).href,
    );
    return module.exports;
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
      const url = pathToFileURL(path.join(DIST, this.manifest.vendor)).href;
      this.vendor = await import(url);
      if (this.log) fs.appendFileSync(this.log, `dist/${this.manifest.vendor} es-module\n`);
    }
    return this.require(spec);
  }

  /**
   * The chunk compiled, with the first cache V8 accepts, and where that came from (`build-cache`,
   * `user-cache`, or `compiled` without one).
   * @param {string} id @param {string} filename
   * @returns {{ script: vm.Script, from: string }}
   */
  compile(id, filename) {
    const source = fs.readFileSync(path.join(CJS, id), 'utf8');
    const wrapped = `(function (exports, require, module, __filename, __dirname, __vmvImport, __vmvUrl) {${source}\n})`;
    const hash = this.manifest.hashes[id];
    const places = [
      ['build-cache', path.join(CJS, 'cache', KEY)],
      ['user-cache', this.userDir],
    ];
    for (const [from, dir] of this.useCache && !this.train ? places : []) {
      const cachedData = readIfThere(path.join(dir, `${hash}.bin`));
      if (!cachedData) continue;
      const script = new vm.Script(wrapped, { filename, cachedData });
      if (!script.cachedDataRejected) return { script, from };
    }
    const script = new vm.Script(wrapped, { filename });
    if (this.useCache) this.uncached.push({ script, file: `${hash}.bin` });
    return { script, from: 'compiled' };
  }

  /** At exit: the cache of each script compiled without one (what the run compiled of it, lazily compiled functions included). */
  writeCaches() {
    const dir = this.train ? path.join(this.train, KEY) : this.userDir;
    for (const { script, file } of this.uncached) {
      try {
        const data = script.createCachedData();
        const to = path.join(dir, file);
        // training runs several commands: keep the cache that holds the most compiled code
        if (this.train && (readIfThere(to)?.length ?? 0) >= data.length) continue;
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
 * zlib (for `sim serve` and media), net (address checks of webhook targets), graceful-fs's assert. The bundle requires them when its
 * chunk loads (esbuild hoists imports); these are handed a stand-in that loads the real module
 * at its first use. Measured with the code cache, CA certificates unset: --help -11 ms, an
 * embedded command -17 ms.
 */
const LAZY_BUILTINS = new Set(['child_process', 'http', 'https', 'zlib', 'assert', 'net']);

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

function readIfThere(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** $XDG_CACHE_HOME, else ~/.cache (the place vmv's other XDG paths follow). */
function cacheHome(env) {
  return env.XDG_CACHE_HOME || path.join(require('node:os').homedir(), '.cache');
}

module.exports = { start };
