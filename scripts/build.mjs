// Bundles with esbuild:
// - dist/simulator.js: the whole simulator (request handler, store, routes, schemas, zod, lowdb) in
//   one file, its modules evaluated only when first used (a resource's routes on the first request
//   to its paths). One file: a command pays for one module load, not twenty.
// - dist/cli.js, dist/index.js (the library) and dist/testing.js (vmv/testing, the fixture), split into lazily loaded chunks for each noun's
//   verbs, the API client, conf, and the assistant chat's terminal UI (ink and React: only
//   `vmv assistant chat` on a terminal loads them); both reach the simulator through dist/simulator.js.
// - dist/phone.js and dist/dates.js: the numbering plans and the assistant's date reader, each loaded
//   only where used (below).
// - dist/ui-vendor.js: ink and React, an ES module of their own (ink awaits at its top level).
// - dist/inspector/: the inspector's page (web/, Preact) for the browser, read only when served.
// - dist/cjs/: the CommonJS copy of the CLI, phone and simulator bundles that bin/vmv runs through
//   its code-cache loader (scripts/cjs.mjs), and the V8 code caches trained on the hot commands
//   (scripts/train-cache.mjs).
// Then emits the library's TypeScript declarations and writes the API description generated from
// the route declarations: openapi.json at the package root (published with the package), the
// control plane's beside the bundle, and both for the bundle to read at start (api-description.json).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VENDORED, writeCommonJs } from './cjs.mjs';
import { writeNotices } from './licenses.mjs';
import { sourceStamp } from './stamp.mjs';
import { trainCodeCache } from './train-cache.mjs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
/** What this build is made from (scripts/stamp.mjs), taken before it starts: written last, once the build is whole. */
const stamp = sourceStamp();
/** This build's id: the bundle trusts dist/api-description.json only when it was written by the same build. */
const BUILD_ID = randomBytes(8).toString('hex');
const common = {
  define: { __VMV_BUILD__: JSON.stringify(BUILD_ID) },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  minify: true,
  metafile: true,
  logLevel: 'warning',
  // some bundled CommonJS packages call require() for Node built-ins
  banner: {
    js: "import { createRequire as __vmvCreateRequire } from 'node:module'; const require = __vmvCreateRequire(import.meta.url);",
  },
};
/**
 * The numbering plans (src/phone.ts with libphonenumber) are a file of their own, dist/phone.js, loaded
 * only where a number is checked: by the simulator's routes that dial and the CLI's commands given a
 * number, one copy for both in a process (its metadata read once). The assistant's date reader
 * (simulator/assistant/dates.ts with chrono-node) likewise, dist/dates.js, loaded only when the
 * assistant reads a message: no other command pays for the parser.
 */
const APART = {
  'phone.js': fileURLToPath(new URL('../src/phone.js', import.meta.url)),
  'dates.js': fileURLToPath(new URL('../simulator/assistant/dates.js', import.meta.url)),
};
const phoneApart = {
  name: 'files-apart',
  setup(b) {
    b.onResolve({ filter: /(^|\/)(phone|dates)\.js$/ }, (a) => {
      const name = a.path.slice(a.path.lastIndexOf('/') + 1);
      return resolve(a.resolveDir, a.path) === APART[name] ? { path: `./${name}`, external: true } : undefined;
    });
  },
};
const simulator = await build({
  ...common,
  entryPoints: { simulator: 'simulator/index.ts' },
  splitting: false,
  plugins: [phoneApart],
});
const phone = await build({
  ...common,
  entryPoints: { phone: 'src/phone.ts', dates: 'simulator/assistant/dates.ts' },
  splitting: false,
});
// its numbering plans beside it (src/phone.ts reads them on the first check), so an installed vmv needs no libphonenumber-js
copyFileSync(
  createRequire(import.meta.url).resolve('libphonenumber-js/metadata.min.json'),
  new URL('../dist/phone-metadata.json', import.meta.url),
);

/** Every import of the simulator's door resolves to the one bundle beside the importing file. */
const simulatorBundle = {
  name: 'simulator-bundle',
  setup(b) {
    b.onResolve({ filter: /(^|\/)simulator\/index\.js$/ }, () => ({ path: './simulator.js', external: true }));
  },
};
const cli = await build({
  ...common,
  entryPoints: {
    cli: 'src/cli.ts',
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    // vmv/testing/vitest, a setup file: it shares open.ts's chunk with dist/testing.js
    'testing-vitest': 'src/testing/runners/vitest.ts',
  },
  splitting: true,
  chunkNames: '[name]-[hash]', // beside the entries, so './simulator.js' means one file for all
  plugins: [simulatorBundle, phoneApart],
  // the chat's terminal libraries come from dist/ui-vendor.js (below), through the loader
  external: [...VENDORED, 'vitest'],
});
// vmv/testing for CommonJS (`require('vmv/testing')`: Jest's default configuration, which cannot
// load an ES module without --experimental-vm-modules): one file holding the fixture and the whole
// simulator (its numbering plans read from dist/phone-metadata.json, its API description from
// dist/api-description.json, both beside it as beside dist/simulator.js), dynamic imports made
// requires. A copy, not a door into the ESM bundle: Jest runs a test's requires in its own module
// registry, which a require() of an ES module (Node 20.19+) does not reach.
const testingCjs = await build({
  ...common,
  // and vmv/testing/jest-environment, which Jest requires (it extends the user's jest-environment-node)
  entryPoints: {
    testing: 'src/testing/index.ts',
    'testing-jest-environment': 'src/testing/runners/jest-environment.ts',
  },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  sourcemap: false,
  splitting: false,
  plugins: [],
  define: { ...common.define, 'import.meta.url': '__vmvMetaUrl' },
  banner: { js: "const __vmvMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  supported: { 'dynamic-import': false },
});
// ink and React, an ES module of their own (ink has a top-level await); ink imports React's
// devtools only when DEV=true: they are not a dependency, and not bundled
const vendor = await build({
  ...common,
  entryPoints: { 'ui-vendor': 'commands/assistant/ui/vendor.ts' },
  splitting: true, // the devtools in a chunk of their own, imported only when DEV=true
  chunkNames: 'ui-[name]-[hash]',
  external: ['react-devtools-core'],
});
// the inspector's page (web/): Preact and the panes for the browser, one script and one stylesheet,
// served by `vmv sim serve` only when the page is opened (no command loads them)
const page = await build({
  entryPoints: { inspector: 'web/main.tsx' },
  metafile: true, // its inputs in dist/meta.json: Preact is shipped too (scripts/licenses.mjs)
  outdir: 'dist/inspector',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
copyFileSync(new URL('../web/index.html', import.meta.url), new URL('../dist/inspector/index.html', import.meta.url));
const outputs = {
  ...simulator.metafile.outputs,
  ...phone.metafile.outputs,
  ...cli.metafile.outputs,
  ...vendor.metafile.outputs,
};
writeFileSync(
  new URL('../dist/meta.json', import.meta.url),
  JSON.stringify({
    inputs: {
      ...simulator.metafile.inputs,
      ...phone.metafile.inputs,
      ...cli.metafile.inputs,
      ...testingCjs.metafile.inputs,
      ...vendor.metafile.inputs,
      ...page.metafile.inputs,
    },
    outputs,
  }),
);
// the licence text of every package bundled above (scripts/licenses.mjs), shipped beside the bundles
writeNotices(new URL('../dist/THIRD-PARTY-NOTICES.txt', import.meta.url).pathname);
// bin/vmv's CommonJS copy and its code caches, trained on the hot commands
await writeCommonJs({ ...simulator.metafile.outputs, ...phone.metafile.outputs, ...cli.metafile.outputs });

// the library's TypeScript declarations: dist/types/ mirrors the sources, dist/index.d.ts and dist/testing.d.ts the doors
execFileSync(
  process.execPath,
  [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.build.json'],
  { stdio: 'inherit' },
);
writeFileSync(new URL('../dist/index.d.ts', import.meta.url), "export * from './types/src/index.js';\n");
writeFileSync(new URL('../dist/testing.d.ts', import.meta.url), "export * from './types/src/testing/index.js';\n");
writeFileSync(new URL('../dist/testing.d.cts', import.meta.url), commonJsDeclarations('./types/src/testing/index.js'));

const { apiDocument } = await import('../dist/simulator.js');
const documents = { api: await apiDocument('api'), control: await apiDocument('control') };
writeFileSync(new URL('../openapi.json', import.meta.url), JSON.stringify(documents.api, null, 2) + '\n');
writeFileSync(
  new URL('../dist/control-openapi.json', import.meta.url),
  JSON.stringify(documents.control, null, 2) + '\n',
);
// the same documents for the bundle to read instead of building them at each start (vmv mcp, /v1/openapi.json)
writeFileSync(new URL('../dist/api-description.json', import.meta.url), JSON.stringify({ build: BUILD_ID, documents }));

await trainCodeCache();
// last: dist/ is whole, and test/global-setup.ts may trust it
writeFileSync(new URL('../dist/stamp.json', import.meta.url), JSON.stringify(stamp) + '\n');

/**
 * The declarations of a door for a CommonJS consumer (`require`, TypeScript's node16 resolution):
 * the ES module declarations of `from` (dist/types/ is ESM, as the package is), each export taken
 * with resolution-mode "import" (TypeScript 5.3+), since a CommonJS file may not re-export an ES
 * module's. A class (a capitalised value) is a type too.
 */
function commonJsDeclarations(from) {
  const dts = readFileSync(new URL(`../dist/${from.replace(/\.js$/, '.d.ts')}`, import.meta.url), 'utf8');
  const names = (re) =>
    [...dts.matchAll(re)].flatMap((m) =>
      m[1]
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    );
  const values = names(/^export \{([^}]*)\} from/gm);
  const types = names(/^export type \{([^}]*)\} from/gm);
  const attributes = "{ 'resolution-mode': 'import' }";
  return [
    `// The declarations of ${from} for require() (resolution-mode "import": TypeScript 5.3+).`,
    `type M = typeof import('${from}', { with: ${attributes} });`,
    ...values.map((v) => `export declare const ${v}: M['${v}'];`),
    ...values.filter((v) => /^[A-Z]/.test(v)).map((v) => `export type ${v} = InstanceType<M['${v}']>;`),
    `export type { ${types.join(', ')} } from '${from}' with ${attributes};`,
    '',
  ].join('\n');
}
