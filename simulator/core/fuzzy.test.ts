// Contact names in quick email (spec Part 4 Quick email rules 1-2, docs/spec-silent.md, Quick email): a name
// matches the full, first or last name case-insensitively, with typos tolerated (none up to 3
// characters, one up to 7, two beyond); the best-scoring contacts win, and more than one winner is
// the 422 that lists the candidates. A typo is an insertion, a deletion, a substitution or two
// neighbours swapped.
import { describe, expect, it } from 'vitest';
import { bestMatches, editDistance, type NameCandidate, normalizeName, tolerance } from './fuzzy.js';

describe('editDistance: insertions, deletions, substitutions and adjacent swaps', () => {
  it.each([
    ['', '', 0],
    ['a', '', 1],
    ['', 'abc', 3],
    ['same', 'same', 0],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['ab', 'ba', 1],
    ['jonathan', 'jonahtan', 1],
    ['abc', 'acb', 1],
    // optimal string alignment: a swapped pair is not edited again (true Damerau would say 2)
    ['ca', 'abc', 3],
    ['Ana', 'ana', 1],
  ])('%j → %j: %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('tolerance: typos allowed by the length of the name asked for', () => {
  it.each([
    [0, 0],
    [1, 0],
    [3, 0],
    [4, 1],
    [7, 1],
    [8, 2],
    [30, 2],
  ])('%i characters: %i', (len, typos) => expect(tolerance(len)).toBe(typos));
});

describe('normalizeName: letter case, spacing and compatibility forms do not count', () => {
  it.each([
    ['Ana Lopez', 'ana lopez'],
    ['  Ana   LOPEZ ', 'ana lopez'],
    ['Ana\tLopez', 'ana lopez'],
    ['ＡＮＡ', 'ana'],
    ['María', 'maría'],
  ])('%j: %j', (name, normal) => expect(normalizeName(name)).toBe(normal));
});

const contact = (id: string, full: string | null): NameCandidate => ({
  id,
  names: full ? [full, full.split(' ')[0], full.split(' ').slice(1).join(' ')] : [null, null, null],
});
const CONTACTS = [
  contact('ana', 'Ana Lopez'),
  contact('anna', 'Anna Smith'),
  contact('jon', 'Jonathan Byrne'),
  contact('maria', 'María García'),
  contact('jane', 'Jane Smyth'),
  contact('nameless', null),
];

describe('bestMatches: within tolerance, the best score wins, ties are all returned', () => {
  it.each([
    ['Ana', ['ana']], // 3 characters: exact only, so not Anna
    ['ANA', ['ana']],
    ['  ana   lopez ', ['ana']],
    ['Lopez', ['ana']],
    ['Anna', ['anna']], // Ana is one typo away, Anna none: the best wins
    ['Smith', ['anna']], // Smyth is one away
    ['Smth', ['anna', 'jane']], // one from Smith and from Smyth: both (422 with candidates)
    ['Jonathon', ['jon']],
    ['Jonahtan', ['jon']], // two letters swapped: one typo
    ['Jonathan Byrn', ['jon']],
    ['Maria Garcia', ['maria']], // two accents: two typos on 12 characters
    ['Maria', ['maria']],
    ['Jane Smith', ['jane']],
    ['Jon', []], // 3 characters: no typo, and no Jon
    ['Zed', []],
    ['Jnathn Brne', []], // three typos
  ])('%j: %o', (input, ids) => {
    expect(bestMatches(input, CONTACTS).map((c) => c.id)).toEqual(ids);
  });
});
