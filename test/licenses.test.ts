// vmv's licence and its dependencies' (issue 34): LICENSE and package.json say MIT, and every
// package a user's `npm install vmv` brings is under a permissive licence, as docs/licenses.md
// records (scripts/licenses.mjs reads them with license-checker-rseidelsohn).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, without types
import { permissive, record, runtimeLicenses } from '../scripts/licenses.mjs';

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

  it('every runtime dependency is permissive, and docs/licenses.md lists each as installed now', async () => {
    const list: { pkg: string; license: string }[] = await runtimeLicenses();
    expect(list.length).toBeGreaterThan(100); // the reader found the installed tree (not an empty one)
    expect(list.map((p) => p.pkg)).toContain(
      `commander@${JSON.parse(readFileSync(new URL('node_modules/commander/package.json', root), 'utf8')).version}`,
    );
    expect(list.filter((p) => !permissive(p.license))).toEqual([]);
    expect(readFileSync(new URL('docs/licenses.md', root), 'utf8'), 'run `node scripts/licenses.mjs --write`').toBe(
      record(list),
    );
  });
});
