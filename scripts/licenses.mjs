// The licences of what vmv ships to its users (issue 34): every package whose code the build
// bundles into dist/ (esbuild's metafile, dist/meta.json, names each input) and every package a
// user's install brings (the runtime dependencies' tree) must be under a permissive licence, so vmv
// stays usable under its own (MIT). The licences are read by license-checker-rseidelsohn (a
// maintained reader of installed packages' metadata, SPDX expressions and licence files), judged
// with spdx-satisfies (an expression such as `(MIT OR CC0-1.0)` passes when any choice it allows
// is permissive), and recorded in docs/licenses.md, which test/licenses.test.ts keeps current.
// The build writes dist/THIRD-PARTY-NOTICES.txt: each bundled package's licence text, as its
// licence asks of a copy (writeNotices, plain file reads: the build needs no licence reader).
//
//   node scripts/licenses.mjs          check, and say what differs from docs/licenses.md (exit 1)
//   node scripts/licenses.mjs --write  check, and write docs/licenses.md
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const RECORD = fileURLToPath(new URL('../docs/licenses.md', import.meta.url));

/**
 * Licences that let anyone use, change and ship vmv under MIT without passing obligations on
 * (SPDX ids). Not here, so refused: GPL, AGPL and LGPL of any version, MPL and other copyleft,
 * anything without a licence, and anything the reader could not name (`UNKNOWN`, `Custom: …`).
 */
export const PERMISSIVE = [
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
];
const ALLOWED = `(${PERMISSIVE.join(' OR ')})`;

/** The folders (under node_modules, nested ones included) of every package the build bundled into dist/. */
export function bundledPackageDirs() {
  const meta = JSON.parse(readFileSync(join(root, 'dist/meta.json'), 'utf8'));
  const dirs = new Set();
  for (const input of Object.keys(meta.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) dirs.add(m[1]);
  }
  return [...dirs].sort();
}

/** name@version of the package in that folder. */
function packageId(dir) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  return `${pkg.name}@${pkg.version}`;
}

/**
 * Every package vmv ships (bundled into dist/, or installed beside it as a runtime dependency)
 * with its licence expression, sorted by name@version; vmv itself left out.
 */
export async function shippedLicenses() {
  const checker = require('license-checker-rseidelsohn');
  const read = (production) =>
    new Promise((resolve, reject) =>
      checker.init({ start: root, production, excludePrivatePackages: true }, (err, found) =>
        err ? reject(err) : resolve(found),
      ),
    );
  const [all, runtime] = await Promise.all([read(false), read(true)]);
  const ids = new Set([...bundledPackageDirs().map(packageId), ...Object.keys(runtime)]);
  return [...ids]
    .map((pkg) => {
      const info = all[pkg];
      const license = info?.licenses ?? 'UNKNOWN';
      return { pkg, license: Array.isArray(license) ? `(${license.join(' OR ')})` : String(license) };
    })
    .sort((a, b) => a.pkg.localeCompare(b.pkg));
}

/** dist/THIRD-PARTY-NOTICES.txt: every bundled package, its licence as declared, and its licence file's text. */
export function writeNotices(file) {
  const parts = ['vmv bundles the following packages into dist/. Each is under its own licence, reproduced below.', ''];
  for (const dir of bundledPackageDirs()) {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const text = readdirSync(join(root, dir))
      .filter((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f))
      .map((f) => readFileSync(join(root, dir, f), 'utf8').trim())
      .join('\n\n');
    const license = typeof pkg.license === 'string' ? pkg.license : JSON.stringify(pkg.license ?? pkg.licenses);
    parts.push(
      '-'.repeat(72),
      `${pkg.name}@${pkg.version} (${license})`,
      '',
      text || '(no licence file in the package)',
      '',
    );
  }
  writeFileSync(file, parts.join('\n'));
}

/** True when the expression allows a permissive choice; false for anything unparsable or unknown. */
export function permissive(expression) {
  const satisfies = require('spdx-satisfies');
  try {
    return satisfies(expression.replace(/\*$/, ''), ALLOWED);
  } catch {
    return false;
  }
}

/** docs/licenses.md's text for these packages: a count per licence, then every package. */
export function record(list) {
  const counts = new Map();
  for (const { license } of list) counts.set(license, (counts.get(license) ?? 0) + 1);
  const lines = [
    '# Licences of what vmv ships',
    '',
    'Every package whose code vmv ships: bundled by the build into `dist/` (their licence texts are in',
    '`dist/THIRD-PARTY-NOTICES.txt`), or installed beside it by `npm install vmv` (the runtime',
    'dependencies and theirs), with its licence as its package declares it. Generated by',
    '`node scripts/licenses.mjs --write`; `npm test` fails when this page is not current, or when any',
    'licence is not permissive (scripts/licenses.mjs says which are). vmv itself is MIT (LICENSE).',
    '',
    '| licence | packages |',
    '|-|-|',
    ...[...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l, n]) => `| ${l} | ${n} |`),
    '',
    '| package | licence |',
    '|-|-|',
    ...list.map(({ pkg, license }) => `| ${pkg} | ${license} |`),
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const list = await shippedLicenses();
  const refused = list.filter((p) => !permissive(p.license));
  for (const p of refused) console.error(`not permissive: ${p.pkg} (${p.license})`);
  const text = record(list);
  if (process.argv.includes('--write')) writeFileSync(RECORD, text);
  else if (readFileSync(RECORD, 'utf8') !== text) {
    console.error('docs/licenses.md is not current: run `node scripts/licenses.mjs --write`');
    process.exitCode = 1;
  }
  console.log(`${list.length} packages shipped, ${refused.length} not permissive`);
  if (refused.length) process.exitCode = 1;
}
