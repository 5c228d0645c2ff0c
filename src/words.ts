// Words the simulator's sentences (the assistant's answers) and the command line's both write,
// defined once. Pure and dependency-free, like formats.ts, so both bundles carry it.

/** A count and its noun: "1 call", "3 calls" (`many` when the plural is not `one` + s: "2 replies"). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
