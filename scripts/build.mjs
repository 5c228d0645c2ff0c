// Bundles with esbuild, in two parts:
// - dist/simulator.js: the whole simulator (request handler, store, routes, schemas, zod, lowdb) in
//   one file, its modules evaluated only when first used (a resource's routes on the first request
//   to its paths). One file: a command pays for one module load, not twenty.
// - dist/cli.js and dist/index.js (the library), split into lazily loaded chunks for each noun's
//   verbs, the API client (undici), conf, and the assistant chat's terminal UI (ink and React: only
//   `vmv assistant chat` on a terminal loads them); both reach the simulator through dist/simulator.js.
// Then emits the library's TypeScript declarations and writes the API description generated from the route declarations: openapi.json at the
// package root (published with the package) and the control plane's beside the bundle.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const common = {
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
const simulator = await build({ ...common, entryPoints: { simulator: 'simulator/index.ts' }, splitting: false });

/** Every import of the simulator's door resolves to the one bundle beside the importing file. */
const simulatorBundle = {
  name: 'simulator-bundle',
  setup(b) {
    b.onResolve({ filter: /(^|\/)simulator\/index\.js$/ }, () => ({ path: './simulator.js', external: true }));
  },
};
const cli = await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  splitting: true,
  chunkNames: '[name]-[hash]', // beside the entries, so './simulator.js' means one file for all
  plugins: [simulatorBundle],
  // ink (the assistant chat's UI, a chunk of its own) imports React's devtools only when DEV=true;
  // they are not a dependency, and not bundled
  external: ['react-devtools-core'],
});
// the inspector's page (web/): Preact and the panes for the browser, one script and one stylesheet,
// served by `vmv sim serve` only when the page is opened (no command loads them)
await build({
  entryPoints: { inspector: 'web/main.tsx' },
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
const outputs = { ...simulator.metafile.outputs, ...cli.metafile.outputs };
writeFileSync(
  new URL('../dist/meta.json', import.meta.url),
  JSON.stringify({ inputs: { ...simulator.metafile.inputs, ...cli.metafile.inputs }, outputs }),
);

// the library's TypeScript declarations: dist/types/ mirrors the sources, dist/index.d.ts is the door
execFileSync(
  process.execPath,
  [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.build.json'],
  { stdio: 'inherit' },
);
writeFileSync(new URL('../dist/index.d.ts', import.meta.url), "export * from './types/src/index.js';\n");

const { apiDocument } = await import('../dist/simulator.js');
writeFileSync(new URL('../openapi.json', import.meta.url), JSON.stringify(await apiDocument('api'), null, 2) + '\n');
writeFileSync(
  new URL('../dist/control-openapi.json', import.meta.url),
  JSON.stringify(await apiDocument('control'), null, 2) + '\n',
);
