// Contact-name matching for quick email: case-insensitive, with small typos tolerated.

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  // the first row and column: the distance from an empty prefix (i + j, as the other is 0)
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) =>
    Array.from({ length: n + 1 }, (_, j) => (i === 0 || j === 0 ? i + j : 0)),
  );
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}

export const normalizeName = (s: string) => s.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');

/** Typos tolerated for a name of this length: none for very short names, one for short, two for long. */
export function tolerance(len: number): number {
  if (len <= 3) return 0;
  return len <= 7 ? 1 : 2;
}

export interface NameCandidate {
  id: string;
  names: (string | null)[];
}

/**
 * The candidates that best match `input`: each candidate scores the smallest distance between the
 * input and any of its names (full, first, last); those within tolerance at the best score win.
 */
export function bestMatches<T extends NameCandidate>(input: string, candidates: readonly T[]): T[] {
  const q = normalizeName(input);
  const tol = tolerance(q.length);
  let best = Infinity;
  let winners: T[] = [];
  for (const c of candidates) {
    const score = Math.min(...c.names.filter((n): n is string => !!n).map((n) => editDistance(q, normalizeName(n))));
    if (score > tol) continue;
    if (score < best) {
      best = score;
      winners = [c];
    } else if (score === best) winners.push(c);
  }
  return winners;
}
