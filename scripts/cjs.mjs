// The command line's own copy of the bundle, in CommonJS, for bin/loader.cjs to compile with a V8
// code cache (issue 26). Node compiles every ES module from source at each start and resolves each
// import through its ESM loader (about 30 ms of a command's start-up, measured); a script compiled
// by vm.Script can be handed the cache of an earlier compile and skip that work. esbuild splits
// only ES modules, so each chunk of the ESM build is converted on its own: imports of sibling
// chunks become require('./chunk.js'), which the loader resolves to its own module table.
//
// dist/ keeps the ES modules for the library (`import 'vmv'`); dist/cjs/ is only bin/vmv's.
// The chat's terminal libraries (ink waits on a WebAssembly module at its top level, which
// CommonJS cannot express) stay an ES module of their own, dist/ui-vendor.js, which the loader
// imports before it loads the chat's chunk and hands to it as require('ink'), require('react').
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { transform } from 'esbuild';

/** What bin/loader.cjs hands each chunk (the names CommonJS gives a module, and two of its own): a pack's functions take them. */
const { PARAMS } = createRequire(import.meta.url)('../bin/loader.cjs');

/** The ESM build's banner (a require for bundled CommonJS packages): CommonJS has its own. */
export const BANNER =
  "import { createRequire as __vmvCreateRequire } from 'node:module'; const require = __vmvCreateRequire(import.meta.url);";

/** The packages the chat's chunk takes from dist/ui-vendor.js. */
export const VENDORED = ['ink', 'react', 'react/jsx-runtime'];

/**
 * Writes dist/cjs/<chunk> for every JavaScript output of the CLI's and simulator's builds (not the
 * vendored UI's), the packs (dist/cjs/<root>.pack.js: see packsOf), and
 * dist/cjs/manifest.json: each file's content hash (the key of its code caches: V8 checks a cache
 * against the source's length only), which chunks need the vendored UI first, and each pack's
 * chunks (its root first).
 */
export async function writeCommonJs(outputs) {
  rmSync('dist/cjs', { recursive: true, force: true });
  mkdirSync('dist/cjs');
  const files = Object.keys(outputs).filter((o) => o.endsWith('.js'));
  const needsVendor = files.filter((f) => outputs[f].imports.some((i) => i.external && VENDORED.includes(i.path)));
  const manifest = { hashes: {}, vendor: 'ui-vendor.js', needsVendor: needsVendor.map(base), packs: {} };
  /** each chunk's CommonJS source, by file name */
  const sources = new Map();
  for (const file of files) {
    let code = readFileSync(file, 'utf8')
      .replace(BANNER, '')
      .replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
    // a chunk that needs the vendored UI is reached through the loader's import, which loads it first
    for (const v of needsVendor) code = code.split(`import("./${base(v)}")`).join(`__vmvImport("./${base(v)}")`);
    const { code: cjs } = await transform(code, {
      format: 'cjs',
      loader: 'js',
      platform: 'node',
      target: 'node20',
      // import('./chunk.js') of a sibling becomes a require, so the loader serves it with its cache
      supported: { 'dynamic-import': false },
      // the ES module's own URL: the loader hands each chunk the URL of its ES module twin in dist/,
      // so a path made relative to it (the inspector's assets) is the same in both
      define: { 'import.meta.url': '__vmvMeta.url' },
      minifySyntax: true,
      minifyWhitespace: true,
      logLevel: 'error',
    });
    sources.set(base(file), cjs);
  }
  const packs = packsOf(outputs, sources);
  for (const [name, ids] of Object.entries(packs)) {
    const members = ids.map((id) => `${JSON.stringify(id)}:function(${PARAMS}){${sources.get(id)}\n}`);
    sources.set(name, `({${members.join(',\n')}})`);
  }
  // a chunk a pack holds is read from its pack only: its own file would be published for nothing
  const packed = new Set(Object.values(packs).flat());
  for (const [name, code] of sources) {
    if (packed.has(name)) continue;
    writeFileSync(`dist/cjs/${name}`, code);
    // (with the wrapper the loader puts around a lone chunk: a cache is of the script V8 compiled)
    manifest.hashes[name] = createHash('sha256').update(PARAMS).update(code).digest('hex').slice(0, 16);
  }
  manifest.packs = packs;
  writeFileSync('dist/cjs/manifest.json', `${JSON.stringify(manifest)}\n`);
  return manifest;
}

/**
 * The packs: for the CLI's entry and for each chunk a command imports when it runs (a noun's
 * verbs, the transport), one file holding it and every chunk it needs at once, each as a function
 * of its own, which the loader compiles as one script with one cache. A command's ~16 chunks cost
 * ~0.15 ms each to read and compile apart (two files, a script, a cache); as three packs, --help
 * and a list run ~1.5 ms sooner. A pack leaves out what the entry's pack holds (loaded first by
 * every command); a chunk several nouns need is in each of their packs, and runs once, from the
 * first loaded. A chunk no pack holds stays a file of its own.
 */
function packsOf(outputs, sources) {
  const imports = (id, kind) =>
    (outputs[`dist/${id}`]?.imports ?? []).filter((i) => i.kind === kind && !i.external).map((i) => base(i.path));
  const closure = (root) => {
    const seen = new Set([root]);
    for (const id of seen) for (const d of imports(id, 'import-statement')) if (sources.has(d)) seen.add(d);
    return [...seen];
  };
  const entry = closure('cli.js');
  const packs = { 'cli.pack.js': entry };
  const roots = new Set();
  for (const id of sources.keys()) for (const d of imports(id, 'dynamic-import')) if (sources.has(d)) roots.add(d);
  for (const root of [...roots].sort()) {
    const ids = closure(root).filter((id) => !entry.includes(id));
    if (ids.length > 1) packs[`${root.replace(/\.js$/, '')}.pack.js`] = ids;
  }
  return packs;
}

const base = (f) => f.slice(f.lastIndexOf('/') + 1);
