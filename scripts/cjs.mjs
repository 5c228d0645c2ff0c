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
import { transform } from 'esbuild';

/** The ESM build's banner (a require for bundled CommonJS packages): CommonJS has its own. */
export const BANNER =
  "import { createRequire as __vmvCreateRequire } from 'node:module'; const require = __vmvCreateRequire(import.meta.url);";

/** The packages the chat's chunk takes from dist/ui-vendor.js. */
export const VENDORED = ['ink', 'react', 'react/jsx-runtime'];

/**
 * Writes dist/cjs/<chunk> for every JavaScript output of the CLI's and simulator's builds (not the
 * vendored UI's), and
 * dist/cjs/manifest.json: each file's content hash (the key of its code caches: V8 checks a cache
 * against the source's length only) and which chunks need the vendored UI first.
 */
export async function writeCommonJs(outputs) {
  rmSync('dist/cjs', { recursive: true, force: true });
  mkdirSync('dist/cjs');
  const files = Object.keys(outputs).filter((o) => o.endsWith('.js'));
  const needsVendor = files.filter((f) => outputs[f].imports.some((i) => i.external && VENDORED.includes(i.path)));
  const manifest = { hashes: {}, vendor: 'ui-vendor.js', needsVendor: needsVendor.map(base) };
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
      define: { 'import.meta.url': '__vmvUrl' },
      minifySyntax: true,
      minifyWhitespace: true,
      logLevel: 'error',
    });
    writeFileSync(`dist/cjs/${base(file)}`, cjs);
    manifest.hashes[base(file)] = createHash('sha256').update(cjs).digest('hex').slice(0, 16);
  }
  writeFileSync('dist/cjs/manifest.json', `${JSON.stringify(manifest)}\n`);
  return manifest;
}

const base = (f) => f.slice(f.lastIndexOf('/') + 1);
