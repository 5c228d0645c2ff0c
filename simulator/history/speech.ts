// A speech-like voice from written words, with nothing downloaded and no dependency: one
// syllable-like burst per syllable estimated from the words (vowel groups), each a glottal pulse
// train at the voice's pitch (falling over the phrase, rising at the end of a question) shaped by
// three formant resonators tuned to the syllable's vowel, consonants heard as short noise. Not
// intelligible, but a recording's turns are heard where the transcript says, and two voices differ
// in pitch and timbre as an agent's and a person's do. Pure and deterministic: same input, same samples.

/** Samples per second of everything this module makes: the telephone network's rate. */
export const RATE = 8000;

/** A voice: its pitch (Hz), its formants' scale (a shorter vocal tract has higher formants), a small per-voice wobble. */
export interface Voice {
  f0: number;
  formants: number;
  jitter: number;
}

/** One syllable as said: its vowel's formants (Hz, before the voice's scale), whether a consonant leads it, its stress. */
interface Syllable {
  vowel: readonly [number, number, number];
  onset: 'none' | 'noise' | 'stop';
  stressed: boolean;
}

// Peterson and Barney's adult formants, by the written vowel that opens a vowel group
const VOWELS: Record<string, readonly [number, number, number]> = {
  a: [730, 1090, 2440],
  e: [530, 1840, 2480],
  i: [270, 2290, 3010],
  o: [570, 840, 2410],
  u: [300, 870, 2240],
  y: [390, 1990, 2550],
};
const SCHWA = [500, 1500, 2500] as const;
const BANDWIDTHS = [60, 90, 150];

/** The syllables of a text: one per vowel group of each word, a word without letters (a number) one of schwa. */
export function syllables(text: string): Syllable[] {
  const out: Syllable[] = [];
  for (const word of text.toLowerCase().split(/\s+/)) {
    const groups = [...word.matchAll(/([^aeiouy\W\d_]*)([aeiouy]+)/g)];
    if (groups.length === 0) {
      if (/[\p{L}\p{N}]/u.test(word)) out.push({ vowel: SCHWA, onset: 'stop', stressed: true });
      continue;
    }
    groups.forEach(([, lead, v], k) => {
      let onset: Syllable['onset'] = 'none';
      if (/[sfhzcxjv]/.test(lead)) onset = 'noise';
      else if (/[ptkbdgq]/.test(lead)) onset = 'stop';
      out.push({ vowel: VOWELS[v[0]] ?? SCHWA, onset, stressed: k === 0 });
    });
  }
  return out;
}

/** A two-pole resonator (Klatt's), unity gain at 0 Hz: a formant at `f` Hz with bandwidth `bw` Hz. */
class Resonator {
  private y1 = 0;
  private y2 = 0;
  private a = 0;
  private b = 0;
  private c = 0;
  tune(f: number, bw: number): void {
    const r = Math.exp((-Math.PI * bw) / RATE);
    this.c = -r * r;
    this.b = 2 * r * Math.cos((2 * Math.PI * Math.min(f, RATE / 2 - 200)) / RATE);
    this.a = 1 - this.b - this.c;
  }
  step(x: number): number {
    const y = this.a * x + this.b * this.y1 + this.c * this.y2;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
  /** Filters x[from, to) in place (the tight loop of a vowel). */
  run(x: Float32Array, from: number, to: number): void {
    const { a, b, c } = this;
    let { y1, y2 } = this;
    for (let i = from; i < to; i++) {
      const y = a * x[i] + b * y1 + c * y2;
      y2 = y1;
      y1 = y;
      x[i] = y;
    }
    this.y1 = y1;
    this.y2 = y2;
  }
}

/** Rosenberg's glottal pulse over one period (open, closing, then closed), as a table of 256 steps. */
const PULSE = Float32Array.from({ length: 256 }, (_, i) => {
  const p = i / 256;
  if (p < 0.4) return 0.5 * (1 - Math.cos((Math.PI * p) / 0.4));
  if (p < 0.56) return Math.cos((Math.PI * (p - 0.4)) / 0.32);
  return 0;
});

/** A small deterministic noise source (xorshift32), so consonants are the same on every run. */
function noise(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 31 - 1;
  };
}

/**
 * `text` said by `voice` into `out` from sample `from` for `length` samples, its syllables spread
 * evenly over that time (repeated from the start when the time is long for the words, as a speaker
 * who goes on talking), with short dips between them; each syllable's vowel peaks at `level` (0..1).
 * `origin`: the sample `out[0]` stands for, so a long recording is made a stretch at a time (the
 * voice's wobble follows the sample's place in the whole, so the stretch sounds as it would in place).
 */
export function say(
  out: Float32Array,
  from: number,
  length: number,
  text: string,
  voice: Voice,
  level = 0.6,
  origin = 0,
): void {
  const said = syllables(text);
  if (said.length === 0 || length <= 0) return;
  const count = length / said.length > 0.32 * RATE ? Math.round(length / (0.25 * RATE)) : said.length;
  const each = length / count;
  const question = text.trim().endsWith('?');
  const tract = new Tract(voice);
  for (let k = 0; k < count; k++) {
    const s0 = Math.round(from + k * each);
    const n = Math.min(Math.round(from + (k + 1) * each), origin + out.length) - s0;
    // the phrase falls from 1.12 to 0.88 of the voice's pitch; a question rises over its last two syllables
    const along = count > 1 ? k / (count - 1) : 0;
    let pitch = voice.f0 * (1.12 - 0.24 * along);
    if (question && k >= count - 2) pitch *= 1.25 + 0.15 * (k - count + 2);
    if (n > 0) tract.syllable(out, s0, n, said[k % said.length], pitch, level, origin);
  }
}

/** A voice's vocal tract over a phrase: its resonators, glottal phase and noise carry from one syllable to the next. */
class Tract {
  private rs = [new Resonator(), new Resonator(), new Resonator()];
  private hiss = new Resonator();
  private rand: () => number;
  private phase = 0;
  private last = 0;
  private scratch = new Float32Array(0);
  constructor(private voice: Voice) {
    this.hiss.tune(2600 * voice.formants, 900);
    this.rand = noise(Math.round(voice.f0 * 1000));
  }

  /** One syllable into out[s0 - origin, s0 - origin + n): a consonant's noise, then the vowel, attack 12%, release 25%. */
  syllable(
    out: Float32Array,
    s0: number,
    n: number,
    syl: Syllable,
    pitch: number,
    level: number,
    origin: number,
  ): void {
    const { rs, hiss, rand, voice } = this;
    rs.forEach((r, j) => r.tune(syl.vowel[j] * voice.formants, BANDWIDTHS[j]));
    if (this.scratch.length < n) this.scratch = new Float32Array(n);
    const x = this.scratch;
    const lead = syl.onset === 'none' ? 0 : Math.min(Math.round(n * 0.25), 0.06 * RATE);
    const f = (syl.stressed ? 1.06 : 1) * pitch;
    // the source: glottal pulses (their slope, as the lips radiate it), the pitch wobbling slowly as a voice never holds one
    let { phase, last } = this;
    for (let i = lead; i < n; i += 64) {
      const step = (f * (1 + voice.jitter * Math.sin(((s0 + i) >> 6) * 0.25))) / RATE;
      for (let j = i; j < Math.min(n, i + 64); j++) {
        phase += step;
        if (phase >= 1) phase -= 1;
        const g = PULSE[(phase * 256) | 0];
        x[j] = g - last;
        last = g;
      }
    }
    Object.assign(this, { phase, last });
    for (const r of rs) r.run(x, lead, n);
    let peak = 0;
    for (let i = lead; i < n; i++) peak = Math.max(peak, Math.abs(x[i]));
    const k = peak > 0 ? level / peak : 0;
    const at = s0 - origin;
    for (let i = 0; i < n; i++) {
      const u = i / n;
      const env = Math.min(1, u / 0.12, Math.max(0, (0.97 - u) / 0.25));
      if (i >= lead) out[at + i] += x[i] * k * env;
      // a fricative hisses; a stop is a closure (silence), then a short burst
      else if (syl.onset === 'noise') out[at + i] += hiss.step(rand()) * level * 0.6;
      else if (i > lead / 2) out[at + i] += rand() * level * 0.15;
    }
  }
}
