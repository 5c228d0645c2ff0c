// The simulator's only source of randomness: a seeded sfc32 generator whose state lives in the
// store, so a sequence continues across processes and every run on a manual clock repeats.
import { createHash } from 'node:crypto';

export type RngState = [number, number, number, number];

export function seedRng(seed: number): RngState {
  // splitmix32 expands the seed into four well-mixed words
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return [next(), next(), next(), next()];
}

export class Rng {
  constructor(
    private readonly state: RngState,
    private readonly onUse: () => void = () => {},
  ) {}

  /** Next 32-bit unsigned integer (sfc32). */
  u32(): number {
    this.onUse();
    const s = this.state;
    const t = (((s[0] + s[1]) >>> 0) + s[3]) >>> 0;
    s[3] = (s[3] + 1) >>> 0;
    s[0] = s[1] ^ (s[1] >>> 9);
    s[1] = (s[2] + (s[2] << 3)) >>> 0;
    s[2] = ((s[2] << 21) | (s[2] >>> 11)) >>> 0;
    s[2] = (s[2] + t) >>> 0;
    return t;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.u32() / 0x100000000;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Index drawn with probability proportional to its weight; -1 when every weight is 0. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    if (total <= 0) return -1;
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0 && weights[i] > 0) return i;
    }
    return weights.findLastIndex((w) => w > 0);
  }

  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) out += this.u32().toString(16).padStart(8, '0');
    return out.slice(0, bytes * 2);
  }

  /** A version-4-shaped UUID from the seeded stream. */
  uuid(): string {
    return uuidShape(this.hex(16));
  }

  /**
   * A version-4-shaped UUID from 6 bytes of the stream, spread by a hash: the draws of an id that
   * used to be shorter (`kb_` and 12 hex digits), so that every id seeded after it stays the same.
   */
  shortUuid(): string {
    return uuidOf(this.hex(6));
  }
}

/** The UUID an old short id (`kb_0a1b…`) becomes: the same one every time, so references to it follow. */
export const uuidOf = (text: string) => uuidShape(createHash('sha256').update(text).digest('hex'));

function uuidShape(hex: string): string {
  const h = hex.slice(0, 32).split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16], 16) & 3];
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
