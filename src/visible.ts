// Text from outside (bodies, subjects, names, transcripts, event fields, an API's error messages) is
// shown with its control characters made visible, so a value can never move the cursor, clear the
// screen, set the window title, write the clipboard (OSC 52) or reorder what follows (bidi
// overrides). One rule, one notation: a control character becomes its JSON escape (ESC is \u001b,
// CSI U+009B is \u009b, RIGHT-TO-LEFT OVERRIDE is \u202e), the same text --json shows, so the
// filter every string written to stdout and stderr passes through (src/io.ts) leaves JSON exact.

/**
 * What is made visible: C0 controls but line feed and tab (the line and column structure of what
 * vmv writes; values' own are handled by the formats: src/output.ts), DEL, the C1 controls
 * (U+0080-U+009F, which terminals may read as ESC sequences) and the bidi embeddings, overrides
 * and isolates (U+202A-U+202E, U+2066-U+2069).
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/** One control character as shown: its JSON escape. */
const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Whether `s` holds a character that visible() changes. */
export const hasControl = (s: string): boolean => CONTROL.test(s);

/**
 * `s` with every control character shown as its escape (\u001b), line feeds and tabs kept. `own`
 * (a global pattern) names the sequences vmv writes itself (its colours, a redraw): those are kept
 * whole; everything else is escaped. Applied to JSON text it changes nothing a parser reads (a raw
 * control character can only stand inside a string there, where its escape means the same).
 */
export function visible(s: string, own?: RegExp): string {
  if (!CONTROL.test(s)) return s;
  if (!own) return s.replace(CONTROLS, escape);
  let out = '';
  let last = 0;
  for (const m of s.matchAll(own)) {
    out += s.slice(last, m.index).replace(CONTROLS, escape) + m[0];
    last = m.index + m[0].length;
  }
  return out + s.slice(last).replace(CONTROLS, escape);
}

/** A JSON value with every string in it (keys too) made visible: an API reply as a human view shows it. */
export function visibleDeep<T>(v: T): T {
  if (typeof v === 'string') return visible(v) as T;
  if (Array.isArray(v)) return v.map(visibleDeep) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[visible(k)] = visibleDeep(x);
    return out as T;
  }
  return v;
}

/**
 * The colours vmv writes itself (src/colors.ts): kept on a stream that shows colour, wherever they
 * stand in a string. They can only colour text (bold, dim, red, green, yellow, reset): never move
 * the cursor, clear, hide text or talk to the terminal. vmv's cursor moves and clears are never
 * strings (IO.redraw), so a value from outside cannot rewrite what was shown; values are also made
 * visible where they are put into a line (the chat's, the tables' cells), which escapes a colour too.
 */
const OWN_COLOURS = /\u001b\[(?:0|1|2|31|32|33)m/g;

/** The sequences of its own vmv writes in a string: colours where the stream shows colour. */
export const ownSequences = (color: boolean): RegExp | undefined => (color ? OWN_COLOURS : undefined);
