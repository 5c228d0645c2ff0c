// vmv's licence and its dependencies' (issue 34): LICENSE and package.json say MIT, and every
// package a user's `npm install vmv` brings is under a permissive licence, as docs/licenses.md
// records (scripts/licenses.mjs reads them with license-checker-rseidelsohn).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, without types
import { bundledPackageDirs, permissive, record, shippedLicenses } from '../scripts/licenses.mjs';

const root = new URL('..', import.meta.url);

describe('licences', () => {
  it('vmv is MIT: a LICENSE file and the package field', () => {
    expect(JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).license).toBe('MIT');
    expect(readFileSync(new URL('LICENSE', root), 'utf8')).toMatch(/^MIT License\n\nCopyright/);
  });

  it.each([
    ['MIT', true],
    ['ISC', true],
    ['Apache-2.0', true],
    ['BlueOak-1.0.0', true],
    ['(MIT OR CC0-1.0)', true],
    ['(MIT OR GPL-3.0-only)', true], // a choice: vmv takes MIT
    ['GPL-3.0-only', false],
    ['GPL-2.0+', false],
    ['AGPL-3.0-or-later', false],
    ['LGPL-2.1-only', false],
    ['MPL-2.0', false],
    ['(MIT AND GPL-3.0-only)', false], // both apply
    ['UNKNOWN', false],
    ['Custom: LICENSE.txt', false],
    ['', false],
  ])('%j is permissive: %s', (expression, expected) => {
    expect(permissive(expression)).toBe(expected);
  });

  it('every package vmv ships (bundled or installed) is permissive, and docs/licenses.md lists each as it is now', async () => {
    const list: { pkg: string; license: string }[] = await shippedLicenses();
    expect(list.length).toBeGreaterThan(50); // the reader found the bundle's inputs (not an empty list)
    const version = (name: string) =>
      JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, root), 'utf8')).version;
    for (const name of ['commander', 'ink', 'zod', 'lowdb'])
      expect(list.map((p) => p.pkg)).toContain(`${name}@${version(name)}`);
    expect(list.filter((p) => !permissive(p.license))).toEqual([]);
    expect(readFileSync(new URL('docs/licenses.md', root), 'utf8'), 'run `node scripts/licenses.mjs --write`').toBe(
      record(list),
    );
  });

  it("dist/THIRD-PARTY-NOTICES.txt carries each bundled package's licence text", () => {
    const notices = readFileSync(new URL('dist/THIRD-PARTY-NOTICES.txt', root), 'utf8');
    const dirs: string[] = bundledPackageDirs();
    expect(dirs.length).toBeGreaterThan(50);
    for (const dir of dirs) {
      const pkg = JSON.parse(readFileSync(new URL(`${dir}/package.json`, root), 'utf8'));
      expect(notices, dir).toContain(`${pkg.name}@${pkg.version} (`);
    }
    expect(notices).toContain('Permission is hereby granted, free of charge'); // the MIT text itself, not just names
  });
});
