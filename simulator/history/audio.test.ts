// A recording's layout and encoding as tables: when each turn sounds (heardTurns), the recording's
// length, G.711 mu-law against the standard's values, and a long recording made in slices (the
// `pause` between turns and between minutes of encoding, where the server answers other requests).
import { describe, expect, it } from 'vitest';
import {
  heardTurns,
  MAX_RECORDING_SECONDS,
  muLaw,
  muLawWav,
  recordingSeconds,
  recordingPieces,
  recordingWav,
  voicesOf,
} from './audio.js';
import { RATE, say, syllables } from './speech.js';

const turn = (speaker: 'agent' | 'person', seconds_from_start: number | null, text = 'Hello there.') => ({
  speaker,
  text,
  seconds_from_start,
});

describe('when each turn sounds', () => {
  // biome-ignore format: a table, its columns aligned
  const CASES: [string, number | null, (number | null)[], [number, number][]][] = [
    // what                                   duration  turn starts      heard [from, to]
    ['a pause of a fifth before the next',    10,       [0, 2, 4],       [[0, 1.6], [2, 3.6], [4, 9.2]]],
    ['the pause at least 0.25 s',             4,        [0, 1, 2],       [[0, 0.75], [1, 1.75], [2, 3.6]]],
    ['the pause at most 0.8 s',               60,       [0, 30],         [[0, 29.2], [30, 59.2]]],
    ['turns without a time spread evenly',    30,       [null, null, null], [[0, 9.2], [10, 19.2], [20, 29.2]]],
    ['a turn past the end is not heard',      10,       [0, 12],         [[0, 9.2]]],
    ['no duration: until the last turn + 3 s', null,    [0, 4],          [[0, 3.2], [4, 6.4]]],
  ];
  it.each(CASES)('%s', (_, duration_seconds, starts, heard) => {
    const call = {
      id: 'c',
      duration_seconds,
      transcript_turns: starts.map((t, i) => turn(i % 2 ? 'person' : 'agent', t)),
    };
    expect(heardTurns(call).map((t) => [t.from, Number(t.to.toFixed(2))])).toEqual(heard);
  });

  it('a call without turns (transcription off) is the two voices taking turns every 4 s', () => {
    const h = heardTurns({ id: 'c', duration_seconds: 12, transcript_turns: [] });
    expect(h.map((t) => [t.speaker, t.from])).toEqual([
      ['agent', 0],
      ['person', 4],
      ['agent', 8],
    ]);
  });

  it("the recording lasts the call's duration, at most 2 hours", () => {
    const seconds = (duration_seconds: number) => recordingSeconds({ id: 'c', duration_seconds, transcript_turns: [] });
    expect(seconds(52)).toBe(52);
    expect(seconds(MAX_RECORDING_SECONDS + 600)).toBe(MAX_RECORDING_SECONDS);
  });
});

describe('syllables from the words', () => {
  it.each([
    ['Hello?', 2],
    ['Tuesday at 3 works.', 5],
    ['Could we move it to Thursday afternoon instead?', 13],
    ['...', 0],
  ])('%s: %i', (text, n) => expect(syllables(text)).toHaveLength(n));
});

describe('G.711 mu-law', () => {
  it.each([
    [0, 0xff],
    [1, 0x80],
    [-1, 0x00],
    [0.5, 0x8f],
    [-0.5, 0x0f],
  ])('%f is 0x%s', (x, byte) => expect(muLaw(x)).toBe(byte));
});

describe('a long recording is made in slices', () => {
  it('the pause is awaited after each 10 s made, however long a turn', async () => {
    let pauses = 0;
    const turns = [turn('agent', 0, 'One long monologue that goes on and on.'), turn('person', 290)];
    await recordingWav({ id: 'c', duration_seconds: 300, transcript_turns: turns }, async () => void pauses++);
    expect(pauses).toBe(30);
  });

  // the bytes are those of every turn said into the whole recording at once (as it was made before it was
  // made in pieces): syllables that cross a piece's end, a turn longer than one, turns that overlap
  // (transcript times out of order) and a turn cut at the end
  it.each([
    ['in order', [0, 50.3, 59.99, 61, 130]],
    ['overlapping', [0, 100, 50, 61.37, 119.9]],
    ['one long turn', [0]],
  ])('the same bytes as the whole recording said at once: %s', async (_, starts) => {
    const call = {
      id: 'c',
      duration_seconds: 180,
      transcript_turns: starts.map((t, i) => turn(i % 2 ? 'person' : 'agent', t, 'Could we move it to Thursday?')),
    };
    const whole = new Float32Array(180 * RATE);
    const voices = voicesOf('c');
    for (const t of heardTurns(call)) {
      const from = Math.round(t.from * RATE);
      say(whole, from, Math.round(t.to * RATE) - from, t.text, voices[t.speaker]);
    }
    expect((await recordingWav(call)).equals(muLawWav(whole))).toBe(true);
  });

  // a range (a player's seek, a download resumed) is those bytes of the whole file, wherever it starts and ends
  it.each([
    ['the header alone', 0, 43],
    ['inside the header, into the samples', 10, 90_000],
    ['mid-syllable to mid-syllable', 44 + 50.3 * RATE + 17, 44 + 61.2 * RATE],
    ['inside a long turn', 44 + 70 * RATE + 3, 44 + 95 * RATE],
    ['the last byte', 44 + 180 * RATE - 1, 44 + 180 * RATE - 1],
    ['past the end', 44 + 170 * RATE, 10 ** 9],
  ])("a range, %s: the whole file's bytes", async (_, from, to) => {
    const [first, last] = [Math.round(from), Math.round(to)];
    const call = {
      id: 'c',
      duration_seconds: 180,
      transcript_turns: [0, 50.3, 59.99, 61, 130].map((t, i) =>
        turn(i % 2 ? 'person' : 'agent', t, 'Could we move it to Thursday?'),
      ),
    };
    call.transcript_turns[3].text = 'One long monologue that goes on and on, and on again, about everything at all.';
    const whole = await recordingWav(call);
    const pieces: Buffer[] = [];
    for await (const p of recordingPieces(call, first, last)) pieces.push(p);
    expect(Buffer.concat(pieces).equals(whole.subarray(first, last + 1))).toBe(true);
  });
});
