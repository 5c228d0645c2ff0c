// Call recordings that speak: the call's whole length (duration_seconds) as 8 kHz mono G.711 mu-law
// WAV, each transcript turn heard from its seconds_from_start until just before the next, in the
// agent's voice or the person's (speech.ts), silence between turns. The bytes follow from the call
// record alone (its id picks each voice's exact pitch), so the same seed gives the same recording.
// Why WAV and not the spec's usual audio/mpeg: every MP3 encoder for JavaScript is LAME-derived
// (LGPL) and vmv ships only permissively licensed code; mu-law is what a telephone line carries,
// every browser plays it, and at 8,000 bytes a second a 10-minute call is 4.8 MB.
import { createHash } from 'node:crypto';
import { RATE, say, Speech, type Voice } from './speech.js';

/** What a recording is made from: the call record's fields. */
export interface RecordedCall {
  id: string;
  duration_seconds: number | null;
  transcript_turns: { speaker: 'agent' | 'person'; text: string; seconds_from_start: number | null }[];
}

/** The content type recordings are served with. */
export const RECORDING_TYPE = 'audio/wav';
/** Bytes a second of recording (one mu-law byte a sample), and the WAV header before them. */
export const BYTES_PER_SECOND = RATE;
const HEADER = 44;

/** A turn as heard: who, what, and the seconds it sounds (start inclusive, end exclusive). */
export interface HeardTurn {
  speaker: 'agent' | 'person';
  text: string;
  from: number;
  to: number;
}

/** The longest recording made (2 hours, the longest call the service places): 57.6 MB. */
export const MAX_RECORDING_SECONDS = 7200;

/**
 * The recording's length in seconds: the call's duration, or (a call without one) until 3 s after
 * its last turn starts; at most MAX_RECORDING_SECONDS (a fixture's call may claim any length).
 */
export function recordingSeconds(call: RecordedCall): number {
  if (call.duration_seconds !== null && call.duration_seconds > 0)
    return Math.min(call.duration_seconds, MAX_RECORDING_SECONDS);
  const starts = call.transcript_turns.map((t) => t.seconds_from_start ?? 0);
  return Math.min(MAX_RECORDING_SECONDS, Math.max(3, Math.ceil(Math.max(0, ...starts) + 3)));
}

/**
 * When each turn sounds: from its seconds_from_start until the next turn's start less a pause
 * (a fifth of the time between them, 0.25 to 0.8 s), the last one until the recording ends less
 * the same. Turns without a time are spread evenly over what the timed ones leave; a call without
 * turns (transcription off) is heard as the two voices taking turns every 4 s.
 */
export function heardTurns(call: RecordedCall): HeardTurn[] {
  const total = recordingSeconds(call);
  let turns = call.transcript_turns;
  if (turns.length === 0)
    turns = Array.from({ length: Math.max(1, Math.floor(total / 4)) }, (_, i) => ({
      speaker: i % 2 ? ('person' as const) : ('agent' as const),
      text: 'and so we talked about it for a while',
      seconds_from_start: i * 4,
    }));
  const starts = turns.map((t, i) => t.seconds_from_start ?? (i * total) / turns.length);
  return turns
    .map((t, i) => {
      const from = Math.min(starts[i], total);
      const next = Math.max(from, Math.min(i + 1 < turns.length ? starts[i + 1] : total, total));
      const slot = next - from;
      const pause = slot < 0.4 ? slot * 0.4 : Math.min(0.8, Math.max(0.25, slot / 5));
      return { speaker: t.speaker, text: t.text, from, to: next - pause };
    })
    .filter((t) => t.to > t.from);
}

/** The two voices of a call: the agent's higher and brighter, the person's lower; each pitch nudged by the call's id. */
export function voicesOf(callId: string): Record<'agent' | 'person', Voice> {
  const h = createHash('sha256').update(callId).digest();
  return {
    agent: { f0: 205 + (h[0] % 20), formants: 1.17, jitter: 0.01 },
    person: { f0: 108 + (h[1] % 14), formants: 1, jitter: 0.015 },
  };
}

/** The size of a call's recording file in bytes, known without making it (a HEAD's Content-Length). */
export const recordingBytes = (call: RecordedCall) => HEADER + Math.round(recordingSeconds(call) * RATE);

/** How much of a recording is made at a time: 10 s (80 kB sent; a few ms of one core, the first, code not yet optimised, more). */
const WINDOW = 10 * RATE;

/**
 * The bytes `first` to `last` (inclusive; default the whole file) of a call's recording, a WAV file
 * of `recordingSeconds` seconds (at most 2 hours, 57.6 MB), made 10 s at a time as they are asked
 * for: each piece's samples (a 320 kB scratch) are the turns that sound in it, added in transcript
 * order (turns that overlap add as they always have), then encoded. Only the turns still sounding
 * are held, so a slow reader costs a piece or two, never the file. A range that starts late skips
 * the turns over by then and makes a turn it starts inside from that turn's beginning (its voice
 * carries from syllable to syllable), unwritten: the bytes are the whole file's, whatever the range.
 * `pause`, when given, is awaited after each piece, so a fast reader never holds the process.
 */
export async function* recordingPieces(
  call: RecordedCall,
  first = 0,
  last = Number.POSITIVE_INFINITY,
  pause?: () => Promise<void>,
): AsyncGenerator<Buffer> {
  const total = Math.round(recordingSeconds(call) * RATE);
  const stop = Math.min(last + 1, HEADER + total) - HEADER;
  if (first < HEADER) yield wavHeader(total).subarray(first, Math.min(HEADER, stop + HEADER));
  const from = Math.max(0, first - HEADER);
  if (from >= stop) return;
  const voices = voicesOf(call.id);
  // the turns by their start (each begins sounding in its window); those over before `from` are never made
  const turns = heardTurns(call)
    .map((t, i) => ({ ...t, i, from: Math.round(t.from * RATE), to: Math.round(t.to * RATE) }))
    .filter((t) => t.from < total && t.to > from)
    .sort((a, b) => a.from - b.from || a.i - b.i);
  let next = 0;
  // (added into a piece in transcript order, as the whole file always was: the same sums, the same bytes)
  let sounding: { i: number; speech: Speech }[] = [];
  const window = new Float32Array(Math.min(WINDOW, stop - from));
  for (let at = from; at < stop; at += WINDOW) {
    const end = Math.min(stop, at + WINDOW);
    const before = next;
    for (; next < turns.length && turns[next].from < end; next++) {
      const t = turns[next];
      sounding.push({ i: t.i, speech: new Speech(t.text, voices[t.speaker], t.from, t.to - t.from, total) });
    }
    if (next > before) sounding.sort((a, b) => a.i - b.i);
    const samples = window.subarray(0, end - at);
    samples.fill(0);
    for (const s of sounding) s.speech.render(samples, at, end);
    sounding = sounding.filter((s) => !s.speech.done);
    const piece = Buffer.allocUnsafe(end - at);
    encode(samples, piece, 0, end - at);
    yield piece;
    await pause?.();
  }
}

/** A whole recording in memory (tests and tools; the API sends recordingPieces as they are read). */
export async function recordingWav(call: RecordedCall, pause?: () => Promise<void>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of recordingPieces(call, 0, Number.POSITIVE_INFINITY, pause)) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** A short sample of a voice (a number's voice preview): a greeting in a voice drawn from its name. */
export function voiceSampleWav(voiceId: string): Buffer {
  const h = createHash('sha256').update(voiceId).digest();
  const samples = new Float32Array(2 * RATE);
  say(samples, Math.round(0.1 * RATE), Math.round(1.7 * RATE), 'Hello, thank you for calling. How can I help?', {
    f0: 100 + (h[0] % 130),
    formants: 1 + (h[1] % 20) / 100,
    jitter: 0.01,
  });
  return muLawWav(samples);
}

/** Samples (-1..1) as a mono 8 kHz WAV of G.711 mu-law (format 7, 8 bits a sample). */
export function muLawWav(samples: Float32Array): Buffer {
  const body = Buffer.allocUnsafe(samples.length);
  encode(samples, body, 0, samples.length);
  return Buffer.concat([wavHeader(samples.length), body]);
}

/** The 44-byte header of a WAV file of `count` mu-law samples. */
function wavHeader(count: number): Buffer {
  const buf = Buffer.alloc(HEADER);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(HEADER - 8 + count, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(7, 20); // WAVE_FORMAT_MULAW
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(RATE, 24);
  buf.writeUInt32LE(RATE, 28);
  buf.writeUInt16LE(1, 32);
  buf.writeUInt16LE(8, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(count, 40);
  return buf;
}

/** The first `count` samples as mu-law bytes into `out` from its byte `at`. */
function encode(samples: Float32Array, out: Buffer, at: number, count: number): void {
  for (let i = 0; i < count; i++) out[at + i] = muLaw(samples[i]);
}

/** G.711 mu-law: a sample (-1..1) as one byte, through a table of every 14-bit magnitude. */
export const muLaw = (x: number) => MU_LAW[Math.round(Math.max(-1, Math.min(1, x)) * 8191) + 8191];

const MU_LAW = Uint8Array.from({ length: 16383 }, (_, i) => {
  // ITU-T G.711's segment encoding of a 16-bit sample (its 14 significant bits)
  let v = (i - 8191) * 4;
  const sign = v < 0 ? 0x80 : 0;
  v = Math.min(Math.abs(v), 32635) + 0x84;
  let exp = 7;
  for (let mask = 0x4000; (v & mask) === 0 && exp > 0; mask >>= 1) exp--;
  return ~(sign | (exp << 4) | ((v >> (exp + 3)) & 0x0f)) & 0xff;
});
