// vmv as its users install it (issue 34): `npm pack` of this checkout (dist/ as built: no scripts
// run), then `npm install` of the tarball into a fresh project, as `npm install vmv` would. Used by
// test/package.test.ts (which then runs the installed vmv with a fresh HOME) and by the bench (the
// sizes). npm's download cache is the machine's (a user's is warm too); nothing else is shared.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The variables by which this machine reaches the npm registry: a proxy and its certificates, npm's registry settings. */
const NETWORK =
  /^(NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR)|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|npm_config_(registry|cafile|ca|proxy|https_proxy|noproxy|strict_ssl))$/;

/** This process's variables by which npm reaches the registry (NETWORK), for an install under another HOME. */
export function registryEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => NETWORK.test(k)));
}

/** Bytes under a folder, and how many package.json files name a package there (nested ones counted). */
function measure(dir) {
  let bytes = 0;
  let packages = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        bytes += statSync(p).size;
        if (e.name === 'package.json' && /node_modules\/(@[^/]+\/)?[^/]+$/.test(d)) packages++;
      }
    }
  };
  walk(dir);
  return { bytes, packages };
}

/**
 * Packs vmv into `dir` and installs the tarball into `dir/project` (a package.json of its own).
 * `env` is the install's environment (a fresh HOME: npm's settings and cache folders are then
 * named explicitly, the cache the machine's). Returns where, and the sizes.
 */
export function packAndInstall(dir, env = process.env) {
  mkdirSync(dir, { recursive: true });
  // how this machine reaches the registry (a proxy, its certificates) is npm's, not the user's HOME
  const reach = registryEnv();
  const npm = (args, cwd) =>
    execFileSync('npm', args, { cwd, env: { ...reach, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root));
  const tarball = join(dir, packed.filename);
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'uses-vmv', private: true, type: 'module' })}\n`,
  );
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
  const installed = measure(join(project, 'node_modules'));
  return {
    tarball,
    project,
    bin: join(project, 'node_modules/.bin/vmv'),
    sizes: {
      tarball: statSync(tarball).size,
      unpacked: packed.unpackedSize,
      files: packed.entryCount,
      installed: installed.bytes,
      packages: installed.packages,
    },
  };
}

/** npm's cache folder on this machine (for an install under another HOME). */
export function npmCache() {
  return execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join(root, '.vmv-test-pack');
  const { sizes, project } = packAndInstall(dir);
  console.log(JSON.stringify({ project, ...sizes }));
}
