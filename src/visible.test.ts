// The one rule for text from outside (src/visible.ts): a table of what is shown how, what vmv's own
// sequences keep, and that JSON text stays the same JSON.
import { describe, expect, it } from 'vitest';
import { hasControl, ownSequences, visible, visibleDeep } from './visible.js';

describe('visible: control characters shown as their JSON escapes', () => {
  it.each([
    ['plain text', 'Open on Saturday?', 'Open on Saturday?'],
    ['accents, CJK, emoji and right-to-left letters stay', 'Zoë 好的 👍🏽 שלום مرحبا', 'Zoë 好的 👍🏽 שלום مرحبا'],
    ['line feed and tab stay (the formats handle them)', 'a\nb\tc', 'a\nb\tc'],
    ['a window title (OSC 0 … BEL)', '\u001b]0;pwned\u0007', '\\u001b]0;pwned\\u0007'],
    ['a clipboard write (OSC 52 … ST)', '\u001b]52;c;ZXZpbA==\u001b\\', '\\u001b]52;c;ZXZpbA==\\u001b\\'],
    ['a screen clear and cursor home (CSI)', '\u001b[2J\u001b[H', '\\u001b[2J\\u001b[H'],
    ['a colour (CSI … m) from outside', '\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
    ['carriage return (overwrites a line)', 'ok\rEVIL', 'ok\\u000dEVIL'],
    ['backspace, NUL, bell, form feed, vertical tab', '\b\u0000\u0007\f\v', '\\u0008\\u0000\\u0007\\u000c\\u000b'],
    ['DEL', 'a\u007fb', 'a\\u007fb'],
    [
      'C1 CSI (U+009B) and C1 OSC (U+009D), first and last C1',
      '\u009b2J\u009d0;x\u0080\u009f',
      '\\u009b2J\\u009d0;x\\u0080\\u009f',
    ],
    ['U+00A0 and later Latin-1 stay', '\u00a0é', '\u00a0é'],
    [
      'bidi override and pop (Trojan Source)',
      'admin\u202e\u2066 // x\u2069\u202c',
      'admin\\u202e\\u2066 // x\\u2069\\u202c',
    ],
    [
      'all bidi embeddings and isolates',
      '\u202a\u202b\u202c\u202d\u2066\u2067\u2068',
      '\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068',
    ],
    ['marks that only steer neutrals stay (LRM, RLM)', 'a\u200eb\u200f', 'a\u200eb\u200f'],
  ])('%s', (_, input, shown) => {
    expect(visible(input)).toBe(shown);
    expect(hasControl(shown.replace(/\n|\t/g, ''))).toBe(false);
    expect(visible(shown)).toBe(shown); // shown once is shown for good
  });

  it("keeps vmv's own colours where the stream shows colour and nothing else: a cursor move or a clear is never kept", () => {
    const mixed =
      '\u001b[1mID\u001b[0m \u001b[31mx\u001b[0m \u001b[3A\u001b[0J \r\u001b[2K \u001b[8mhidden\u001b[0m \u001b]0;t\u0007';
    expect(visible(mixed, ownSequences(true))).toBe(
      '\u001b[1mID\u001b[0m \u001b[31mx\u001b[0m \\u001b[3A\\u001b[0J \\u000d\\u001b[2K \\u001b[8mhidden\u001b[0m \\u001b]0;t\\u0007',
    );
    expect(ownSequences(false)).toBeUndefined();
    expect(hasControl(visible(mixed, ownSequences(false)))).toBe(false);
  });

  it('leaves JSON text the same JSON: every string parses back to the exact original', () => {
    const value = {
      body: 'Hi \u001b]0;x\u0007 \u009b2J \u202eevil\u202c \u007f\r\n\t',
      ['k\u009b']: ['\u0000', 1, null],
    };
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2), `${JSON.stringify('\\\u009b')}`]) {
      const shown = visible(text);
      expect(hasControl(shown.replace(/\n/g, ''))).toBe(false);
      expect(JSON.parse(shown)).toEqual(JSON.parse(text));
    }
  });

  it('visibleDeep shows every string of a reply, keys too, and keeps its shape', () => {
    expect(visibleDeep({ data: [{ name: 'E\u001b[2Jve', n: 2, ok: true, x: null }], ['m\u009b']: 'v' })).toEqual({
      data: [{ name: 'E\\u001b[2Jve', n: 2, ok: true, x: null }],
      'm\\u009b': 'v',
    });
  });
});
