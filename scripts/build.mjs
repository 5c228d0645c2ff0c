// Bundles the CLI with esbuild: one small entry chunk (commander + command definitions) and
// lazily loaded chunks for the API client (undici), the simulator (lowdb) and conf. Then writes
// the API description generated from the route declarations: openapi.json at the package root
// (published with the package) and the control plane's beside the bundle.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const result = await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts', 'api-description': 'simulator/routes/api-description.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  minify: true,
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  // some bundled CommonJS packages call require() for Node built-ins
  banner: { js: "import { createRequire as __vmvCreateRequire } from 'node:module'; const require = __vmvCreateRequire(import.meta.url);" },
});
import { writeFileSync } from 'node:fs';
writeFileSync(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));

const { apiDocument } = await import('../dist/api-description.js');
writeFileSync(new URL('../openapi.json', import.meta.url), JSON.stringify(await apiDocument('api'), null, 2) + '\n');
writeFileSync(new URL('../dist/control-openapi.json', import.meta.url), JSON.stringify(await apiDocument('control'), null, 2) + '\n');
