// Playable call recordings: a short 8 kHz mono 16-bit WAV, its tones derived from the call id so
// every recording is distinct and the same call always yields the same bytes.
import { createHash } from 'node:crypto';

export function recordingWav(callId: string, seconds = 3): Buffer {
  const rate = 8000;
  const samples = rate * seconds;
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  const h = createHash('sha256').update(callId).digest();
  // a few half-second syllables at speech-like pitches, with short gaps
  for (let i = 0; i < samples; i++) {
    const syllable = Math.floor(i / (rate / 2));
    const inSyllable = (i % (rate / 2)) / (rate / 2);
    const freq = 180 + (h[syllable % h.length] % 160);
    const envelope = inSyllable < 0.8 ? Math.sin(Math.PI * (inSyllable / 0.8)) : 0;
    const v =
      envelope * (0.6 * Math.sin((2 * Math.PI * freq * i) / rate) + 0.25 * Math.sin((4 * Math.PI * freq * i) / rate));
    buf.writeInt16LE(Math.round(v * 12000), 44 + i * 2);
  }
  return buf;
}
