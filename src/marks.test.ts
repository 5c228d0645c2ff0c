// What the CLI says of a reply's marks (src/marks.ts): a table of headers and the notes they give,
// each kind once however many replies carry it.
import { describe, expect, it } from 'vitest';
import { CATCHING_UP_HEADER, markNotes, STALE_HEADER, STALE_VALUE, type Mark } from './marks.js';

describe('markNotes: a read behind the clock, told once', () => {
  it.each([
    ['no mark', {}, []],
    ['another header', { server: 'vmv-simulator' }, []],
    ['stale', { [STALE_HEADER]: STALE_VALUE }, [/^Note: the simulator could not save .* its data file, the work runs/]],
    [
      'catching up: the time in the one human form',
      { [CATCHING_UP_HEADER]: '2026-11-28T08:17:37.000Z' },
      [/^Note: the simulator is catching up on its clock: this shows the world as of 2026-11-28 08:17:37 UTC;/],
    ],
    ['catching up, a value not a time: shown as given', { [CATCHING_UP_HEADER]: 'soon' }, [/as of soon;/]],
    [
      'both',
      { [STALE_HEADER]: STALE_VALUE, [CATCHING_UP_HEADER]: '2026-11-28T08:17:37Z' },
      [/could not save/, /catching up/],
    ],
  ] as [string, Record<string, string>, RegExp[]][])('%s', (_, headers, notes) => {
    const got = markNotes(headers, new Set());
    expect(got).toHaveLength(notes.length);
    notes.forEach((re, i) => expect(got[i]).toMatch(re));
  });

  it('says each kind once; names the embedded data file', () => {
    const said = new Set<Mark>();
    expect(markNotes({ [STALE_HEADER]: STALE_VALUE }, said, '/data/sim.json')[0]).toContain(
      'on the disk holding /data/sim.json',
    );
    expect(markNotes({ [STALE_HEADER]: STALE_VALUE }, said)).toEqual([]);
    expect(markNotes({ [CATCHING_UP_HEADER]: '2026-11-28T08:17:37Z' }, said)).toHaveLength(1);
    expect(markNotes({ [STALE_HEADER]: STALE_VALUE, [CATCHING_UP_HEADER]: 'x' }, said)).toEqual([]);
  });
});
