// Reading a recording back, apart from the code that writes it: a WAV file's header and samples
// (PCM 8 or 16 bits, or G.711 mu-law), then what a listener measures: loudness (RMS) over a window
// of time and the pitch heard there (autocorrelation). The recording tests assert on these.

export interface Decoded {
  rate: number;
  format: 'pcm' | 'mulaw';
  samples: Float32Array;
  seconds: number;
}

/** A WAV file's samples (-1..1), walking its chunks; throws on anything else. */
export function decodeWav(buf: Buffer): Decoded {
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file');
  let at = 12;
  let fmt = 0;
  let rate = 0;
  let bits = 0;
  let channels = 0;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = buf.subarray(at + 8, at + 8 + size);
    if (id === 'fmt ') {
      fmt = body.readUInt16LE(0);
      channels = body.readUInt16LE(2);
      rate = body.readUInt32LE(4);
      bits = body.readUInt16LE(14);
    }
    if (id === 'data') {
      if (channels !== 1) throw new Error(`${channels} channels`);
      const samples = read(body, fmt, bits);
      return { rate, format: fmt === 7 ? 'mulaw' : 'pcm', samples, seconds: samples.length / rate };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

function read(body: Buffer, fmt: number, bits: number): Float32Array {
  if (fmt === 7 && bits === 8) return Float32Array.from(body, muLawSample);
  if (fmt === 1 && bits === 8) return Float32Array.from(body, (b) => (b - 128) / 128);
  if (fmt === 1 && bits === 16)
    return Float32Array.from({ length: body.length / 2 }, (_, i) => body.readInt16LE(i * 2) / 32768);
  throw new Error(`unsupported WAV format ${fmt}/${bits} bits`);
}

/** G.711 mu-law decoding, as the standard's reference tables do it. */
function muLawSample(byte: number): number {
  const u = ~byte & 0xff;
  const exp = (u >> 4) & 7;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exp) - 0x84;
  return (u & 0x80 ? -magnitude : magnitude) / 32124;
}

/** Root mean square of the samples between two times (seconds). */
export function rms(d: Decoded, from: number, to: number): number {
  const a = Math.max(0, Math.round(from * d.rate));
  const b = Math.min(d.samples.length, Math.round(to * d.rate));
  let sum = 0;
  for (let i = a; i < b; i++) sum += d.samples[i] ** 2;
  return b > a ? Math.sqrt(sum / (b - a)) : 0;
}

/** The pitch (Hz, 60 to 400) heard between two times: the strongest autocorrelation lag over its voiced windows, as a median. */
export function pitch(d: Decoded, from: number, to: number): number {
  const found: number[] = [];
  const win = Math.round(0.04 * d.rate);
  for (let t = from; t + 0.04 <= to; t += 0.05) {
    const a = Math.round(t * d.rate);
    if (rms(d, t, t + 0.04) < 0.02) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = Math.floor(d.rate / 400); lag <= Math.ceil(d.rate / 60); lag++) {
      let c = 0;
      for (let i = 0; i < win; i++) c += d.samples[a + i] * (d.samples[a + i + lag] ?? 0);
      if (c > best) [best, bestLag] = [c, lag];
    }
    if (bestLag) found.push(d.rate / bestLag);
  }
  found.sort((x, y) => x - y);
  return found[Math.floor(found.length / 2)] ?? 0;
}
