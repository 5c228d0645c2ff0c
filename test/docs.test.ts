// The documentation holds together: the CLI reference (docs/cli.md) is what the commands' own
// definitions say, every relative link in README.md and docs/*.md reaches a file, and a link with
// a #fragment reaches a heading of that page by GitHub's anchor rules.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliReference } from '../scripts/cli-reference.js';

const root = new URL('..', import.meta.url).pathname;
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside code: fenced blocks and inline code spans blanked (a link there is an example, not a link). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '``');
}

/**
 * A heading's anchor as GitHub makes it (github-slugger): the heading's text (a link's text for a
 * link), lower case, every character but letters, digits, `_`, `-` and spaces removed, each space a
 * `-`; a repeated anchor gets `-1`, `-2`, ...
 */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

/** Every relative link of a page: [text](target) and ![alt](target), outside code. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map((m) => m[1])
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** What is wrong with a link from `page`, or undefined when it resolves. */
function broken(page: string, target: string): string | undefined {
  const [path, fragment] = target.split('#') as [string, string | undefined];
  const file = path ? join(root, dirname(page), decodeURIComponent(path)) : join(root, page);
  if (!existsSync(file)) return `${page}: ${target}: no such file`;
  if (fragment === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${page}: ${target}: an anchor in a non-page`;
  if (!anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment)))
    return `${page}: ${target}: no heading #${fragment} in ${relative(root, file)}`;
  return undefined;
}

describe('links', () => {
  it("GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered", () => {
    const page = [
      '# vmv',
      '## Raw requests: `vmv api`',
      "## Numbers' costs: lines and plan rates",
      '### Control plane (`/_sim`)',
      '## The inspector: a live page of the simulated world',
      '## Results, ids, errors and the protocol',
      '## [Personas](personas.md): the person behind any number',
      '## Toolsets',
      '## Toolsets',
      '```sh',
      '# not a heading',
      '```',
    ].join('\n');
    expect([...anchors(page)]).toEqual([
      'vmv',
      'raw-requests-vmv-api',
      'numbers-costs-lines-and-plan-rates',
      'control-plane-_sim',
      'the-inspector-a-live-page-of-the-simulated-world',
      'results-ids-errors-and-the-protocol',
      'personas-the-person-behind-any-number',
      'toolsets',
      'toolsets-1',
    ]);
  });

  it('the README is a front door of at most 300 lines, and links every guide in docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const linked = new Set(links(readme).map((t) => t.split('#')[0]));
    for (const page of pages.filter((p) => p !== 'README.md')) expect(linked, page).toContain(page);
  });

  it.each(pages)('every relative link of %s reaches a file, and its #fragment a heading', (page) => {
    const found = links(readFileSync(join(root, page), 'utf8'));
    expect(found.map((t) => broken(page, t)).filter(Boolean)).toEqual([]);
  });
});

describe('examples', () => {
  it.each(pages)('every JSON block of %s parses (a client configuration is pasted as it is)', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    for (const [, json] of text.matchAll(/^```json\n([\s\S]*?)^```/gm))
      expect(() => JSON.parse(json), `${page}:\n${json}`).not.toThrow();
  });
});

describe('the CLI reference', () => {
  it('docs/cli.md is what the commands say: every command, flag and example (`npm run docs:cli` writes it)', async () => {
    const written = readFileSync(join(root, 'docs/cli.md'), 'utf8');
    const now = await cliReference();
    // a difference names its first line, not the whole 3,000-line page
    const a = written.split('\n');
    const b = now.split('\n');
    const at = b.findIndex((line, i) => line !== a[i]);
    expect(
      at < 0 && a.length === b.length
        ? 'current'
        : `line ${at + 1}: ${JSON.stringify(a[at])} -> ${JSON.stringify(b[at])}`,
      'docs/cli.md is not current: run `npm run docs:cli`',
    ).toBe('current');
  });

  it('it has every command of the tree, each with its examples and flags', async () => {
    const written = readFileSync(join(root, 'docs/cli.md'), 'utf8');
    const sections = written.split(/^#{2,4} (?=vmv )/m).slice(1);
    const leaves = sections.filter((s) => !/^Commands:$/m.test(s) && !s.startsWith('vmv\n'));
    expect(leaves.length).toBeGreaterThan(80);
    for (const s of leaves) {
      const name = s.split('\n')[0];
      expect(s, name).toMatch(/^Examples:\n {2}\S/m);
      expect(s, name).toContain('--help');
    }
    for (const flag of ['--goal <text>', '--advance', '--wide', '--toolsets', '--allow-host', '--print-env'])
      expect(written).toContain(flag);
  });
});
