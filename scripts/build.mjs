// Bundles the CLI with esbuild: one small entry chunk (commander + command definitions) and
// lazily loaded chunks for the API client (undici), the simulator (lowdb) and conf.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const result = await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
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
