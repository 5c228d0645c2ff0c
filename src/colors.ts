// ANSI colour for text a command prints: on a terminal only, never with NO_COLOR (io.color says
// which). Apart from src/output.ts (tables) so that what every command loads, main's error lines
// and --help, does not load the tables' width data (get-east-asian-width: ~1 ms at start).
import type { IO } from './io.js';

const ansi = (code: string) => (io: IO, s: string) => (io.color ? `\u001b[${code}m${s}\u001b[0m` : s);
export const bold = ansi('1');
export const dim = ansi('2');
export const red = ansi('31');
export const green = ansi('32');
export const yellow = ansi('33');
