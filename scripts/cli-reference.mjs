// Writes docs/cli.md, the CLI reference, from the commands' own definitions (scripts/cli-reference.ts,
// bundled here with esbuild: the sources are TypeScript). `npm run docs:cli`; `--check` writes
// nothing and exits 1 when docs/cli.md is not what the commands say (test/docs.test.ts checks the same).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const target = new URL('docs/cli.md', root);
// inside the project, so that the bundle's imports of packages resolve to node_modules
const outdir = new URL('node_modules/.cache/vmv-cli-reference/', root);
mkdirSync(outdir, { recursive: true });
const outfile = new URL(`reference-${process.pid}.mjs`, outdir);
await build({
  entryPoints: [new URL('scripts/cli-reference.ts', root).pathname],
  outfile: outfile.pathname,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const { cliReference } = await import(pathToFileURL(outfile.pathname).href);
rmSync(outfile);
const text = await cliReference();
const current = (() => {
  try {
    return readFileSync(target, 'utf8');
  } catch {
    return '';
  }
})();
if (process.argv.includes('--check')) {
  if (current !== text) {
    process.stderr.write('docs/cli.md is not current: run `npm run docs:cli`\n');
    process.exit(1);
  }
} else if (current !== text) {
  writeFileSync(target, text);
  process.stderr.write(`wrote docs/cli.md (${text.split('\n').length} lines)\n`);
} else process.stderr.write('docs/cli.md is current\n');
