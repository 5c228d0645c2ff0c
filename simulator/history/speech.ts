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
  /** Its memory (the last two outputs), to be made again from. */
  get memory(): [number, number] {
    return [this.y1, this.y2];
  }
  set memory([y1, y2]: [number, number]) {
    this.y1 = y1;
    this.y2 = y2;
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

/** A small deterministic noise source (xorshift32), so consonants are the same on every run; its state can be kept and restored. */
class Noise {
  x: number;
  constructor(seed: number) {
    this.x = seed | 0 || 1;
  }
  next(): number {
    let x = this.x;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.x = x;
    return (x >>> 0) / 2 ** 31 - 1;
  }
}

/**
 * `text` said by `voice` into `out` from sample `from` for `length` samples, its syllables spread
 * evenly over that time (repeated from the start when the time is long for the words, as a speaker
 * who goes on talking), with short dips between them; each syllable's vowel peaks at `level` (0..1).
 */
export function say(out: Float32Array, from: number, length: number, text: string, voice: Voice, level = 0.6): void {
  new Speech(text, voice, from, length, out.length, level).render(out, 0, out.length);
}

/**
 * A turn being said, a window of the recording at a time (a recording is made a minute at a time:
 * audio.ts), with the samples those windows hold the same as say() into the whole recording: the
 * syllables are laid out over the whole turn, and one that crosses a window's end is made again,
 * from the vocal tract's state before it, for the next window.
 */
export class Speech {
  private said: Syllable[];
  private count: number;
  private each: number;
  private question: boolean;
  private tract: Tract;
  /** the first syllable not yet wholly written */
  private k = 0;
  /**
   * @param total the recording's length in samples: a syllable past it is cut there (say()'s `out.length`)
   */
  constructor(
    text: string,
    voice: Voice,
    private from: number,
    length: number,
    private total: number,
    private level = 0.6,
  ) {
    this.said = syllables(text);
    const n = this.said.length;
    // a time long for the words: a syllable every 0.25 s, the words said again
    const long = length / n > 0.32 * RATE;
    this.count = n === 0 || length <= 0 ? 0 : Math.round(long ? length / (0.25 * RATE) : n);
    this.each = length / this.count;
    this.question = text.trim().endsWith('?');
    this.tract = new Tract(voice);
  }

  /** Whether every syllable is written. */
  get done(): boolean {
    return this.k >= this.count;
  }

  /**
   * Adds the syllables that sound before sample `end` into `out`, whose first element is sample
   * `base` of the recording; a syllable crossing `end` is written up to it and made again next time.
   */
  render(out: Float32Array, base: number, end: number): void {
    const { count, each, from, said, tract } = this;
    for (; this.k < count; this.k++) {
      const k = this.k;
      const s0 = Math.round(from + k * each);
      if (s0 >= end) return;
      const n = Math.min(Math.round(from + (k + 1) * each), this.total) - s0;
      // the phrase falls from 1.12 to 0.88 of the voice's pitch; a question rises over its last two syllables
      const along = count > 1 ? k / (count - 1) : 0;
      let pitch = tract.voice.f0 * (1.12 - 0.24 * along);
      if (this.question && k >= count - 2) pitch *= 1.25 + 0.15 * (k - count + 2);
      if (n <= 0) continue;
      const crosses = s0 + n > end;
      const kept = crosses ? tract.state() : null;
      tract.syllable(out, base, end, s0, n, said[k % said.length], pitch, this.level);
      if (kept) return tract.restore(kept);
    }
  }
}

/** A voice's vocal tract over a phrase: its resonators, glottal phase and noise carry from one syllable to the next. */
class Tract {
  private rs = [new Resonator(), new Resonator(), new Resonator()];
  private hiss = new Resonator();
  private rand: Noise;
  private phase = 0;
  private last = 0;
  private scratch = new Float32Array(0);
  constructor(readonly voice: Voice) {
    this.hiss.tune(2600 * voice.formants, 900);
    this.rand = new Noise(Math.round(voice.f0 * 1000));
  }

  /** What carries from one syllable to the next, to make a syllable again (Speech.render). */
  state(): number[] {
    return [this.phase, this.last, this.rand.x, ...[...this.rs, this.hiss].flatMap((r) => r.memory)];
  }
  restore([phase, last, x, ...memory]: number[]): void {
    Object.assign(this, { phase, last });
    this.rand.x = x;
    [...this.rs, this.hiss].forEach((r, j) => {
      r.memory = [memory[2 * j], memory[2 * j + 1]];
    });
  }

  /**
   * One syllable at samples [s0, s0 + n) of the recording, added into `out` (whose first element is
   * sample `base`) where it holds them, before `end`: a consonant's noise, then the vowel, attack 12%, release 25%.
   */
  syllable(
    out: Float32Array,
    base: number,
    end: number,
    s0: number,
    n: number,
    syl: Syllable,
    pitch: number,
    level: number,
  ): void {
    const x = this.source(s0, n, syl, pitch);
    const { hiss, rand } = this;
    const lead = syl.onset === 'none' ? 0 : Math.min(Math.round(n * 0.25), 0.06 * RATE);
    let peak = 0;
    for (let i = lead; i < n; i++) peak = Math.max(peak, Math.abs(x[i]));
    const k = peak > 0 ? level / peak : 0;
    const first = Math.max(0, base - s0);
    const stop = Math.min(n, end - s0);
    // the consonant's noise runs over its every sample (its state carries), written only where `out` holds it;
    // a syllable cut at `end` is made again from the state before it (Speech.render)
    for (let i = 0; i < Math.min(lead, stop); i++) {
      // a fricative hisses; a stop is a closure (silence), then a short burst
      if (syl.onset === 'noise') {
        const v = hiss.step(rand.next()) * level * 0.6;
        if (i >= first) out[s0 - base + i] += v;
      } else if (i > lead / 2) {
        const v = rand.next() * level * 0.15;
        if (i >= first) out[s0 - base + i] += v;
      }
    }
    for (let i = Math.max(lead, first); i < stop; i++) {
      const u = i / n;
      const env = Math.min(1, u / 0.12, Math.max(0, (0.97 - u) / 0.25));
      out[s0 - base + i] += x[i] * k * env;
    }
  }

  /** The vowel's source (glottal pulses, as the lips radiate them) through the formants, in the scratch buffer. */
  private source(s0: number, n: number, syl: Syllable, pitch: number): Float32Array {
    const { rs, voice } = this;
    rs.forEach((r, j) => r.tune(syl.vowel[j] * voice.formants, BANDWIDTHS[j]));
    if (this.scratch.length < n) this.scratch = new Float32Array(n);
    const x = this.scratch;
    const lead = syl.onset === 'none' ? 0 : Math.min(Math.round(n * 0.25), 0.06 * RATE);
    const f = (syl.stressed ? 1.06 : 1) * pitch;
    // the pitch wobbling slowly as a voice never holds one
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
    return x;
  }
}
