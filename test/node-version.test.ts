// Which Node.js vmv runs on (issue 34): one minimum (bin/node-version.cjs) that package.json's
// engines states too, and an older Node.js refused in one line naming the version needed, before
// anything of the bundle loads.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { childEnv, tempDir } from './helpers.js';
import { installedNode, notInstalled } from './nodes.js';

const require = createRequire(import.meta.url);
const { MINIMUM, refusal } = require('../bin/node-version.cjs') as {
  MINIMUM: number[];
  refusal: (v: string) => string | null;
};
const bin = new URL('../bin/vmv', import.meta.url).pathname;

describe('the Node.js versions vmv runs on', () => {
  it('package.json engines says the minimum bin/vmv checks', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${MINIMUM[0]}.${MINIMUM[1]}`);
  });

  it.each([
    ['20.11.0', true],
    ['20.20.2', true],
    ['22.23.3', true],
    ['24.21.0', true],
    ['26.12.1', true],
    ['20.10.9', false],
    ['18.20.8', false],
    ['16.0.0', false],
    ['4.9.1', false],
  ])('Node.js %s is supported: %s', (version, supported) => {
    const line = refusal(version);
    if (supported) expect(line).toBeNull();
    else expect(line).toBe(`vmv needs Node.js 20.11 or newer (24 or 26 recommended); this is Node.js v${version}.`);
  });

  it('a real Node.js 18 gets that one line on stderr, nothing on stdout, and exit 1', (ctx) => {
    const node = installedNode(18);
    if (!node) return ctx.skip(notInstalled(18));
    const r = spawnSync(node, [bin, 'contacts', 'list'], { env: childEnv(tempDir()), encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^vmv needs Node\.js 20\.11 or newer \(24 or 26 recommended\); this is Node\.js v18\.\d+\.\d+\.\n$/,
    );
  });
});
