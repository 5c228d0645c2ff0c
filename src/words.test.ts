// Words both the simulator's sentences and the command line write (src/words.ts): a count with its
// noun, singular for exactly one.
import { describe, expect, it } from 'vitest';
import { plural } from './words.js';

describe('plural: the noun as the count needs it', () => {
  it.each([
    [0, 'call', undefined, '0 calls'],
    [1, 'call', undefined, '1 call'],
    [2, 'scheduled post', undefined, '2 scheduled posts'],
    [1, 'reply', 'replies', '1 reply'],
    [3, 'reply', 'replies', '3 replies'],
  ])('%i %s', (n, one, many, text) => expect(plural(n, one, many)).toBe(text));
});
